#!/bin/sh
# hold_ab.sh - runtime/lib/region_hold.c's A/B (IDIOM_REGION_HOLD=on, the
# default, against off) on a program's first runs, as a new user sees
# them: for each of ROUNDS rounds and each mode (alternating which goes
# first), a sequential run, then from an empty kernel cache a cold run and
# two warm runs of the plugin build (whole-process wall time, ms), and the
# cold run's count of held declines and of device runs. The driver's own
# kernel cache (CUDA_CACHE_PATH, NVIDIA's OpenCL JIT cache) starts empty in
# each round too, as for a new user. BUILDS="DIR2 ..." adds the same runs
# of DIR2/np/PROG.idiom (another build) with the default IDIOM_REGION_HOLD.
#   hold_ab.sh DIR PROG [ROUNDS] [ARGS...]   (DIR/np/PROG.seq, PROG.idiom
#                                            from bench/build_profile_carry.sh)
set -eu
dir=$1; p=$2; rounds=${3:-3}
shift 2; [ $# -gt 0 ] && shift
ms() { a=$(date +%s%N); "$@" > /dev/null 2>>"$T/err"; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# one_run LABEL BINARY [ENV...]: the sequential run, then the plugin
# build's cold and warm runs from empty caches, on one line
one_run() {
  label=$1; bin=$2; shift 2
  rm -rf "$T/cache" "$T/err" "$T/nv"
  export CUDA_CACHE_PATH="$T/nv"
  s=$(ms "$dir/np/$p.seq" $args)
  : > "$T/err"
  c=$(ms env IDIOM_CACHE_DIR="$T/cache" IDIOM_DEBUG=time "$@" "$bin" $args)
  held=$(grep -c "another site of the region" "$T/err" || true)
  dev=$(grep -c "device run" "$T/err" || true)
  w1=$(ms env IDIOM_CACHE_DIR="$T/cache" "$@" "$bin" $args)
  w2=$(ms env IDIOM_CACHE_DIR="$T/cache" "$@" "$bin" $args)
  echo "$p round $r $label: sequential $s ms; cold $c ms (held $held, device runs $dev); warm $w1 $w2 ms"
}
args="$*"
r=1
while [ "$r" -le "$rounds" ]; do
  if [ $((r % 2)) -eq 1 ]; then modes="on off"; else modes="off on"; fi
  for m in $modes; do
    one_run "hold=$m" "$dir/np/$p.idiom" IDIOM_REGION_HOLD=$m
  done
  for b in ${BUILDS:-}; do
    one_run "build $b" "$b/np/$p.idiom"
  done
  r=$((r + 1))
done
