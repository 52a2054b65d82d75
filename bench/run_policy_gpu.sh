#!/usr/bin/env bash
# Runs on the GPU machine from the folder bench/build_policy_carry.sh filled:
# whole-process wall times, sequential build against the plugin build with
# the default settings (the cost model), 3 runs each, and a few forced runs
# (IDIOM_DEVICE=gpu); exit status during the background start-up.
cd "$(dirname "$0")"
rm -rf cache
export IDIOM_CACHE_DIR=$PWD/cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
t() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; local rc=$?; local e=$(date +%s%N); echo "$(( (e-s)/1000000 ))ms rc=$rc"; }
echo "== policy_iter (16 M elements x R sweeps); the first process has no calibration file"
IDIOM_STATS=1 ./iter.idiom 40 2>&1 | grep "calls=40"
for R in 10 40; do for i in 1 2 3; do echo "R=$R seq $(t ./iter.seq $R) auto $(t ./iter.idiom $R)"; done; done
IDIOM_STATS=1 ./iter.idiom 40 2>&1 | grep "calls=40"
echo "R=40 forced $(IDIOM_DEVICE=gpu t ./iter.idiom 40)"
echo "== cost-model.c and policy_tiny"
for i in 1 2 3; do echo "costmodel seq $(t ./costmodel.seq) auto $(t ./costmodel.idiom); tiny seq $(t ./tiny.seq) auto $(t ./tiny.idiom)"; done
echo "tiny forced $(IDIOM_DEVICE=gpu t ./tiny.idiom)"
echo "== nas-parboil: seq vs auto (3 runs each), outputs compared byte for byte"
for p in cg ep histo image is saxpy sgemm stats; do
  ./np/$p.seq > ref.out 2>/dev/null; ./np/$p.idiom > auto.out 2>/dev/null
  line="$p out=$(cmp -s ref.out auto.out && echo same || echo DIFF)"
  for i in 1 2 3; do line="$line | seq $(t ./np/$p.seq) auto $(t ./np/$p.idiom)"; done
  echo "$line"
done
echo "== exit during the start-up (exit status must be 3)"
for d in 0 50000 150000; do
  bad=0; s=$(date +%s%N)
  for i in $(seq 10); do ./exitrace $d > /dev/null 2>&1; [ $? != 3 ] && bad=$((bad+1)); done
  e=$(date +%s%N); echo "delay ${d}us: bad=$bad/10 avg $(( (e-s)/10000000 )) ms"
done
