#!/usr/bin/env bash
# Configures and builds warp-tidy into build/ (or $WARP_TIDY_BUILD_DIR).
# Usage: scripts/build.sh [ninja targets...]   (default: everything)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${WARP_TIDY_BUILD_DIR:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
ninja -C "$build" "$@"
