#!/usr/bin/env python3
"""A CI job killed half-way: warp-tidy must have printed the finished files'
findings, and on SIGTERM/SIGINT write its report of what is finished.

Usage: interrupt_scenario.py <warp-tidy> <signal: TERM|INT> <format> <out> <files...>
The last file hangs (WARP_TIDY_TEST_HANG_IN_WORKER is set by the caller).
Waits until the first file's result has been shown (the text finding on
stdout, or the progress line on stderr for json/sarif), sends the signal,
and prints what happened for FileCheck.
"""
import os
import select
import signal
import subprocess
import sys
import time


def main() -> int:
    tool, sig, fmt, out = sys.argv[1:5]
    files = sys.argv[5:]
    cmd = [tool, "--no-cache", "-j2", "--format=" + fmt]
    if fmt != "text":
        cmd.append("--output=" + out)
    proc = subprocess.Popen(cmd + files, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    # Text: the finding streams to stdout. Other formats: the progress line.
    watched = proc.stdout if fmt == "text" else proc.stderr
    seen = b""
    deadline = time.time() + 120
    while b"zero.cu" not in seen and time.time() < deadline:
        ready, _, _ = select.select([watched], [], [], 1.0)
        if ready:
            chunk = os.read(watched.fileno(), 65536)
            if not chunk:
                break
            seen += chunk
    if b"zero.cu" not in seen:
        proc.kill()
        print("FIRST FILE NOT SHOWN WHILE THE RUN WAS GOING ON")
        print(seen.decode(errors="replace"))
        return 1
    print("STILL RUNNING" if proc.poll() is None else "ALREADY EXITED")
    if fmt == "text":
        print("STREAMED " + seen.decode(errors="replace").splitlines()[0])
    if sig == "TERM":
        # A CI runner's timeout: the signal goes to warp-tidy alone.
        proc.send_signal(signal.SIGTERM)
    else:
        # Ctrl-C: the terminal signals the whole process group, workers too.
        os.killpg(proc.pid, signal.SIGINT)
    try:
        rest_out, rest_err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        print("DID NOT STOP AFTER THE SIGNAL")
        return 1
    print("EXIT", proc.returncode)
    sys.stdout.write((rest_err if fmt == "text" else seen + rest_err).decode(errors="replace"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
