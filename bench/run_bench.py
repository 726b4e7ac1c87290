#!/usr/bin/env python3
"""warp-tidy benchmark: cost on top of the parse, and how it scales.

For each .cu file of a corpus, runs `clang++-22 -fsyntax-only` with the
identical compile command (taken from `warp-tidy --print-commands`) and
warp-tidy with all warp-* checks two ways: cold (no result cache, no
precompiled prologue: --no-cache --no-pch) and with the shared precompiled
prologue already built (--no-cache, a PCH directory warmed by one unmeasured
run). The three alternate, several times each; reported per file and overall:
median wall time, ratios to the parse, peak memory (max RSS of the process
tree) of each.

Then a whole-project run of the same N units (those sharing the most common
flags): the plain parse of all N one after the other and two at a time,
against `warp-tidy -j 1` and `-j 2` over the N files, cold, with the PCH
built, and from an empty PCH directory (the first run of a project, which
builds it). "PCH built" is the cache directory of a project analysed again
and again: two unmeasured runs warm it, the first recording each unit's
time, the second building the PCHs of whole leading blocks that a unit seen
before gets (tool/LeadingIncludes.h, pchLinesForRun). Then a scaling
series: generated translation units with N kernels (plus helpers, loops and
branches) for N in --sizes, reporting time per kernel.

The machine and its load (`uptime` before and after) are printed with the
figures. This is a measurement, not a test: it asserts nothing and never
fails on a slow machine. Usage:
    bench/run_bench.py                       # examples/ + runtime-validation cases
    bench/run_bench.py DIR_OR_FILE ...       # any corpus on disk
    bench/run_bench.py -p build/             # every CUDA unit of a compilation database
    bench/run_bench.py --realcode /work/corpus --project ggml-cuda --limit 8
                                             # real units of bench/realcode's corpus
                                             # (outside git; /work/corpus/README.md
                                             # says how it was assembled)
"""
import argparse
import concurrent.futures
import json
import platform
import shutil
import os
import resource
import statistics
import subprocess
import sys
import re
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_measured(cmd):
    """Runs cmd, returns (wall seconds, peak RSS in MiB, exit status)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


def compile_command(tool, path, db, flags):
    args = [tool, "--exit-zero", "--quiet", "--print-commands", "--checks=-*"]
    if db:
        args += ["-p", db]
    args.append(path)
    if flags:
        args += ["--", *flags]
    out = subprocess.run(args, capture_output=True, text=True)
    prefix = "warp-tidy: command for "
    for line in out.stderr.splitlines():
        if line.startswith(prefix):
            words = line[len(prefix):].split(": ", 1)[1].split()
            return words
    raise RuntimeError(f"no compile command for {path}: {out.stderr.strip()}")


def tidy_command(tool, paths, db, flags, pch_dir=None, jobs=None):
    """warp-tidy with all warp-* checks and no result cache; with the
    precompiled prologue in pch_dir, or without any (--no-pch)."""
    cmd = [tool, "--exit-zero", "--quiet", "--no-cache", "--checks=-*,warp-*"]
    cmd += ["--cache-dir=" + pch_dir] if pch_dir else ["--no-pch"]
    if jobs:
        cmd.append(f"-j{jobs}")
    if db:
        cmd += ["-p", db]
    cmd += list(paths)
    if flags:
        cmd += ["--", *flags]
    return cmd


def measure_file(tool, path, db, runs, flags=(), pch_dir=None):
    words = compile_command(tool, path, db, flags)
    # The same driver arguments, run by the real compiler in syntax-only mode.
    parse = ["clang++-22", "-fsyntax-only"] + words[1:]
    # --no-cache: the result cache would turn every run after the first into a
    # lookup; this measures the analysis.
    cold = tidy_command(tool, [path], db, flags)
    warm = tidy_command(tool, [path], db, flags, pch_dir) if pch_dir else None
    if warm:
        run_measured(warm)  # Builds the PCH (if this unit's flags need a new one).
    t = {"parse": [], "cold": [], "pch": []}
    m = {"parse": [], "cold": [], "pch": []}
    status = None
    for _ in range(runs):
        for name, cmd in (("parse", parse), ("cold", cold), ("pch", warm)):
            if not cmd:
                continue
            w, mem, st = run_measured(cmd)
            t[name].append(w)
            m[name].append(mem)
            if name == "cold":
                status = st
    solver = solver_stats(cold)
    row = {
        "file": path,
        "solver": solver,
        "parse_s": statistics.median(t["parse"]),
        "tidy_s": statistics.median(t["cold"]),
        "parse_mib": max(m["parse"]),
        "tidy_mib": max(m["cold"]),
        "tidy_status": status,
    }
    if warm:
        row["pch_s"] = statistics.median(t["pch"])
        row["pch_mib"] = max(m["pch"])
    return row


def timed(cmds, parallel):
    """Wall time of running cmds, `parallel` at a time."""
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=parallel) as pool:
        list(pool.map(lambda c: subprocess.run(c, stdout=subprocess.DEVNULL,
                                               stderr=subprocess.DEVNULL), cmds))
    return time.perf_counter() - start


def project_run(tool, paths, db, flags, runs, tmp):
    """A whole-project run over `paths` against the plain parse of the same units."""
    parses = [["clang++-22", "-fsyntax-only"] + compile_command(tool, p, db, flags)[1:]
              for p in paths]
    warm_dir = os.path.join(tmp, "project-pch")
    for _ in range(2):
        run_measured(tidy_command(tool, paths, db, flags, warm_dir, 2))
    rows = {}
    def add(name, seconds):
        rows.setdefault(name, []).append(seconds)
    for _ in range(runs):
        add("parse -j1", timed(parses, 1))
        add("parse -j2", timed(parses, 2))
        for j in (1, 2):
            add(f"warp-tidy cold -j{j}", run_measured(tidy_command(tool, paths, db, flags, None, j))[0])
            add(f"warp-tidy pch -j{j}", run_measured(tidy_command(tool, paths, db, flags, warm_dir, j))[0])
            first = os.path.join(tmp, "project-first")
            shutil.rmtree(first, ignore_errors=True)
            add(f"warp-tidy pch-first -j{j}",
                run_measured(tidy_command(tool, paths, db, flags, first, j))[0])
    return {k: statistics.median(v) for k, v in rows.items()}


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{platform.node()}: {os.cpu_count()} cores, {model}"


def load():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


SOLVER_LINE = re.compile(
    r"warp-tidy solver: (\d+) questions \((\d+) cached, (\d+) disproved by sampling, "
    r"(\d+) answered by an earlier unit or pass\), "
    r"(\d+) solver queries \((\d+) proved uniform, (\d+) varying, (\d+) unknown/limit\), "
    r"([0-9.]+) ms in the solver")
SOLVER_FIELDS = ("questions", "cached", "sampled", "shared", "queries", "proved", "varying", "unknown", "ms")


def solver_stats(tidy):
    """One extra (unmeasured) run that reports the uniformity prover's work."""
    env = dict(os.environ, WARP_TIDY_SOLVER_STATS="1")
    out = subprocess.run(tidy, capture_output=True, text=True, env=env)
    total = dict.fromkeys(SOLVER_FIELDS, 0)
    for m in SOLVER_LINE.finditer(out.stderr):
        for key, value in zip(SOLVER_FIELDS, m.groups()):
            total[key] += float(value) if key == "ms" else int(value)
    return total


def collect(inputs, db):
    files = []
    if db and not inputs:
        entries = json.load(open(os.path.join(db, "compile_commands.json")))
        files = sorted({os.path.join(e["directory"], e["file"]) for e in entries
                        if e["file"].endswith(".cu")})
        return files
    for item in inputs:
        if os.path.isdir(item):
            for dirpath, dirnames, names in os.walk(item):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                files += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith(".cu")]
        else:
            files.append(item)
    return files


KERNEL_TEMPLATE = """
__device__ float helper{i}(float v) {{
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}}
__global__ void kernel{i}(const float *in, float *out, int n) {{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = gid < n ? in[gid] : 0.0f;
  if (v > {i}.0f)
    v *= 2.0f;
  for (int k = 0; k < 4; ++k)
    v += in[(gid + k) % n];
  v = helper{i}(v);
  unsigned any = __ballot_sync(0xffffffffu, v > 1.0f);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * 32 + threadIdx.x / 32 + {i}] = v + __popc(any);
}}
"""


def scaling(tool, sizes, runs, tmp):
    rows = []
    for n in sizes:
        path = os.path.join(tmp, f"gen_{n}.cu")
        with open(path, "w") as f:
            f.write("#include <cuda_runtime.h>\n")
            for i in range(n):
                f.write(KERNEL_TEMPLATE.format(i=i))
        r = measure_file(tool, path, None, runs)
        r["kernels"] = n
        rows.append(r)
    return rows


def realcode_files(corpus, projects, only, limit):
    """(path, flags) of bench/realcode's manifest files."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import realcode
    with open(realcode.DEFAULT_MANIFEST) as f:
        manifest = json.load(f)
    jobs = realcode.manifest_jobs(os.path.abspath(corpus), manifest, projects, only)
    return [(path, flags) for _, path, flags in jobs][:limit or None]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="*")
    ap.add_argument("-p", dest="db", help="compilation database directory")
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "bin", "warp-tidy"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="10,100,1000")
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--flag", action="append", default=[],
                    help="compiler flag for every corpus file (repeatable), e.g. --flag=-Iinclude")
    ap.add_argument("--realcode", metavar="CORPUS",
                    help="measure the files of bench/realcode/manifest.json in this corpus "
                         "(e.g. /work/corpus), each with its project's flags")
    ap.add_argument("--project", action="append",
                    help="with --realcode: only this project (repeatable)")
    ap.add_argument("--only", metavar="REGEX", help="with --realcode: only matching paths")
    ap.add_argument("--limit", type=int, help="with --realcode: at most this many files")
    ap.add_argument("--no-project-run", action="store_true",
                    help="skip the whole-project run")
    args = ap.parse_args()

    if args.realcode:
        jobs = realcode_files(args.realcode, args.project, args.only, args.limit)
    else:
        inputs = args.inputs or ([] if args.db else [os.path.join(ROOT, "examples"),
                                                      os.path.join(ROOT, "runtime-validation", "cases")])
        jobs = [(f, list(args.flag)) for f in collect(inputs, args.db)]
    print(f"machine: {machine()}")
    print(f"load before: {load()}")
    print(f"corpus: {len(jobs)} files, {args.runs} alternating runs each (median)")
    print(f"{'file':48} {'parse s':>8} {'cold s':>7} {'pch s':>7} {'cold/p':>6} {'pch/p':>6} "
          f"{'parse MiB':>9} {'cold MiB':>8} {'pch MiB':>8}")
    rows = []
    tmp = tempfile.mkdtemp(prefix="warp-tidy-bench-")
    pch_dir = os.path.join(tmp, "pch-cache")
    for path, flags in jobs:
        r = measure_file(args.tool, path, args.db, args.runs, flags, pch_dir)
        rows.append(r)
        print(f"{os.path.relpath(path, ROOT)[-48:]:48} {r['parse_s']:8.3f} {r['tidy_s']:7.3f} "
              f"{r['pch_s']:7.3f} {r['tidy_s'] / r['parse_s']:6.3f} {r['pch_s'] / r['parse_s']:6.3f} "
              f"{r['parse_mib']:9.0f} {r['tidy_mib']:8.0f} {r['pch_mib']:8.0f}", flush=True)
    if rows:
        ratio = statistics.median(r["tidy_s"] / r["parse_s"] for r in rows)
        total = sum(r["tidy_s"] for r in rows) / sum(r["parse_s"] for r in rows)
        pch_ratio = statistics.median(r["pch_s"] / r["parse_s"] for r in rows)
        pch_total = sum(r["pch_s"] for r in rows) / sum(r["parse_s"] for r in rows)
        mem = statistics.median(r["tidy_mib"] / r["parse_mib"] for r in rows)
        pch_mem = statistics.median(r["pch_mib"] / r["parse_mib"] for r in rows)
        print(f"overall: cold: median time ratio {ratio:.3f}, total time ratio {total:.3f}, "
              f"median peak-memory ratio {mem:.3f}")
        print(f"         pch built: median time ratio {pch_ratio:.3f}, total time ratio "
              f"{pch_total:.3f}, median peak-memory ratio {pch_mem:.3f}")
        solver = {k: sum(r["solver"][k] for r in rows) for k in SOLVER_FIELDS}
        print(f"uniformity prover: {solver['questions']} questions ({solver['cached']} cached, "
              f"{solver['sampled']} disproved by sampling, {solver['shared']} answered by an "
              f"earlier unit or pass), {solver['queries']} solver queries "
              f"({solver['proved']} proved uniform, {solver['varying']} varying, "
              f"{solver['unknown']} unknown or over the limit), {solver['ms']:.1f} ms in the solver")

    project = {}
    if not args.no_project_run and len(jobs) >= 2:
        # The units that share the most common flags: one warp-tidy command.
        groups = {}
        for path, flags in jobs:
            groups.setdefault(tuple(flags), []).append(path)
        flags, paths = max(groups.items(), key=lambda kv: len(kv[1]))
        project = project_run(args.tool, paths, args.db, list(flags), max(1, args.runs // 2), tmp)
        project["units"] = len(paths)
        print(f"\nwhole-project run of {len(paths)} units ({max(1, args.runs // 2)} runs, median):")
        base = project["parse -j1"]
        for name, seconds in project.items():
            if name != "units":
                print(f"  {name:24} {seconds:8.2f} s   {seconds / base:6.3f}x the serial parse")
        print(f"  -j2 speed-up: cold {project['warp-tidy cold -j1'] / project['warp-tidy cold -j2']:.2f}x, "
              f"pch {project['warp-tidy pch -j1'] / project['warp-tidy pch -j2']:.2f}x, "
              f"parse {project['parse -j1'] / project['parse -j2']:.2f}x")

    sizes = [int(s) for s in args.sizes.split(",") if s]
    scale = []
    if sizes:
        scale = scaling(args.tool, sizes, max(1, args.runs // 2), tmp)
        print(f"\nscaling: {'kernels':>8} {'parse s':>8} {'tidy s':>8} {'ratio':>6} "
              f"{'tidy ms/kernel':>14} {'extra ms/kernel':>15}")
        for r in scale:
            n = r["kernels"]
            print(f"         {n:8d} {r['parse_s']:8.3f} {r['tidy_s']:8.3f} "
                  f"{r['tidy_s'] / r['parse_s']:6.3f} {1000 * r['tidy_s'] / n:14.3f} "
                  f"{1000 * (r['tidy_s'] - r['parse_s']) / n:15.3f}")
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"load after: {load()}")
    if args.json:
        json.dump({"machine": machine(), "files": rows, "project": project, "scaling": scale},
                  open(args.json, "w"), indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
