#!/usr/bin/env bash
# tiny_host.sh - what a plugin build costs in a tiny program whose sites all
# stay on the host (issue 12, bench/policy_tiny.c: a 4096-float map run 3000
# times in an outer loop, about 1.5 ms sequential here): task-clock and page
# faults of the sequential build and of the plugin build, with this build's
# plugin and runtime and, when given, with a baseline's, then the
# instructions of one run of each under cachegrind (IDIOM_TEST_HOST=floor,
# below).
#
#   bench/tiny_host.sh BUILD_DIR [BASE]
#
# BASE: the build directory of another revision (its lib/libIdiom.so and
# lib/libidiomrt.a: plugin and runtime of that revision), or a directory
# holding only a libidiomrt.a (that runtime linked with this build's plugin).
#
# Each round runs `perf stat -e task-clock,page-faults -r RUNS` (software
# events: these containers expose no hardware counters) on every build in
# turn (seq, plugin, base, seq, plugin, base, ...: interleaved, so a change
# of load hits all of them); prints the median over ROUNDS of the rounds'
# means, the ratio to the sequential build's median, and the load average
# before and after. The plugin builds run with a fresh IDIOM_CACHE_DIR,
# warmed by two runs (the profile filled, as a user's second run finds it),
# and their output is compared with the sequential build's.
#
# Environment: CC (clang-19), ROUNDS (7), RUNS (50), SRC (bench/policy_tiny.c),
# LIBS (-lm: linked into every build, the sequential one too; LIBS= for none),
# KEEP_TMP=1 (keep the builds; prints the directory).
set -u

[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [BASE]" >&2; exit 2; }
BUILD=$(cd "$1" && pwd) || exit 2
BASE=${2:+$(cd "$2" && pwd)}
HERE=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-clang-19}
ROUNDS=${ROUNDS:-7}
RUNS=${RUNS:-50}
SRC=${SRC:-$HERE/policy_tiny.c}
LIBS=${LIBS--lm}
PLUGIN=$BUILD/lib/libIdiom.so
[ -f "$PLUGIN" ] || { echo "no plugin: $PLUGIN" >&2; exit 2; }
BASE_PLUGIN=$PLUGIN BASE_RT=$BASE
if [ -n "$BASE" ] && [ -f "$BASE/lib/libIdiom.so" ]; then
  BASE_PLUGIN=$BASE/lib/libIdiom.so BASE_RT=$BASE/lib
fi
for t in perf valgrind "$CC"; do
  command -v "$t" > /dev/null || { echo "$t not found" >&2; exit 2; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tiny-host.XXXXXX")
if [ "${KEEP_TMP:-0}" = 1 ]; then echo "files in $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
unset IDIOM_DEVICE IDIOM_COST IDIOM_MIN_TRIP IDIOM_STATS IDIOM_PROFILE IDIOM_DEBUG
export IDIOM_CACHE_DIR=$TMP/cache POCL_CACHE_DIR=$TMP/pocl-cache
mkdir -p "$IDIOM_CACHE_DIR"

NAMES=(seq plugin)
# shellcheck disable=SC2086
"$CC" -O2 "$SRC" $LIBS -o "$TMP/seq" || exit 1
build_plugin() { # NAME PLUGIN RUNTIME_DIR
  # shellcheck disable=SC2086
  "$CC" -O2 -fpass-plugin="$2" "$SRC" -L"$3" -lidiomrt $LIBS \
    -o "$TMP/$1" || exit 1
}
build_plugin plugin "$PLUGIN" "$BUILD/lib"
if [ -n "$BASE" ]; then
  build_plugin base "$BASE_PLUGIN" "$BASE_RT"
  NAMES+=(base)
fi
"$TMP/seq" > "$TMP/seq.out"
for b in "${NAMES[@]:1}"; do
  "$TMP/$b" > /dev/null && "$TMP/$b" > /dev/null
  "$TMP/$b" > "$TMP/$b.out"
  cmp -s "$TMP/seq.out" "$TMP/$b.out" || echo "$b: OUTPUT DIFFERS"
done

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A TC PF
for ((r = 0; r < ROUNDS; ++r)); do
  for b in "${NAMES[@]}"; do
    out=$(perf stat -x, -e task-clock,page-faults -r "$RUNS" "$TMP/$b" 2>&1 > /dev/null)
    TC[$b]+="$(echo "$out" | awk -F, '/task-clock/{print $1}') "
    PF[$b]+="$(echo "$out" | awk -F, '/page-faults/{print $1}') "
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
median() { tr ' ' '\n' | grep . | sort -g |
  awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
seq_tc=$(echo "${TC[seq]}" | median)
printf '%-7s %10s %8s %12s %14s\n' build task-ms ratio page-faults instructions
for b in "${NAMES[@]}"; do
  tc=$(echo "${TC[$b]}" | median); pf=$(echo "${PF[$b]}" | median)
  # Under valgrind the host loop runs ~20 times slower, and the cost model
  # would then wait to start the device (host-prestart) and call idiom_run
  # every time; the test knob IDIOM_TEST_HOST=floor (runtime/README.md)
  # makes it decide host-floor with hints, as it does natively here.
  env IDIOM_TEST_HOST=floor valgrind --tool=cachegrind --cache-sim=no \
    --cachegrind-out-file="$TMP/cg.$b" "$TMP/$b" > /dev/null 2>&1
  ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$TMP/cg.$b")
  printf '%-7s %10s %8s %12s %14s\n' "$b" "$tc" \
    "$(awk "BEGIN{printf \"%.3f\", $tc / $seq_tc}")" "$pf" "${ir:-?}"
done
echo "(task-ms and page-faults: medians over $ROUNDS rounds of the means of $RUNS runs)"
