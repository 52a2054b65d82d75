#!/usr/bin/env bash
# install_test.sh BUILD_DIR SOURCE_DIR: cmake --install into a temporary
# prefix, moved afterwards (so nothing can come from the build tree or the
# configured prefix), then from that prefix alone:
#   1. idiom-cc compiles, links and runs a program that offloads;
#   2. a CMake project with find_package(Idiom) and idiom_offload(prog
#      DEVICE cpu) builds and offloads; a missing SPECS file and a compiler
#      other than clang 19 stop its configure with a clear message;
#   3. clang-19 $(pkg-config --cflags --libs idiom) builds one that offloads.
set -eu
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
T=$(mktemp -d /tmp/idiom-install-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export IDIOM_CACHE_DIR=off POCL_CACHE_DIR=$T/pocl-cache
unset IDIOM_DEVICE IDIOM_STATS IDIOM_MIN_TRIP IDIOM_COST IDIOM_CLANG
# offloads BINARY: runs it with IDIOM_STATS=1; true when a call ran on the
# device and the program's own check passed.
offloads() {
  local out
  out=$(IDIOM_STATS=1 "$@" 2>&1) || { echo "$out"; return 1; }
  echo "$out" | grep -q "scale: 0 wrong" || { echo "$out"; return 1; }
  echo "$out" | grep -Eq "idiom-stats: .* offloaded=[1-9]" || { echo "$out"; return 1; }
}

cmake --install "$BUILD" --prefix "$T/prefix" > "$T/install.log" ||
  fail "cmake --install: $(cat "$T/install.log")"
mv "$T/prefix" "$T/moved"
P=$T/moved
for f in bin/idiom-cc bin/idiom-c++ bin/idiom-funil bin/idiom-report lib/libIdiom.so \
         lib/libidiomrt.a include/idiomrt.h share/idiom/specs/map.idl \
         lib/cmake/Idiom/IdiomConfig.cmake lib/pkgconfig/idiom.pc; do
  [ -e "$P/$f" ] || fail "not installed: $f"
done

# 1. The installed driver, from the moved prefix.
show=$("$P/bin/idiom-cc" --idiom-show -O2 "$SRC/test/driver/Inputs/scale.c" -o "$T/p1")
case "$show" in
  *"$P/bin/../lib/libIdiom.so"*"$P/bin/../lib/libidiomrt.a"*) ;;
  *) fail "installed idiom-cc does not use its prefix: $show" ;;
esac
case "$show" in *"$BUILD"*) fail "installed idiom-cc uses the build tree: $show" ;; esac
"$P/bin/idiom-cc" -O2 "$SRC/test/driver/Inputs/scale.c" -o "$T/p1" ||
  fail "installed idiom-cc failed"
IDIOM_DEVICE=cpu offloads "$T/p1" || fail "idiom-cc program did not offload"
"$P/bin/idiom-c++" -O2 "$SRC/test/driver/Inputs/scale.cpp" -o "$T/p2" ||
  fail "installed idiom-c++ failed"
IDIOM_DEVICE=cpu offloads "$T/p2" || fail "idiom-c++ program did not offload"
"$P/bin/idiom-funil" --help 2>&1 | grep -q "usage: idiom-funil" ||
  fail "installed idiom-funil does not run"
"$P/bin/idiom-report" --help 2>&1 | grep -q "usage: idiom-report" ||
  fail "installed idiom-report does not run"

# 2. find_package(Idiom) + idiom_offload.
mkdir -p "$T/proj"
cp "$SRC/test/driver/Inputs/scale.c" "$T/proj/"
cat > "$T/proj/CMakeLists.txt" <<'EOS'
cmake_minimum_required(VERSION 3.20)
project(UsesIdiom C)
find_package(Idiom 0.1 REQUIRED)
add_executable(prog scale.c)
if(BAD_SPEC)
  idiom_offload(prog SPECS no-such.idl)
else()
  idiom_offload(prog DEVICE cpu SPECS ${Idiom_SPEC_DIR}/map.idl)
endif()
if(NOT TARGET Idiom::runtime OR NOT TARGET Idiom::plugin)
  message(FATAL_ERROR "no Idiom::runtime or Idiom::plugin")
endif()
EOS
cmake -S "$T/proj" -B "$T/proj/b" -DCMAKE_C_COMPILER=clang-19 \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$P" > "$T/cfg.log" 2>&1 ||
  fail "configure of the find_package project: $(cat "$T/cfg.log")"
cmake --build "$T/proj/b" -- VERBOSE=1 > "$T/build.log" 2>&1 ||
  fail "build of the find_package project: $(cat "$T/build.log")"
grep -q -- "-fpass-plugin=$P/lib/libIdiom.so" "$T/build.log" ||
  fail "idiom_offload did not add the plugin: $(cat "$T/build.log")"
grep -q -- "-mllvm=-idiom-spec=$P/share/idiom/specs/map.idl" "$T/build.log" ||
  fail "idiom_offload did not pass SPECS"
# DEVICE cpu is baked in: no IDIOM_DEVICE needed to offload.
offloads "$T/proj/b/prog" || fail "idiom_offload program did not offload"
if cmake -S "$T/proj" -B "$T/proj/bad" -DCMAKE_C_COMPILER=clang-19 -DBAD_SPEC=ON \
     -DCMAKE_PREFIX_PATH="$P" > "$T/bad.log" 2>&1; then
  fail "a missing SPECS file was accepted"
fi
grep -q "spec file not found" "$T/bad.log" || fail "missing spec: $(cat "$T/bad.log")"
if command -v gcc > /dev/null; then
  if cmake -S "$T/proj" -B "$T/proj/gcc" -DCMAKE_C_COMPILER=gcc \
       -DCMAKE_PREFIX_PATH="$P" > "$T/gcc.log" 2>&1; then
    fail "idiom_offload accepted gcc"
  fi
  grep -q "the Idiom plugin needs clang 19" "$T/gcc.log" || fail "gcc: $(cat "$T/gcc.log")"
fi

# 3. pkg-config.
flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs idiom) ||
  fail "pkg-config --cflags --libs idiom"
for want in "-fpass-plugin=$P/lib/pkgconfig/../../lib/libIdiom.so" "-lidiomrt" "-lm"; do
  case " $flags " in *" $want "*) ;; *) fail "pkg-config: no $want in: $flags" ;; esac
done
# shellcheck disable=SC2086
clang-19 -O2 "$SRC/test/driver/Inputs/scale.c" -o "$T/p3" $flags ||
  fail "clang-19 with pkg-config flags"
IDIOM_DEVICE=cpu offloads "$T/p3" || fail "pkg-config program did not offload"
echo PASS
