#!/usr/bin/env bash
# run_spec_fuzzer.sh - builds the spec parser's libFuzzer target with clang
# and runs it for a bounded time; the CTest test spec-parser-fuzz. With
# FUZZ_TARGET=funil it does the same for the FunIL text fuzzer
# (test/funil/FunILFuzzer.cpp over funil/ and rewrite/, no LLVM, seeds
# test/lit/funil and bench/*.funil); the CTest test funil-parser-fuzz.
#
# Usage: run_spec_fuzzer.sh SOURCE_DIR WORK_DIR [SECONDS]
#
# The main build may use g++, and libFuzzer needs clang, so this script is a
# small build of its own in WORK_DIR:
#   1. compiles test/constraints/SpecParserFuzzer.cpp and the core of the
#      constraint language, constraints/lib/*.cpp (lexer, parser, resolver,
#      static checks, solver, printers; not lib/{atoms,facts,z3}/: the fuzzer
#      registers dummy atoms of its own, so neither the real atoms nor Z3 are
#      linked), with CXX -fsanitize=fuzzer,address,undefined
#      -fno-sanitize-recover=all and assertions on, into WORK_DIR/obj;
#      an object is rebuilt only when its source, a header it includes or the
#      flags changed (-MMD dependency files);
#   2. links them against libLLVM-19.so into WORK_DIR/spec-parser-fuzzer;
#   3. runs it for SECONDS (default 60) seconds on WORK_DIR/corpus (kept
#      between runs, so coverage accumulates) and the seeds in
#      test/constraints/fuzz-corpus (read only), with -max_len=4096,
#      -rss_limit_mb=2048, -timeout=25 (seconds per input) and the
#      dictionary test/fuzz/spec.dict (keywords, punctuation, atom names).
#
# Exits 0 when the fuzzer ran the whole time without a crash, a sanitizer
# report, an abort of one of the fuzzer's own checks (a diagnostic without a
# position, a definition that does not print back to itself, an atom called
# with an unbound argument it cannot generate), a slow input or running out
# of memory; 1 otherwise, printing the reproducer that libFuzzer wrote to
# WORK_DIR/artifacts/ and the command that replays it; 2 on a usage or build
# error.
#
# Environment: CXX (default clang++-19), LLVM_CONFIG (default
# llvm-config-19), JOBS (parallel compiles, default 2), FUZZ_SANITIZERS
# (default fuzzer,address,undefined), FUZZ_TARGET (spec, the default, or
# funil).
set -u

usage() {
  echo "usage: $0 SOURCE_DIR WORK_DIR [SECONDS]" >&2
  exit 2
}

die() {
  echo "run_spec_fuzzer.sh: error: $*" >&2
  exit 2
}

[ $# -ge 2 ] && [ $# -le 3 ] || usage
SRC=$1
WORK=$2
SECONDS_TO_RUN=${3:-60}
case "$SECONDS_TO_RUN" in '' | *[!0-9]*) usage ;; esac

CXX=${CXX:-clang++-19}
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-19}
JOBS=${JOBS:-2}
SANITIZERS=${FUZZ_SANITIZERS:-fuzzer,address,undefined}

[ -f "$SRC/test/constraints/SpecParserFuzzer.cpp" ] ||
  die "not an Idiom source tree: $SRC"
SRC=$(cd "$SRC" && pwd)
command -v "$CXX" >/dev/null 2>&1 || die "compiler not found: $CXX"
command -v "$LLVM_CONFIG" >/dev/null 2>&1 || die "$LLVM_CONFIG not found"
mkdir -p "$WORK/obj" "$WORK/corpus" "$WORK/artifacts" || die "cannot create $WORK"
WORK=$(cd "$WORK" && pwd)

LLVM_LIBDIR=$("$LLVM_CONFIG" --libdir) || die "$LLVM_CONFIG --libdir failed"
LLVM_VERSION=$("$LLVM_CONFIG" --version) || die "$LLVM_CONFIG --version failed"
read -r -a LLVM_CPPFLAGS <<< "$("$LLVM_CONFIG" --cppflags)"
# LLVM's headers as system headers: no warnings from them, and -MMD leaves
# them out of the dependency files.
LLVM_INCLUDE=$("$LLVM_CONFIG" --includedir)
CPPFLAGS=()
for f in "${LLVM_CPPFLAGS[@]}"; do
  [ "$f" = "-I$LLVM_INCLUDE" ] || CPPFLAGS+=("$f")
done
CXXFLAGS=(-std=c++17 -O1 -gline-tables-only -fno-rtti -fno-omit-frame-pointer
  -Wno-deprecated-declarations
  "-fsanitize=$SANITIZERS" -fno-sanitize-recover=all
  "-I$SRC/constraints/include" "-I$SRC/constraints/lib"
  -isystem "$LLVM_INCLUDE" "${CPPFLAGS[@]}")
LDFLAGS=("-fsanitize=$SANITIZERS" "-L$LLVM_LIBDIR"
  "-lLLVM-${LLVM_VERSION%%.*}" "-Wl,-rpath,$LLVM_LIBDIR")

SOURCES=("$SRC/test/constraints/SpecParserFuzzer.cpp" "$SRC"/constraints/lib/*.cpp)
NAME=spec-parser-fuzzer
SEEDS=$SRC/test/constraints/fuzz-corpus
DICT=(-dict="$SRC/test/fuzz/spec.dict")
case "${FUZZ_TARGET:-spec}" in
spec) ;;
funil)
  # Plain C++17, no LLVM: FunIL's parser, printer and type checker, and the
  # rewrite system with its OpenCL generator.
  CXXFLAGS=(-std=c++17 -O1 -gline-tables-only -fno-rtti -fno-omit-frame-pointer
    "-fsanitize=$SANITIZERS" -fno-sanitize-recover=all
    "-I$SRC/funil/include" "-I$SRC/funil/lib" "-I$SRC/rewrite/include" "-I$SRC/rewrite/lib")
  LDFLAGS=("-fsanitize=$SANITIZERS")
  SOURCES=("$SRC/test/funil/FunILFuzzer.cpp" "$SRC"/funil/lib/*.cpp "$SRC"/rewrite/lib/*.cpp
    "$SRC"/rewrite/lib/rules/*.cpp "$SRC"/rewrite/lib/codegen/*.cpp)
  NAME=funil-fuzzer
  SEEDS=$SRC/test/lit/funil
  DICT=()
  ;;
*) usage ;;
esac

# Flags changed since the last build: rebuild everything.
STAMP="$CXX ${CXXFLAGS[*]}"
if [ "$(cat "$WORK/obj/flags" 2>/dev/null)" != "$STAMP" ]; then
  rm -f "$WORK"/obj/*.o "$WORK"/obj/*.d
  printf '%s' "$STAMP" >"$WORK/obj/flags"
fi

# True when object $1 is missing or older than a file in its dependency
# file $2 (or a file there no longer exists).
stale() {
  local obj=$1 dep=$2 f
  [ -f "$obj" ] && [ -f "$dep" ] || return 0
  for f in $(sed -e 's/\\$//' -e 's/^[^:]*://' "$dep"); do
    [ -e "$f" ] && [ ! "$f" -nt "$obj" ] || return 0
  done
  return 1
}

echo "building $NAME in $WORK"
OBJS=()
PIDS=()
for src in "${SOURCES[@]}"; do
  rel=${src#"$SRC"/}
  obj=$WORK/obj/$(echo "${rel%.cpp}" | tr / _).o
  OBJS+=("$obj")
  stale "$obj" "${obj%.o}.d" || continue
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
    wait -n
  done
  echo "  $CXX ... -c $src"
  "$CXX" "${CXXFLAGS[@]}" -MMD -MF "${obj%.o}.d" -c "$src" -o "$obj" &
  PIDS+=($!)
done
BUILD_OK=1
for p in "${PIDS[@]}"; do
  wait "$p" || BUILD_OK=0
done
if [ "$BUILD_OK" -ne 1 ]; then
  rm -f "$WORK"/obj/*.d # recompile everything next time
  die "compiling the fuzzer failed"
fi
FUZZER=$WORK/$NAME
RELINK=0
[ -f "$FUZZER" ] && [ ${#PIDS[@]} -eq 0 ] || RELINK=1
for obj in "${OBJS[@]}"; do
  [ "$obj" -nt "$FUZZER" ] && RELINK=1
done
if [ "$RELINK" -eq 1 ]; then
  "$CXX" "${OBJS[@]}" "${LDFLAGS[@]}" -o "$FUZZER" || die "linking the fuzzer failed"
fi

rm -f "$WORK"/artifacts/*
FUZZ_ARGS=("$WORK/corpus" "$SEEDS" -max_total_time="$SECONDS_TO_RUN"
  -max_len=4096 -rss_limit_mb=2048 -timeout=25
  "${DICT[@]}" -artifact_prefix="$WORK/artifacts/"
  -print_final_stats=1)
echo "running: $FUZZER ${FUZZ_ARGS[*]}"
"$FUZZER" "${FUZZ_ARGS[@]}" 2>"$WORK/fuzz.log"
STATUS=$?
ARTIFACTS=$(ls "$WORK"/artifacts/ 2>/dev/null)
# The log has a line per new coverage; show the set-up, the last progress
# line and the final statistics, and on failure the report.
grep '^INFO:' "$WORK/fuzz.log" | head -n 8
grep -E '^#[0-9]+' "$WORK/fuzz.log" | tail -n 1
grep '^stat::' "$WORK/fuzz.log"
if [ "$STATUS" -ne 0 ] || [ -n "$ARTIFACTS" ]; then
  echo "--- report (from $WORK/fuzz.log) ---"
  sed -n -E '/^==[0-9]+==|ERROR|deadly signal|runtime error|Assertion|^MS:/,$p' \
    "$WORK/fuzz.log" | grep -v -e '^"' -e '^stat::' | head -n 80
  echo "FAIL: $NAME exited with status $STATUS"
  for a in $ARTIFACTS; do
    echo "  reproducer: $WORK/artifacts/$a (replay: $FUZZER $WORK/artifacts/$a)"
  done
  echo "  full log: $WORK/fuzz.log"
  exit 1
fi
echo "PASS: $SECONDS_TO_RUN s of fuzzing, no crash"
exit 0
