#!/bin/sh
# Where a warm all-host process of bench/policy_tiny.c spends its time, by
# phase (helper "tinymain", docs/Benchmarks.md): bench/tiny_phases_prog.c
# built three ways, run in the same rotated rounds by bench/tiny_phases.c:
#   seq     the sequential build;
#   linked  the sequential build linked with the runtime, which it never
#           calls (the runtime's constructor, exit handlers and image);
#   plugin  the plugin build (every site kept on the host by the cost model).
# For a base and a branch, give a second build directory: its plugin build
# is run in the same rounds as "plugin2".
#   bench/tiny_phases.sh BUILD_DIR [ROUNDS [BUILD_DIR2]]
# Environment: CPU=N pins every run to CPU N (taskset), OUT=DIR keeps the
# binaries (default: a temporary directory).
set -eu
build=$1; rounds=${2:-401}; build2=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
cc=${CLANG:-clang-19}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
src=$here/tiny_phases_prog.c
$cc -O2 "$here/tiny_phases.c" -o "$out/tiny_phases"
$cc -O2 "$src" -o "$out/seq"
$cc -O2 "$src" -L"$build/lib" -Wl,-u,idiomrt_profile_seed -lidiomrt -o "$out/linked"
$cc -O2 -fpass-plugin="$build/lib/libIdiom.so" "$src" -L"$build/lib" -lidiomrt \
  -o "$out/plugin"
bins="seq=$out/seq linked=$out/linked plugin=$out/plugin"
if [ -n "$build2" ]; then
  $cc -O2 -fpass-plugin="$build2/lib/libIdiom.so" "$src" -L"$build2/lib" \
    -lidiomrt -o "$out/plugin2"
  bins="$bins plugin2=$out/plugin2"
fi
export IDIOM_CACHE_DIR="$out/cache"
for b in plugin plugin2; do
  [ -x "$out/$b" ] && "$out/$b" >/dev/null 2>&1 && "$out/$b" >/dev/null 2>&1
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds, $(date -u +%H:%M:%S) UTC"
# shellcheck disable=SC2086
if [ -n "${CPU:-}" ]; then
  taskset -c "$CPU" "$out/tiny_phases" "$rounds" $bins
else
  "$out/tiny_phases" "$rounds" $bins
fi
