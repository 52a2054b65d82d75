#!/usr/bin/env bash
# fftw.sh - build FFTW 3.3.10 (Debian's fftw3 source) with the Idiom plugin
# and run FFTW's own test suite (make check: tests/check.pl on tests/bench,
# random problems checked against FFTW's O(n^2) reference) on the OpenCL
# device.
#
# Usage: fftw.sh IDIOM_BUILD_DIR [WORK_DIR]
#
#   Same layout and conventions as gsl.sh (WORK_DIR default
#   /tmp/idiom-realworld, private apt state, FRESH=1, JOBS, NICE, RW_VERIFY).
#   Builds: double precision, static (--disable-shared), no Fortran, no
#   threads, default CFLAGS; plain (CC=clang-19) and idiom (a wrapper of
#   the build's bin/idiom-cc, which links the runtime itself). Modes: plain,
#   default, forced
#   (IDIOM_MIN_TRIP=0), each `make check` under `timeout` (TEST_TIMEOUT,
#   default 1800 s; FORCED_TIMEOUT, default 1800 s).
#
# Output: WORK_DIR/fftw/results/summary.txt, check-<mode>.log,
# build-<kind>.log. Exit status as gsl.sh: 1 on a compiler crash or on a
# check that passes plain but not with the plugin.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"

rw_setup "$@"
TEST_TIMEOUT=${TEST_TIMEOUT:-1800}
FORCED_TIMEOUT=${FORCED_TIMEOUT:-1800}
command -v perl >/dev/null 2>&1 || rw_die "perl not found (FFTW's check.pl)"
rw_fetch fftw3 'fftw3-3.3.10*'
F=$WORK/fftw
R=$F/results
mkdir -p "$R"

build() {
  local kind=$1 b=$F/$1
  if [ -f "$b/.rw-built" ] && [ "${FRESH:-0}" != 1 ]; then
    rw_log "$kind build present"
    return 0
  fi
  rm -rf "$b"
  mkdir -p "$b"
  local cc=$CLANG libs=""
  if [ "$kind" = idiom ]; then
    cc=$WORK/bin/idiom-cc
    libs=$(rw_plugin_libs)
  fi
  rw_log "configure $kind"
  (cd "$b" && nice -n "$NICE" "$SRC/configure" --disable-shared --disable-fortran \
     CC="$cc" LIBS="$libs") >"$R/configure-$kind.log" 2>&1 ||
    rw_die "configure ($kind) failed, see $R/configure-$kind.log"
  rw_log "build $kind"
  local tl tt rc=0
  tl=$(rw_timed "$R/build-$kind.log" nice -n "$NICE" make -C "$b" -k -j"$JOBS") || rc=1
  tt=$(rw_timed "$R/build-$kind-tests.log" nice -n "$NICE" make -C "$b/tests" -k -j"$JOBS" bench) || rc=1
  {
    echo "cpu_lib_s $tl"
    echo "cpu_tests_s $tt"
    echo "build_ok $((1 - rc))"
    echo "crashes $(( $(rw_crashes "$R/build-$kind.log") + $(rw_crashes "$R/build-$kind-tests.log") ))"
    echo "offloads_lib $(rw_offloads "$R/build-$kind.log")"
    echo "offloads_tests $(rw_offloads "$R/build-$kind-tests.log")"
  } > "$R/build-$kind.txt"
  [ $rc = 0 ] || { rw_log "$kind build FAILED"; return 1; }
  touch "$b/.rw-built"
}

run_tests() {
  local mode=$1
  rw_mode "$mode" "$TEST_TIMEOUT" "$FORCED_TIMEOUT"
  local kind=$RW_KIND t=$RW_TIMEOUT envs=("${RW_ENV[@]}")
  rw_log "tests: $mode (${envs[*]:-defaults}, timeout ${t}s)"
  local rc=0 t0=$SECONDS
  env "${envs[@]}" timeout "$t" nice -n "$NICE" make -C "$F/$kind/tests" check \
    >"$R/check-$mode.log" 2>&1 || rc=$?
  local res=PASS
  [ $rc = 0 ] || res=FAIL
  [ $rc = 124 ] && res=TIMEOUT
  grep -q 'FFTW transforms passed basic tests' "$R/check-$mode.log" || res=${res/PASS/FAIL}
  echo "tests/bench $res problems=$(grep -cE '^Executing|^ok|^[a-z]+[0-9x*]' "$R/check-$mode.log") wall_s=$((SECONDS - t0))" \
    > "$R/$mode.txt"
}

STATUS=0
case " $MODES " in *" plain "*) build plain || STATUS=1 ;; esac
case " $MODES " in *" default "*|*" forced "*) build idiom || STATUS=1 ;; esac
for m in $MODES; do
  run_tests "$m"
done

{
  echo "# FFTW 3.3.10 with Idiom ($(date -u +%Y-%m-%dT%H:%MZ))"
  for k in plain idiom; do
    [ -f "$R/build-$k.txt" ] && sed "s/^/build-$k /" "$R/build-$k.txt"
  done
  for m in plain default forced; do
    [ -f "$R/$m.txt" ] && sed "s/^/check-$m /" "$R/$m.txt"
  done
} > "$R/summary.txt"
cat "$R/summary.txt"

crashes=$(cat "$R"/build-*.txt 2>/dev/null | awk '$1=="crashes"{s+=$2} END {print s+0}')
[ "$crashes" = 0 ] || { echo "fftw.sh: $crashes compiler crash(es)"; STATUS=1; }
if grep -q ' PASS' "$R/plain.txt" 2>/dev/null; then
  for m in default forced; do
    if [ -f "$R/$m.txt" ] && ! grep -q ' PASS' "$R/$m.txt"; then
      echo "fftw.sh: make check passes plain but not in mode $m"
      STATUS=1
    fi
  done
fi
exit $STATUS
