#!/usr/bin/env python3
"""A minimal LSP client: opens one file in a clangd and prints what it publishes.

Usage: lsp_client.py --clangd BIN --file F [--timeout S] [--want-code PREFIX]

Speaks JSON-RPC over stdio as an editor does (initialize, initialized,
textDocument/didOpen), waits for textDocument/publishDiagnostics for the file
that contains a diagnostic whose code starts with --want-code (default
"warp-"), or for the timeout, then prints each diagnostic of the last
publication as `<line>:<col>: <severity>: <message> [<code>]` (1-based
positions, like the command line) and shuts the server down. Exit 0 when
such a diagnostic arrived, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import time
import queue

SEVERITY = {1: "error", 2: "warning", 3: "note", 4: "hint"}


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def reader(stream, out):
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                out.put(None)
                return
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        if length is None:
            continue
        out.put(json.loads(stream.read(length)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clangd", required=True)
    ap.add_argument("--file", required=True)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--want-code", default="warp-")
    args = ap.parse_args()

    path = os.path.abspath(args.file)
    uri = "file://" + path
    root = os.path.dirname(path)
    proc = subprocess.Popen(
        [args.clangd, "--log=error", "--background-index=false", "--enable-config",
         f"--compile-commands-dir={root}"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root)
    messages = queue.Queue()
    threading.Thread(target=reader, args=(proc.stdout, messages), daemon=True).start()

    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": os.getpid(), "rootUri": "file://" + root,
                           "capabilities": {}}})
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    with open(path) as f:
        text = f.read()
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": {"textDocument": {"uri": uri, "languageId": "cuda",
                                            "version": 1, "text": text}}})

    deadline = time.time() + args.timeout
    last = None
    found = False
    while time.time() < deadline and not found:
        try:
            msg = messages.get(timeout=max(0.1, deadline - time.time()))
        except queue.Empty:
            break
        if msg is None:
            print("lsp_client: server exited", file=sys.stderr)
            break
        if msg.get("method") == "textDocument/publishDiagnostics" and \
                msg["params"]["uri"] == uri:
            last = msg["params"]["diagnostics"]
            found = any(str(d.get("code", "")).startswith(args.want_code) for d in last)

    for d in last or []:
        start = d["range"]["start"]
        print("%d:%d: %s: %s [%s]" % (start["line"] + 1, start["character"] + 1,
                                      SEVERITY.get(d.get("severity"), "?"),
                                      d["message"].splitlines()[0], d.get("code", "")))
    try:
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        send(proc, {"jsonrpc": "2.0", "method": "exit"})
        proc.wait(timeout=10)
    except Exception:
        proc.kill()
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
