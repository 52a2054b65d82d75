#!/usr/bin/env bash
# PolyBench trmm in a time loop (bench/trmm_bench.c `chain`: REPS products
# applied one after the other to the same B, nothing else in the loop, so
# the plugin build makes the loop a residency region) on the OpenCL device
# the runtime picks (IDIOM_DEVICE, default auto: PoCL here), the cost model
# off (every call offloads), the default plugin build (residency on).
# Builds, run in alternation (ROUNDS rounds, each build once per round):
#   seq       clang -O2, no plugin;
#   base      the plugin's object linked with BASE_RT_DIR/libidiomrt.a (a
#             runtime from before snapshot inputs ran inside regions: every
#             TRMM call declines there and the loop runs on the host);
#   new       the same object linked with BUILD_DIR's runtime (the snapshot
#             is a device-side copy of B's entry);
#   new-zcoff the same, IDIOM_ZERO_COPY=off (every range through the range
#             table, as on a GPU: bytes as a discrete device would move them);
#   noregion  the plugin with -idiom-residency=false, BUILD_DIR's runtime
#             (every call copies its buffers both ways).
# Prints per build the median over rounds of the loop's total wall time
# (the copy back at the region's end included), the median over rounds of
# the sequential build's total over the build's in the same round ("vs
# seq"), the median of the products after each process's first, the TRMM
# site's offloads and bytes (IDIOM_STATS:
# bytes_in / bytes_out of the site, flushed_bytes and snapshots of the
# residency line), and checks that every build's hash of B is the
# sequential build's. Each plugin build runs once before the rounds (the
# tuning of the variants at this size class then comes from the cache).
# Usage: bench/trmm_region_pocl.sh BUILD_DIR BASE_RT_DIR [M N REPS ROUNDS]
set -euo pipefail
B=$(cd "${1:?usage: trmm_region_pocl.sh BUILD_DIR BASE_RT_DIR [M N REPS ROUNDS]}" && pwd)
BASE=$(cd "${2:?usage: trmm_region_pocl.sh BUILD_DIR BASE_RT_DIR [M N REPS ROUNDS]}" && pwd)
M=${3:-1000} N=${4:-1000} REPS=${5:-4} ROUNDS=${6:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P="-fpass-plugin=$B/lib/libIdiom.so"
clang-19 -O2 "$HERE/trmm_bench.c" -o "$T/seq"
clang-19 -O2 "$P" -c "$HERE/trmm_bench.c" -o "$T/trmm.o"
clang-19 "$T/trmm.o" -L"$B/lib" -lidiomrt -lm -o "$T/new"
clang-19 "$T/trmm.o" -L"$BASE" -lidiomrt -lm -o "$T/base"
clang-19 -O2 "$P" -fplugin="$B/lib/libIdiom.so" -mllvm -idiom-residency=false \
  "$HERE/trmm_bench.c" -L"$B/lib" -lidiomrt -lm -o "$T/noregion"
cp "$T/new" "$T/new-zcoff"
BUILDS="seq base new new-zcoff noregion"
run() { # BUILD ROUND
  local env=(IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1)
  [ "$1" = new-zcoff ] && env+=(IDIOM_ZERO_COPY=off)
  env "${env[@]}" "$T/$1" "$M" "$N" "$REPS" chain 2> "$T/stats.$1.$2"
}
for b in base new noregion; do run "$b" 0 > /dev/null; done
echo "# trmm chain m=$M n=$N reps=$REPS rounds=$ROUNDS; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
  for b in $BUILDS; do
    run "$b" "$r" | sed "s/^/$b /"
  done
done > "$T/runs"
cat "$T/runs"
python3 - "$T" "$ROUNDS" $BUILDS <<'PY'
import os, re, statistics, sys
tdir, rounds, builds = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
tot, per, hashes = {}, {}, {}
for line in open(os.path.join(tdir, "runs")):
    f = line.split()
    b = f[0]
    hashes.setdefault(b, set()).add(f[f.index("hash") + 1])
    ms = [float(x) for x in f[f.index("ms") + 1:f.index("total")]]
    per.setdefault(b, []).extend(ms[1:])
    tot.setdefault(b, []).append(float(f[f.index("total") + 1]))
def stat(b, key, line_re):
    vals = set()
    for r in range(1, rounds + 1):
        p = os.path.join(tdir, "stats.%s.%d" % (b, r))
        for l in open(p):
            if re.search(line_re, l):
                m = re.search(key + r'=("[^"]*"|\S+)', l)
                vals.add(m.group(1) if m else "-")
    return ",".join(sorted(vals)) if vals else "-"
print("%-10s %10s %8s %12s %9s %10s %10s %12s %9s" % (
    "build", "total ms", "vs seq", "product ms", "offloaded", "bytes_in",
    "bytes_out", "flushed", "snapshots"))
for b in builds:
    t = statistics.median(tot[b])
    # the sequential build's total over this build's, round by round (the
    # builds of one round ran one after the other: a change of load hits
    # them alike), then the median over the rounds
    ratio = statistics.median(s / x for s, x in zip(tot["seq"], tot[b]))
    site = r"trmm calls="
    print("%-10s %10.1f %7.2fx %12.1f %9s %10s %10s %12s %9s" % (
        b, t, ratio, statistics.median(per[b]) if per[b] else float("nan"),
        "-" if b == "seq" else stat(b, "offloaded", site),
        "-" if b == "seq" else stat(b, "bytes_in", site),
        "-" if b == "seq" else stat(b, "bytes_out", site),
        "-" if b == "seq" else stat(b, "flushed_bytes", "residency regions"),
        "-" if b == "seq" else stat(b, "snapshots", "residency regions")))
same = all(hashes[b] == hashes["seq"] for b in builds) and len(hashes["seq"]) == 1
print("hashes %s" % ("equal" if same else "DIFFER: %s" % hashes))
sys.exit(0 if same else 1)
PY
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
