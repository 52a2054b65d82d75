#!/usr/bin/env bash
# glpk.sh - build GLPK 5.0 (Debian's glpk source) with the Idiom plugin and
# check it on GLPK's own example models: `make check` (glpsol on
# examples/murtagh.mps) and every example model (examples/*.mod, *.mps,
# *.lp) solved by glpsol, its output compared with the plain build's.
#
# Usage: glpk.sh IDIOM_BUILD_DIR [WORK_DIR]
#
#   Same layout and conventions as gsl.sh and fftw.sh (WORK_DIR default
#   /tmp/idiom-realworld, private apt state, FRESH=1, JOBS, NICE, RW_VERIFY).
#   Builds: static (--disable-shared), no optional back ends (no gmp, odbc,
#   mysql, dl), default CFLAGS (-g -O2); plain (CC=clang-19) and idiom (the
#   wrapper of rw_make_cc). Modes: plain, default, forced (IDIOM_MIN_TRIP=0).
#
#   The model check: in the plain mode every example model is solved
#   (`glpsol --math M.mod`, `--mps M.mps`, `--cpxlp M.lp`, run in
#   the source's examples/ directory) under `timeout` (MODEL_TIMEOUT, default
#   60 s); a model that the plain build solves in time, with exit status 0,
#   is a reference. In the idiom modes each reference model is solved again
#   (FORCED_MODEL_TIMEOUT, default 600 s, in the forced mode) and its output
#   (stdout and the -o solution report, the lines naming time, memory and
#   the output path left out) must be byte-equal to the plain output.
#
#   MODELS="a.mod b.mps" solves only those models (in every mode).
#
# Output: WORK_DIR/glpk/results/summary.txt, <mode>.txt ("model RESULT" lines,
# RESULT PASS, FAIL (differs), TIMEOUT or ERROR (exit status)), <mode>/
# (outputs in WORK_DIR/glpk/out-<mode>), build-<kind>.log. Exit status 1 on a compiler crash, a failed
# idiom build, or a model that passes plain but not in an idiom mode.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"

rw_setup "$@"
MODEL_TIMEOUT=${MODEL_TIMEOUT:-60}
FORCED_MODEL_TIMEOUT=${FORCED_MODEL_TIMEOUT:-600}
rw_fetch glpk 'glpk-5.0*'
G=$WORK/glpk
R=$G/results
mkdir -p "$R"

# models: the example models, one "file solver-option" per line.
models() {
  (cd "$SRC/examples" && for f in *.mod *.mps *.lp; do
     [ -f "$f" ] || continue
     case "$f" in
       *.mod) echo "$f --math" ;;
       *.lp) echo "$f --cpxlp" ;;
       *.mps) echo "$f --mps" ;; # the examples are in fixed MPS format
     esac
   done)
}

# normalise FILE: drops the lines that differ between runs or builds (time,
# memory, the output path, the simplex's progress lines, which glpsol prints
# every 0.5 s of run time as well as at fixed points, and the MIP search's,
# every 5 s; the MIP lines naming a new incumbent (>>>>>) and the last one
# (tree is empty) stay, and the solution report (-o) has every value).
normalise() {
  grep -vE '^(Time used|Memory used|Writing |Reading |Generating |Model has been|Long-step dual|GLPSOL)|^ *(Time used|Memory used)|^[ *] *[0-9]+: obj = |^\+ *[0-9]+: mip = .*[<>]= +[-+0-9.einf]+( +[0-9.]+%)? +\([0-9]+; [0-9]+\)$' "$1" |
    sed -e "s|$G/[a-z-]*/||g"
}

run_models() {
  local mode=$1
  rw_mode "$mode" "$MODEL_TIMEOUT" "$FORCED_MODEL_TIMEOUT"
  local kind=$RW_KIND t=$RW_TIMEOUT envs=("${RW_ENV[@]}")
  local o=$G/out-$mode glpsol=$G/$kind/examples/glpsol
  rm -rf "$o"
  mkdir -p "$o"
  rw_log "models: $mode (${envs[*]:-defaults}, timeout ${t}s per model)"
  local rc=0
  env "${envs[@]}" timeout "$t" nice -n "$NICE" make -C "$G/$kind/examples" check \
    >"$o/make-check.log" 2>&1 || rc=$?
  local mc=PASS
  [ $rc = 0 ] || mc=FAIL
  [ $rc = 124 ] && mc=TIMEOUT
  grep -q 'OPTIMAL' "$o/make-check.log" || mc=${mc/PASS/FAIL}
  echo "make-check $mc" > "$R/$mode.txt"
  local f opt res t0
  models | while read -r f opt; do
    if [ -n "${MODELS:-}" ]; then
      case " $MODELS " in *" $f "*) ;; *) continue ;; esac
    fi
    if [ "$mode" != plain ]; then
      grep -q "^$f PASS" "$R/plain.txt" 2>/dev/null || continue
    fi
    t0=$SECONDS rc=0
    (cd "$SRC/examples" && env "${envs[@]}" timeout "$t" nice -n "$NICE" \
       "$glpsol" "$opt" "$f" -o "$o/$f.sol") >"$o/$f.out" 2>&1 || rc=$?
    res=PASS
    [ $rc = 0 ] || res=ERROR
    [ $rc = 124 ] && res=TIMEOUT
    if [ $res = PASS ] && [ "$mode" != plain ]; then
      local p=$G/out-plain
      if ! cmp -s <(normalise "$o/$f.out"; normalise "$o/$f.sol") \
                  <(normalise "$p/$f.out"; normalise "$p/$f.sol"); then
        res=FAIL
      fi
    fi
    echo "$f $res wall_s=$((SECONDS - t0))"
  done >> "$R/$mode.txt"
}

STATUS=0
case " $MODES " in *" plain "*)
  rw_autotools_build plain "$SRC" "$G/plain" "$R" || STATUS=1 ;; esac
case " $MODES " in *" default "*|*" forced "*)
  rw_autotools_build idiom "$SRC" "$G/idiom" "$R" || STATUS=1 ;; esac
for m in $MODES; do
  run_models "$m"
done

rw_summary "GLPK 5.0" "$R"
rw_verdict glpk.sh "$R" || STATUS=1
exit $STATUS
