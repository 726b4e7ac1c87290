#!/usr/bin/env python3
"""Runs a ninja build and shows how far it is, without minutes of silence
and without a thousand lines of noise.

    build_progress.py [--log FILE] ninja -C build [targets...]

* On a terminal: one line, redrawn in place (`build: [45/111] Building ...`).
* Otherwise (CI logs, scripts/try.sh): a line at each tenth of the steps, and
  one at least every 30 seconds while a step runs, so a log never sits still.
* Compiler warnings of steps that succeed are shown as they come.
* A failed step: its command and the tail of its output (the compiler's
  error), then `build: FAILED`; the exit status is ninja's.
--log keeps ninja's whole output in FILE.
"""
import argparse
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

STATUS = re.compile(r"^\[(\d+)/(\d+)\] (.*)$")
FAILED_TAIL = 40  # lines of a failed command's output shown
# The longest silence in a log (the test of this script shortens it).
QUIET_SECONDS = float(os.environ.get("WARP_TIDY_BUILD_QUIET_SECONDS", "30"))


def duration(seconds):
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class Display:
    """Where progress goes: one redrawn line on a terminal, lines otherwise."""

    def __init__(self):
        self.terminal = sys.stdout.isatty()
        self.drawn = False
        self.last_line = time.monotonic()
        self.last_tenth = -1

    def say(self, text):
        self.clear()
        print(text, flush=True)
        self.last_line = time.monotonic()

    def clear(self):
        if self.drawn:
            sys.stdout.write("\r\x1b[K")
            self.drawn = False

    def progress(self, done, total, what, start):
        line = f"build: [{done}/{total}] {what}"
        if self.terminal:
            width = shutil.get_terminal_size((100, 24)).columns - 1
            sys.stdout.write("\r\x1b[K" + line[:width])
            sys.stdout.flush()
            self.drawn = True
            return
        tenth = done * 10 // max(total, 1)
        quiet = time.monotonic() - self.last_line >= QUIET_SECONDS
        if tenth != self.last_tenth or quiet:
            self.last_tenth = tenth
            self.say(f"{line} ({duration(time.monotonic() - start)})")

    def still_running(self, done, total, start):
        # A long step (a link, a big file) in a log: say it is still going.
        if not self.terminal and time.monotonic() - self.last_line >= QUIET_SECONDS:
            self.say(f"build: [{done}/{total}] still building "
                     f"({duration(time.monotonic() - start)})")


def read_lines(stream, lines):
    for raw in iter(stream.readline, b""):
        lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
    lines.put(None)


def show_failure(display, block):
    """A FAILED: block: the target, the command, the tail of the output."""
    head, command, output = block[0], block[1:2], block[2:]
    display.say(head)
    for line in command:
        display.say(line if len(line) <= 300 else line[:300] + " ...")
    if len(output) > FAILED_TAIL:
        display.say(f"... ({len(output) - FAILED_TAIL} earlier line(s) in the log)")
    for line in output[-FAILED_TAIL:]:
        display.say(line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    log = open(args.log, "w") if args.log else None
    display = Display()
    start = time.monotonic()
    proc = subprocess.Popen(args.command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = queue.Queue()
    threading.Thread(target=read_lines, args=(proc.stdout, lines), daemon=True).start()
    done = total = 0
    failure = None  # the lines of the FAILED: block being read
    failures = 0
    while True:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            display.still_running(done, total, start)
            continue
        if line is None:
            break
        if log:
            log.write(line + "\n")
        status = STATUS.match(line)
        if failure is not None and (status or line.startswith("ninja: ")):
            show_failure(display, failure)
            failure = None
        if status:
            done, total = int(status.group(1)), int(status.group(2))
            display.progress(done, total, status.group(3), start)
        elif line.startswith("FAILED: "):
            failure = [line]
            failures += 1
        elif failure is not None:
            failure.append(line)
        elif line == "ninja: no work to do.":
            display.say("build: up to date")
        elif line.startswith("ninja: Entering directory"):
            pass
        else:
            display.say(line)  # a warning, or ninja's own message
    if failure is not None:
        show_failure(display, failure)
    rc = proc.wait()
    elapsed = duration(time.monotonic() - start)
    where = f"; whole output in {args.log}" if args.log else ""
    if rc != 0:
        display.say(f"build: FAILED ({failures} failed step(s), exit {rc}) after {elapsed}{where}")
    elif done:
        display.say(f"build: done, {done} step(s) in {elapsed}")
    display.clear()
    return rc


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # ninja, in the same process group, stops too
        sys.exit(130)
