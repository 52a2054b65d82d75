#!/usr/bin/env bash
# run.sh - end-to-end check of the Idiom plugin on the nas-parboil programs.
#
# Usage: run.sh BUILD_DIR [--expect-offload] [PROG...]
#
# For each program PROG.c (default: every *.c here) builds
#   PROG.seq    clang-19 -O2 PROG.c -lm
#   PROG.idiom  clang-19 -O2 -fpass-plugin=BUILD_DIR/lib/libIdiom.so PROG.c
#                 -LBUILD_DIR/lib -lidiomrt -lm
# runs PROG.seq for the reference output, then PROG.idiom four ways
#   device     IDIOM_STATS=1 IDIOM_COST=off, default device choice (PoCL
#              where that is the only OpenCL platform), every call offloaded
#   auto       IDIOM_STATS=1, the default settings: the runtime's cost model
#              chooses the device or the original loop per call
#   seq        IDIOM_DEVICE=seq (the runtime always declines)
#   no-opencl  IDIOM_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1 (no loader)
# and compares each output to the reference with compare.py. With
# --expect-offload, the IDIOM_STATS report (stderr) of the device mode must
# show at least one idiom run on an OpenCL device, and those of the seq and
# no-opencl modes none (the auto mode may do either).
#
# Prints one PASS/FAIL line per program and mode (a run's line gives its wall
# time), then "N passed, M failed"
# alone on the last line; exits 1 on any failure, 2 on a usage or setup
# error (missing plugin, runtime library or compiler).
#
# Environment: CC (default clang-19), IDIOM_BENCH_CFLAGS (extra flags for
# both builds, e.g. -g to get line numbers into the stats report),
# RUN_TIMEOUT (seconds per run, default 300), KEEP_TMP=1 (keep the
# temporary directory and print its path), VERBOSE=1 (show compare.py and
# stats details on PASS too), DISK_CACHE_PROGS (the programs whose runs use
# the runtime's disk cache of program binaries, IDIOM_CACHE_DIR, one
# directory for the four modes; default adi; "all" for every program).
#
# The disk cache: the device mode's builds are saved there, and on a CPU
# device such as PoCL the save (CL_PROGRAM_BINARIES) compiles every kernel
# of every variant, where a run compiles only those it launches
# (runtime/lib/program_cache.c, save_binary): with the cache, adi's device
# run took 14-15 s here against 7-9 s without it, 88 PoCL kernel builds
# against 18. The other programs run with IDIOM_CACHE_DIR=off; adi keeps the
# cache, being the program whose auto mode offloads on PoCL (14 idioms), so
# the binaries that one process saved are loaded and run by the next one in
# a whole program (helper "citime", docs/Benchmarks.md).
set -u

usage() {
  echo "usage: $0 BUILD_DIR [--expect-offload] [PROG...]" >&2
  exit 2
}

die() {
  echo "run.sh: error: $*" >&2
  exit 2
}

[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage ;; esac
BUILD=$1
shift
EXPECT=0
PROGS=()
for a in "$@"; do
  case "$a" in
    --expect-offload) EXPECT=1 ;;
    -*) usage ;;
    *) PROGS+=("${a%.c}") ;;
  esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-clang-19}
TIMEOUT=${RUN_TIMEOUT:-300}
read -r -a XFLAGS <<< "${IDIOM_BENCH_CFLAGS:-}"

[ -d "$BUILD" ] || die "build directory not found: $BUILD"
BUILD=$(cd "$BUILD" && pwd)
PLUGIN=$BUILD/lib/libIdiom.so
if [ ! -f "$PLUGIN" ]; then
  die "Idiom plugin not found: $PLUGIN
  (build it first: cmake -S . -B build && cmake --build build)"
fi
if ! ls "$BUILD"/lib/libidiomrt.* >/dev/null 2>&1; then
  die "Idiom runtime library not found: $BUILD/lib/libidiomrt.{so,a}"
fi
command -v "$CC" >/dev/null 2>&1 || die "compiler not found: $CC"
command -v python3 >/dev/null 2>&1 || die "python3 not found"
command -v timeout >/dev/null 2>&1 || die "timeout (coreutils) not found"

if [ ${#PROGS[@]} -eq 0 ]; then
  for f in "$HERE"/*.c; do
    PROGS+=("$(basename "$f" .c)")
  done
fi
for p in "${PROGS[@]}"; do
  [ -f "$HERE/$p.c" ] || die "no such program: $HERE/$p.c"
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/idiom-nas-parboil.XXXXXX") ||
  die "mktemp failed"
if [ "${KEEP_TMP:-0}" = 1 ]; then
  echo "temporary files in $TMP"
else
  trap 'rm -rf "$TMP"' EXIT
fi
mkdir -p "$TMP/pocl-cache" "$TMP/idiom-cache"
export POCL_CACHE_DIR=$TMP/pocl-cache
export IDIOM_CACHE_DIR=$TMP/idiom-cache
export LD_LIBRARY_PATH=$BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Runs must not inherit a device choice or loader path from the caller.
unset IDIOM_DEVICE IDIOM_OPENCL_LIBRARY IDIOM_MIN_TRIP
DISK_CACHE_PROGS=${DISK_CACHE_PROGS:-adi}

# 0 when program $1 runs with the runtime's disk cache (DISK_CACHE_PROGS).
disk_cache() {
  case " $DISK_CACHE_PROGS " in *" all "* | *" $1 "*) return 0 ;; esac
  return 1
}

MODES=(device auto seq no-opencl)
NPASS=0
NFAIL=0

pass() {
  echo "PASS $1"
  NPASS=$((NPASS + 1))
}

fail() {
  echo "FAIL $1"
  NFAIL=$((NFAIL + 1))
}

# Indented details on stdout.
details() {
  sed 's/^/    /' "$@"
}

# A crash of clang (or of the plugin inside it) ends in a signal or prints
# LLVM's crash banner; tell that apart from an ordinary compile error.
crashed() { # rc log
  [ "$1" -ge 128 ] && return 0
  grep -qE 'PLEASE submit a bug report|Stack dump:|LLVM ERROR|Assertion .* failed|Segmentation fault|clang: error: unable to execute command|clang frontend command failed|error: unable to load plugin' "$2"
}

# build NAME OUT LOG ARGS... ; returns 0 when OUT was built.
build() {
  local what=$1 out=$2 log=$3
  shift 3
  (cd "$HERE" && "$CC" "$@" -o "$out") >"$log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] && crashed $rc "$log"; then
    {
      echo "========================================================"
      echo "run.sh: COMPILER CRASH building $what (exit $rc):"
      echo "  (cd $HERE && $CC $* -o $out)"
      cat "$log"
      echo "========================================================"
    } >&2
    fail "$what (compiler crashed, exit $rc)"
    return 1
  elif [ $rc -ne 0 ]; then
    {
      echo "run.sh: build of $what failed (exit $rc):"
      echo "  (cd $HERE && $CC $* -o $out)"
      cat "$log"
    } >&2
    fail "$what (exit $rc)"
    return 1
  elif [ ! -x "$out" ]; then
    fail "$what (no executable)"
    return 1
  fi
  return 0
}

for p in "${PROGS[@]}"; do
  d=$TMP/$p
  mkdir -p "$d"

  # Reference build and run.
  if ! build "$p build-seq" "$d/$p.seq" "$d/build-seq.log" \
      -O2 "${XFLAGS[@]}" "$p.c" -lm; then
    for m in "${MODES[@]}"; do fail "$p $m (not run: no reference build)"; done
    continue
  fi
  timeout "$TIMEOUT" "$d/$p.seq" >"$d/ref.out" 2>"$d/ref.err"
  rc=$?
  if [ $rc -ne 0 ]; then
    fail "$p reference run (exit $rc)"
    details "$d/ref.err"
    for m in "${MODES[@]}"; do fail "$p $m (not run: no reference output)"; done
    continue
  fi

  # Plugin build.
  # Plugin options a program needs, from an `idiom-cflags: ...` line of its
  # header comment (mriq.c: -mllvm -idiom-approx-libm); -mllvm options of
  # the plugin need it loaded with -fplugin too.
  read -r -a PFLAGS <<< "$(sed -n 's/^ *\* *idiom-cflags: *//p' "$HERE/$p.c" | head -n 1)"
  [ ${#PFLAGS[@]} -gt 0 ] && PFLAGS=(-fplugin="$PLUGIN" "${PFLAGS[@]}")
  if ! build "$p build-idiom" "$d/$p.idiom" "$d/build-idiom.log" \
      -O2 "${XFLAGS[@]}" "${PFLAGS[@]}" -fpass-plugin="$PLUGIN" "$p.c" \
      -L"$BUILD/lib" -lidiomrt -lm -Wl,-rpath,"$BUILD/lib"; then
    for m in "${MODES[@]}"; do fail "$p $m (not run: plugin build failed)"; done
    continue
  fi
  if [ -s "$d/build-idiom.log" ] && [ "${VERBOSE:-0}" = 1 ]; then
    echo "  $p: plugin build diagnostics:"
    details "$d/build-idiom.log"
  fi

  for m in "${MODES[@]}"; do
    envs=(IDIOM_STATS=1)
    disk_cache "$p" || envs+=(IDIOM_CACHE_DIR=off)
    expect=any
    case $m in
      device) envs+=(IDIOM_COST=off); [ $EXPECT = 1 ] && expect=offload ;;
      auto) ;;
      seq) envs+=(IDIOM_DEVICE=seq); [ $EXPECT = 1 ] && expect=none ;;
      no-opencl)
        envs+=(IDIOM_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1)
        [ $EXPECT = 1 ] && expect=none ;;
    esac
    out=$d/$m.out err=$d/$m.err
    t0=$EPOCHREALTIME
    env "${envs[@]}" timeout "$TIMEOUT" "$d/$p.idiom" >"$out" 2>"$err"
    rc=$?
    secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.2f", b - a}')
    if [ $rc -ne 0 ]; then
      if [ $rc -eq 124 ]; then why="timed out after ${TIMEOUT}s"
      elif [ $rc -gt 128 ]; then why="killed by signal $((rc - 128))"
      else why="exit $rc"; fi
      fail "$p $m ($why)"
      tail -n 20 "$err" | details
      continue
    fi
    python3 "$HERE/compare.py" "$d/ref.out" "$out" --src "$HERE/$p.c" \
      >"$d/$m.cmp" 2>&1
    crc=$?
    python3 "$HERE/compare.py" --stats "$err" --expect $expect \
      --src "$HERE/$p.c" >"$d/$m.stats" 2>&1
    src=$?
    ndev=$(sed -n 's/.* \([0-9][0-9]*\) ran on a device$/\1/p' "$d/$m.stats")
    info="${ndev:-0} idiom(s) on a device, ${secs} s"
    if [ $crc -eq 0 ] && [ $src -eq 0 ]; then
      pass "$p $m ($info)"
      if [ "${VERBOSE:-0}" = 1 ]; then details "$d/$m.cmp" "$d/$m.stats"; fi
    else
      reasons=()
      [ $crc -ne 0 ] && reasons+=("output differs")
      [ $src -ne 0 ] && reasons+=("stats check: expected $expect")
      fail "$p $m (${reasons[*]}; $info)"
      [ $crc -ne 0 ] && details "$d/$m.cmp"
      [ $src -ne 0 ] && details "$d/$m.stats"
    fi
  done
done

echo "$NPASS passed, $NFAIL failed"
[ $NFAIL -eq 0 ]
