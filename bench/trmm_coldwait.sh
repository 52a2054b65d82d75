#!/usr/bin/env bash
# The first product of PolyBench trmm (bench/trmm_bench.c) with the default
# settings (IDIOM_DEVICE=auto, the cost model on), one product a process,
# built three ways in alternation (ABAB, ROUNDS rounds):
#   seq   clang-19 -O2, no plugin
#   base  plugin and runtime of BASE_BUILD (before the device-wait rule)
#   new   plugin and runtime of NEW_BUILD
# each plugin build with -mllvm -idiom-residency=false (as bench/trmm_pocl.sh).
# MODE fresh: every process starts from an empty IDIOM_CACHE_DIR (no
# calibration file, no program binary, no profile: a first run on a
# machine). MODE calibrated: from a cache directory holding only the
# calibration file (startup-auto.txt) that a first run wrote (a later
# program on the machine, its own program and profile not cached).
# Prints each run's product time, its decisions (IDIOM_STATS), the medians
# per build, and checks that every build prints the same hash of B (the
# band program sums in the loop's order).
# Usage: bench/trmm_coldwait.sh BASE_BUILD NEW_BUILD [M N ROUNDS MODE]
set -euo pipefail
BASE=$(cd "${1:?usage: trmm_coldwait.sh BASE_BUILD NEW_BUILD [M N ROUNDS MODE]}" && pwd)
NEW=$(cd "${2:?usage: trmm_coldwait.sh BASE_BUILD NEW_BUILD [M N ROUNDS MODE]}" && pwd)
M=${3:-1536} N=${4:-1536} ROUNDS=${5:-2} MODE=${6:-fresh}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
clang-19 -O2 "$HERE/trmm_bench.c" -o "$T/trmm.seq"
for b in base new; do
  B=$BASE
  [ "$b" = new ] && B=$NEW
  clang-19 -O2 -fplugin="$B/lib/libIdiom.so" -fpass-plugin="$B/lib/libIdiom.so" \
    -mllvm -idiom-residency=false "$HERE/trmm_bench.c" \
    -L"$B/lib" -lidiomrt -o "$T/trmm.$b"
done
if [ "$MODE" = calibrated ]; then
  # a first run on this machine writes the calibration file: 60 small
  # products, whose host time starts the device (ski rental)
  mkdir "$T/first"
  IDIOM_CACHE_DIR="$T/first" "$T/trmm.new" 256 256 60 > /dev/null
  [ -f "$T/first/startup-auto.txt" ] || { echo "no calibration file" >&2; exit 1; }
  echo "# calibration: $(tr '\n' ' ' < "$T/first/startup-auto.txt")"
fi
echo "# trmm m=$M n=$N rounds=$ROUNDS mode=$MODE; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
  for b in seq base new; do
    rm -rf "$T/cache" && mkdir "$T/cache"
    [ "$MODE" = calibrated ] && cp "$T/first/startup-auto.txt" "$T/cache/"
    IDIOM_CACHE_DIR="$T/cache" IDIOM_STATS=1 "$T/trmm.$b" "$M" "$N" 1 \
      2> "$T/stats" | sed "s/^/$b /"
    d=$(grep -o 'decisions="[^"]*"' "$T/stats" || true)
    echo "# $b round $r: ${d:-no idiom call}; load $(cut -d' ' -f1 /proc/loadavg)"
  done
done | tee "$T/runs"
python3 - "$T/runs" <<'PY'
import statistics, sys
times, hashes = {}, {}
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    f = line.split()
    hashes.setdefault(f[0], set()).add(f[f.index("hash") + 1])
    times.setdefault(f[0], []).append(float(f[f.index("ms") + 1]))
for b in ("seq", "base", "new"):
    print("%-4s first product: median %.0f ms (%s)" % (
        b, statistics.median(times[b]), ", ".join("%.0f" % t for t in times[b])))
print("new / seq %.2f, base / seq %.2f" % (
    statistics.median(times["new"]) / statistics.median(times["seq"]),
    statistics.median(times["base"]) / statistics.median(times["seq"])))
same = len(set.union(*hashes.values())) == 1
print("hashes %s" % ("equal" if same else "DIFFER: %s" % hashes))
sys.exit(0 if same else 1)
PY
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
