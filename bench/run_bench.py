#!/usr/bin/env python3
"""warp-tidy benchmark: cost on top of the parse, and how it scales.

For each .cu file of a corpus, runs warp-tidy with all warp-* checks and
`clang++-22 -fsyntax-only` with the identical compile command (taken from
`warp-tidy --print-commands`), alternating, several times each, and reports
per file and overall the median wall-time ratio and the peak-memory ratio
(max RSS of the process). Then a scaling series: generated translation units
with N kernels (plus helpers, loops and branches) for N in --sizes, reporting
time per kernel.

This is a measurement, not a test: it asserts nothing and never fails on a
slow machine. Usage:
    bench/run_bench.py                       # examples/ + runtime-validation cases
    bench/run_bench.py DIR_OR_FILE ...       # any corpus on disk
    bench/run_bench.py -p build/             # every CUDA unit of a compilation database
"""
import argparse
import json
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


def measure_file(tool, path, db, runs, flags=()):
    words = compile_command(tool, path, db, flags)
    # The same driver arguments, run by the real compiler in syntax-only mode.
    parse = ["clang++-22", "-fsyntax-only"] + words[1:]
    # --no-cache: the result cache would turn every run after the first into a
    # lookup; this measures the analysis.
    tidy = [tool, "--exit-zero", "--quiet", "--no-cache", "--checks=-*,warp-*"]
    if db:
        tidy += ["-p", db]
    tidy.append(path)
    if flags:
        tidy += ["--", *flags]
    t_tidy, t_parse, m_tidy, m_parse = [], [], [], []
    status = None
    for _ in range(runs):
        w, m, s = run_measured(parse)
        t_parse.append(w)
        m_parse.append(m)
        w, m, status = run_measured(tidy)
        t_tidy.append(w)
        m_tidy.append(m)
    solver = solver_stats(tidy)
    return {
        "file": path,
        "solver": solver,
        "parse_s": statistics.median(t_parse),
        "tidy_s": statistics.median(t_tidy),
        "parse_mib": max(m_parse),
        "tidy_mib": max(m_tidy),
        "tidy_status": status,
    }


SOLVER_LINE = re.compile(
    r"warp-tidy solver: (\d+) questions \((\d+) cached, (\d+) disproved by sampling\), "
    r"(\d+) solver queries \((\d+) proved uniform, (\d+) varying, (\d+) unknown/limit\), "
    r"([0-9.]+) ms in the solver")
SOLVER_FIELDS = ("questions", "cached", "sampled", "queries", "proved", "varying", "unknown", "ms")


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
    args = ap.parse_args()

    inputs = args.inputs or ([] if args.db else [os.path.join(ROOT, "examples"),
                                                  os.path.join(ROOT, "runtime-validation", "cases")])
    files = collect(inputs, args.db)
    print(f"corpus: {len(files)} files, {args.runs} alternating runs each (median)")
    print(f"{'file':60} {'parse s':>8} {'tidy s':>8} {'ratio':>6} {'mem ratio':>9}")
    rows = []
    for path in files:
        r = measure_file(args.tool, path, args.db, args.runs, args.flag)
        rows.append(r)
        print(f"{os.path.relpath(path, ROOT)[-60:]:60} {r['parse_s']:8.3f} {r['tidy_s']:8.3f} "
              f"{r['tidy_s'] / r['parse_s']:6.3f} {r['tidy_mib'] / r['parse_mib']:9.3f}")
    if rows:
        ratio = statistics.median(r["tidy_s"] / r["parse_s"] for r in rows)
        total = sum(r["tidy_s"] for r in rows) / sum(r["parse_s"] for r in rows)
        mem = statistics.median(r["tidy_mib"] / r["parse_mib"] for r in rows)
        print(f"overall: median time ratio {ratio:.3f}, total time ratio {total:.3f}, "
              f"median peak-memory ratio {mem:.3f}")
        solver = {k: sum(r["solver"][k] for r in rows) for k in SOLVER_FIELDS}
        print(f"uniformity prover: {solver['questions']} questions ({solver['cached']} cached, "
              f"{solver['sampled']} disproved by sampling), {solver['queries']} solver queries "
              f"({solver['proved']} proved uniform, {solver['varying']} varying, "
              f"{solver['unknown']} unknown or over the limit), {solver['ms']:.1f} ms in the solver")

    sizes = [int(s) for s in args.sizes.split(",") if s]
    scale = []
    if sizes:
        with tempfile.TemporaryDirectory() as tmp:
            scale = scaling(args.tool, sizes, max(1, args.runs // 2), tmp)
        print(f"\nscaling: {'kernels':>8} {'parse s':>8} {'tidy s':>8} {'ratio':>6} "
              f"{'tidy ms/kernel':>14} {'extra ms/kernel':>15}")
        for r in scale:
            n = r["kernels"]
            print(f"         {n:8d} {r['parse_s']:8.3f} {r['tidy_s']:8.3f} "
                  f"{r['tidy_s'] / r['parse_s']:6.3f} {1000 * r['tidy_s'] / n:14.3f} "
                  f"{1000 * (r['tidy_s'] - r['parse_s']) / n:15.3f}")
    if args.json:
        json.dump({"files": rows, "scaling": scale}, open(args.json, "w"), indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
