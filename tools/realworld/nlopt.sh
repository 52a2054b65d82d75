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

rw_setup "$@"
rw_fetch nlopt 'nlopt-2.7.1*' CMakeLists.txt
rw_cmake_project nlopt "NLopt 2.7.1" \
  -DNLOPT_PYTHON=OFF -DNLOPT_OCTAVE=OFF -DNLOPT_MATLAB=OFF -DNLOPT_GUILE=OFF \
  -DNLOPT_SWIG=OFF -DNLOPT_FORTRAN=OFF -DNLOPT_TESTS=ON
