#!/usr/bin/env bash
# run_cpukern_pocl.sh - the iterative programs of issue #12 on the local
# OpenCL CPU device (PoCL; the target: 1.3x sequential on 2 cores):
# bench/residency_axpby.c (axpby + norm), bench/jacobi2d.c (5-point
# stencil, residual, copy) and bench/cg_csr.c (conjugate gradient on a CSR
# matrix), whole-process wall time of
#   seq      clang-19 -O2, no plugin
#   default  the plugin's build, default settings (cost model)
#   forced   the plugin's build, IDIOM_DEVICE=cpu IDIOM_COST=off
#   backup   forced, with every in-place (INOUT) zero-copy range copied
#            aside before the kernels (IDIOM_ZERO_COPY_BACKUP=always: the
#            behaviour before the gate, runtime/README.md "Zero-copy")
#   omp      clang-19 -O2 -fopenmp (the sources' OpenMP pragmas, by hand)
#   base     with BASE=DIR (a build directory, e.g. main's): the same plugin
#            build linked with DIR/lib/libidiomrt.a, default settings, in
#            its own cache directory (a runtime before and after a change,
#            in the same rounds)
# median of RUNS (default 5) interleaved rounds after one warm-up of each
# (kernel and tuning caches), with the load average before each round (the
# machine is shared), the user+system CPU seconds of each mode (under load
# a 2-thread device gets more of the machine than a 1-thread loop), the
# outputs of each mode, the forced run's IDIOM_STATS (variant picked,
# kernel time per call) and the decisions per site of a default run (and
# of a base run).
#
# Usage: bench/run_cpukern_pocl.sh BUILD [LOG2N SWEEPS_AXPBY N SWEEPS_JACOBI
#        [G ITERATIONS_CG]] (default 23 200 2048 150 1024 300: 1-3 s
#        sequential on the 2-core machines; bench/cg_csr.c's conjugate
#        gradient as well, its OpenMP mode being the sequential loop);
#        MODES="seq forced ..." picks modes (default: seq default forced omp,
#        and base after seq when BASE is set)
set -eu
B=$(cd "$1" && pwd)
LG=${2:-23}
AI=${3:-200}
N=${4:-2048}
JS=${5:-150}
CG_G=${6:-1024}
CG_IT=${7:-300}
RUNS=${RUNS:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
OMP=-fopenmp
echo 'int main(void){return 0;}' > "$T/o.c"
clang-19 -fopenmp "$T/o.c" -o "$T/o" 2>/dev/null || OMP=-fopenmp=libgomp
BASE=${BASE:+$(cd "$BASE" && pwd)}
for p in residency_axpby jacobi2d cg_csr; do
  clang-19 -O2 "$HERE/$p.c" -o "$T/$p.seq" -lm
  clang-19 -O2 $OMP "$HERE/$p.c" -o "$T/$p.omp" -lm
  clang-19 -O2 -fpass-plugin="$B/lib/libIdiom.so" "$HERE/$p.c" -L"$B/lib" \
    -lidiomrt -lm -o "$T/$p.idiom"
  [ -z "$BASE" ] || clang-19 -O2 -fpass-plugin="$B/lib/libIdiom.so" \
    "$HERE/$p.c" -L"$BASE/lib" -lidiomrt -lm -o "$T/$p.base"
done
export IDIOM_CACHE_DIR=$T/cache
MODES=${MODES:-"seq ${BASE:+base }default forced omp"}
args() {
  case $1 in
  residency_axpby) echo "$LG $AI" ;;
  jacobi2d) echo "$N $JS" ;;
  *) echo "$CG_G $CG_IT" ;;
  esac
}
run_mode() { # PROG MODE: one run, output to $T/out.PROG.MODE
  local a
  a=$(args "$1")
  case $2 in
  seq) "$T/$1.seq" $a ;;
  default) "$T/$1.idiom" $a ;;
  forced) env IDIOM_DEVICE=cpu IDIOM_COST=off "$T/$1.idiom" $a ;;
  backup) env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_ZERO_COPY_BACKUP=always \
    "$T/$1.idiom" $a ;;
  omp) "$T/$1.omp" $a ;;
  base) IDIOM_CACHE_DIR=$T/cache.base "$T/$1.base" $a ;;
  esac > "$T/out.$1.$2"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# CPU seconds (user + system) of this script's waited-for children
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{print ($16 + $17) / hz}' /proc/$$/stat; }
echo "cores: $(nproc); OpenMP: $OMP"
for p in residency_axpby jacobi2d cg_csr; do
  for m in $MODES; do run_mode "$p" "$m"; done # warm-up: caches
  : > "$T/times.$p"
  for ((r = 0; r < RUNS; r++)); do
    echo "$p round $r: load $(cut -d' ' -f1-3 /proc/loadavg)"
    for m in $MODES; do
      c0=$(cpu_s)
      t0=$(date +%s.%N)
      run_mode "$p" "$m"
      t1=$(date +%s.%N)
      c1=$(cpu_s)
      echo "$m $(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" \
        "$(awk -v a="$c0" -v b="$c1" 'BEGIN {print b - a}')" >> "$T/times.$p"
    done
  done
  echo "$p $(args "$p"), median of $RUNS (s), ratio = sequential / mode, cpu s:"
  s=$(awk '$1=="seq"{print $2}' "$T/times.$p" | median)
  for m in $MODES; do
    med=$(awk -v m="$m" '$1==m{print $2}' "$T/times.$p" | median)
    cpu=$(awk -v m="$m" '$1==m{print $3}' "$T/times.$p" | median)
    all=$(awk -v m="$m" '$1==m{printf " %.3f", $2}' "$T/times.$p")
    awk -v m="$m" -v t="$med" -v s="$s" -v all="$all" -v c="$cpu" \
      'BEGIN {printf "  %-8s %7.3f  %.2fx  cpu %.2f  (%s )\n", m, t, s / t, c, all}'
  done
  for m in $MODES; do echo "  output $m: $(cat "$T/out.$p.$m")"; done
  echo "  IDIOM_STATS, forced:"
  env IDIOM_STATS=1 IDIOM_DEVICE=cpu IDIOM_COST=off "$T/$p.idiom" $(args "$p") \
    2>&1 >/dev/null | grep 'idiom-stats' | cut -c1-300 | sed 's/^/    /'
  for v in idiom ${BASE:+base}; do # decisions per site, defaults
    echo "  IDIOM_STATS, $([ $v = idiom ] && echo default || echo base):"
    c=$T/cache; [ $v = base ] && c=$T/cache.base
    env IDIOM_STATS=1 IDIOM_CACHE_DIR=$c "$T/$p.$v" $(args "$p") 2>&1 \
      >/dev/null | grep 'idiom-stats: .*decisions' |
      sed 's/.*stats: \([^ ]*\) \([^ ]*\) .*\(decisions="[^"]*"\).*\(cost="[^"]*"\).*/\1 \2 \3 \4/' |
      sed 's/^/    /'
  done
done
