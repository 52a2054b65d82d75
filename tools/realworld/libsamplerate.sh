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

rw_setup "$@"
rw_fetch libsamplerate 'libsamplerate-0.2.2*' CMakeLists.txt
rw_cmake_project libsamplerate "libsamplerate 0.2.2" \
  -DLIBSAMPLERATE_EXAMPLES=OFF -DLIBSAMPLERATE_INSTALL=OFF
