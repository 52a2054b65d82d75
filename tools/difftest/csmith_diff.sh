#!/usr/bin/env bash
# csmith_diff.sh - differential testing of the Idiom plugin with Csmith.
#
# Usage: csmith_diff.sh BUILD_DIR COUNT [SEED0]
#
# For each seed S in SEED0 .. SEED0+COUNT-1 (SEED0 defaults to 1):
#   1. csmith --seed S OPTIONS -o S.c  (a random, UB-free C program that
#      prints a checksum of its globals; OPTIONS below)
#   2. S.ref    CC -O2 -w -I$CSMITH_INCLUDE S.c
#      S.idiom  CC -O2 -w -I$CSMITH_INCLUDE S.c -fverify-intermediate-code
#                 -fpass-plugin=BUILD_DIR/lib/libIdiom.so -Rpass=idiom-offload
#                 -Rpass-analysis=idiom-offload -Rpass-missed=idiom-offload
#                 -LBUILD_DIR/lib -lidiomrt -lm
#      (-fverify-intermediate-code runs LLVM's IR verifier after the
#      pipeline, so that broken IR from the plugin fails the compile even
#      where the program happens to print the right checksum)
#   3. runs S.ref (RUN_TIMEOUT seconds), then S.idiom twice: with the default
#      device and IDIOM_MIN_TRIP=1 (so every offloaded loop, however short,
#      runs as an OpenCL kernel), and with IDIOM_DEVICE=seq (every call
#      declines and the original loop runs); the second run only where the
#      plugin offloaded something.
#   4. compares stdout and exit status of every S.idiom run with S.ref's.
#
# Verdicts, one line per seed:
#   PASS   same output and status in every run
#   FAIL   clang with the plugin failed (non-zero exit, signal or
#          COMPILE_TIMEOUT) where the plain build compiled; or an S.idiom run
#          differs from S.ref (output, exit status, or a timeout of
#          IDIOM_RUN_TIMEOUT seconds)
#   SKIP   csmith or the plain build failed, or S.ref did not finish within
#          RUN_TIMEOUT seconds or exited non-zero: nothing to compare against
# then one line with the plugin's remarks over the batch (loops offloaded,
# detected only, idioms not offloaded), and "N passed, M failed, K skipped"
# alone on the last line. Exits 0 when nothing failed, 1 on any failure, 2 on
# a usage or setup error (missing csmith, its headers, compiler, plugin or
# runtime library).
#
# Each failing seed's program, build logs and outputs are kept in
# FAIL_DIR/seed-S (default BUILD_DIR/difftest-failures), with a file
# REPRODUCE giving the commands that rebuild and rerun it.
#
# Generator options (CSMITH_PROFILE):
#   arrays (default)  C without packed structs, pointers, structs, unions,
#                     volatiles, jumps, comma operators or assignments inside
#                     expressions; at most 4 functions; one-dimensional arrays
#                     of up to 1000 elements. Loops over such arrays are too
#                     long for LLVM to unroll fully, so some of them reach the
#                     plugin as maps and reductions (about one program in
#                     fifteen offloads something).
#   full              everything Csmith generates except packed structs (a
#                     #pragma), with at most 6 functions and blocks nested 4
#                     deep: odd IR (volatiles, bit-fields, unions, pointer
#                     casts) that the atoms must reject without crashing.
# Both keep programs small (a second of compile time) and most of them
# finish in milliseconds.
#
# Environment: CC (default clang-19), CSMITH (default csmith), CSMITH_INCLUDE
# (default /usr/include/csmith, from Debian's libcsmith-dev), CSMITH_PROFILE
# (arrays or full), CSMITH_OPTS (replaces the profile's options),
# RUN_TIMEOUT (default 5), IDIOM_RUN_TIMEOUT (default 60: the first kernel
# build on PoCL takes seconds), COMPILE_TIMEOUT (default 120), FAIL_DIR,
# KEEP_TMP=1 (keep the work directory and print its path), VERBOSE=1 (print
# the plugin's remarks for each seed).
set -u

# Generator options of each profile (see above).
ARRAYS_OPTS="--no-packed-struct --no-pointers --no-structs --no-unions
  --no-volatiles --no-volatile-pointers --no-jumps --no-comma-operators
  --no-embedded-assigns --max-funcs 4 --max-array-dim 1
  --max-array-len-per-dim 1000"
FULL_OPTS="--no-packed-struct --max-funcs 6 --max-block-depth 4"

usage() {
  echo "usage: $0 BUILD_DIR COUNT [SEED0]" >&2
  exit 2
}

die() {
  echo "csmith_diff.sh: error: $*" >&2
  exit 2
}

is_uint() {
  case "$1" in '' | *[!0-9]*) return 1 ;; *) return 0 ;; esac
}

[ $# -ge 2 ] && [ $# -le 3 ] || usage
BUILD=$1
COUNT=$2
SEED0=${3:-1}
is_uint "$COUNT" || usage
is_uint "$SEED0" || usage

CC=${CC:-clang-19}
CSMITH=${CSMITH:-csmith}
CSMITH_INCLUDE=${CSMITH_INCLUDE:-/usr/include/csmith}
case "${CSMITH_PROFILE:-arrays}" in
  arrays) PROFILE_OPTS=$ARRAYS_OPTS ;;
  full) PROFILE_OPTS=$FULL_OPTS ;;
  *) die "CSMITH_PROFILE must be arrays or full, not '$CSMITH_PROFILE'" ;;
esac
read -r -d '' -a GEN_OPTS <<< "${CSMITH_OPTS-$PROFILE_OPTS}"
RUN_TIMEOUT=${RUN_TIMEOUT:-5}
IDIOM_RUN_TIMEOUT=${IDIOM_RUN_TIMEOUT:-60}
COMPILE_TIMEOUT=${COMPILE_TIMEOUT:-120}

[ -d "$BUILD" ] || die "build directory not found: $BUILD"
BUILD=$(cd "$BUILD" && pwd)
PLUGIN=$BUILD/lib/libIdiom.so
[ -f "$PLUGIN" ] || die "Idiom plugin not found: $PLUGIN (build target Idiom)"
ls "$BUILD"/lib/libidiomrt.* >/dev/null 2>&1 ||
  die "Idiom runtime library not found: $BUILD/lib/libidiomrt.{so,a}"
command -v "$CSMITH" >/dev/null 2>&1 ||
  die "csmith not found (Debian: apt-get install csmith libcsmith-dev)"
[ -f "$CSMITH_INCLUDE/csmith.h" ] ||
  die "csmith.h not found in $CSMITH_INCLUDE (Debian: apt-get install libcsmith-dev)"
command -v "$CC" >/dev/null 2>&1 || die "compiler not found: $CC"
command -v timeout >/dev/null 2>&1 || die "timeout (coreutils) not found"
FAIL_DIR=${FAIL_DIR:-$BUILD/difftest-failures}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/csmith-diff.XXXXXX") || die "mktemp failed"
if [ "${KEEP_TMP:-0}" = 1 ]; then
  echo "work directory: $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi
# One program cache for the batch, away from the user's.
export IDIOM_CACHE_DIR=$WORK/idiom-cache

# -fno-crash-diagnostics: a crashing clang leaves no files in /tmp (the
# failing seed's files are kept in FAIL_DIR instead).
CFLAGS=(-O2 -w -fno-crash-diagnostics "-I$CSMITH_INCLUDE")
PLUGIN_FLAGS=(-fverify-intermediate-code "-fpass-plugin=$PLUGIN"
  '-Rpass=idiom-offload' '-Rpass-analysis=idiom-offload' '-Rpass-missed=idiom-offload')
PLUGIN_LIBS=("-L$BUILD/lib" -lidiomrt -lm)

# Describes exit status $1 of a command run under timeout(1).
status_text() {
  case "$1" in
    124) echo "timeout" ;;
    137) echo "killed (timeout)" ;;
    *)
      if [ "$1" -gt 128 ]; then
        echo "signal $(($1 - 128))"
      else
        echo "exit $1"
      fi
      ;;
  esac
}

# Keeps the files of failing seed $1, with the commands that reproduce it,
# and prints where.
keep_failure() {
  local dest=$FAIL_DIR/seed-$1
  rm -rf "$dest"
  mkdir -p "$dest" && cp "$WORK/$1".* "$dest"/ 2>/dev/null
  {
    echo "# seed $1 of csmith_diff.sh; the program is $1.c here."
    echo "$CSMITH --seed $1 ${GEN_OPTS[*]} -o $1.c"
    echo "$CC ${CFLAGS[*]} $1.c -o $1.ref && ./$1.ref"
    echo "$CC ${CFLAGS[*]} ${PLUGIN_FLAGS[*]} $1.c ${PLUGIN_LIBS[*]} -o $1.idiom"
    echo "IDIOM_MIN_TRIP=1 ./$1.idiom; IDIOM_DEVICE=seq ./$1.idiom"
  } >"$dest/REPRODUCE"
  echo "    kept in $dest (commands in REPRODUCE)"
}

# Runs the plugin build of seed $1 in mode $2 (device or seq) and compares it
# with the reference; prints the reason and returns 1 when it differs.
run_and_compare() {
  local s=$1 mode=$2 st
  if [ "$mode" = seq ]; then
    { IDIOM_DEVICE=seq timeout -k 2 "$IDIOM_RUN_TIMEOUT" "$WORK/$s.idiom" \
      >"$WORK/$s.out.$mode" 2>"$WORK/$s.err.$mode"; } 2>/dev/null
  else
    { IDIOM_MIN_TRIP=1 timeout -k 2 "$IDIOM_RUN_TIMEOUT" "$WORK/$s.idiom" \
      >"$WORK/$s.out.$mode" 2>"$WORK/$s.err.$mode"; } 2>/dev/null
  fi
  st=$?
  if [ "$st" -ne "$REF_STATUS" ]; then
    echo "plugin build ($mode run): $(status_text "$st"), reference: $(status_text "$REF_STATUS")"
    return 1
  fi
  if ! cmp -s "$WORK/$s.out.ref" "$WORK/$s.out.$mode"; then
    echo "plugin build ($mode run) prints '$(head -c 200 "$WORK/$s.out.$mode" | tr '\n' ' ')', reference '$(head -c 200 "$WORK/$s.out.ref" | tr '\n' ' ')'"
    return 1
  fi
  return 0
}

echo "csmith --seed S ${GEN_OPTS[*]}"
echo "plain:  $CC ${CFLAGS[*]} S.c"
echo "plugin: $CC ${CFLAGS[*]} ${PLUGIN_FLAGS[*]} S.c ${PLUGIN_LIBS[*]}"
echo "runs:   reference, then the plugin build with IDIOM_MIN_TRIP=1 (and IDIOM_DEVICE=seq where it offloads)"

PASSED=0
FAILED=0
SKIPPED=0
OFFLOADED=0
DETECTED=0
NOT_OFFLOADED=0
SEEDS_WITH_OFFLOAD=0
LAST=$((SEED0 + COUNT - 1))
for ((s = SEED0; s <= LAST; s++)); do
  src=$WORK/$s.c
  if ! "$CSMITH" --seed "$s" "${GEN_OPTS[@]}" -o "$src" >"$WORK/$s.csmith.log" 2>&1; then
    echo "SKIP seed $s: csmith failed"
    SKIPPED=$((SKIPPED + 1))
    continue
  fi

  timeout -k 2 "$COMPILE_TIMEOUT" "$CC" "${CFLAGS[@]}" "$src" -o "$WORK/$s.ref" \
    >"$WORK/$s.cc-ref.log" 2>&1
  st=$?
  if [ "$st" -ne 0 ]; then
    echo "SKIP seed $s: plain build failed ($(status_text "$st"))"
    SKIPPED=$((SKIPPED + 1))
    continue
  fi

  timeout -k 2 "$COMPILE_TIMEOUT" "$CC" "${CFLAGS[@]}" "${PLUGIN_FLAGS[@]}" \
    "$src" "${PLUGIN_LIBS[@]}" -o "$WORK/$s.idiom" >"$WORK/$s.cc-idiom.log" 2>&1
  st=$?
  off=$(grep -c 'remark: offloaded ' "$WORK/$s.cc-idiom.log")
  det=$(grep -c 'remark: detected idiom ' "$WORK/$s.cc-idiom.log")
  nof=$(grep -c 'remark: idiom .* not offloaded' "$WORK/$s.cc-idiom.log")
  OFFLOADED=$((OFFLOADED + off))
  DETECTED=$((DETECTED + det))
  NOT_OFFLOADED=$((NOT_OFFLOADED + nof))
  [ "$off" -gt 0 ] && SEEDS_WITH_OFFLOAD=$((SEEDS_WITH_OFFLOAD + 1))
  [ "${VERBOSE:-0}" = 1 ] && grep 'remark: ' "$WORK/$s.cc-idiom.log" | sed 's/^/    /'
  if [ "$st" -ne 0 ]; then
    echo "FAIL seed $s: clang with the plugin: $(status_text "$st") (plain build compiles)"
    grep -v 'remark: ' "$WORK/$s.cc-idiom.log" |
      grep -m 4 -E 'error|Assertion|Stack dump|signal|!$' | sed 's/^/    /'
    keep_failure "$s"
    FAILED=$((FAILED + 1))
    continue
  fi

  # (The braces keep bash's "Segmentation fault" notices off the output.)
  { timeout -k 2 "$RUN_TIMEOUT" "$WORK/$s.ref" >"$WORK/$s.out.ref" \
    2>"$WORK/$s.err.ref"; } 2>/dev/null
  REF_STATUS=$?
  if [ "$REF_STATUS" -ne 0 ]; then
    echo "SKIP seed $s: reference run: $(status_text "$REF_STATUS")"
    SKIPPED=$((SKIPPED + 1))
    continue
  fi

  modes=(device)
  [ "$off" -gt 0 ] && modes+=(seq)
  why=""
  for mode in "${modes[@]}"; do
    why=$(run_and_compare "$s" "$mode") || break
    why=""
  done
  if [ -n "$why" ]; then
    echo "FAIL seed $s: $why"
    keep_failure "$s"
    FAILED=$((FAILED + 1))
    continue
  fi
  echo "PASS seed $s ($off offloaded, $det detected only, $nof not offloaded)"
  PASSED=$((PASSED + 1))
done

echo "plugin remarks over $COUNT seeds: $OFFLOADED loops offloaded (in $SEEDS_WITH_OFFLOAD programs), $DETECTED detected only, $NOT_OFFLOADED idioms not offloaded"
echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" -eq 0 ]
