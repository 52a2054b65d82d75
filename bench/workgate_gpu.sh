#!/bin/sh
# The work gate on the GPU machine (issue 12, runtime/lib/workgate.c), from
# bench/build_workgate_carry.sh's DIR: whole-process wall times, median of
# RUNS (default 3), each after two warm-up runs that fill the program,
# tuning and profile caches:
#  1. Gram-Schmidt 1000 x 1200 (its GEMV^T: 1199 outputs of 1000 terms):
#     sequential, the defaults before the gate (its calls never reached the
#     cost model: 7.3-8.9 s on an H100 against 8.3 s sequential) and after,
#     and every call forced (IDIOM_DEVICE=gpu IDIOM_MIN_TRIP=0: 1.3-1.4 s);
#     the defaults' IDIOM_STATS lines and outputs (compare.py);
#  2. bench/policy_tiny.c (4096 floats x 3000 calls): must stay >= 0.95x
#     sequential with the defaults, before and after;
#  3. every nas-parboil program: np_gpu.sh on the builds after and before;
#  4. workgate_decisions.sh: the sites whose offload counts changed.
# PARTS (default "gs tiny np decisions") picks some of them: each part
# fits one 10-minute command on the GPU machine.
#   workgate_gpu.sh DIR [RUNS] [PARTS...]
set -eu
dir=$1; runs=${2:-3}; shift 2 2>/dev/null || shift $#
parts=${*:-gs tiny np decisions}
has() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
. "$dir/timing.sh"
cache=$(mktemp -d)
IDIOM_CACHE_DIR=$cache; export IDIOM_CACHE_DIR
unset IDIOM_MIN_TRIP IDIOM_COST IDIOM_DEVICE
if has gs; then
echo "== Gram-Schmidt 1000 x 1200"
"$dir/gs/gs.seq" > "$dir/gs/gs.out.seq"
series "seq" "$dir/gs/gs.seq"; seq_ms=$last
for i in 1 2; do "$dir/before/gs/gs.idiom" > /dev/null 2>&1; done
series "defaults, before (gate by outputs)" "$dir/before/gs/gs.idiom"; bef_ms=$last
for i in 1 2; do "$dir/gs/gs.idiom" > /dev/null 2>&1; done
series "defaults, after (gate by work)" "$dir/gs/gs.idiom"; aft_ms=$last
series "forced gpu, IDIOM_MIN_TRIP=0" env IDIOM_DEVICE=gpu IDIOM_MIN_TRIP=0 "$dir/gs/gs.idiom"; all_ms=$last
awk -v s="$seq_ms" -v b="$bef_ms" -v a="$aft_ms" -v f="$all_ms" 'BEGIN{printf "speed-up: defaults before %.2fx, after %.2fx, every call forced %.2fx\n", s/b, s/a, s/f}'
env IDIOM_STATS=1 "$dir/gs/gs.idiom" > "$dir/gs/gs.out.def" 2> "$dir/gs/gs.stats.def"
grep -E "idiom-stats: " "$dir/gs/gs.stats.def" | cut -c1-300 || true
python3 "$dir/gs/compare.py" "$dir/gs/gs.out.seq" "$dir/gs/gs.out.def" -q &&
  echo "outputs (defaults, after): agree (compare.py)" || echo "outputs (defaults, after): DIFFER (compare.py)"
fi
if has tiny; then
echo "== policy_tiny (4096 floats x 3000 calls; >= 0.95x wanted)"
series "seq" "$dir/tiny/tiny.seq"; ts=$last
for i in 1 2; do "$dir/before/tiny/tiny.idiom" > /dev/null 2>&1; "$dir/tiny/tiny.idiom" > /dev/null 2>&1; done
series "defaults, before" "$dir/before/tiny/tiny.idiom"; tb=$last
series "defaults, after" "$dir/tiny/tiny.idiom"; ta=$last
awk -v s="$ts" -v b="$tb" -v a="$ta" 'BEGIN{printf "policy_tiny: before %.2fx, after %.2fx\n", s/b, s/a}'
env IDIOM_STATS=1 "$dir/tiny/tiny.idiom" 2>&1 >/dev/null | grep -E "idiom-stats: .*policy_tiny" | cut -c1-300 || true
fi
if has np; then
echo "== nas-parboil, defaults, after (gate by work)"
sh "$dir/np_gpu.sh" "$dir" "$runs"
echo "== nas-parboil, defaults, before (gate by outputs)"
cp "$dir/np_gpu.sh" "$dir/before/"
sh "$dir/before/np_gpu.sh" "$dir/before" "$runs"
fi
if has decisions; then
echo "== decisions that change"
sh "$dir/workgate_decisions.sh" "$dir"
fi
rm -rf "$cache"
