#!/usr/bin/env python3
"""Runs the gtest unit tests and the lit suite of a build and sums them up.

Prints each runner's own output, then one closing line:
    tests: N passed, N failed, N skipped
Exit status 0 only when nothing failed and something ran.

Never minutes of silence: each runner is announced as it starts, and lit
shows every test's result as it comes (a progress bar on a terminal, a line
per test in a log, where its bar would print nothing until the end).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run_unit(build):
    exe = os.path.join(build, "bin", "warp-tidy-unittests")
    print(f"== unit tests: {exe}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "unit.json")
        proc = subprocess.run([exe, "--gtest_brief=1", f"--gtest_output=json:{report}"])
        if not os.path.exists(report):
            return 0, 1, 0
        data = json.load(open(report))
    failed = data.get("failures", 0) + data.get("errors", 0)
    total = data.get("tests", 0)
    skipped = sum(1 for s in data.get("testsuites", []) for t in s.get("testsuite", [])
                  if t.get("result") == "SKIPPED")
    passed = total - failed - skipped
    if proc.returncode != 0 and failed == 0:
        failed = 1
    return passed, failed, skipped


def run_lit(build, extra):
    lit = "/usr/lib/llvm-22/bin/lit"
    suite = os.path.join(build, "test")
    print(f"== lit tests: {suite}", flush=True)
    verbosity = ["-sv"] if sys.stdout.isatty() else ["-v"]
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "lit.json")
        proc = subprocess.run([sys.executable, lit, *verbosity, "-o", report, suite, *extra])
        if not os.path.exists(report):
            return 0, 1, 0
        data = json.load(open(report))
    passed = failed = skipped = 0
    for t in data.get("tests", []):
        code = t.get("code")
        if code in ("PASS", "XFAIL"):
            passed += 1
        elif code in ("UNSUPPORTED", "SKIPPED", "EXCLUDED"):
            skipped += 1
            print(f"skipped: {t.get('name')} ({code})")
        else:
            failed += 1
    if proc.returncode != 0 and failed == 0:
        failed = 1
    return passed, failed, skipped


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("lit_args", nargs="*")
    args = ap.parse_args()
    up, uf, us = run_unit(args.build)
    lp, lf, ls = run_lit(args.build, args.lit_args)
    print(f"unit tests: {up} passed, {uf} failed, {us} skipped")
    print(f"lit tests: {lp} passed, {lf} failed, {ls} skipped")
    passed, failed, skipped = up + lp, uf + lf, us + ls
    print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
