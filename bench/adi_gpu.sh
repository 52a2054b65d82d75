#!/bin/sh
# Issue 13: nas-parboil/adi.c, the right-hand side of NAS SP/BT on
# 5-component arrays (15 maps a time step: the auxiliary arrays, xi/eta/zeta
# fluxes, fourth-order dissipation with the boundary rows apart, rhs *= dt,
# u += rhs; the time loop a residency region). For each grid size built by
# bench/build_adi_carry.sh: whole-process wall time of the sequential build
# against the plugin's (defaults after two warm-up runs, then forced onto
# the device with IDIOM_DEVICE=gpu), median of RUNS (default 3), the outputs
# compared with compare.py (the rms norms are reassociated sums); then the
# per-site kernel and transfer times from IDIOM_STATS of one forced run.
#   adi_gpu.sh DIR [RUNS]
# (DEVICE=cpu forces IDIOM_DEVICE=cpu instead, to try it where there is no
# GPU.)
set -eu
dir=$1; runs=${2:-3}; dev=${DEVICE:-gpu}
. "$dir/timing.sh"
cache=$(mktemp -d)
for n in $(cat "$dir/adi.sizes"); do
  echo "== adi n=$n"
  "$dir/adi$n.seq" > "$dir/adi$n.out.seq"
  series "seq" "$dir/adi$n.seq"; s=$last
  for i in 1 2; do
    IDIOM_CACHE_DIR="$cache" "$dir/adi$n.idiom" > "$dir/adi$n.out.idiom"
  done
  series "defaults" env IDIOM_CACHE_DIR="$cache" "$dir/adi$n.idiom"; d=$last
  series "forced $dev" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE="$dev" "$dir/adi$n.idiom"; f=$last
  # The boundary-row maps have (n-2)^2 points, below the default
  # IDIOM_MIN_TRIP (4096) for n = 64: they run on the host, and each such
  # fallback syncs the residency region. With IDIOM_MIN_TRIP=0 they run on
  # the device too.
  series "forced $dev, IDIOM_MIN_TRIP=0" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE="$dev" \
    IDIOM_MIN_TRIP=0 "$dir/adi$n.idiom"; z=$last
  awk -v s="$s" -v d="$d" -v f="$f" -v z="$z" -v g="$dev" \
    'BEGIN{printf "speed-up: defaults %.2fx, forced %s %.2fx, forced with min trip 0 %.2fx\n", s/d, g, s/f, s/z}'
  python3 "$dir/compare.py" "$dir/adi$n.out.seq" "$dir/adi$n.out.idiom" -q \
    && echo "outputs (defaults) match" || echo "outputs (defaults) DIFFER"
  IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE="$dev" IDIOM_STATS=1 "$dir/adi$n.idiom" \
    > "$dir/adi$n.out.forced" 2> "$dir/adi$n.stats"
  python3 "$dir/compare.py" "$dir/adi$n.out.seq" "$dir/adi$n.out.forced" -q \
    && echo "outputs (forced) match" || echo "outputs (forced) DIFFER"
  grep -E 'idiom-stats: (adi.c|residency)' "$dir/adi$n.stats" |
    sed -E 's/ device="[^"]*"//; s/ (tuning|decisions|reasons|cost)=("[^"]*"( x[0-9]+;?)?)+//g' | cut -c1-200
done
rm -rf "$cache"
