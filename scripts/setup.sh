#!/usr/bin/env bash
# Installs what warp-tidy needs to build and test, from Debian's packages.
# Idempotent: when everything is present it changes nothing and runs no apt.
set -euo pipefail

PACKAGES=(
  clang-22 libclang-22-dev llvm-22-dev llvm-22-tools clang-tools-22 clang-tidy-22 clang-format-22
  cmake ninja-build libgtest-dev python3 git
)
# Z3's C API, which the prover calls beside LLVM's SMT API (llvm-22-dev
# depends on it today; named so that a change there cannot break the build).
PACKAGES+=(libz3-dev)
# Issue-specific tools used by the test suite (pre-commit hook test, the launcher in front of
# ccache in a Make build).
PACKAGES+=(pre-commit ccache make)
# Real editors for the recipe tests of docs/editors.md (test/lsp/editor-*.test).
PACKAGES+=(neovim emacs-nox elpa-eglot)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: all packages present"
fi

# The CUDA toolkit is not a Debian package of the right version (CUDA 13);
# warp-tidy needs its headers. Say so plainly instead of failing later.
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ] && [ -z "${CUDA_PATH:-}" ]; then
  echo "setup: warning: no CUDA toolkit found (nvcc not on PATH, no /usr/local/cuda);" >&2
  echo "setup: warp-tidy needs CUDA's headers: install CUDA 12/13 or set CUDA_PATH" >&2
fi
