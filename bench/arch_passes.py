#!/usr/bin/env python3
"""Cost of the arch passes (docs/arch-passes.md).

Runs two warp-tidy binaries (a baseline built without arch passes, and the
current one) on the same files, alternating, several times each, and reports
per file the median wall time of each, their ratio and the number of passes
the current binary ran (from --pass-stats). Files without arch-dependent warp
code should cost what they cost before (one pass); files with arch paths pay
the extra passes.

A measurement, not a test: it asserts nothing. The machine's load (uptime)
is printed first and last, since a loaded machine makes every figure noisy.
Usage:
    bench/arch_passes.py --baseline OLD/warp-tidy --current build/bin/warp-tidy FILE...
"""
import argparse
import os
import re
import statistics
import subprocess
import time


def wall(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def passes(tool, path, flags):
    cmd = [tool, "--no-cache", "--exit-zero", "--pass-stats", path]
    if flags:
        cmd += ["--", *flags]
    out = subprocess.run(cmd, capture_output=True, text=True).stderr
    m = re.search(r"stats: .*?: (\d+) analysis pass", out)
    return int(m.group(1)) if m else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--current", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--flags", default="", help="compiler flags after --, space separated")
    args = ap.parse_args()
    flags = args.flags.split()
    print("load before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print(f"{'file':40} {'passes':>6} {'base s':>8} {'now s':>8} {'ratio':>6}")
    for path in args.files:
        def cmd(tool):
            c = [tool, "--no-cache", "--exit-zero", "--quiet", path]
            return c + (["--", *flags] if flags else [])
        base, now = [], []
        for _ in range(args.runs):
            base.append(wall(cmd(args.baseline)))
            now.append(wall(cmd(args.current)))
        b, n = statistics.median(base), statistics.median(now)
        print(f"{os.path.relpath(path):40} {passes(args.current, path, flags):>6} "
              f"{b:8.2f} {n:8.2f} {n / b:6.2f}")
    print("load after:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
