#!/usr/bin/env bash
# libsamplerate.sh - build libsamplerate 0.2.2 (Debian's libsamplerate
# source; sample-rate conversion, sinc and linear interpolators) with the
# Idiom plugin and run its own test suite (ctest: 17 programs checking
# SNR, bandwidth, termination, reset and channel handling against fixed
# thresholds) on the OpenCL device.
#
# Usage: libsamplerate.sh IDIOM_BUILD_DIR [WORK_DIR]
#
#   Same layout and conventions as gsl.sh (WORK_DIR default
#   /tmp/idiom-realworld, private apt state, FRESH=1, JOBS, NICE, RW_VERIFY).
#   Builds (CMake, rw_cmake_build in common.sh): static, CFLAGS -g -O2, no
#   libsndfile (examples off); the SNR tests use FFTW when pkg-config finds
#   it and are skipped otherwise. Modes: plain, default, forced
#   (IDIOM_MIN_TRIP=0); each test under ctest's --timeout (TEST_TIMEOUT,
#   default 600 s; FORCED_TIMEOUT, default 1200 s).
#
# Output: WORK_DIR/libsamplerate/results/summary.txt, <mode>.txt ("test
# RESULT" lines), ctest-<mode>.log, build-<kind>.log. Exit status 1 on a
# compiler crash, a failed build, or a test that passes plain but not in an
# idiom mode.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"

[ $# -ge 1 ] || { echo "usage: $0 IDIOM_BUILD_DIR [WORK_DIR]" >&2; exit 2; }
IDIOM_BUILD=$(cd "$1" && pwd) || rw_die "no such directory: $1"
WORK=${2:-/tmp/idiom-realworld}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
JOBS=${JOBS:-2}
NICE=${NICE:-10}
TEST_TIMEOUT=${TEST_TIMEOUT:-600}
FORCED_TIMEOUT=${FORCED_TIMEOUT:-1200}
MODES=${MODES:-plain default forced}
export IDIOM_CACHE_DIR=${IDIOM_CACHE_DIR:-$WORK/idiom-cache}

rw_check_tools
rw_fetch libsamplerate 'libsamplerate-0.2.2*' CMakeLists.txt
L=$WORK/libsamplerate
R=$L/results
mkdir -p "$R" "$WORK/bin"
rw_make_cc "$WORK/bin"

STATUS=0
ARGS=(-DLIBSAMPLERATE_EXAMPLES=OFF -DLIBSAMPLERATE_INSTALL=OFF)
case " $MODES " in *" plain "*)
  rw_cmake_build plain "$SRC" "$L/plain" "$R" "${ARGS[@]}" || STATUS=1 ;; esac
case " $MODES " in *" default "*|*" forced "*)
  rw_cmake_build idiom "$SRC" "$L/idiom" "$R" "${ARGS[@]}" || STATUS=1 ;; esac
for m in $MODES; do
  case "$m" in
    plain) rw_ctest plain "$L/plain" "$R" "$TEST_TIMEOUT" ;;
    default) rw_ctest default "$L/idiom" "$R" "$TEST_TIMEOUT" ;;
    forced) rw_ctest forced "$L/idiom" "$R" "$FORCED_TIMEOUT" IDIOM_MIN_TRIP=0 ;;
    *) rw_die "unknown mode $m" ;;
  esac
done

rw_summary "libsamplerate 0.2.2" "$R"
rw_verdict libsamplerate.sh "$R" || STATUS=1
exit $STATUS
