#!/usr/bin/env python3
"""Runs a command with its stderr on a pseudo-terminal 100 columns wide (or,
with --no-tty, on a pipe) and prints what stderr received, one line per
redraw: each "\\r ESC[K" (clear the line) starts a line marked <EL>. Then
"EXIT <status>". stdout is discarded.

Usage: tty_progress.py [--no-tty] <command> [args...]
"""
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios


def run_on_terminal(command):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=slave)
    os.close(slave)
    data = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the command's side of the terminal is closed
            break
        if not chunk:
            break
        data += chunk
    # The terminal turns "\n" into "\r\n".
    return proc.wait(), data.replace(b"\r\n", b"\n")


def main():
    args = sys.argv[1:]
    if args[0] == "--no-tty":
        proc = subprocess.run(args[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        rc, data = proc.returncode, proc.stderr
    else:
        rc, data = run_on_terminal(args)
    text = data.decode("utf-8", "replace").replace("\r\x1b[K", "\n<EL>")
    print(text)
    print(f"EXIT {rc}")


if __name__ == "__main__":
    main()
