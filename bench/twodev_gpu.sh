#!/bin/sh
# Issue 12 item 4 on a machine with a GPU and PoCL (both OpenCL platforms):
# per call site the runtime chooses the GPU, the CPU OpenCL device (the
# "second device", opened only when the cost model wants to try it) or the
# original loop. For each program (bench/residency_axpby.c,
# bench/jacobi2d.c, nas-parboil/cg.c): whole-process wall time of the
# sequential build against the plugin's with the defaults
# (IDIOM_DEVICE=auto) and forced onto one device (IDIOM_DEVICE=gpu, cpu:
# no second device; cpu: one run), median of RUNS (default 3) after two
# warm-up runs
# that fill the program/tuning caches and the per-site profile; then one
# run with IDIOM_STATS=1 showing, per call site, the decisions (cpu-device,
# cpu-explore: the CPU device; device: the GPU; host-*: the loop) and the
# estimates per size class (host, device, cpu-device), the
# second-device line and IDIOM_DEBUG's "SITE: size class C: X wins (...)"
# lines (the estimates behind each change of side); outputs compared with the sequential build's (numbers
# to a relative 1e-6: reductions are reassociated). Binaries from
# bench/build_twodev_carry.sh:
#   twodev_gpu.sh DIR [RUNS]
# (AXPBY_ARGS, JACOBI_ARGS: other sizes, default "24 200" and "4096 150".)
set -eu
dir=$1; runs=${2:-3}
ms() { a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
series() { # label cmd...
  label=$1; shift; all=""
  for i in $(seq "$runs"); do all="$all $(ms "$@")"; done
  last=$(median $all)
  echo "  $label ms: $last ($all )"
}
bench() { # name args...
  name=$1; shift
  cache=$(mktemp -d)
  echo "== $name $*"
  "$dir/$name.seq" "$@" > "$dir/$name.out.seq"
  series "seq" "$dir/$name.seq" "$@"; seq_ms=$last
  for i in 1 2; do
    env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" "$@" > "$dir/$name.out.auto" 2>/dev/null
  done
  series "auto (three-way)" env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" "$@"; auto_ms=$last
  # each forced setting: one warm-up run first (it builds the kernels its
  # device lacks: nas-parboil cg on PoCL, 2 cores, took 39 s with a cold
  # cache, 2.3 s of runs after it)
  for d in gpu cpu; do
    env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=$d "$dir/$name.idiom" "$@" > /dev/null 2>&1 || true
  done
  series "forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/$name.idiom" "$@"; gpu_ms=$last
  runs_saved=$runs; runs=1 # every call on PoCL: one run
  series "forced cpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=cpu "$dir/$name.idiom" "$@"; cpu_ms=$last
  runs=$runs_saved
  awk -v s="$seq_ms" -v a="$auto_ms" -v g="$gpu_ms" -v c="$cpu_ms" \
    'BEGIN{printf "  speed-up over seq: auto %.2fx, gpu %.2fx, cpu %.2fx\n", s/a, s/g, s/c}'
  env IDIOM_CACHE_DIR="$cache" IDIOM_STATS=1 IDIOM_DEBUG=1 "$dir/$name.idiom" "$@" \
    2> "$dir/$name.stats" > "$dir/$name.out.stats"
  grep -E "idiom-stats: .*(decisions=|second-device|residency)" "$dir/$name.stats" |
    sed -e 's/ reasons=.*//' -e 's/device="[^"]*" //' | cut -c1-400
  # why each site and size class went where it went (IDIOM_DEBUG)
  grep -E "wins \(|^idiom: (second )?device:" "$dir/$name.stats" | cut -c1-300 | head -40
  for m in auto stats; do
    python3 - "$dir/$name.out.seq" "$dir/$name.out.$m" "$m" <<'PY'
import sys
a = [l.split() for l in open(sys.argv[1])]
b = [l.split() for l in open(sys.argv[2])]
worst = 0.0 if len(a) == len(b) else float("inf")
for x, y in zip(a, b):
    if len(x) != len(y):
        worst = float("inf")
    for u, v in zip(x, y):
        try:
            fu, fv = float(u), float(v)
        except ValueError:
            if u != v:
                worst = float("inf")
            continue
        if fu != fv:
            worst = max(worst, abs(fu - fv) / max(abs(fu), abs(fv)))
print("  output (%s): %s (largest relative difference %.3g)" % (
    sys.argv[3], "agrees with seq" if worst <= 1e-6 else "DIFFERS from seq", worst))
PY
  done
  rm -rf "$cache"
}
bench axpby ${AXPBY_ARGS:-24 200}
bench jacobi ${JACOBI_ARGS:-4096 150}
bench cg
