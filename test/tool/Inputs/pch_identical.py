#!/usr/bin/env python3
"""Runs warp-tidy with and without the shared precompiled prologue (--no-pch)
on the same units and compares the reports exactly (issue 15 item 2).

The units: every input of test/checks with each configuration its RUN lines
use (checks, --config, compiler flags), the examples/, and the bug/fixed
pair of every runtime-validation case at its case's arch. With --realcode
CORPUS, also the files of bench/realcode/manifest.json (with their project's
flags), filtered by --project and --only; with --corpus-db, the units of a
compilation database. --no-suite leaves out the repository's own inputs.

A comparison only counts if the PCH was really used: with
WARP_TIDY_DEBUG_PCH set, each worker says which PCH it loaded, and a unit
whose PCH-backed parse fell back to the plain one is reported too.

Exit status: 0 when every report is identical, 1 otherwise.
"""
import argparse
import concurrent.futures
import difflib
import glob
import json
import os
import re
import shlex
import subprocess
import sys


def run_lines(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.search(r"RUN:(.*)$", line)
            if m:
                yield m.group(1).strip()


def configurations(path):
    """(checks, tool flags, compiler args) for each way the test runs `path`."""
    configs = []
    for line in run_lines(path):
        if "%check_warp_tidy" not in line and "%warp_tidy" not in line:
            continue
        tokens = shlex.split(line)
        for stop in (">", "|", "&&", "2>&1"):
            if stop in tokens:
                tokens = tokens[:tokens.index(stop)]
        args = []
        if "--" in tokens:
            args = tokens[tokens.index("--") + 1:]
            tokens = tokens[:tokens.index("--")]
        if tokens[0] == "%check_warp_tidy":
            checks = "-*," + tokens[2]
            flags = [t for t in tokens[3:] if not t.startswith("--check-prefix")]
        else:
            checks = "warp-*"
            flags = []
            for t in tokens[1:]:
                if t.startswith("--checks="):
                    checks = t.split("=", 1)[1]
                elif t.startswith("--config="):
                    flags.append(t)
        config = (checks, tuple(flags), tuple(args))
        if config not in configs:
            configs.append(config)
    return configs


def jobs(repo):
    for path in sorted(glob.glob(os.path.join(repo, "test", "checks", "*.cu*"))):
        for checks, flags, args in configurations(path):
            yield path, ["--checks=" + checks, *flags], list(args)
    for path in sorted(glob.glob(os.path.join(repo, "examples", "*.cu"))):
        yield path, [], []
    # Units whose leading #include lines name project headers: the PCH holds
    # those headers too (their findings, their arch guards, the templates
    # the units instantiate from them).
    for path in sorted(glob.glob(os.path.join(repo, "test", "tool", "Inputs", "leading-includes",
                                              "*.cu"))):
        for arch in ("sm_75", "sm_80"):
            yield path, [], ["-arch=" + arch]
    for case in sorted(glob.glob(os.path.join(repo, "runtime-validation", "cases", "*"))):
        with open(os.path.join(case, "case.json"), encoding="utf-8") as f:
            arch = json.load(f).get("min_arch", 75)
        for name in ("bug.cu", "fixed.cu"):
            path = os.path.join(case, name)
            if os.path.exists(path):
                yield path, ["--checks=-*,warp-*"], [f"-arch=sm_{arch}"]


def realcode_jobs(repo, corpus, projects, only):
    sys.path.insert(0, os.path.join(repo, "bench"))
    import realcode
    with open(realcode.DEFAULT_MANIFEST, encoding="utf-8") as f:
        manifest = json.load(f)
    for _, path, flags in realcode.manifest_jobs(corpus, manifest, projects, only):
        yield path, [], flags


def corpus_jobs(db_dir, only):
    with open(os.path.join(db_dir, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    seen = set()
    for e in entries:
        path = os.path.normpath(os.path.join(e["directory"], e["file"]))
        if path in seen or (only and not re.search(only, path)):
            continue
        seen.add(path)
        yield path, ["-p", db_dir], []


def analyse(tool, cache_dir, path, flags, args, pch):
    cmd = [tool, "--format=json", "-j1", "--no-cache", "--cache-dir=" + cache_dir, *flags,
           *([] if pch else ["--no-pch"]), path]
    if args:
        cmd += ["--", *args]
    env = dict(os.environ, WARP_TIDY_DEBUG_PCH="1")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return proc.returncode, None, proc.stderr
    # Everything but the timing.
    report.get("summary", {}).pop("seconds", None)
    return proc.returncode, report, proc.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--cache-dir", required=True)
    parser.add_argument("--corpus-db", help="a directory holding compile_commands.json")
    parser.add_argument("--realcode", metavar="CORPUS",
                        help="the real-code corpus of bench/realcode.py (/work/corpus)")
    parser.add_argument("--project", action="append",
                        help="with --realcode: only this project (repeatable)")
    parser.add_argument("--only", help="regex of corpus files to compare")
    parser.add_argument("--no-suite", action="store_true",
                        help="only the corpus, not the repository's own inputs")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    opts = parser.parse_args()

    todo = [] if opts.no_suite else list(jobs(opts.repo))
    if opts.corpus_db:
        todo += list(corpus_jobs(opts.corpus_db, opts.only))
    if opts.realcode:
        todo += list(realcode_jobs(opts.repo, opts.realcode, opts.project, opts.only))
    print("pch-identical: %d units" % len(todo), flush=True)

    def compare(job):
        path, flags, args = job
        with_rc, with_report, with_err = analyse(opts.tool, opts.cache_dir, path, flags, args, True)
        plain_rc, plain_report, plain_err = analyse(opts.tool, opts.cache_dir, path, flags, args, False)
        problems = []
        if with_report is None or plain_report is None:
            problems.append("no JSON report (exit %d/%d): %s" % (
                with_rc, plain_rc, (with_err if with_report is None else plain_err).strip()[-400:]))
        elif with_report != plain_report or with_rc != plain_rc:
            problems.append("reports differ (exit %d with the PCH, %d without)" % (with_rc, plain_rc))
            a = json.dumps(with_report, indent=1, sort_keys=True).splitlines()
            b = json.dumps(plain_report, indent=1, sort_keys=True).splitlines()
            problems += list(difflib.unified_diff(b, a, "plain", "pch", lineterm="", n=1))[:40]
        if "leading-includes" in path and "leading #include lines" not in with_err:
            problems.append("the PCH did not hold the leading includes: " + with_err.strip()[-400:])
        if "pch: using" not in with_err:
            problems.append("the PCH was not used: " + with_err.strip()[-400:])
        if "pch: using" in plain_err:
            problems.append("--no-pch used a PCH")
        fallback = [l for l in with_err.splitlines() if "fell back" in l]
        if fallback:
            problems.append("the PCH-backed parse fell back: " + fallback[0])
        return problems

    same = different = 0
    # Two at a time (the machines have two cores); several share a PCH key,
    # so the build lock is exercised too.
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        for (path, flags, args), problems in zip(todo, pool.map(compare, todo)):
            name = os.path.relpath(path, opts.repo)
            if not opts.realcode:
                name += " " + " ".join(flags + args)
            if problems:
                different += 1
                print("DIFFERENT: " + name)
                for p in problems:
                    print("  " + p)
            else:
                same += 1
                print("identical: " + name)
    print("pch-identical: %d identical, %d different" % (same, different))
    return 1 if different or not same else 0


if __name__ == "__main__":
    sys.exit(main())
