#!/usr/bin/env python3
"""Statically checks every runtime-validation case with warp-tidy.

For each runtime-validation/cases/<name>/ (case.json names the check):
  * bug.cu must get at least one diagnostic from that check, on or within a
    few lines of the line marked `// BUG:`;
  * fixed.cu must get no warp-* diagnostic at all (every check enabled), so a
    fix never trades one finding for another;
  * both must compile (warp-tidy exit status 0 or 1, never 2);
  * with --fixit-dir, warp-tidy's fix-its for the case's check are applied to
    a copy of bug.cu, DIR/<case>/fixit.cu (run.py --fixit-dir builds and runs
    it): a case with "fixit": true in case.json must be changed and the result
    must be silent like fixed.cu; any other case must be left unchanged.
Each case is analysed for its lowest architecture (case.json min_arch).
Prints one line per case and exits non-zero if any case fails.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HARNESS_INCLUDE = '#include "../../common/harness.cuh"'

DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<level>warning|error): .*\[(?P<check>[^\]]+)\]$", re.M)


def analyse(tool, path, arch):
    proc = subprocess.run([tool, "--quiet", "--checks=-*,warp-*", path, "--", f"-arch=sm_{arch}"],
                          capture_output=True, text=True, timeout=600)
    diags = [(int(m["line"]), m["level"], m["check"]) for m in DIAG.finditer(proc.stdout)]
    return proc.returncode, diags, proc.stdout + proc.stderr


def apply_fixits(tool, bug, out_dir, check, arch, harness):
    """Copies bug.cu to out_dir/fixit.cu (the shared harness still found), applies the check's
    fix-its, and returns (changed, path, output)."""
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, "fixit.cu")
    with open(bug) as f:
        text = f.read()
    include = '#include "%s"' % os.path.relpath(harness, out_dir)
    text = text.replace(HARNESS_INCLUDE, include)
    with open(target, "w") as f:
        f.write(text)
    proc = subprocess.run([tool, "--quiet", "--exit-zero", "--fix", f"--checks=-*,{check}", target,
                           "--", f"-arch=sm_{arch}"], capture_output=True, text=True, timeout=600)
    with open(target) as f:
        changed = f.read() != text
    if not changed:
        os.remove(target)  # run.py only builds the fix-its that exist
    return changed, target, proc.stdout + proc.stderr


def marked_lines(path, marker):
    with open(path) as f:
        return [i for i, text in enumerate(f, 1) if marker in text]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--window", type=int, default=6,
                    help="how far from the BUG line the diagnostic may be")
    ap.add_argument("--fixit-dir", help="apply each case's fix-its to DIR/<case>/fixit.cu and check them")
    args = ap.parse_args()
    harness = os.path.join(os.path.abspath(args.cases), os.pardir, "common", "harness.cuh")
    if args.fixit_dir and os.path.isdir(args.fixit_dir):
        shutil.rmtree(args.fixit_dir)
    fixits = 0

    failures = 0
    names = sorted(n for n in os.listdir(args.cases) if os.path.isdir(os.path.join(args.cases, n)))
    for name in names:
        case_dir = os.path.join(args.cases, name)
        meta = json.load(open(os.path.join(case_dir, "case.json")))
        check, arch = meta["check"], meta.get("min_arch", 75)
        bug, fixed = os.path.join(case_dir, "bug.cu"), os.path.join(case_dir, "fixed.cu")
        problems = []

        status, diags, output = analyse(args.tool, bug, arch)
        if status not in (0, 1):
            problems.append(f"bug.cu: warp-tidy exit {status}:\n{output}")
        bug_lines = marked_lines(bug, "BUG:")
        if not bug_lines:
            problems.append("bug.cu has no // BUG: marker")
        hits = [d for d in diags if d[2].split(",")[0] == check and
                any(abs(d[0] - b) <= args.window for b in bug_lines)]
        if not hits:
            problems.append(f"bug.cu: no {check} diagnostic near line(s) {bug_lines}; got {diags}")

        status, diags, output = analyse(args.tool, fixed, arch)
        if status != 0 or diags:
            problems.append(f"fixed.cu: expected silence, got exit {status}:\n{output}")

        fix_note = ""
        if args.fixit_dir:
            changed, target, output = apply_fixits(args.tool, bug, os.path.join(args.fixit_dir, name),
                                                   check, arch, os.path.normpath(harness))
            if meta.get("fixit", False):
                if not changed:
                    problems.append(f"expected a fix-it from {check}, bug.cu was left unchanged:\n{output}")
                else:
                    fixits += 1
                    status, diags, output = analyse(args.tool, target, arch)
                    if status != 0 or diags:
                        problems.append(f"fixit.cu: expected silence after the fix-it, got exit {status}:\n{output}")
                    fix_note = ", fix-it output silent"
            elif changed:
                problems.append(f"{check} changed bug.cu, but case.json does not expect a fix-it")

        if problems:
            failures += 1
            print(f"FAIL {name} ({check}):")
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
        else:
            print(f"ok   {name}: {check} on bug.cu line {hits[0][0]}, fixed.cu silent{fix_note}")
    if args.fixit_dir:
        print(f"fix-its: {fixits} applied")
    print(f"static: {len(names) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
