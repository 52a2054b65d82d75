#!/usr/bin/env bash
# build.sh - configures and builds the hardened plugin (IDIOM_HARDENED=ON:
# -D_GLIBCXX_ASSERTIONS and UBSan, see README "Hardened build") with just
# what the lit suite and the Csmith differential test need: the plugin, the
# runtime and idiom-funil. CI runs it (.ci/run) before ctest; the CTest test
# hardened-build runs it again (a no-op when nothing changed) as the fixture
# of lit-hardened and csmith-diff-hardened.
#
# Usage: build.sh SOURCE_DIR BUILD_DIR
# Environment: JOBS (default: nproc), CMAKE_ARGS (extra configure arguments,
# e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache).
#
# The hardened objects are compiled at -O1 (not -O2): about a third less
# compile time for the extra build, and the plugin stays fast enough that
# the lit suite takes about as long as with the release build.
set -euo pipefail
SRC=${1:?usage: build.sh SOURCE_DIR BUILD_DIR}
DIR=${2:?usage: build.sh SOURCE_DIR BUILD_DIR}
JOBS=${JOBS:-$(nproc)}
if [ ! -f "$DIR/CMakeCache.txt" ]; then
  # shellcheck disable=SC2086
  cmake -S "$SRC" -B "$DIR" -DIDIOM_HARDENED=ON -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG" \
    ${CMAKE_ARGS:-} >/dev/null
fi
cmake --build "$DIR" --target Idiom idiomrt idiom-funil -j"$JOBS"
# The plugin must find the UBSan runtime when clang loads it.
if ldd "$DIR/lib/libIdiom.so" | grep -q "not found"; then
  ldd "$DIR/lib/libIdiom.so" >&2
  echo "build.sh: libIdiom.so has unresolved libraries" >&2
  exit 1
fi
