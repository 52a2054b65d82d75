#!/usr/bin/env bash
# icd_direct.sh - start-up of a plugin-built program with the record of the
# OpenCL vendor library (runtime/lib/cl_direct.c: the device opened through
# that library directly) against without it (through the ICD loader,
# libOpenCL.so.1, as a cold run), issue 12.
#
#   bench/icd_direct.sh BUILD_DIR
#
# Builds SRC (bench/jacobi2d.c) with BUILD_DIR's plugin and runtime, warms
# a fresh IDIOM_CACHE_DIR with two runs (kernels in the disk cache, the
# record written) and keeps the record; then RUNS rounds, each one run
# without the record (removed first: the loader path, which writes it
# again) and one with it (put back), in alternating order. Each run has
# IDIOM_COST=off (the first call opens the device on the calling thread)
# and IDIOM_DEBUG=time; from its log: "pick", the platform and device
# choice (the "OpenCL: ... platform and device in X ms" line), "up", the
# time since program start when the device's context and queue are ready
# (the "device:" line), and "wall", the process's wall time. Prints the
# medians, their ratios, and the load average before and after; every
# run's output is compared with the sequential build's. First, the time of
# one computation of the loader's view (the hash a record is checked
# against), over 1000 calls.
#
# Environment: CC (clang-19), RUNS (15), SRC (bench/jacobi2d.c), ARGS
# ("512 20"), KEEP_TMP=1 (keep the files; prints the directory).
set -u
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
BUILD=$(cd "$1" && pwd) || exit 2
HERE=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-clang-19}
RUNS=${RUNS:-15}
SRC=${SRC:-$HERE/jacobi2d.c}
ARGS=${ARGS:-512 20}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/icd-direct.XXXXXX")
if [ "${KEEP_TMP:-0}" = 1 ]; then echo "files in $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi

"$CC" -O2 "$SRC" -o "$TMP/seq" -lm || exit 1
"$CC" -O2 -fpass-plugin="$BUILD/lib/libIdiom.so" "$SRC" -L"$BUILD/lib" \
  -lidiomrt -lm -o "$TMP/idiom" || exit 1
# shellcheck disable=SC2086
"$TMP/seq" $ARGS > "$TMP/expected" || exit 1
# The record's own cost at each start: the loader's view (idiomrt_icd_view,
# runtime/lib/cl_direct.c), timed over 1000 calls.
cat > "$TMP/view.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <time.h>
uint64_t idiomrt_icd_view(void);
int main(void) {
  struct timespec a, b;
  uint64_t h = 0;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (int i = 0; i < 1000; i++)
    h += idiomrt_icd_view();
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("the loader's view: %.1f us a call (%d)\n",
         ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e6,
         (int)(h & 1));
  return 0;
}
C
"$CC" -O2 "$TMP/view.c" -L"$BUILD/lib" -lidiomrt -o "$TMP/view" && "$TMP/view"
echo "load before: $(uptime)"
python3 - "$TMP" "$RUNS" "$ARGS" <<'PY'
import os, re, shutil, statistics, subprocess, sys, time
tmp, runs, args = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
cache = os.path.join(tmp, "cache")
rec = os.path.join(cache, "icd-auto.txt")
env = dict(os.environ, IDIOM_COST="off", IDIOM_DEBUG="time", IDIOM_CACHE_DIR=cache)
for k in ("IDIOM_DEVICE", "IDIOM_OPENCL_LIBRARY", "IDIOM_STATS"):
    env.pop(k, None)
expected = open(os.path.join(tmp, "expected")).read()

def run(label):
    t0 = time.monotonic()
    p = subprocess.run([os.path.join(tmp, "idiom")] + args, env=env,
                       capture_output=True, text=True)
    wall = (time.monotonic() - t0) * 1e3
    if p.returncode != 0 or p.stdout != expected:
        sys.exit("%s: output differs from the sequential build's" % label)
    pick = re.search(r"OpenCL: (opened \S+ directly|through the ICD loader) "
                     r"?(\(.*\))?: platform and device in ([0-9.]+) ms", p.stderr)
    up = re.search(r"idiom: \+([0-9.]+) ms: device: ", p.stderr)
    if not pick or not up:
        sys.exit("%s: no OpenCL or device line in the log:\n%s" % (label, p.stderr))
    direct = pick.group(1).startswith("opened")
    if label in ("loader", "record") and direct != (label == "record"):
        sys.exit("%s: took the other path: %s" % (label, pick.group(0)))
    return float(pick.group(3)), float(up.group(1)), wall

run("warm-up")
run("warm-up")
if not os.path.exists(rec):
    sys.exit("no record written in " + cache)
saved = rec + ".saved"
shutil.copy(rec, saved)
res = {"loader": [], "record": []}
for i in range(runs):
    for label in (("loader", "record") if i % 2 == 0 else ("record", "loader")):
        if label == "loader":
            os.remove(rec)
        else:
            shutil.copy(saved, rec)
        res[label].append(run(label))
med = {k: [statistics.median(x[j] for x in v) for j in range(3)]
       for k, v in res.items()}
print("runs %d each, interleaved; medians in ms (min-max)" % runs)
for k in ("loader", "record"):
    cols = []
    for j, name in enumerate(("pick", "up", "wall")):
        xs = [x[j] for x in res[k]]
        cols.append("%s %.1f (%.1f-%.1f)" % (name, med[k][j], min(xs), max(xs)))
    print("  %-7s %s" % (k, ", ".join(cols)))
print("  record/loader: pick %.2f, up %.2f, wall %.2f; up saved %.1f ms" % (
    med["record"][0] / med["loader"][0], med["record"][1] / med["loader"][1],
    med["record"][2] / med["loader"][2], med["loader"][1] - med["record"][1]))
PY
rc=$?
echo "load after: $(uptime)"
exit $rc
