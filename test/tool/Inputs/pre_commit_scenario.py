#!/usr/bin/env python3
"""Drives the real `pre-commit` tool against a scratch git repository.

Usage: pre_commit_scenario.py <warp-tidy repo root> <warp-tidy binary> <scratch dir>

1. A hook repository: a git repository holding a copy of the project's
   .pre-commit-hooks.yaml, committed (pre-commit clones `repo:` and checks
   out `rev:`, so it must be a git repository with a commit).
2. A user repository whose .pre-commit-config.yaml points at it by path,
   passing `-p build` through `args`; build/compile_commands.json defines
   MASK=0 for kernel.cu, as a real project's build would.
3. `pre-commit install`, then commits: a clean non-CUDA file (hook skipped),
   kernel.cu with the zero mask (commit refused), kernel.cu fixed (commit
   accepted).
Everything stays inside the scratch directory (PRE_COMMIT_HOME, git
identity); nothing touches the network (language: system).
"""
import json
import os
import shutil
import subprocess
import sys

root, warp_tidy, scratch = sys.argv[1:4]
hooks = os.path.join(scratch, "hooks")
work = os.path.join(scratch, "work")
os.makedirs(hooks)
os.makedirs(os.path.join(work, "build"))

env = dict(os.environ)
env["PATH"] = os.path.dirname(os.path.abspath(warp_tidy)) + os.pathsep + env.get("PATH", "")
env["PRE_COMMIT_HOME"] = os.path.join(scratch, "pre-commit-home")
env["HOME"] = scratch  # no user git config or pre-commit cache leaks in
env["XDG_CACHE_HOME"] = os.path.join(scratch, "xdg-cache")
for k in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
    env[k] = "warp-tidy test"
for k in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
    env[k] = "test@example.invalid"
env.pop("GIT_DIR", None)
env.pop("GIT_INDEX_FILE", None)


def run(args, cwd, check=True):
    p = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if check and p.returncode != 0:
        print(p.stdout)
        raise SystemExit(f"failed: {args} -> {p.returncode}")
    return p


shutil.copy(os.path.join(root, ".pre-commit-hooks.yaml"), hooks)
run(["git", "init", "-q"], hooks)
run(["git", "add", "."], hooks)
run(["git", "commit", "-q", "-m", "hooks"], hooks)
rev = run(["git", "rev-parse", "HEAD"], hooks).stdout.strip()

run(["git", "init", "-q"], work)
with open(os.path.join(work, ".pre-commit-config.yaml"), "w") as f:
    f.write(f"""repos:
  - repo: {hooks}
    rev: {rev}
    hooks:
      - id: warp-tidy
        args: [-p, build]
""")
kernel = os.path.join(work, "kernel.cu")
with open(kernel, "w") as f:
    f.write("__global__ void k(unsigned *out, int v) {\n"
            "  out[threadIdx.x] = __ballot_sync(MASK, v > 0);\n"
            "}\n")
with open(os.path.join(work, "build", "compile_commands.json"), "w") as f:
    json.dump([{"directory": os.path.join(work, "build"), "file": kernel,
                "command": f"nvcc -DMASK=0 -c {kernel} -o kernel.o"}], f)
with open(os.path.join(work, ".gitignore"), "w") as f:
    f.write("build/\n")
with open(os.path.join(work, "README.md"), "w") as f:
    f.write("scratch\n")
# The team's clang-tidy configuration, which names no warp- check: it must
# not switch the hook off (it used to: "Passed" on a zero mask).
with open(os.path.join(work, ".clang-tidy"), "w") as f:
    f.write("Checks: '-*,bugprone-*,performance-*'\n")

run(["pre-commit", "install"], work)
run(["git", "add", ".pre-commit-config.yaml", ".gitignore", "README.md", ".clang-tidy"], work)
p = run(["git", "commit", "-m", "docs only"], work, check=False)
print(f"COMMIT docs: exit {p.returncode}")
print(p.stdout)

run(["git", "add", "kernel.cu"], work)
p = run(["git", "commit", "-m", "zero mask"], work, check=False)
print(f"COMMIT zero-mask: exit {p.returncode}")
print(p.stdout)

with open(kernel, "w") as f:
    f.write("__global__ void k(unsigned *out, int v) {\n"
            "  out[threadIdx.x] = __ballot_sync(0xffffffffu, v > 0);\n"
            "}\n")
run(["git", "add", "kernel.cu"], work)
p = run(["git", "commit", "-m", "fixed"], work, check=False)
print(f"COMMIT fixed: exit {p.returncode}")
print(p.stdout)
print("LOG", run(["git", "log", "--format=%s"], work).stdout.replace("\n", "|"))

# Adoption: old.cu has an old finding, committed before the hook existed.
# With the warp-tidy-changed-lines hook a commit that touches other lines of
# old.cu passes; one that adds a finding is refused.
old = os.path.join(work, "old.cu")
old_text = ("__global__ void old(unsigned *out, int v) {\n"
            "  out[threadIdx.x] = __ballot_sync(0, v > 0);\n"
            "}\n")
with open(old, "w") as f:
    f.write(old_text)
run(["git", "add", "old.cu"], work)
run(["git", "commit", "-q", "--no-verify", "-m", "old code"], work)
with open(os.path.join(work, ".pre-commit-config.yaml"), "w") as f:
    f.write(f"""repos:
  - repo: {hooks}
    rev: {rev}
    hooks:
      - id: warp-tidy-changed-lines
""")
run(["git", "add", ".pre-commit-config.yaml"], work)
with open(old, "w") as f:
    f.write(old_text + "__global__ void added(unsigned *out, int v) {\n"
            "  out[threadIdx.x] = __ballot_sync(0xffffffffu, v > 0);\n}\n")
run(["git", "add", "old.cu"], work)
p = run(["git", "commit", "-m", "touch old"], work, check=False)
print(f"COMMIT touch-old: exit {p.returncode}")
print(p.stdout)
with open(old, "a") as f:
    f.write("__global__ void bad(unsigned *out, int v) {\n"
            "  out[threadIdx.x] = __any_sync(0, v > 0);\n}\n")
run(["git", "add", "old.cu"], work)
p = run(["git", "commit", "-m", "new bug"], work, check=False)
print(f"COMMIT new-bug: exit {p.returncode}")
print(p.stdout)

# CI: a bug committed past the hook (--no-verify). `pre-commit run
# --from-ref/--to-ref` judges the lines between the refs (the old finding on
# line 2 stays out); `pre-commit run --all-files` judges whole files.
run(["git", "commit", "-q", "--no-verify", "-m", "bug slipped in"], work)
p = run(["pre-commit", "run", "--from-ref", "HEAD~1", "--to-ref", "HEAD"], work, check=False)
print(f"RUN from-to: exit {p.returncode}")
print(p.stdout)
p = run(["pre-commit", "run", "--all-files"], work, check=False)
print(f"RUN all-files: exit {p.returncode}")
print(p.stdout)
