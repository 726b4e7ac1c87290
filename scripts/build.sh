#!/usr/bin/env bash
# Configures and builds warp-tidy into build/ (or $WARP_TIDY_BUILD_DIR).
# Usage: scripts/build.sh [ninja targets...]   (default: everything)
# Progress is shown as it goes and a failed step's error is printed
# (scripts/build_progress.py); ninja's whole output is in <build>/build.log.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${WARP_TIDY_BUILD_DIR:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  echo "build: configuring $build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
python3 "$root/scripts/build_progress.py" --log "$build/build.log" ninja -C "$build" "$@"
