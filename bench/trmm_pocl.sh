#!/usr/bin/env bash
# PolyBench trmm (bench/trmm_bench.c) built with and without the plugin, run
# on the OpenCL device the runtime picks (IDIOM_DEVICE, default auto: PoCL
# here; the cost model off, so every call offloads) in alternation (ABAB,
# ROUNDS rounds, REPS products each), and the median per product of each
# build over all its runs after the first product of each process (which
# builds or loads the program). The hashes of the two builds must agree (the
# band program sums in the loop's order). The loop of repetitions is a
# residency region in the plugin build (B's restore a routed copy); with
# RESIDENCY=off the plugin build has none (-idiom-residency=false), as the
# helper "trmmlift" measured it (docs/Benchmarks.md), when the runtime still
# declined a snapshot input inside a region. A time loop of products on
# one B: bench/trmm_region_pocl.sh. FORM=lower runs the lower form whose
# rows run down instead (trmm_bench.c `lower`: a triangle on the reduction,
# rows counted from the last).
# VARIANTS="0 6 7" runs the plugin build once per listed kernel variant
# (IDIOM_VARIANT=K, labelled vK; "auto" runs it tuned, as by default) in
# each round after the sequential build, and prints per label the median
# wall time per product, its ratio to the sequential build, and the median
# kernel time per call (IDIOM_STATS kernel_ms / offloaded over a process);
# the tiled variants of the band program are 6 and 7 for these run-time
# sizes (docs/FunIL.md, "TRMM programs"). Without VARIANTS: one plugin run
# per round, labelled idiom, as before.
# PREBUILT=DIR takes trmm.seq and trmm.idiom from DIR (bench/build_trmm_carry.sh,
# for a machine without LLVM; BUILD_DIR is then ignored, e.g. -), and
# SEQ_REPS=R runs the sequential build R products a process instead of REPS
# (its products take seconds to a minute).
# Usage: [RESIDENCY=off] [FORM=lower] [VARIANTS="0 6"] [PREBUILT=DIR] [SEQ_REPS=R]
#          bench/trmm_pocl.sh BUILD_DIR [M N REPS ROUNDS]
set -euo pipefail
BDIR=${1:?usage: trmm_pocl.sh BUILD_DIR [M N REPS ROUNDS]}
M=${2:-1024} N=${3:-1024} REPS=${4:-5} ROUNDS=${5:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ -n "${PREBUILT:-}" ]; then
  cp "$PREBUILT/trmm.seq" "$PREBUILT/trmm.idiom" "$T/"
else
  B=$(cd "$BDIR" && pwd)
  clang-19 -O2 "$HERE/trmm_bench.c" -o "$T/trmm.seq"
  NOREGION=()
  [ "${RESIDENCY:-on}" = off ] && NOREGION=(-mllvm -idiom-residency=false)
  clang-19 -O2 -fplugin="$B/lib/libIdiom.so" -fpass-plugin="$B/lib/libIdiom.so" \
    "${NOREGION[@]}" \
    "$HERE/trmm_bench.c" \
    -L"$B/lib" -lidiomrt -o "$T/trmm.idiom"
fi
FORM=${FORM:-upper}
MODE=()
[ "$FORM" = lower ] && MODE=(lower)
echo "# trmm ($FORM) m=$M n=$N reps=$REPS rounds=$ROUNDS; load: $(cut -d' ' -f1-3 /proc/loadavg)"
LABELS=(idiom)
[ -n "${VARIANTS:-}" ] && LABELS=($(for v in $VARIANTS; do [ "$v" = auto ] && echo auto || echo "v$v"; done))
: > "$T/kernels"
for r in $(seq "$ROUNDS"); do
  "$T/trmm.seq" "$M" "$N" "${SEQ_REPS:-$REPS}" "${MODE[@]}" | sed 's/^/seq /'
  for L in "${LABELS[@]}"; do
    FORCE=()
    [ "${L#v}" != "$L" ] && FORCE=(IDIOM_VARIANT="${L#v}")
    env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 "${FORCE[@]}" \
      "$T/trmm.idiom" "$M" "$N" "$REPS" "${MODE[@]}" 2> "$T/stats.$L.$r" | sed "s/^/$L /"
    grep -o 'trmm calls=[0-9]* offloaded=[0-9]* device="[^"]*" kernel_ms=[0-9.]*.*tuning="[^"]*"' \
      "$T/stats.$L.$r" | sed -e "s/^/$L /" -e 's/ transfer_ms.*tuning=/ tuning=/' | tee -a "$T/kernels" >&2
  done
done > "$T/runs"
cat "$T/runs"
python3 - "$T/runs" "$T/kernels" "${LABELS[@]}" <<'PY'
import re, statistics, sys
times, hashes, kern = {}, {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    build = f[0]
    hashes.setdefault(build, set()).add(f[f.index("hash") + 1])
    ms = [float(x) for x in f[f.index("ms") + 1:]]
    times.setdefault(build, []).extend(ms[1:])
for line in open(sys.argv[2]):
    m = re.search(r"^(\S+) trmm calls=\d+ offloaded=(\d+) .*kernel_ms=([0-9.]+)", line)
    if m and int(m.group(2)):
        kern.setdefault(m.group(1), []).append(float(m.group(3)) / int(m.group(2)))
med = {b: statistics.median(t) for b, t in times.items()}
labels = sys.argv[3:]
print("%-6s median %.3f ms per product (%d products)" % ("seq", med["seq"], len(times["seq"])))
for b in labels:
    k = ("; kernel %.3f ms per call (median of %d processes)"
         % (statistics.median(kern[b]), len(kern[b])) if b in kern else "")
    print("%-6s median %.3f ms per product (%d products), %.2fx sequential%s"
          % (b, med[b], len(times[b]), med["seq"] / med[b], k))
if labels == ["idiom"]:
    print("speedup %.2fx" % (med["seq"] / med["idiom"]))
same = all(hashes[b] == hashes["seq"] for b in labels) and len(hashes["seq"]) == 1
print("hashes %s" % ("equal" if same else "DIFFER: %s" % hashes))
sys.exit(0 if same else 1)
PY
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
