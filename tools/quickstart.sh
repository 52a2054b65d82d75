#!/usr/bin/env bash
# Quick start, step 1: installs what is missing (Debian 12 packages, as root),
# configures with CMake, builds, and runs the main job on a bundled example:
# nas-parboil/cg.c compiled with the plugin, run with IDIOM_STATS=1.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS="cmake make python3 llvm-19-dev clang-19 llvm-19-tools libz3-dev \
ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libgtest-dev \
libclang-rt-19-dev csmith libcsmith-dev lld-19 pkg-config python3-yaml"
missing=""
for p in $PKGS; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "quickstart: installing$missing"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $missing
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"

echo "quickstart: building nas-parboil/cg.c with the plugin"
build/bin/idiom-cc -O2 -g -Rpass=idiom-offload nas-parboil/cg.c -o build/cg-idiom
echo "quickstart: running it (IDIOM_STATS=1)"
IDIOM_STATS=1 ./build/cg-idiom
