#!/usr/bin/env bash
# host_overhead.sh - what a plugin build costs when every site stays on the
# host (issue 12): instructions of the nas-parboil programs, sequential build
# against plugin build, counted by valgrind's cachegrind (Debian package
# `valgrind`; `perf stat` needs hardware counters, which these containers do
# not expose). Wall time cannot show a 1-5% gap on the lent GPU machines,
# whose run-to-run spread is 20-40%; instruction counts are exact and
# repeatable.
#
#   bench/host_overhead.sh BUILD_DIR [PROG...]
#
# For each program (default: every nas-parboil/*.c; a name that is not one
# is looked up in bench/, e.g. policy_tiny) builds, as
# nas-parboil/run.sh does (plus -g, which changes no code, for function
# names),
#   PROG.seq    clang-19 -O2 -g PROG.c -lm
#   PROG.idiom  clang-19 -O2 -g [idiom-cflags] -fpass-plugin=... PROG.c -lidiomrt
# runs PROG.idiom natively twice with a fresh IDIOM_CACHE_DIR (the profile
# across runs filled, as bench/np_gpu.sh's warm runs do) and checks its
# output against PROG.seq's (compare.py) and, from IDIOM_STATS, that no idiom
# ran on a device; then counts the instructions of one run of each build
# under cachegrind. The plugin build runs with the default settings
# (IDIOM_DEVICE=auto, the cost model on) and the test knob
# IDIOM_TEST_HOST=$MODE (runtime/README.md), which keeps the device from
# starting:
#   MODE=prestart (default)  the cost model decides as by default; a site it
#       would send to the device declines `host-prestart` at every call
#       (idiom_run each call: the GPU machine's state before its start-up,
#       never left by programs whose device-worthy time stays below one);
#   MODE=floor  no device run can win: every class declines `host-floor`
#       after its first timed run and gets host hints (most calls skip
#       idiom_run).
# The two bracket what the GPU machine's all-host programs do.
#   MODE=default  no test knob: the runs as a user's, the device started
#       when the cost model and the profile say so (fruitless.c); every
#       thread's instructions are counted (OpenCL's start-up and the kernel
#       builds on the runtime thread included), in the run after WARM
#       (default 2) runs from an empty cache (WARM=0: the first run).
#
# Prints one line per program: instructions of both builds and their ratio
# (plugin / sequential); with a ratio above LIMIT (default 1.01) or
# VERBOSE=1, the TOP (default 8) functions where the plugin build executes
# the most extra instructions (cg_diff + cg_annotate). Ends with the
# geometric mean and the programs above LIMIT.
#
# Environment: CC (clang-19), MODE, WARM, RUNS, LIMIT, TOP, VERBOSE, KEEP_TMP=1 (keep the
# builds and cachegrind files; prints the directory), PLUGIN_CFLAGS (more
# flags for the plugin build, after the program's idiom-cflags: e.g.
# -mllvm -idiom-dispatch-layout=outline; -fplugin= is added).
set -u

[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [PROG...]" >&2; exit 2; }
BUILD=$(cd "$1" && pwd) || exit 2
shift
HERE=$(cd "$(dirname "$0")/../nas-parboil" && pwd)
BENCH=$(cd "$(dirname "$0")" && pwd)
WARM=${WARM:-2}
CC=${CC:-clang-19}
MODE=${MODE:-prestart}
LIMIT=${LIMIT:-1.01}
TOP=${TOP:-8}
PLUGIN=$BUILD/lib/libIdiom.so
[ -f "$PLUGIN" ] || { echo "no plugin: $PLUGIN" >&2; exit 2; }
for t in valgrind cg_diff cg_annotate "$CC" python3; do
  command -v "$t" > /dev/null || { echo "$t not found (valgrind: apt-get install valgrind)" >&2; exit 2; }
done
PROGS=("$@")
if [ ${#PROGS[@]} -eq 0 ]; then
  for f in "$HERE"/*.c; do PROGS+=("$(basename "$f" .c)"); done
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/host-overhead.XXXXXX")
if [ "${KEEP_TMP:-0}" = 1 ]; then echo "files in $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
unset IDIOM_DEVICE IDIOM_COST IDIOM_MIN_TRIP IDIOM_OPENCL_LIBRARY IDIOM_STATS IDIOM_PROFILE
export POCL_CACHE_DIR=$TMP/pocl-cache

# Ir of a cachegrind output file.
irs() { sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$1"; }

high=()
logsum=0
n=0
for p in "${PROGS[@]}"; do
  p=${p%.c}
  d=$TMP/$p
  mkdir -p "$d/cache"
  SRCDIR=$HERE
  [ -f "$HERE/$p.c" ] || SRCDIR=$BENCH
  read -r -a PFLAGS <<< "$(sed -n 's/^ *\* *idiom-cflags: *//p' "$SRCDIR/$p.c" | head -n 1)"
  read -r -a XPFLAGS <<< "${PLUGIN_CFLAGS:-}"
  PFLAGS+=("${XPFLAGS[@]}")
  [ ${#PFLAGS[@]} -gt 0 ] && PFLAGS=(-fplugin="$PLUGIN" "${PFLAGS[@]}")
  if ! (cd "$SRCDIR" && "$CC" -O2 -g "$p.c" -lm -o "$d/$p.seq" &&
        "$CC" -O2 -g "${PFLAGS[@]}" -fpass-plugin="$PLUGIN" "$p.c" \
          -L"$BUILD/lib" -lidiomrt -lm -Wl,-rpath,"$BUILD/lib" \
          -o "$d/$p.idiom") > "$d/build.log" 2>&1; then
    echo "$p: BUILD FAILED"; sed 's/^/    /' "$d/build.log" | tail -20
    continue
  fi
  if [ "$MODE" = default ]; then
    # every run with the report (the counted one too): the profile's
    # decisions (early start, fruitless.c's hold) need the same IDIOM_*
    # environment from run to run
    run_idiom() { env IDIOM_CACHE_DIR="$d/cache" IDIOM_STATS=1 "$@"; }
  else
    run_idiom() { env IDIOM_CACHE_DIR="$d/cache" IDIOM_TEST_HOST="$MODE" "$@"; }
  fi
  "$d/$p.seq" > "$d/seq.out" 2> /dev/null
  # WARM runs in all (the last with the report, for the checks), or one
  # copy of the cache after them for WARM=0
  w=1
  while [ "$w" -lt "$WARM" ]; do run_idiom "$d/$p.idiom" > /dev/null 2>&1; w=$((w + 1)); done
  [ "$WARM" -eq 0 ] && cp -r "$d/cache" "$d/cache0"
  run_idiom IDIOM_STATS=1 "$d/$p.idiom" > "$d/idiom.out" 2> "$d/stats.txt"
  [ "$WARM" -eq 0 ] && rm -rf "$d/cache" && mv "$d/cache0" "$d/cache"
  ok=same
  if ! cmp -s "$d/seq.out" "$d/idiom.out"; then
    python3 "$HERE/compare.py" -q --src "$SRCDIR/$p.c" "$d/seq.out" "$d/idiom.out" || ok=DIFF
  fi
  python3 "$HERE/compare.py" --stats "$d/stats.txt" --expect none > /dev/null 2>&1 || ok="$ok,OFFLOADED"
  # (MODE=default: whether the counted run started the device, below)
  # IDIOM_STATS is off in the counted runs (its report is not the program's)
  # but under MODE=default. RUNS (default 1) consecutive runs are counted,
  # against RUNS times the sequential build's one; STARTED=K: K of them
  # started the device.
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$d/cg.seq" \
    "$d/$p.seq" > /dev/null 2>&1
  a=$(irs "$d/cg.seq"); b=0; started=0
  for k in $(seq 1 "${RUNS:-1}"); do
    run_idiom valgrind --tool=cachegrind --cache-sim=no \
      --cachegrind-out-file="$d/cg.idiom.$k" "$d/$p.idiom" > /dev/null 2> "$d/counted.err"
    grep -q 'device="[^n]' "$d/counted.err" && started=$((started + 1))
    c=$(irs "$d/cg.idiom.$k")
    [ -n "$c" ] && b=$((b + c)) || b=
    [ -z "$b" ] && break
  done
  [ "$started" -gt 0 ] && ok="$ok,STARTED=$started"
  [ -n "$a" ] && a=$((a * ${RUNS:-1}))
  if [ -z "$a" ] || [ -z "$b" ]; then echo "$p: NO COUNT (valgrind failed)"; continue; fi
  if [ "${RUNS:-1}" -gt 1 ]; then
    cg_merge -o "$d/cg.idiom" "$d"/cg.idiom.* 2> /dev/null
  else
    mv "$d/cg.idiom.1" "$d/cg.idiom"
  fi
  r=$(awk "BEGIN{printf \"%.4f\", $b / $a}")
  logsum=$(awk "BEGIN{print $logsum + log($r)}"); n=$((n + 1))
  printf '%-12s out=%-4s seq %13s  plugin %13s  ratio %s\n' "$p" "$ok" "$a" "$b" "$r"
  if awk "BEGIN{exit !($r > $LIMIT)}" || [ "${VERBOSE:-0}" = 1 ]; then
    awk "BEGIN{exit !($r > $LIMIT)}" && high+=("$p($r)")
    if [ "${RUNS:-1}" -gt 1 ]; then # the RUNS runs' own counts, not a diff
      cp "$d/cg.idiom" "$d/cg.diff"
    else
      cg_diff "$d/cg.seq" "$d/cg.idiom" > "$d/cg.diff" 2> /dev/null
    fi
    # function lines of the diff, largest increase first
    cg_annotate --auto=no "$d/cg.diff" 2> /dev/null |
      sed -n '/file:function/,$p' | grep -E '^ *-?[0-9,]+ ' |
      sed 's/,//g' | sort -k1,1nr | head -n "$TOP" | sed 's/^/    /'
  fi
done
[ $n -gt 0 ] && echo "geometric mean ratio over $n programs: $(awk "BEGIN{printf \"%.4f\", exp($logsum / $n)}")"
echo "above $LIMIT: ${high[*]:-none}"
