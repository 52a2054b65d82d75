#!/usr/bin/env bash
# gsl-ci.sh - the bounded CI subset of gsl.sh (ctest: realworld-gsl).
#
# Usage: gsl-ci.sh IDIOM_BUILD_DIR [WORK_DIR]
#
# statistics and cblas (GSL_DIRS="sys sum poly statistics cblas") offload
# far more loops, but with a cold kernel cache on a loaded 2-core machine
# their forced runs took over 300 s (docs/RealWorld.md); add them where the
# machine allows.
#
# Builds the GSL directories below (and the library directories their tests
# link) plain and with the plugin (with -fverify-intermediate-code), and runs
# their tests plain and with every offload forced (IDIOM_MIN_TRIP=0), each
# test program under a 300 s limit. Fails (exit 1) on a compiler crash,
# invalid IR, or a test that passes plain but not with the plugin. Exits 77
# (ctest: skipped) only when the GSL source can be neither found in WORK_DIR
# nor fetched with apt-get (no network, not root).
#
# WORK_DIR defaults to $IDIOM_REALWORLD_DIR, else IDIOM_BUILD_DIR/realworld;
# the source and the plain build are kept there between runs, the idiom build
# is redone when the plugin or the runtime changed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 IDIOM_BUILD_DIR [WORK_DIR]" >&2; exit 2; }
WORK=${2:-${IDIOM_REALWORLD_DIR:-$1/realworld}}
mkdir -p "$WORK"
export GSL_DIRS=${GSL_DIRS:-"sys sum poly"}
export MODES=${MODES:-"plain forced"}
export FORCED_TIMEOUT=${FORCED_TIMEOUT:-300}
export TEST_TIMEOUT=${TEST_TIMEOUT:-300}
bash "$HERE/gsl.sh" "$1" "$WORK"
rc=$?
if [ $rc = 2 ] && ! ls -d "$WORK"/src/gsl-2.7.1*/configure >/dev/null 2>&1; then
  echo "gsl-ci.sh: SKIP: the GSL source could not be fetched (see $WORK/apt-*.log)" >&2
  exit 77
fi
exit $rc
