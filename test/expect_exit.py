#!/usr/bin/env python3
"""Runs a command and fails unless it exits with the expected status.

Usage: expect_exit.py <status> <command> [args...]
The command's stdout and stderr are passed through (stderr merged into stdout
so FileCheck sees both), which lets a lit RUN line pin an exit status and the
output together:  %expect_exit 2 %warp_tidy missing.cu | FileCheck %s
A status of "crash" is never accepted: signals always fail.
"""
import subprocess
import sys


def main() -> int:
    want = int(sys.argv[1])
    try:
        proc = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=600)
    except subprocess.TimeoutExpired:
        print("expect_exit: command timed out (hang)", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(proc.stdout)
    if proc.returncode < 0:
        print(f"expect_exit: command died of signal {-proc.returncode}", file=sys.stderr)
        return 1
    if proc.returncode != want:
        print(f"expect_exit: exit status {proc.returncode}, expected {want}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
