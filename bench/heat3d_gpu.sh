#!/bin/sh
# Issue 13: the 3-D 7-point heat time loop (bench/heat3d.c), one 3-D map
# launch a step (a 3-D NDRange) inside a residency region; target: the
# kernels at 80% or more of the device's copy bandwidth.
# For the loop order of the source (for i, for j, for k: unit stride k
# innermost) and the swapped one (unit stride outermost; the lift puts it
# innermost): whole-process wall time of the sequential build against the
# plugin's (defaults after two warm-up runs; IDIOM_DEVICE=gpu), median of
# RUNS (default 3), the outputs compared; then the kernels' time per sweep
# from IDIOM_STATS, tuned and for each variant (IDIOM_VARIANT=k), and the
# bandwidth it implies (each sweep reads the n^3 doubles of a and writes
# the (n-2)^3 interior points of b), against the device-to-device copy
# bandwidth measured in the same run (torch copy of 1 GiB, bytes read plus
# written, median of 20 with CUDA events, as bench/gemv_gpu.py). Binaries
# from bench/build_heat3d_carry.sh:
#   heat3d_gpu.sh DIR [RUNS] [N] [STEPS]
# (DEVICE=cpu runs the "forced" and kernel rows on IDIOM_DEVICE=cpu, to try
# the script where there is no GPU.)
set -eu
dir=$1; runs=${2:-3}; n=${3:-256}; steps=${4:-300}; dev=${DEVICE:-gpu}
. "$dir/timing.sh"
cache=$(mktemp -d)

copy=$(python3 - <<'EOF' 2>/dev/null || echo 0
import statistics, torch
dev = torch.device("cuda")
src = torch.empty(1 << 30, dtype=torch.uint8, device=dev)
dst = torch.empty_like(src)
def once():
    a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
    a.record(); dst.copy_(src); b.record(); torch.cuda.synchronize()
    return a.elapsed_time(b)
once()
print("%.1f" % (2 * (1 << 30) / (statistics.median(once() for _ in range(20)) * 1e-3) / 1e9))
EOF
)
if [ "$copy" = 0 ]; then
  echo "device copy bandwidth: not measured (no PyTorch with CUDA here)"
else
  echo "device copy bandwidth: $copy GB/s (read + write, torch copy of 1 GiB)"
fi

# Kernel time per sweep of the heat nest (the stats line with STEPS calls)
# and its bandwidth; extra environment in "$@".
kernels() { label=$1; shift
  env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE="$dev" IDIOM_STATS=1 "$@" \
    "$dir/heat3d.idiom" "$n" "$steps" "$mode" 2> "$dir/heat.stats" > "$dir/heat.out.k"
  same=same; cmp -s "$dir/heat.out.seq" "$dir/heat.out.k" || same=DIFFERENT
  sed -n 's/.* calls=\([0-9]*\) offloaded=\([0-9]*\) .* kernel_ms=\([0-9.]*\) .* variants=\([0-9]*\) .*/\2 \3 \4/p' \
    "$dir/heat.stats" | awk -v s="$steps" -v n="$n" -v c="$copy" -v l="$label" -v o="$same" '
    $1 == s && s > 0 { per = $2 / s; bytes = 8 * (n^3 + (n-2)^3);
      gb = per > 0 ? bytes / per / 1e6 : 0;
      printf "%s: %d launches, %.3f ms a sweep, %.1f GB/s", l, $1, per, gb;
      if (c > 0) printf " (%.0f%% of copy)", 100 * gb / c;
      printf ", output %s\n", o; found = 1; print $3 > "/dev/stderr" }
    END { if (!found) printf "%s: no site with %d offloaded calls (see %s)\n", l, s, "heat.stats" }' \
    2> "$dir/heat.nvar"
}

for mode in 0 1; do
  [ "$mode" = 0 ] && order="source order (k innermost)" || order="swapped (unit stride outermost)"
  echo "== heat3d n=$n steps=$steps, $order"
  "$dir/heat3d.seq" "$n" "$steps" "$mode" > "$dir/heat.out.seq"
  series "seq" "$dir/heat3d.seq" "$n" "$steps" "$mode"; s=$last
  for i in 1 2; do
    IDIOM_CACHE_DIR="$cache" "$dir/heat3d.idiom" "$n" "$steps" "$mode" > "$dir/heat.out.idiom"
  done
  series "defaults" env IDIOM_CACHE_DIR="$cache" "$dir/heat3d.idiom" "$n" "$steps" "$mode"; d=$last
  series "forced $dev" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE="$dev" "$dir/heat3d.idiom" "$n" "$steps" "$mode"; f=$last
  awk -v s="$s" -v d="$d" -v f="$f" -v g="$dev" 'BEGIN{printf "speed-up: defaults %.2fx, forced %s %.2fx\n", s/d, g, s/f}'
  if cmp -s "$dir/heat.out.seq" "$dir/heat.out.idiom"; then echo "outputs same"; else echo "outputs DIFFER"; fi
  kernels "kernels tuned"
  nvar=$(cat "$dir/heat.nvar" 2>/dev/null || echo 0)
  v=0
  while [ "$v" -lt "${nvar:-0}" ]; do
    kernels "kernels variant $v" IDIOM_VARIANT="$v"
    v=$((v + 1))
  done
done
rm -rf "$cache"
