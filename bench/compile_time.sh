#!/usr/bin/env bash
# compile_time.sh - compile-time overhead of the Idiom plugin on nas-parboil.
#
# Usage: compile_time.sh [BUILD_DIR] [REPS]
#
# For each nas-parboil/PROG.c compiles, REPS times each (default 5),
# alternating the two so that a change in machine load hits both alike,
#   plain   CC -O2 -c PROG.c -o /dev/null
#   plugin  CC -O2 -c PROG.c -o /dev/null -fpass-plugin=BUILD_DIR/lib/libIdiom.so
# and measures each compile with bash's `time`: wall-clock time and CPU time
# (user + system, of clang and its children). Prints a Markdown table, one
# row per program: the median CPU and wall times of each build and the ratio
# plugin/plain of the medians, then the geometric means of the ratios over
# the programs. CPU time is the figure to quote on a shared machine: wall
# time also counts waiting for a core.
#
# BUILD_DIR defaults to ./build. Exits 2 on a usage or setup error and 1 if
# a compile fails. Environment: PLAIN_CFLAGS and PLUGIN_CFLAGS (added to
# one build only: e.g. the plugin with -mllvm -idiom-dispatch-layout=inline
# as "plain" against =outline, both with -fplugin= to register the option),
# CC (default clang-19), EXTRA_CFLAGS (added
# to both builds, e.g. -g).
set -u

usage() {
  echo "usage: $0 [BUILD_DIR] [REPS]" >&2
  exit 2
}

die() {
  echo "compile_time.sh: error: $*" >&2
  exit 2
}

[ $# -le 2 ] || usage
case "${1:-}" in -h | --help) usage ;; esac
BUILD=${1:-build}
REPS=${2:-5}
case "$REPS" in '' | *[!0-9]* | 0) usage ;; esac

HERE=$(cd "$(dirname "$0")" && pwd)
PROGDIR=$(cd "$HERE/../nas-parboil" && pwd) || die "nas-parboil/ not found"
CC=${CC:-clang-19}
read -r -a XFLAGS <<< "${EXTRA_CFLAGS:-}"
read -r -a PLAINF <<< "${PLAIN_CFLAGS:-}"
read -r -a PLUGF <<< "${PLUGIN_CFLAGS:-}"
[ -d "$BUILD" ] || die "build directory not found: $BUILD"
BUILD=$(cd "$BUILD" && pwd)
PLUGIN=$BUILD/lib/libIdiom.so
[ -f "$PLUGIN" ] || die "Idiom plugin not found: $PLUGIN (build target Idiom)"
command -v "$CC" >/dev/null 2>&1 || die "compiler not found: $CC"

TMP=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$TMP"' EXIT

# Compiles $1 (plain or plugin) of source $2 once; appends "wall cpu" in
# seconds to $TMP/$1.times.
compile_once() {
  local mode=$1 src=$2 extra=("${PLAINF[@]}") t
  [ "$mode" = plugin ] && extra=("-fpass-plugin=$PLUGIN" "${PLUGF[@]}")
  t=$( {
    TIMEFORMAT='%R %U %S'
    time "$CC" -O2 -c "${XFLAGS[@]}" "${extra[@]}" "$src" -o /dev/null \
      2>"$TMP/cc.log" >/dev/null
  } 2>&1) || {
    echo "compile_time.sh: $mode compile of $src failed:" >&2
    cat "$TMP/cc.log" >&2
    exit 1
  }
  echo "$t" | awk '{ printf "%.4f %.4f\n", $1, $2 + $3 }' >>"$TMP/$mode.times"
}

# Median of column $2 of file $1.
median() {
  cut -d' ' -f"$2" "$1" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
                             else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "Command: bash bench/compile_time.sh $* (CC=$CC, $REPS compiles per build," \
  "alternating; times in seconds, medians)"
echo
echo "| program | plain CPU s | plugin CPU s | CPU ratio | plain wall s | plugin wall s | wall ratio |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
: >"$TMP/ratios"
for src in "$PROGDIR"/*.c; do
  rm -f "$TMP/plain.times" "$TMP/plugin.times"
  # Warm the page cache and the dynamic loader once; not measured.
  "$CC" -O2 -c "${XFLAGS[@]}" -fpass-plugin="$PLUGIN" "$src" -o /dev/null 2>/dev/null
  for ((i = 0; i < REPS; i++)); do
    compile_once plain "$src"
    compile_once plugin "$src"
  done
  pc=$(median "$TMP/plain.times" 2)
  gc=$(median "$TMP/plugin.times" 2)
  pw=$(median "$TMP/plain.times" 1)
  gw=$(median "$TMP/plugin.times" 1)
  awk -v n="$(basename "$src" .c)" -v pc="$pc" -v gc="$gc" -v pw="$pw" -v gw="$gw" \
    'BEGIN { printf "| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |\n",
                    n, pc, gc, gc / pc, pw, gw, gw / pw }'
  echo "$pc $gc $pw $gw" >>"$TMP/ratios"
done
awk '{ c += log($2 / $1); w += log($4 / $3); n++ }
     END { printf "| geometric mean | | | %.2f | | | %.2f |\n", exp(c / n), exp(w / n) }' \
  "$TMP/ratios"
