#!/usr/bin/env python3
"""The project's own lint: format, the project's clang-tidy checks, include layers.

    python3 scripts/lint.py --build build [--base REF | --all]

* clang-format-22 (the repository's .clang-format) on every C++ source of
  checks/, tool/ and test/unit/: it takes a second or two, so all of them.
  Lit inputs, examples and runtime-validation kernels are not formatted: their
  line numbers are part of what their tests check.
* clang-tidy-22 (scripts/lint/clang-tidy.yaml) on the .cpp files of those
  folders that changed since REF (default: the merge base with origin/main
  when there is one, else the parent commit), with the build's
  compile_commands.json. --all lints every file (slow: a parse per file).
* scripts/check_includes.py: the analysis layers and include cycles.

Exit status 0 when all three are clean; every finding is printed.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ("checks", "tool", "test/unit")
CXX_EXTS = (".cpp", ".h")


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)


def tracked_sources():
    out = git("ls-files", "--", *FOLDERS).stdout.split()
    return [f for f in out if f.endswith(CXX_EXTS)]


def default_base():
    """The commit a change is measured against, or None in a one-commit clone."""
    merge_base = git("merge-base", "HEAD", "origin/main")
    if merge_base.returncode == 0:
        base = merge_base.stdout.strip()
        if base != git("rev-parse", "HEAD").stdout.strip():
            return base
    parent = git("rev-parse", "--verify", "-q", "HEAD~1")
    return parent.stdout.strip() if parent.returncode == 0 else None


def changed_sources(base):
    """Sources changed since base, plus uncommitted ones."""
    names = set()
    if base:
        names.update(git("diff", "--name-only", base, "--", *FOLDERS).stdout.split())
    names.update(git("diff", "--name-only", "HEAD", "--", *FOLDERS).stdout.split())
    return sorted(f for f in names if f.endswith(CXX_EXTS) and os.path.exists(os.path.join(ROOT, f)))


def check_format(files):
    bad = []
    for f in files:
        proc = subprocess.run(["clang-format-22", "--dry-run", "--Werror", f], cwd=ROOT,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            bad.append(f)
            sys.stdout.write(proc.stderr[:2000])
    print(f"lint: format: {len(files)} files, {len(bad)} not formatted")
    if bad:
        print("lint: run: clang-format-22 -i " + " ".join(bad))
    return not bad


def tidy_one(build, f):
    config = os.path.join(ROOT, "scripts", "lint", "clang-tidy.yaml")
    proc = subprocess.run(["clang-tidy-22", "-p", build, "--quiet", f"--config-file={config}", f],
                          cwd=ROOT,
                          capture_output=True, text=True)
    return f, proc.returncode, proc.stdout


def check_tidy(build, files, jobs):
    # Headers are linted through the .cpp files that include them.
    units = [f for f in files if f.endswith(".cpp")]
    if not units:
        print("lint: clang-tidy: no changed source file")
        return True
    if not os.path.exists(os.path.join(build, "compile_commands.json")):
        print(f"lint: clang-tidy needs {build}/compile_commands.json (build first)")
        return False
    failed = []
    # A line per file as it finishes: clang-tidy takes a while per file, and
    # scripts/test.sh must not sit silent meanwhile.
    print(f"lint: clang-tidy: {len(units)} files", flush=True)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        runs = [pool.submit(tidy_one, build, f) for f in units]
        for n, run in enumerate(concurrent.futures.as_completed(runs), 1):
            f, rc, out = run.result()
            print(f"lint: clang-tidy: [{n}/{len(units)}] {f}", flush=True)
            if rc != 0:
                failed.append(f)
                sys.stdout.write(out)
    print(f"lint: clang-tidy: {len(units)} files, {len(failed)} with findings")
    return not failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--base", help="lint the files changed since this commit")
    parser.add_argument("--all", action="store_true", help="lint every file")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()

    everything = tracked_sources()
    if args.all:
        to_tidy = everything
    else:
        to_tidy = changed_sources(args.base or default_base())
    ok = check_format(everything)
    ok = check_tidy(os.path.abspath(args.build), to_tidy, args.jobs) and ok
    layers = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "check_includes.py")])
    ok = layers.returncode == 0 and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
