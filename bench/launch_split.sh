#!/usr/bin/env bash
# launch_split.sh - the runtime's cost per device run at two revisions of
# runtime/ (a refactoring that must not change it: helper "launchsplit",
# launch.c and residency.c split into files, static functions now called
# across files). Both runtimes are built here the same way (cc -O3, as a
# Release build), from `git archive REV runtime`, and linked with one
# plugin-built object of each benchmark, so that only runtime/ differs:
#   tiny   bench/policy_tiny.c: 3000 launches of a 4096-float map, every one
#          outside a region (copies in and out each run);
#   resid  bench/residency_axpby.c 12 2000: 2000 iterations of an axpby and
#          a norm over 4096 floats inside a residency region (range table,
#          only the norm's scalar back each run).
# Runs are forced onto the CPU OpenCL device (IDIOM_DEVICE=cpu,
# IDIOM_MIN_TRIP=0: PoCL here), alternating A B A B (RUNS pairs), each
# output checked against the sequential build's; prints the median wall
# time of each and every run, and the load average before and after.
#
#   bench/launch_split.sh [BUILD_DIR] [BASE_REV] [NEW_REV] [RUNS]
#
# Defaults: build, 93e8925 (main before the split), HEAD, 7. BUILD_DIR
# provides libIdiom.so (the plugin of either revision: the benchmarks'
# calls into the runtime are the same).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
BASE=${2:-93e8925}
NEW=${3:-HEAD}
runs=${4:-7}
. bench/timing.sh
T=$(mktemp -d /tmp/launch_split.XXXXXX)
trap 'rm -rf "$T"' EXIT
export IDIOM_CACHE_DIR="$T/cache" IDIOM_DEVICE=cpu IDIOM_MIN_TRIP=0

runtime_at() { # REV DIR: DIR/libidiomrt.a built from runtime/ at REV
  mkdir -p "$2/src"
  git archive "$1" runtime | tar -x -C "$2/src"
  for f in "$2"/src/runtime/lib/*.c; do
    cc -O3 -DNDEBUG -std=c11 -fPIC -D_GNU_SOURCE \
      -DCL_TARGET_OPENCL_VERSION=120 -I"$2/src/runtime/include" \
      -I"$2/src/runtime/lib" -c "$f" -o "$2/$(basename "$f" .c).o"
  done
  ar rcs "$2/libidiomrt.a" "$2"/*.o
}
runtime_at "$BASE" "$T/a"
runtime_at "$NEW" "$T/b"

build() { # NAME SOURCE
  clang-19 -O2 "$2" -lm -o "$T/$1.seq"
  clang-19 -O2 -fpass-plugin="$B/lib/libIdiom.so" -c "$2" -o "$T/$1.o"
  for v in a b; do
    clang-19 "$T/$1.o" "$T/$v/libidiomrt.a" -lm -o "$T/$1.$v"
  done
}
build tiny bench/policy_tiny.c
build resid bench/residency_axpby.c
args_tiny=""
args_resid="12 2000"

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "A = $BASE ($(git rev-parse --short "$BASE")), B = $NEW ($(git rev-parse --short "$NEW"))"
for p in tiny resid; do
  eval "args=\$args_$p"
  # shellcheck disable=SC2086
  want=$("$T/$p.seq" $args)
  for v in a b; do
    # shellcheck disable=SC2086
    got=$("$T/$p.$v" $args)
    if [ "$got" != "$want" ]; then
      echo "$p.$v: output differs from the sequential build: $got vs $want"
      exit 1
    fi
    # shellcheck disable=SC2086
    n=$(IDIOM_STATS=1 "$T/$p.$v" $args 2>&1 >/dev/null |
      grep -c 'offloaded=[1-9]' || true)
    if [ "$n" = 0 ]; then
      echo "$p.$v: no device run in IDIOM_STATS (offloaded=0)"
      exit 1
    fi
  done
  all_a="" all_b=""
  for i in $(seq "$runs"); do
    # shellcheck disable=SC2086
    all_a="$all_a $(ms "$T/$p.a" $args)"
    # shellcheck disable=SC2086
    all_b="$all_b $(ms "$T/$p.b" $args)"
  done
  echo "$p A ms: $(median $all_a) ($all_a )"
  echo "$p B ms: $(median $all_b) ($all_b )"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
