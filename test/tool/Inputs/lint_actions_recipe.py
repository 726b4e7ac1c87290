#!/usr/bin/env python3
"""Lints the GitHub Actions recipe for warp-tidy (no GitHub here).

Usage: lint_actions_recipe.py <workflow.yml> <integration.md> <tool/CMakeLists.txt>
Prints one line per property it found and RECIPE OK, or what is wrong.
"""
import re
import sys

import yaml


def main() -> int:
    path, docs = sys.argv[1], sys.argv[2]
    text = open(path).read()
    wf = yaml.safe_load(text)
    problems = []
    jobs = wf.get("jobs", {})
    if len(jobs) != 1:
        problems.append("expected one job")
    job = next(iter(jobs.values()))
    steps = job.get("steps", [])
    for s in steps:
        if not isinstance(s, dict) or not ("run" in s or "uses" in s):
            problems.append(f"step without run/uses: {s}")

    # scripts/setup.sh installs Debian 12 packages: the job must be Debian 12.
    container = job.get("container")
    image = container.get("image") if isinstance(container, dict) else container
    if image and image.startswith("debian:bookworm"):
        print("container", image)
    else:
        problems.append("the job does not run in Debian 12 (scripts/setup.sh is Debian-only)")

    runs = "\n".join(s.get("run", "") for s in steps)
    if re.search(r"cuda-cudart-dev-\d+-\d+", runs) and "CUDA_PATH" in runs:
        print("cuda headers installed")
    else:
        problems.append("no CUDA headers installed (warp-tidy needs them)")

    caches = [s for s in steps if str(s.get("uses", "")).startswith("actions/cache@")]
    if any("WARP_TIDY_REV" in str(c.get("with", {}).get("key", "")) for c in caches):
        print("package cached per warp-tidy commit")
    else:
        problems.append("the warp-tidy build is not cached")
    if any(c.get("with", {}).get("path") == "~/.cache/warp-tidy" for c in caches):
        print("result cache")
    else:
        problems.append("warp-tidy's result cache is not kept")
    build = [s for s in steps if "cpack" in s.get("run", "")]
    if not build or "cache-hit" not in str(build[0].get("if", "")):
        problems.append("the package is rebuilt even on a cache hit")
    # cpack installs every target that tool/CMakeLists.txt installs: the
    # build step must make each of them, or cpack fails.
    installed = set()
    cmake_lists = open(sys.argv[3]).read() if len(sys.argv) > 3 else ""
    for m in re.finditer(r"install\(TARGETS ([^)]*?) (?:RUNTIME|LIBRARY)", cmake_lists):
        installed.update(m.group(1).split())
    script = build[0].get("run", "") if build else ""
    built = re.search(r"scripts/build\.sh ([^\n]*)", script)
    missing = sorted(t for t in installed if not built or t not in built.group(1).split())
    if installed and not missing:
        print("package builds every installed target:", " ".join(sorted(installed)))
    else:
        problems.append(f"the package build does not make {missing or 'the installed targets'}")
    if re.search(r"-DWARP_TIDY_DOCS_URL=\S*https://", script):
        print("published check pages")
    else:
        problems.append("the package links its check pages to no published base")

    tidy = [s for s in steps if s.get("run", "").startswith("warp-tidy ")]
    upload = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    out = re.search(r"--output=(\S+)", tidy[0]["run"]) if tidy else None
    if (out and "--format=sarif" in tidy[0]["run"] and upload
            and upload[0].get("with", {}).get("sarif_file") == out.group(1)
            and "always()" in str(upload[0].get("if", ""))
            and job.get("permissions", {}).get("security-events") == "write"):
        print(f"sarif {out.group(1)} uploaded always, security-events write")
    else:
        problems.append("SARIF is not produced and uploaded on every run")

    if text.strip() in open(docs).read():
        print("docs show the file")
    else:
        problems.append("docs/integration.md does not show docs/ci/github-actions.yml as it is")

    for p in problems:
        print("RECIPE PROBLEM:", p)
    if not problems:
        print("RECIPE OK")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
