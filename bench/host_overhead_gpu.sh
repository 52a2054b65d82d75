#!/bin/sh
# Issue 12 on the GPU machine: the nas-parboil programs whose sites all stay
# on the host there (default IDIOM_DEVICE=auto), sequential build against
# plugin build, pinned, alternating the two builds run by run (ABAB:
# bench/np_gpu.sh), median and minimum of RUNS (default 15) after two warm
# runs. Where `perf stat` can count (hardware counters exposed), also the
# user-space instructions and cycles of both builds (REPS runs each,
# default 5), the measure bench/host_overhead.sh takes here with valgrind.
# Build on a machine with LLVM, then run on the GPU machine:
#   sh bench/build_profile_carry.sh build carry/prof
#   # on the GPU machine, with carry/prof carried:
#   PIN=2,3 sh carry/prof/host_overhead_gpu.sh carry/prof [RUNS] [PROGRAM...]
# Default programs: those at 0.82-0.94x in the seventh session's passes.
set -eu
dir=$1; runs=${2:-15}; shift 2 2>/dev/null || shift $#
progs=${*:-ep mc mg tpacf saxpy syrk heat3d jds gridding cg_csr doitgen}
here=$(dirname "$0")
PIN=${PIN:-2,3}; export PIN
echo "== wall time, pinned to CPUs $PIN, ABAB, $runs runs (np_gpu.sh)"
# shellcheck disable=SC2086
sh "$here/np_gpu.sh" "$dir" "$runs" $progs
pin="taskset -c $PIN"
if perf stat -x, -e instructions:u true > /dev/null 2>&1 &&
   ! perf stat -x, -e instructions:u true 2>&1 | grep -q 'not supported'; then
  echo "== perf stat, user space, mean of ${REPS:-5} runs each"
  cache=$(mktemp -d)
  IDIOM_CACHE_DIR=$cache; export IDIOM_CACHE_DIR
  count() { # event binary -> mean count
    $pin perf stat -x, -r "${REPS:-5}" -e "$1" "$2" 2>&1 > /dev/null |
      awk -F, -v e="$1" '$3 == e { print $1 }'
  }
  for p in $progs; do
    s="$dir/np/$p.seq"; i="$dir/np/$p.idiom"
    "$i" > /dev/null 2>&1; "$i" > /dev/null 2>&1 # the profile, warm
    si=$(count instructions:u "$s"); ii=$(count instructions:u "$i")
    sc=$(count cycles:u "$s"); ic=$(count cycles:u "$i")
    echo "$p instructions seq $si plugin $ii ratio $(awk "BEGIN{printf \"%.4f\", $ii/$si}") cycles seq $sc plugin $ic ratio $(awk "BEGIN{printf \"%.4f\", $ic/$sc}")"
  done
  rm -rf "$cache"
else
  echo "== perf stat cannot count instructions here (no hardware counters)"
fi
