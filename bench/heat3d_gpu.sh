#!/bin/sh
# Issue 13: the 3-D 7-point heat time loop (bench/heat3d.c), one 3-D map
# launch a step inside a residency region; target: the kernels at 80% or
# more of the device's copy bandwidth. One call measures, for each loop
# order in ORDERS (default "0": the source's, for i, for j, for k; "0 1"
# adds the swapped one, unit stride outermost, whose sequential build walks
# the grid a plane apart and takes minutes):
#  - the device-to-device copy bandwidth, from gpu_baselines.py (vendor
#    baselines, copied in by bench/build_heat3d_carry.sh; torch copy,
#    bytes read plus written), in the same call;
#  - whole-process wall time of the sequential build against the plugin's
#    (defaults after two warm-up runs; IDIOM_DEVICE=gpu), median of RUNS
#    (default 3), outputs compared;
#  - the tuner's view (IDIOM_DEBUG lines of the tuned run: the iterations
#    it timed, "tuning sample S of T" with S = 0 for the whole map, and each
#    variant's median time on it), then the pick against the best variant
#    of the full runs below ("tuner's pick: variant K ...");
#  - the kernels' time a sweep from IDIOM_STATS, tuned and for every variant
#    (IDIOM_VARIANT=k: the 2-D tiles of a plane and the plane walks,
#    described in heat3d.variants), and the bandwidth it implies (each
#    sweep reads the n^3 doubles of a and writes the (n-2)^3 interior
#    points of b) as a share of the copy bandwidth; the residency line
#    (offsets=: sub-ranges passed at an element offset, views=: view copies).
# Binaries from bench/build_heat3d_carry.sh:
#   heat3d_gpu.sh DIR [RUNS] [N] [STEPS]
# (DEVICE=cpu runs the "forced" and kernel rows on IDIOM_DEVICE=cpu, to try
# the script where there is no GPU.)
set -eu
dir=$1; runs=${2:-3}; n=${3:-256}; steps=${4:-300}; dev=${DEVICE:-gpu}
orders=${ORDERS:-0}
. "$dir/timing.sh"
cache=$(mktemp -d)

copy=0
if [ -f "$dir/gpu_baselines.py" ]; then
  python3 "$dir/gpu_baselines.py" --gemm --reduce-log2 27 > "$dir/baselines.json" 2>/dev/null || true
  copy=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["copy_gbps_read_plus_write"])' \
    "$dir/baselines.json" 2>/dev/null || echo 0)
fi
if [ "$copy" = 0 ]; then
  echo "device copy bandwidth: not measured (no PyTorch with CUDA here)"
else
  echo "device copy bandwidth: $copy GB/s (read + write, gpu_baselines.py: torch copy of 512 MiB)"
  # For context: the copy of one grid's bytes (the largest power of two of
  # floats not above n^3 doubles); the verdict below stays on the 512 MiB one.
  l=$(awk -v n="$n" 'BEGIN { l = 0; while (2 ^ (l + 1) <= 2 * n ^ 3) l++; print l }')
  python3 "$dir/gpu_baselines.py" --gemm --reduce-log2 "$l" > "$dir/baselines.grid.json" 2>/dev/null &&
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("copy of one grid (%d MiB): %s GB/s" % ((1 << int(sys.argv[2])) * 4 >> 20, j["copy_gbps_read_plus_write"]))' \
      "$dir/baselines.grid.json" "$l" || true
fi

# Kernel time per sweep of the heat nest (the stats line with STEPS calls)
# and its bandwidth; extra environment in "$@".
kernels() { label=$1; shift
  env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE="$dev" IDIOM_STATS=1 "$@" \
    "$dir/heat3d.idiom" "$n" "$steps" "$mode" 2> "$dir/heat.stats" > "$dir/heat.out.k"
  same=same; cmp -s "$dir/heat.out.seq" "$dir/heat.out.k" || same=DIFFERENT
  sed -n 's/.* calls=\([0-9]*\) offloaded=\([0-9]*\) .* kernel_ms=\([0-9.]*\) .* variants=\([0-9]*\) .*/\2 \3 \4/p' \
    "$dir/heat.stats" | awk -v s="$steps" -v n="$n" -v c="$copy" -v l="$label" -v o="$same" -v gbfile="$dir/heat.gb" '
    $1 == s && s > 0 { per = $2 / s; bytes = 8 * (n^3 + (n-2)^3);
      gb = per > 0 ? bytes / per / 1e6 : 0;
      printf "%s: %d launches, %.3f ms a sweep, %.1f GB/s", l, $1, per, gb;
      if (c > 0) printf " (%.0f%% of copy)", 100 * gb / c;
      printf ", output %s\n", o; found = 1; print $3 > "/dev/stderr";
      printf "%s\t%.1f\n", l, gb >> gbfile }
    END { if (!found) printf "%s: no site with %d offloaded calls (see %s)\n", l, s, "heat.stats" }' \
    2> "$dir/heat.nvar"
}

for mode in $orders; do
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
  rm -f "$dir/heat.gb"
  rm -rf "$cache/tuning" # the runs above tuned: time the variants again, in view
  kernels "kernels tuned" IDIOM_DEBUG=1
  grep 'heat3d.c:[0-9]* map\|idiom-stats: residency' "$dir/heat.stats" | sed 's/^/  /' || true
  # the sweep's site: the one offloaded once a step
  site=$(sed -n "s/.*idiom-stats: \(heat3d.c:[0-9]*\) map calls=[0-9]* offloaded=$steps .*/\1/p" \
    "$dir/heat.stats" | head -1)
  grep "$site: tuning sample\|$site: size class [0-9]*: variant" "$dir/heat.stats" |
    sed 's/^.*heat3d.c:[0-9]*: /  tuner: /' || true
  pick=$(sed -n "s/.*idiom-stats: $site map .*tuning=\"[^\"]*variant \([0-9]*\) tuned=.*/\1/p" \
    "$dir/heat.stats" | head -1)
  nvar=$(cat "$dir/heat.nvar" 2>/dev/null || echo 0)
  v=0
  while [ "$v" -lt "${nvar:-0}" ]; do
    desc=$(sed -n "s/^$v: //p" "$dir/heat3d.variants" 2>/dev/null || true)
    kernels "kernels variant $v${desc:+ ($desc)}" IDIOM_VARIANT="$v"
    v=$((v + 1))
  done
  awk -F '\t' -v p="${pick:-?}" -v c="$copy" '
    $1 ~ /^kernels variant / { split($1, w, " "); k = w[3];
      if (best == "" || $2 > bgb) { best = k; bgb = $2 }
      if (k == p) pgb = $2 }
    END { if (best == "") exit;
      printf "tuner'"'"'s pick: variant %s (%s GB/s forced); best variant %s (%.1f GB/s): %s\n",
        p, pgb == "" ? "?" : pgb, best, bgb,
        p == best ? "the pick is the best" : sprintf("the pick is %.0f%% of the best", 100 * pgb / bgb)
      if (c > 0)
        printf "best: variant %s %.1f GB/s = %.0f%% of the copy bandwidth (target 80%%: %s)\n",
          best, bgb, 100 * bgb / c, (bgb >= 0.8 * c ? "met" : "NOT met") }' \
    "$dir/heat.gb" 2>/dev/null || true
done
rm -rf "$cache"
