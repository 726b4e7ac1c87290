#!/usr/bin/env python3
"""Statically checks every runtime-validation case with warp-tidy.

For each runtime-validation/cases/<name>/ (case.json names the check):
  * bug.cu must get at least one diagnostic from that check, on or within a
    few lines of the line marked `// BUG:`;
  * fixed.cu must get no warp-* diagnostic at all (every check enabled), so a
    fix never trades one finding for another;
  * both must compile (warp-tidy exit status 0 or 1, never 2).
Each case is analysed for its lowest architecture (case.json min_arch).
Prints one line per case and exits non-zero if any case fails.
"""
import argparse
import json
import os
import re
import subprocess
import sys

DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<level>warning|error): .*\[(?P<check>[^\]]+)\]$", re.M)


def analyse(tool, path, arch):
    proc = subprocess.run([tool, "--quiet", "--checks=-*,warp-*", path, "--", f"-arch=sm_{arch}"],
                          capture_output=True, text=True, timeout=600)
    diags = [(int(m["line"]), m["level"], m["check"]) for m in DIAG.finditer(proc.stdout)]
    return proc.returncode, diags, proc.stdout + proc.stderr


def marked_lines(path, marker):
    with open(path) as f:
        return [i for i, text in enumerate(f, 1) if marker in text]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--window", type=int, default=6,
                    help="how far from the BUG line the diagnostic may be")
    args = ap.parse_args()

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

        if problems:
            failures += 1
            print(f"FAIL {name} ({check}):")
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
        else:
            print(f"ok   {name}: {check} on bug.cu line {hits[0][0]}, fixed.cu silent")
    print(f"static: {len(names) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
