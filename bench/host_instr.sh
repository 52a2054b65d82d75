#!/usr/bin/env bash
# host_instr.sh - instructions the plugin build of each nas-parboil program
# executes with every site on the host, against its sequential build
# (issue 12: "at least 0.95x sequential"; the stitched dispatch code must
# not change how the back end compiles the rest of the function).
#
#   bench/host_instr.sh BUILD_DIR [BASE] [PROG...]
#
# BASE: the build directory of another revision (its lib/libIdiom.so and
# lib/libidiomrt.a), built and counted beside this one. PROG: program names
# of nas-parboil/ (default: all).
#
# Each program is built as bench/build_profile_carry.sh builds it
# (clang-19 -O2 -g, the runtime linked statically, -lm) and run once per
# build under cachegrind (instruction counts: these containers expose no
# hardware counters) with IDIOM_TEST_HOST=floor (runtime/README.md: the
# device never starts, every class declines host-floor after its first timed
# run and gets host hints, the path a declined default run takes) and a
# fresh IDIOM_CACHE_DIR. Counts are deterministic up to a few hundred
# instructions of the runtime's start-up; the plugin builds' outputs are
# compared with the sequential build's.
#
# Prints one row per program: instructions of seq, plugin (and base), the
# ratio plugin/seq - 1 in percent (and base/seq - 1). Per-function counts:
# cg_annotate on the cachegrind files (KEEP_TMP=1 keeps them and the
# builds).
#
# Environment: CC (clang-19), JOBS (1: programs counted in parallel),
# PLUGIN_CFLAGS and BASE_CFLAGS (more flags for the plugin and base builds,
# e.g. -mllvm -idiom-dispatch-layout=inline; BASE may then be BUILD_DIR),
# KEEP_TMP=1 (keep the builds and cachegrind files; prints the directory).
set -u

[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [BASE] [PROG...]" >&2; exit 2; }
BUILD=$(cd "$1" && pwd) || exit 2
shift
BASE=
if [ $# -ge 1 ] && [ -d "$1" ]; then BASE=$(cd "$1" && pwd); shift; fi
HERE=$(cd "$(dirname "$0")" && pwd)
NP=$HERE/../nas-parboil
export CC=${CC:-clang-19}
JOBS=${JOBS:-1}
for t in valgrind "$CC"; do
  command -v "$t" > /dev/null || { echo "$t not found" >&2; exit 2; }
done
[ -f "$BUILD/lib/libIdiom.so" ] || { echo "no plugin in $BUILD/lib" >&2; exit 2; }
if [ -n "$BASE" ] && [ ! -f "$BASE/lib/libIdiom.so" ]; then
  echo "no plugin in $BASE/lib" >&2; exit 2
fi
PROGS=("$@")
if [ ${#PROGS[@]} -eq 0 ]; then
  for f in "$NP"/*.c; do PROGS+=("$(basename "$f" .c)"); done
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/host-instr.XXXXXX")
if [ "${KEEP_TMP:-0}" = 1 ]; then echo "files in $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
unset IDIOM_DEVICE IDIOM_COST IDIOM_MIN_TRIP IDIOM_STATS IDIOM_PROFILE IDIOM_DEBUG
export TMP NP BUILD BASE PLUGIN_CFLAGS BASE_CFLAGS

# count PROG: builds and counts one program; prints its row's numbers.
count() {
  p=$1; d=$TMP/$p; mkdir -p "$d"
  "$CC" -O2 -g "$NP/$p.c" -lm -o "$d/seq" || return
  builds=(seq plugin)
  # shellcheck disable=SC2086
  "$CC" -O2 -g ${PLUGIN_CFLAGS:-} -fpass-plugin="$BUILD/lib/libIdiom.so" "$NP/$p.c" \
    -L"$BUILD/lib" -lidiomrt -lm -o "$d/plugin" 2> /dev/null || return
  if [ -n "$BASE" ]; then
    # shellcheck disable=SC2086
    "$CC" -O2 -g ${BASE_CFLAGS:-} -fpass-plugin="$BASE/lib/libIdiom.so" "$NP/$p.c" \
      -L"$BASE/lib" -lidiomrt -lm -o "$d/base" 2> /dev/null || return
    builds+=(base)
  fi
  row="$p"
  for b in "${builds[@]}"; do
    rm -rf "$d/cache"; mkdir -p "$d/cache"
    IDIOM_CACHE_DIR=$d/cache POCL_CACHE_DIR=$d/cache IDIOM_TEST_HOST=floor \
      valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$d/cg.$b" \
      "$d/$b" > "$d/$b.out" 2> /dev/null
    [ "$b" = seq ] || python3 "$NP/compare.py" "$d/seq.out" "$d/$b.out" > /dev/null 2>&1 ||
      cmp -s "$d/seq.out" "$d/$b.out" || row="$row OUTPUT-DIFFERS($b)"
    row="$row $(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$d/cg.$b")"
  done
  echo "$row"
}
export -f count

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%s\n' "${PROGS[@]}" | xargs -P "$JOBS" -I{} bash -c 'count {}' > "$TMP/rows"
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$BASE" ]; then
  printf '%-12s %14s %14s %14s %8s %8s\n' program seq plugin base plugin% base%
else
  printf '%-12s %14s %14s %8s\n' program seq plugin plugin%
fi
sort "$TMP/rows" | awk -v base="$BASE" '
  /OUTPUT-DIFFERS/ { print; next }
  { p = sprintf("%+.2f", ($3 / $2 - 1) * 100)
    if (base != "") {
      b = sprintf("%+.2f", ($4 / $2 - 1) * 100)
      printf "%-12s %14.0f %14.0f %14.0f %8s %8s\n", $1, $2, $3, $4, p, b
    } else printf "%-12s %14.0f %14.0f %8s\n", $1, $2, $3, p }'
