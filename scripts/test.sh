#!/usr/bin/env bash
# README command 2 (and .ci/run): install what is needed, build everything,
# run the unit tests and the lit suite, print one summary line.
# Tests that need a GPU, nvcc or clang-tidy-22 report themselves as skipped
# (lit UNSUPPORTED) when those are absent; they never pass silently.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${WARP_TIDY_BUILD_DIR:-$root/build}"
bash "$root/scripts/setup.sh"
WARP_TIDY_BUILD_DIR="$build" bash "$root/scripts/build.sh"
python3 "$root/scripts/run_tests.py" --build "$build"
# The project's own lint: format, clang-tidy on changed files, include layers.
python3 "$root/scripts/lint.py" --build "$build"
