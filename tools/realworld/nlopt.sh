#!/usr/bin/env bash
# nlopt.sh - build NLopt 2.7.1 (Debian's nlopt source; nonlinear
# optimisation: COBYLA, BOBYQA, NEWUOA, MMA, SLSQP, DIRECT, CRS, ISRES,
# StoGO (C++), ...) with the Idiom plugin and run its own test suite (ctest:
# testopt, each algorithm on two test functions, checked against the known
# minimum, and the C++ tutorial) on the OpenCL device.
#
# Usage: nlopt.sh IDIOM_BUILD_DIR [WORK_DIR]
#
#   Same layout and conventions as libsamplerate.sh (rw_cmake_build and
#   rw_ctest in common.sh; WORK_DIR default /tmp/idiom-realworld, FRESH=1,
#   JOBS, NICE, RW_VERIFY, TEST_TIMEOUT default 600 s, FORCED_TIMEOUT
#   default 1200 s). Builds: static, CFLAGS/CXXFLAGS -g -O2, C++ routines on
#   (the idiom build compiles them with the build's idiom-c++), no language
#   bindings (Python, Octave, MATLAB, Guile, SWIG off).
#
# Output: WORK_DIR/nlopt/results/ as libsamplerate.sh's.
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
rw_fetch nlopt 'nlopt-2.7.1*' CMakeLists.txt
N=$WORK/nlopt
R=$N/results
mkdir -p "$R" "$WORK/bin"
rw_make_cc "$WORK/bin"

STATUS=0
ARGS=(-DNLOPT_PYTHON=OFF -DNLOPT_OCTAVE=OFF -DNLOPT_MATLAB=OFF -DNLOPT_GUILE=OFF
      -DNLOPT_SWIG=OFF -DNLOPT_FORTRAN=OFF -DNLOPT_TESTS=ON)
case " $MODES " in *" plain "*)
  rw_cmake_build plain "$SRC" "$N/plain" "$R" "${ARGS[@]}" || STATUS=1 ;; esac
case " $MODES " in *" default "*|*" forced "*)
  rw_cmake_build idiom "$SRC" "$N/idiom" "$R" "${ARGS[@]}" || STATUS=1 ;; esac
for m in $MODES; do
  case "$m" in
    plain) rw_ctest plain "$N/plain" "$R" "$TEST_TIMEOUT" ;;
    default) rw_ctest default "$N/idiom" "$R" "$TEST_TIMEOUT" ;;
    forced) rw_ctest forced "$N/idiom" "$R" "$FORCED_TIMEOUT" IDIOM_MIN_TRIP=0 ;;
    *) rw_die "unknown mode $m" ;;
  esac
done

rw_summary "NLopt 2.7.1" "$R"
rw_verdict nlopt.sh "$R" || STATUS=1
exit $STATUS
