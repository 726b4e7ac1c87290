#!/usr/bin/env python3
"""Runs one warp-* check on a test file and verifies its diagnostics.

Usage (from lit): %check_warp_tidy <file.cu> <check-glob> [-- compiler args]

Expected diagnostics live in the test file next to the code, clang-tidy style:

    __ballot_sync(0, p);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: __ballot_sync is called with a mask {{.*}} [warp-zero-mask]

Any warning or error that no CHECK-MESSAGES line expects fails the test, so
must-stay-silent cases need no annotation: silence is asserted by default.
"""
import os
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, checks = sys.argv[1], sys.argv[2]
    rest = sys.argv[3:]
    extra = []
    if "--" in rest:
        extra = rest[rest.index("--") + 1:]
        rest = rest[:rest.index("--")]
    tool = os.environ["WARP_TIDY"]
    filecheck = os.environ["FILECHECK"]
    prefixes = [a.split("=", 1)[1] for a in rest if a.startswith("--check-prefix=")]
    tool_flags = [a for a in rest if not a.startswith("--check-prefix=")]
    prefix = ",".join(prefixes) if prefixes else "CHECK-MESSAGES"

    cmd = [tool, "--quiet", "--exit-zero", f"--checks=-*,{checks}", *tool_flags, source]
    if extra:
        cmd += ["--", *extra]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = proc.stdout
    sys.stdout.write(output)
    if proc.returncode != 0:
        print(f"check_warp_tidy: warp-tidy exited {proc.returncode}", file=sys.stderr)
        return 1
    # The source text itself is the pattern file.
    fc = subprocess.run(
        [filecheck, source, f"--check-prefixes={prefix}",
         "--implicit-check-not={{warning|error}}:", "--dump-input=fail"],
        input=output, text=True)
    return fc.returncode


if __name__ == "__main__":
    sys.exit(main())
