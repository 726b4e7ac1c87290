#!/usr/bin/env python3
"""Editor latency: warp-clangd against stock clangd-22 on the same files.

For each file, measures over LSP (as an editor sees it) the time from
textDocument/didOpen to the first publishDiagnostics, and from an edit
(textDocument/didChange: a line appended at the end of the file) to the
diagnostics of that version. Three servers per file, interleaved run by run
so that load from other processes falls on all three alike:

  clangd-22      stock clangd, given the translated compile command
                 (warp-tidy --export-compile-commands): the same parse, without
                 the warp checks; its own default checks run as usual
  warp-clangd    the same translated command, with the warp checks
  warp-clangd/nvcc  warp-clangd reading the nvcc command directly (the
                 no-setup path: translation on the fly)

Each run starts a fresh server (no preamble cached on disk between runs:
--pch-storage=memory). Medians of --runs runs are printed as a Markdown table.
This is a measurement, not a test: it asserts nothing.

Usage: bench/editor_latency.py [--build build] [--runs 7] [--case "FILE NVCC-FLAGS"]...
  with no --case: the test project's kernel and examples/block_reduce.cu;
  --case takes a file and its nvcc flags in one shell-quoted string, e.g.
  --case "src/ggml-cuda/mmvq.cu -Iinclude -Isrc -Isrc/ggml-cuda -arch=sm_75".
"""
import argparse
import json
import os
import queue
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "test", "lsp"))
from lsp_client import reader, send  # noqa: E402

NVCC = "/usr/local/cuda/bin/nvcc"


def wait_for(messages, predicate, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            msg = messages.get(timeout=max(0.05, deadline - time.time()))
        except queue.Empty:
            break
        if msg is None:
            raise RuntimeError("server exited")
        if predicate(msg):
            return msg
    raise RuntimeError("timed out")


def measure(server, cdb_dir, path, config_home):
    """One fresh server: (seconds open->diagnostics, seconds edit->diagnostics, count)."""
    uri = "file://" + path
    env = dict(os.environ, XDG_CONFIG_HOME=config_home)
    proc = subprocess.Popen(
        [server, "--log=error", "--background-index=false", "--pch-storage=memory",
         f"--compile-commands-dir={cdb_dir}"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        cwd=os.path.dirname(path), env=env)
    messages = queue.Queue()
    threading.Thread(target=reader, args=(proc.stdout, messages), daemon=True).start()
    try:
        send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"processId": os.getpid(), "rootUri": None, "capabilities": {}}})
        wait_for(messages, lambda m: m.get("id") == 1, 60)
        send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        text = open(path).read()

        def published(version):
            return lambda m: (m.get("method") == "textDocument/publishDiagnostics"
                              and m["params"]["uri"] == uri
                              and m["params"].get("version") == version)

        start = time.perf_counter()
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                    "params": {"textDocument": {"uri": uri, "languageId": "cuda",
                                                "version": 1, "text": text}}})
        first = wait_for(messages, published(1), 300)
        opened = time.perf_counter() - start

        text += "\n// an edit\n"
        start = time.perf_counter()
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": uri, "version": 2},
                               "contentChanges": [{"text": text}]}})
        wait_for(messages, published(2), 300)
        edited = time.perf_counter() - start
        return opened, edited, len(first["params"]["diagnostics"])
    finally:
        try:
            send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
            send(proc, {"jsonrpc": "2.0", "method": "exit"})
            proc.wait(timeout=20)
        except Exception:
            proc.kill()
            proc.wait()


def prepare(warp_tidy, work, path, flags):
    """nvcc and translated databases for one file, in their own directories."""
    nvcc_dir = os.path.join(work, "nvcc")
    clang_dir = os.path.join(work, "clang")
    os.makedirs(nvcc_dir)
    command = [NVCC, *flags, "-x", "cu", "-c", path, "-o", os.path.join(work, "out.o")]
    with open(os.path.join(nvcc_dir, "compile_commands.json"), "w") as f:
        json.dump([{"directory": os.path.dirname(path), "arguments": command, "file": path}], f)
    subprocess.run([warp_tidy, "--quiet", "--exit-zero", "--no-cache", "-p", nvcc_dir,
                    f"--export-compile-commands={clang_dir}", path],
                   check=True, stdout=subprocess.DEVNULL)
    return nvcc_dir, clang_dir


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--clangd", default=shutil.which("clangd-22") or "/usr/lib/llvm-22/bin/clangd")
    ap.add_argument("--case", action="append", default=[], metavar='"FILE FLAGS"')
    args = ap.parse_args()
    warp_clangd = os.path.join(args.build, "bin", "warp-clangd")
    warp_tidy = os.path.join(args.build, "bin", "warp-tidy")

    cases = []
    for c in args.case:
        words = shlex.split(c)
        cases.append((os.path.abspath(words[0]), words[1:]))
    if not cases:
        kernel = os.path.join(REPO, "test", "lsp", "Inputs", "cmake-like")
        cases = [(os.path.join(kernel, "src", "kernels.cu"),
                  ["-I" + os.path.join(kernel, "include"), "-DFIXTURE_MASK=0",
                   "-gencode", "arch=compute_75,code=sm_75",
                   "-gencode", "arch=compute_80,code=sm_80"]),
                 (os.path.join(REPO, "examples", "block_reduce.cu"), ["-arch=sm_75"])]

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        config_home = os.path.join(tmp, "config")  # no user clangd config
        os.makedirs(config_home)
        for index, (path, flags) in enumerate(cases):
            work = os.path.join(tmp, str(index))
            nvcc_dir, clang_dir = prepare(warp_tidy, work, path, flags)
            servers = [("clangd-22", args.clangd, clang_dir),
                       ("warp-clangd", warp_clangd, clang_dir),
                       ("warp-clangd/nvcc", warp_clangd, nvcc_dir)]
            samples = {name: [] for name, _, _ in servers}
            for run in range(args.runs):
                for name, server, cdb in servers:
                    samples[name].append(measure(server, cdb, path, config_home))
                print(f"  {os.path.basename(path)}: run {run + 1}/{args.runs}", file=sys.stderr)
            base_open = statistics.median(s[0] for s in samples["clangd-22"])
            base_edit = statistics.median(s[1] for s in samples["clangd-22"])
            for name, _, _ in servers:
                opened = statistics.median(s[0] for s in samples[name])
                edited = statistics.median(s[1] for s in samples[name])
                rows.append((os.path.relpath(path, REPO) if path.startswith(REPO) else path,
                             name, opened, opened / base_open, edited, edited / base_edit,
                             samples[name][0][2]))

    print(f"| file | server | open -> diagnostics | vs clangd-22 | edit -> diagnostics "
          f"| vs clangd-22 | diagnostics |")
    print("|---|---|---|---|---|---|---|")
    for file, name, opened, r_open, edited, r_edit, count in rows:
        print(f"| {file} | {name} | {opened:.2f} s | {r_open:.2f}x | {edited:.2f} s "
              f"| {r_edit:.2f}x | {count} |")
    print(f"\nmedians of {args.runs} runs; {os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
