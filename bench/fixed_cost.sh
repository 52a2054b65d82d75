#!/usr/bin/env bash
# fixed_cost.sh - the runtime's fixed costs in a warm run whose sites all
# stay on the host (issue 12: start-up and exit of a plugin build; helper
# "fixedcost", docs/Benchmarks.md): for each program, the sequential build,
# the plugin build of BUILD_DIR and, when given, of BASE:
#
#   - instructions outside the program's own code (callgrind: the total less
#     the self cost of the functions of the program's source file, i.e.
#     ld.so, libc and the runtime; the stitched code inside main counts as
#     the program's), and the total;
#   - system calls (strace -f, every thread) and page faults (perf stat,
#     the mean of 20 runs: the same in every run but for one or two);
#   - task-clock: `perf stat -r RUNS`, ROUNDS rounds with the builds
#     interleaved (seq, plugin, base, seq, ...), the median of the rounds'
#     means, and the load average before and after.
#
#   bench/fixed_cost.sh BUILD_DIR [BASE]
#
# BASE: another build directory (its lib/libIdiom.so and lib/libidiomrt.a),
# or a directory holding only a libidiomrt.a (that runtime linked with this
# build's plugin). Programs (PROGS, default "policy_tiny heat3d gridding
# jds"): bench/NAME.c or nas-parboil/NAME.c, or a path (with a '/') to a
# source of one's own (linked without -lm), built as
# bench/build_profile_carry.sh builds them (-O2 -g; nas-parboil programs
# with -lm in every build, policy_tiny without).
#
# The plugin builds run warm, as a user's program run again finds its cache:
# a fresh IDIOM_CACHE_DIR holding a start-up record (the GPU machine's
# programs find one written by an earlier run that started the device;
# STARTUP=FILE copies that file, default a record of a 20 us, 10 GB/s,
# 300 ms device written here; STARTUP=none: no record), filled by two runs
# of each build (the profile), outputs compared with the sequential
# build's. Every plugin run is made under the test knob
# IDIOM_TEST_HOST=$HOST_MODE (default floor, runtime/README.md): the device
# never starts, as on the GPU machine for these programs (PoCL here would
# win heat3d's and jds's sites); HOST_MODE= runs with the defaults. Under callgrind each build runs twice and the second run is
# counted under IDIOM_TEST_HOST=floor (every site host-floor with hints, as
# natively here; a profile of its own), less the profile's rewrite at exit
# (under valgrind the host loops are slower and a run may rewrite it; a
# native warm run does not).
#
# Environment: CC (clang-19), PROGS, ROUNDS (7), RUNS (50; 10 for programs
# over 10 ms), STARTUP, HOST_MODE, NOTIME=1 (counts only), KEEP_TMP=1.
set -u

[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [BASE]" >&2; exit 2; }
BUILD=$(cd "$1" && pwd) || exit 2
BASE=${2:+$(cd "$2" && pwd)}
HERE=$(cd "$(dirname "$0")" && pwd)
NP=$(cd "$HERE/../nas-parboil" && pwd)
CC=${CC:-clang-19}
PROGS=${PROGS:-policy_tiny heat3d gridding jds}
ROUNDS=${ROUNDS:-7}
PLUGIN=$BUILD/lib/libIdiom.so
BASE_PLUGIN=$PLUGIN BASE_RT=${BASE:-}
if [ -n "$BASE" ] && [ -f "$BASE/lib/libIdiom.so" ]; then
  BASE_PLUGIN=$BASE/lib/libIdiom.so BASE_RT=$BASE/lib
fi
for t in perf valgrind callgrind_annotate strace python3 "$CC"; do
  command -v "$t" > /dev/null || { echo "$t not found" >&2; exit 2; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fixed-cost.XXXXXX")
if [ "${KEEP_TMP:-0}" = 1 ]; then echo "files in $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
unset IDIOM_DEVICE IDIOM_COST IDIOM_MIN_TRIP IDIOM_STATS IDIOM_PROFILE IDIOM_DEBUG
export IDIOM_CACHE_DIR=$TMP/cache POCL_CACHE_DIR=$TMP/pocl-cache
mkdir -p "$IDIOM_CACHE_DIR"
case ${STARTUP:-} in
  none) ;;
  "") python3 "$HERE/../test/lit/run/Inputs/startup_record.py" 300 \
        "$IDIOM_CACHE_DIR/startup-auto.txt" ;;
  *) cp "$STARTUP" "$IDIOM_CACHE_DIR/startup-auto.txt" || exit 2 ;;
esac
# Every site on the host: on this 2-core machine PoCL would win some sites
# (heat3d, jds), which stay on the host on the GPU machine; the test knob
# keeps the device from starting (HOST_MODE= for the defaults).
HOST_MODE=${HOST_MODE-floor}
[ -n "$HOST_MODE" ] && export IDIOM_TEST_HOST=$HOST_MODE

mkdir -p "$TMP/cache-floor"
cp "$IDIOM_CACHE_DIR"/startup-auto.txt "$TMP/cache-floor/" 2> /dev/null
NAMES=(seq plugin)
[ -n "$BASE" ] && NAMES+=(base)
# Instructions outside the source file SRC's functions, and the total, less
# the profile's rewrite at exit (write_profile, inclusive): under valgrind
# the host loops run 20-50 times slower and every run rewrites the profile,
# which a native warm run does not (its strace shows no write).
outside() { # CALLGRIND_FILE SRC
  local rw
  rw=$(callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$1" \
         2>/dev/null | awk '/:write_profile / { gsub(",", "", $1);
         if ($1 > m) m = $1 } END { print m + 0 }')
  callgrind_annotate --inclusive=no --threshold=100 --auto=no "$1" 2>/dev/null |
    awk -v src="$2" -v rw="$rw" '
      /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
      /^ *[0-9,]+ .*:/ && !/PROGRAM TOTALS/ {
        n = $1; gsub(",", "", n)
        if (index($0, src ":") > 0) own += n
      }
      END { printf "%d %d\n", total - own - rw, total - rw }'
}
declare -A OUT TOT SC PF TC
NAMES_P=
for p in $PROGS; do
  src=$HERE/$p.c libs=
  case $p in
    */*) src=$p p=$(basename "$p" .c) ;; # a source of one's own (no -lm)
  esac
  NAMES_P+="$p "
  [ -f "$src" ] || { src=$NP/$p.c; libs=-lm; }
  [ -f "$src" ] || { echo "$p: no source" >&2; continue; }
  # shellcheck disable=SC2086
  "$CC" -O2 -g "$src" $libs -o "$TMP/$p.seq" || exit 1
  # shellcheck disable=SC2086
  "$CC" -O2 -g -fpass-plugin="$PLUGIN" "$src" -L"$BUILD/lib" -lidiomrt $libs \
    -o "$TMP/$p.plugin" || exit 1
  if [ -n "$BASE" ]; then
    # shellcheck disable=SC2086
    "$CC" -O2 -g -fpass-plugin="$BASE_PLUGIN" "$src" -L"$BASE_RT" -lidiomrt \
      $libs -o "$TMP/$p.base" || exit 1
  fi
  (cd "$TMP" && "./$p.seq" > "$p.seq.out")
  for b in "${NAMES[@]:1}"; do
    (cd "$TMP" && "./$p.$b" > /dev/null && "./$p.$b" > "$p.$b.out")
    cmp -s "$TMP/$p.seq.out" "$TMP/$p.$b.out" || echo "$p.$b: OUTPUT DIFFERS"
  done
  for b in "${NAMES[@]}"; do
    exe=$TMP/$p.$b
    # (under IDIOM_TEST_HOST=floor, with a profile of its own: valgrind's
    # slowed loops would move the cost model's timed choices from run to
    # run, 30,000-40,000 instructions apart; floor makes them host-floor
    # with hints, as the native runs decide here)
    for i in 1 2; do
      env IDIOM_TEST_HOST=floor IDIOM_CACHE_DIR="$TMP/cache-floor" \
        valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.$p.$b" \
        "$exe" > /dev/null 2>&1
    done
    read -r o t < <(outside "$TMP/cg.$p.$b" "$(basename "$src")")
    OUT[$p.$b]=$o TOT[$p.$b]=$t
    "$exe" > /dev/null 2>&1 # the profile settled after valgrind's times
    strace -f -qq -o "$TMP/st.$p.$b" "$exe" > /dev/null 2>&1
    SC[$p.$b]=$(grep -vc '^[0-9]* *+++\|^[0-9]* *---' "$TMP/st.$p.$b")
    PF[$p.$b]=$(perf stat -x, -e page-faults -r 20 "$exe" 2>&1 > /dev/null |
      awk -F, '/page-faults/{print $1}')
  done
done

median() { tr ' ' '\n' | grep . | sort -g |
  awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
if [ "${NOTIME:-0}" != 1 ]; then
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  for p in $NAMES_P; do
    [ -x "$TMP/$p.seq" ] || continue
    runs=${RUNS:-}
    if [ -z "$runs" ]; then
      t0=$(date +%s%N); "$TMP/$p.seq" > /dev/null; t1=$(date +%s%N)
      runs=50; [ $(( (t1 - t0) / 1000000 )) -gt 10 ] && runs=10
    fi
    for ((r = 0; r < ROUNDS; ++r)); do
      for b in "${NAMES[@]}"; do
        out=$(cd "$TMP" && perf stat -x, -e task-clock -r "$runs" "./$p.$b" 2>&1 > /dev/null)
        TC[$p.$b]+="$(echo "$out" | awk -F, '/task-clock/{print $1}') "
      done
    done
  done
  echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
fi
printf '%-12s %-7s %12s %12s %9s %7s %10s %7s\n' program build outside \
  total syscalls faults task-ms ratio
for p in $NAMES_P; do
  [ -x "$TMP/$p.seq" ] || continue
  seq_tc=$(echo "${TC[$p.seq]:-}" | median)
  for b in "${NAMES[@]}"; do
    tc=$(echo "${TC[$p.$b]:-}" | median)
    ratio=-
    [ -n "$tc" ] && ratio=$(awk "BEGIN{printf \"%.3f\", $tc / $seq_tc}")
    printf '%-12s %-7s %12s %12s %9s %7s %10s %7s\n' "$p" "$b" \
      "${OUT[$p.$b]}" "${TOT[$p.$b]}" "${SC[$p.$b]}" "${PF[$p.$b]}" \
      "${tc:--}" "$ratio"
  done
done
echo "(outside: callgrind instructions outside the program's own source's"
echo " functions; syscalls: strace -f; faults: mean of 20 runs; task-ms: median"
echo " over $ROUNDS rounds of the means of perf stat -r runs, builds interleaved)"
