#!/usr/bin/env python3
"""A minimal LSP client: opens one file in a clangd and prints what it publishes.

Usage: lsp_client.py --clangd BIN --file F [--timeout S] [--want-code PREFIX]
                     [--compile-commands-dir DIR|none] [--first] [--links]
                     [--code-actions]

Speaks JSON-RPC over stdio as an editor does (initialize, initialized,
textDocument/didOpen), waits for textDocument/publishDiagnostics for the file
that contains a diagnostic whose code starts with --want-code (default
"warp-"), or for the timeout, then prints each diagnostic of the last
publication as `<line>:<col>: <severity>: <message> [<code>]` (1-based
positions, like the command line) and shuts the server down. Exit 0 when
such a diagnostic arrived, 1 otherwise.

--compile-commands-dir: passed to clangd (default: the file's directory;
`none`: not passed, clangd searches the file's ancestors and their build/
directories, as it does for an editor started without flags).
--first: stop at the first publication for the file, whatever it holds (to
assert silence; clangd publishes once the AST and its tidy checks are done),
and exit 0 when one arrived. A line `published N diagnostic(s)` precedes the
diagnostics, so that a silent publication is still a positive observation.
--links: print each diagnostic's documentation link (codeDescription.href)
on a `  link: ` line after it.
--code-actions: ask for the quick fixes of each diagnostic with a code and
print their titles on `  fix: ` lines.
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
    ap.add_argument("--compile-commands-dir")
    ap.add_argument("--first", action="store_true")
    ap.add_argument("--links", action="store_true")
    ap.add_argument("--code-actions", action="store_true")
    args = ap.parse_args()

    path = os.path.abspath(args.file)
    uri = "file://" + path
    root = os.path.dirname(path)
    command = [args.clangd, "--log=error", "--background-index=false", "--enable-config"]
    cdb_dir = args.compile_commands_dir or root
    if cdb_dir != "none":
        command.append(f"--compile-commands-dir={os.path.abspath(cdb_dir)}")
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        cwd=root)
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

    def next_message():
        try:
            msg = messages.get(timeout=max(0.1, deadline - time.time()))
        except queue.Empty:
            return None
        if msg is None:
            print("lsp_client: server exited", file=sys.stderr)
        return msg

    last = None
    found = False
    while time.time() < deadline and not found:
        msg = next_message()
        if msg is None:
            break
        if msg.get("method") == "textDocument/publishDiagnostics" and \
                msg["params"]["uri"] == uri:
            last = msg["params"]["diagnostics"]
            found = args.first or \
                any(str(d.get("code", "")).startswith(args.want_code) for d in last)

    if last is not None:
        print("published %d diagnostic(s)" % len(last))
    request_id = 100
    for d in last or []:
        start = d["range"]["start"]
        print("%d:%d: %s: %s [%s]" % (start["line"] + 1, start["character"] + 1,
                                      SEVERITY.get(d.get("severity"), "?"),
                                      d["message"].splitlines()[0], d.get("code", "")))
        if args.links:
            print("  link: %s" % d.get("codeDescription", {}).get("href", "-"))
        if args.code_actions and d.get("code"):
            request_id += 1
            send(proc, {"jsonrpc": "2.0", "id": request_id, "method": "textDocument/codeAction",
                        "params": {"textDocument": {"uri": uri}, "range": d["range"],
                                   "context": {"diagnostics": [d]}}})
            while time.time() < deadline:
                msg = next_message()
                if msg is None:
                    break
                if msg.get("id") == request_id:
                    for action in msg.get("result") or []:
                        print("  fix: %s" % action.get("title"))
                    break
    try:
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        send(proc, {"jsonrpc": "2.0", "method": "exit"})
        proc.wait(timeout=10)
    except Exception:
        proc.kill()
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
