#!/usr/bin/env bash
# A TRMV-heavy whole program (bench/trmv_bench.c: REPS steps of a lower
# TRMV through a sum and a strict upper TRMV in place, double, n x n)
# built with and without the plugin and run in alternation (ABAB, ROUNDS
# rounds) on the OpenCL device the runtime picks (IDIOM_DEVICE, default
# auto: PoCL here). Reports, per build, the median whole-process wall time
# (start-up, initialisation, OpenCL start and exit included), the median of
# the program's own loop time, and the median per step after each
# process's first step (which builds or loads the program); the hashes of
# the two builds must agree (both sum in the loop's order). The plugin
# build runs as a user would (cost model on) unless COST=off.
# Usage: [COST=off] bench/trmv_pocl.sh BUILD_DIR [N REPS ROUNDS]
set -euo pipefail
B=$(cd "${1:?usage: trmv_pocl.sh BUILD_DIR [N REPS ROUNDS]}" && pwd)
N=${2:-4000} REPS=${3:-20} ROUNDS=${4:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
clang-19 -O2 "$HERE/trmv_bench.c" -o "$T/trmv.seq"
clang-19 -O2 -fplugin="$B/lib/libIdiom.so" -fpass-plugin="$B/lib/libIdiom.so" \
  "$HERE/trmv_bench.c" -L"$B/lib" -lidiomrt -o "$T/trmv.idiom"
COSTENV=()
[ "${COST:-on}" = off ] && COSTENV=(IDIOM_COST=off IDIOM_MIN_TRIP=0)
echo "# trmv n=$N reps=$REPS rounds=$ROUNDS cost=${COST:-on}; load: $(cut -d' ' -f1-3 /proc/loadavg)"
# One untimed plugin run first: the OpenCL program cache on disk is then
# warm for every timed run, as for a user's second run.
env LD_LIBRARY_PATH="$B/lib" "${COSTENV[@]}" "$T/trmv.idiom" "$N" 1 > /dev/null
for r in $(seq "$ROUNDS"); do
  for build in seq idiom; do
    s=$(date +%s.%N)
    if [ $build = seq ]; then
      out=$("$T/trmv.seq" "$N" "$REPS")
    else
      out=$(env LD_LIBRARY_PATH="$B/lib" "${COSTENV[@]}" IDIOM_STATS=1 \
        "$T/trmv.idiom" "$N" "$REPS" 2> "$T/stats.$r")
      grep -o 'triangular-dot calls=[0-9]* offloaded=[0-9]* device="[^"]*"' "$T/stats.$r" >&2 || true
    fi
    e=$(date +%s.%N)
    echo "$build wall $(echo "($e - $s) * 1000" | bc -l) $out"
  done
done > "$T/runs"
cat "$T/runs"
python3 - "$T/runs" <<'PY'
import statistics, sys
wall, total, step, hashes = {}, {}, {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    b = f[0]
    wall.setdefault(b, []).append(float(f[2]))
    hashes.setdefault(b, set()).add(f[f.index("hash") + 1])
    total.setdefault(b, []).append(float(f[f.index("total") + 1]))
    ms = [float(x) for x in f[f.index("ms") + 1:f.index("total")]]
    step.setdefault(b, []).extend(ms[1:])
med = lambda d, b: statistics.median(d[b])
for b in ("seq", "idiom"):
    print("%-5s median whole program %.1f ms, loop %.1f ms, step %.2f ms (%d runs)"
          % (b, med(wall, b), med(total, b), med(step, b), len(wall[b])))
print("speedup whole program %.2fx, loop %.2fx, step %.2fx"
      % (med(wall, "seq") / med(wall, "idiom"), med(total, "seq") / med(total, "idiom"),
         med(step, "seq") / med(step, "idiom")))
same = hashes["seq"] == hashes["idiom"] and len(hashes["seq"]) == 1
print("hashes %s" % ("equal" if same else "DIFFER: %s" % hashes))
sys.exit(0 if same else 1)
PY
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
