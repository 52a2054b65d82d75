#!/usr/bin/env bash
# realworld_glpk_ab.sh - run time of glpsol built with and without the
# plugin (the two builds of tools/realworld/glpk.sh) on GLPK example models,
# interleaved (plain, idiom, plain, idiom, ...), at the runtime's defaults.
#
# Usage: realworld_glpk_ab.sh WORK_DIR [REPS] [MODEL...]
#   WORK_DIR: glpk.sh's work directory (WORK_DIR/glpk/{plain,idiom} built,
#   WORK_DIR/src/glpk-5.0*/examples). REPS default 5; models default
#   tiling.mod planarity.mod. Prints one line per run ("model build
#   wall_s user_s sys_s") and, per model and build, the median wall and
#   user+sys seconds; then the idiom build's runtime calls for one run
#   (IDIOM_STATS=1: calls and offloaded calls summed over the sites).
set -u
W=$(cd "${1:?usage: $0 WORK_DIR [REPS] [MODEL...]}" && pwd)
REPS=${2:-5}
shift $(( $# >= 2 ? 2 : 1 ))
MODELS=${*:-tiling.mod planarity.mod}
EX=$(ls -d "$W"/src/glpk-5.0*/examples | head -n 1)
export IDIOM_CACHE_DIR=${IDIOM_CACHE_DIR:-$W/idiom-cache}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "# $(date -u +%Y-%m-%dT%H:%MZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for m in $MODELS; do
  for r in $(seq "$REPS"); do
    for b in plain idiom; do
      (cd "$EX" && /usr/bin/time -f '%e %U %S' -o "$T/t" \
         "$W/glpk/$b/examples/glpsol" --math "$m" >/dev/null 2>&1)
      echo "$m $b $(cat "$T/t")" | tee -a "$T/all"
    done
  done
done
echo "# medians (wall_s, cpu_s), load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for m in $MODELS; do
  for b in plain idiom; do
    w=$(awk -v m="$m" -v b="$b" '$1 == m && $2 == b { print $3 }' "$T/all" | sort -g)
    c=$(awk -v m="$m" -v b="$b" '$1 == m && $2 == b { print $4 + $5 }' "$T/all" | sort -g)
    n=$(echo "$w" | wc -l)
    echo "$m $b median wall $(echo "$w" | sed -n "$(( (n + 1) / 2 ))p") s," \
         "cpu $(echo "$c" | sed -n "$(( (n + 1) / 2 ))p") s (n=$n)"
  done
  (cd "$EX" && IDIOM_STATS=1 "$W/glpk/idiom/examples/glpsol" --math "$m" 2>&1 >/dev/null) |
    awk -v m="$m" '/^idiom-stats: .* calls=/ {
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^calls=/) c += substr($i, 7)
          if ($i ~ /^offloaded=/) o += substr($i, 11)
        }
      } END { printf "%s idiom runtime calls %d, offloaded %d\n", m, c, o }'
done
