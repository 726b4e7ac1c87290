#!/usr/bin/env python3
"""Run warp-tidy over the real-code corpus of bench/realcode/manifest.json.

The corpus is public code that this project does not ship: it is assembled
outside any git repository (see docs/evaluation.md, "Real code the tool was not
developed on") and this script only reads it. It never downloads or commits
code.

    python3 bench/realcode.py CORPUS_DIR WARP_TIDY [--out results.json]
        [--project NAME ...] [--only REGEX] [--jobs 2]
        [--verdicts bench/realcode/verdicts-baseline.json] [--reuse-raw results.json.raw]

The manifest gives each project its repository and commit, the corpus-relative
files, -std and flags ({corpus}, {root} = the project's directory and {drivers} =
bench/realcode/drivers are substituted), and optional per-file flags that go
ahead of the project's (so that a file's own include directory wins).

Each file is analysed alone (one warp-tidy process per file, a pool of --jobs
processes, --format=json --no-cache) with the flags the manifest gives its
project. The output JSON holds every diagnostic (warp checks and compile
errors), and a summary per project and per check: files analysed, files that
failed to parse (with the first compile error), warp call sites counted by a
plain regex over the project's files, diagnostics. A diagnostic of a header
reached from several files is listed once, with the files that reached it.

With --verdicts, the run is compared with a file of judged diagnostics (keys
project, file, line, check) and the new and vanished diagnostics are printed,
so that a change of the analysis can be judged on what it changed only.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MANIFEST = os.path.join(HERE, "realcode", "manifest.json")

# The "simple grep" of warp call sites: a call of a warp intrinsic, a wmma
# operation or a cooperative-groups tile.
WARP_CALL_RE = re.compile(
    r"\b(__shfl(?:_up|_down|_xor)?(?:_sync)?|__ballot(?:_sync)?|__any(?:_sync)?|"
    r"__all(?:_sync)?|__syncwarp|__match_(?:any|all)_sync|__reduce_\w+_sync|"
    r"__activemask|wmma::\w+|tiled_partition)\s*[<(]"
    r"|\bthread_block_tile\s*<")
SOURCE_EXTS = (".cu", ".cuh", ".h", ".hpp", ".inl", ".cpp")


def expand(flag, corpus, project_root, driver_dir):
    return (flag.replace("{corpus}", corpus)
                .replace("{root}", project_root)
                .replace("{drivers}", driver_dir))


def count_warp_sites(paths):
    total = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        total += len(WARP_CALL_RE.findall(text))
    return total


def project_source_files(root):
    for dirpath, _, names in os.walk(root):
        for name in names:
            if name.endswith(SOURCE_EXTS):
                yield os.path.join(dirpath, name)


def run_one(binary, path, flags, timeout):
    # The file's limit is warp-tidy's own too (its default, 300 s, stopped raft's
    # largest test units under the load of a parallel run).
    cmd = [binary, "--format=json", "--no-cache", "-j", "1", "--timeout=%d" % timeout, path,
           "--"] + flags
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        return {"file": path, "rc": None, "error": "timeout after %ss" % timeout,
                "seconds": timeout, "report": None, "stderr": ""}
    seconds = time.monotonic() - start
    try:
        report = json.loads(proc.stdout) if proc.stdout.strip() else None
    except json.JSONDecodeError as e:
        report = None
        proc_err = "unreadable JSON: %s" % e
    else:
        proc_err = None
    return {"file": path, "rc": proc.returncode, "error": proc_err,
            "seconds": round(seconds, 2), "report": report,
            "stderr": proc.stderr[-2000:]}


def run_all(binary, jobs, args, corpus):
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_one, binary, path, flags, args.timeout): name
                   for name, path, flags in jobs}
        for fut in concurrent.futures.as_completed(futures):
            r = fut.result()
            r["project"] = futures[fut]
            results.append(r)
            print("%-18s %-70s rc=%s %5.1fs" % (r["project"], rel(r["file"], corpus),
                                               r["rc"], r["seconds"]), file=sys.stderr)
    return results


def rel(path, corpus):
    path = os.path.realpath(path)
    corpus = os.path.realpath(corpus)
    if path.startswith(corpus + os.sep):
        return path[len(corpus) + 1:]
    return path


def key_of(d):
    return (d["project"], d["file"], d["line"], d["check"])


def manifest_jobs(corpus, manifest, projects=None, only=None):
    """(project, absolute path, compiler flags) of each manifest file, for
    the projects named (all when None) and the corpus paths matching `only`.
    Also used by bench/run_bench.py and test/tool/Inputs/pch_identical.py."""
    driver_dir = os.path.join(HERE, "realcode", "drivers")
    jobs = []
    for name, proj in manifest["projects"].items():
        if projects and name not in projects:
            continue
        root = os.path.join(corpus, proj["root"])
        if not os.path.isdir(root):
            print("%s: %s is missing, skipped" % (name, root), file=sys.stderr)
            continue
        flags = ["-std=" + proj.get("std", "c++17")]
        flags += [expand(x, corpus, root, driver_dir) for x in proj.get("flags", [])]
        for f in proj["files"]:
            path = expand(f, corpus, root, driver_dir)
            if not os.path.isabs(path):
                path = os.path.join(corpus, path)
            if only and not re.search(only, rel(path, corpus)):
                continue
            # A file's own flags come first, so that its include paths win.
            own = [expand(x, corpus, root, driver_dir) for x in proj.get("file_flags", {}).get(f, [])]
            jobs.append((name, path, own + flags))
    return jobs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("warp_tidy")
    ap.add_argument("--manifest", default=DEFAULT_MANIFEST)
    ap.add_argument("--out", default="realcode-results.json")
    ap.add_argument("--project", action="append",
                    help="run only this project (repeatable)")
    ap.add_argument("--only", metavar="REGEX",
                    help="run only the files whose corpus path matches this regex")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds per file before it counts as a failure")
    ap.add_argument("--reuse-raw", metavar="FILE",
                    help="summarise the per-file reports of an earlier run (its <out>.raw) "
                         "instead of running warp-tidy again")
    ap.add_argument("--verdicts",
                    help="judged diagnostics to compare this run with")
    args = ap.parse_args()

    corpus = os.path.abspath(args.corpus)
    binary = os.path.abspath(args.warp_tidy)
    with open(args.manifest) as f:
        manifest = json.load(f)
    driver_dir = os.path.join(HERE, "realcode", "drivers")

    jobs = manifest_jobs(corpus, manifest, args.project, args.only)

    if args.reuse_raw:
        with open(args.reuse_raw) as f:
            results = json.load(f)
    else:
        results = run_all(binary, jobs, args, corpus)
        with open(args.out + ".raw", "w") as f:
            json.dump(results, f)
    results.sort(key=lambda r: (r["project"], r["file"]))

    diagnostics = {}   # (project, file, line, column, check) -> diagnostic
    parse_failures = collections.defaultdict(list)
    for r in results:
        proj = r["project"]
        first_error = None
        if r["report"] is None:
            first_error = r["error"] or ("no report (rc=%s): %s" % (r["rc"], r["stderr"][-300:]))
        else:
            for d in r["report"]["diagnostics"]:
                if d["check"].startswith("clang-diagnostic") and d["level"] in ("error", "fatal"):
                    if first_error is None and "file" in d:
                        first_error = "%s:%s: %s" % (rel(d["file"], corpus), d["line"], d["message"])
                    continue
                if not d["check"].startswith("warp-"):
                    continue
                k = (proj, rel(d["file"], corpus), d["line"], d["column"], d["check"])
                entry = diagnostics.setdefault(k, {
                    "project": proj, "file": k[1], "line": d["line"],
                    "column": d["column"], "check": d["check"],
                    "message": d["message"], "level": d["level"],
                    "notes": [{"file": rel(n.get("file", ""), corpus), "line": n.get("line"),
                               "message": n.get("message")} for n in d.get("notes", [])],
                    "reached_from": []})
                entry["reached_from"].append(rel(r["file"], corpus))
        if first_error is None and r["rc"] == 2:
            first_error = "tool error: %s" % r["stderr"].strip()[-300:]
        if first_error is not None:
            parse_failures[proj].append({"file": rel(r["file"], corpus), "first_error": first_error})

    diag_list = sorted(diagnostics.values(),
                       key=lambda d: (d["project"], d["file"], d["line"], d["column"], d["check"]))

    summary = {}
    for name, proj in manifest["projects"].items():
        if args.project and name not in args.project:
            continue
        root = os.path.join(corpus, proj["root"])
        if not os.path.isdir(root):
            continue
        mine = [r for r in results if r["project"] == name]
        selected = [r["file"] for r in mine]
        by_check = collections.Counter(d["check"] for d in diag_list if d["project"] == name)
        summary[name] = {
            "repo": proj["repo"], "commit": proj["commit"],
            "files": len(mine),
            "parse_failures": len(parse_failures[name]),
            "parse_failure_list": parse_failures[name],
            "warp_call_sites_selected_files": count_warp_sites(selected),
            "warp_call_sites_project": count_warp_sites(project_source_files(root)),
            "diagnostics": sum(by_check.values()),
            "by_check": dict(sorted(by_check.items())),
            "seconds": round(sum(r["seconds"] for r in mine), 1),
        }
    per_check = collections.Counter(d["check"] for d in diag_list)

    out = {"corpus": corpus, "warp_tidy": binary,
           "summary": {"projects": summary, "by_check": dict(sorted(per_check.items())),
                       "diagnostics": len(diag_list)},
           "diagnostics": diag_list}
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)

    print("\n%-18s %6s %7s %11s %11s %6s" % ("project", "files", "failed", "sites(sel)",
                                           "sites(all)", "diags"))
    for name, s in summary.items():
        print("%-18s %6d %7d %11d %11d %6d" % (name, s["files"], s["parse_failures"],
                                              s["warp_call_sites_selected_files"],
                                              s["warp_call_sites_project"], s["diagnostics"]))
        for pf in s["parse_failure_list"]:
            print("    parse failure %s: %s" % (pf["file"], pf["first_error"][:200]))
    print("\nper check:")
    for check, n in sorted(per_check.items()):
        print("  %-40s %d" % (check, n))
    print("\nwrote %s (%d diagnostics)" % (args.out, len(diag_list)))

    if args.verdicts:
        compare(diag_list, args.verdicts, set(summary))
    return 0


def compare(diag_list, verdicts_path, projects):
    with open(verdicts_path) as f:
        judged = json.load(f)["verdicts"]
    judged = [v for v in judged if v["project"] in projects]
    old = {key_of(v): v for v in judged}
    new = {}
    for d in diag_list:
        new.setdefault(key_of(d), d)
    appeared = [new[k] for k in sorted(set(new) - set(old))]
    vanished = [old[k] for k in sorted(set(old) - set(new))]
    kept = collections.Counter(old[k]["verdict"] for k in set(old) & set(new))
    gone = collections.Counter(v["verdict"] for v in vanished)
    print("\ncompared with %s:" % verdicts_path)
    print("  kept: %d (%s)" % (sum(kept.values()), dict(kept)))
    print("  vanished: %d (%s)" % (len(vanished), dict(gone)))
    for v in vanished:
        print("    - %s %s:%s %s [%s%s]" % (v["project"], v["file"], v["line"], v["check"],
                                          v["verdict"],
                                          ", " + v["category"] if v.get("category") else ""))
    print("  new (not judged): %d" % len(appeared))
    for d in appeared:
        print("    + %s %s:%s %s: %s" % (d["project"], d["file"], d["line"], d["check"],
                                        d["message"][:120]))
    lost_tp = gone.get("true positive", 0)
    if lost_tp:
        print("  WARNING: %d diagnostic(s) judged true positive vanished" % lost_tp)


if __name__ == "__main__":
    sys.exit(main())
