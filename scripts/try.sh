#!/usr/bin/env bash
# README command 1: install what is needed, build warp-tidy, and run it on the
# bundled example kernels with its embedded defaults (no compilation database,
# no flags). Exits 0 when warp-tidy ran (the examples contain bugs on purpose,
# so findings are expected), 2 when the tool itself failed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
# The build shows its progress and, if it fails, the error (build.sh). It
# makes every target the package installs, so that cpack works afterwards.
bash "$root/scripts/build.sh" warp-tidy warp-tidy-launcher warp-clangd WarpTidyPlugin
echo "== warp-tidy examples/ =="
set +e
"$root/build/bin/warp-tidy" "$root/examples"
status=$?
set -e
case $status in
  0) echo "== warp-tidy found nothing (exit 0)";;
  1) echo "== warp-tidy reported the bugs planted in examples/ (exit 1 = findings)";;
  *) echo "== warp-tidy failed (exit $status)"; exit "$status";;
esac
