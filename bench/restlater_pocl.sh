#!/bin/sh
# Issue 12, helper restlater: the order of a program's kernel builds on a
# device whose builds go one variant per step (a GPU's, modelled on PoCL
# here by IDIOM_TEST_SLOW_BUILD_MS). The program is test/lit/run/rest-later.c
# (two 4-variant stencil sites in a time loop). Its profile is written once
# by a plain run of the first runtime, then edited two ways
# (test/lit/run/Inputs/profile_edit.py): "fast" (the device wins, the
# process runs a minute; builds slowed 300 ms a variant) and "late" (the
# process ends 4 s after its start, builds 0.1 s; builds slowed 1000 ms a
# variant). Each round runs every runtime in both scenarios, alternating
# (ABAB), each run from a fresh IDIOM_CACHE_DIR with IDIOM_DEBUG=time, and
# prints per run: wall time, when the second site's first device run came
# (ms from start; "none" when it never ran there), the sites whose other
# variants were all built, those left out, how long exit waited for the
# runtime thread, and whether the output is the sequential build's. The
# last lines are medians per runtime and scenario.
#   restlater_pocl.sh BUILD_DIR OUTDIR ROUNDS NAME=LIBDIR...
# NAME=LIBDIR: a runtime to link (LIBDIR holds libidiomrt.a; the plugin is
# BUILD_DIR's for all), for example base=/tmp/base new=build/lib.
set -eu
build=$1; out=$2; rounds=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../test/lit/run/rest-later.c
edit=$here/../test/lit/run/Inputs/profile_edit.py
cc=${CLANG:-clang-19}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export POCL_CACHE_DIR="$out/pocl-cache"
$cc -O2 "$src" -o "$out/prog.seq"
"$out/prog.seq" > "$out/expected"
first=
for rt in "$@"; do
  name=${rt%%=*}; lib=${rt#*=}
  $cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$src" -L"$lib" \
    -lidiomrt -o "$out/prog.$name"
  [ -n "$first" ] || first=$name
done
rm -rf "$out/c0" "$out/prof"
env IDIOM_PROFILE="$out/prof" IDIOM_CACHE_DIR="$out/c0" "$out/prog.$first" \
  > /dev/null
cp "$out/prof" "$out/prof.fast"; cp "$out/prof" "$out/prof.late"
python3 "$edit" fast "$out/prof.fast"
python3 "$edit" wall 4000 100 "$out/prof.late"
: > "$out/runs.txt"
r=1
while [ "$r" -le "$rounds" ]; do
  for sc in fast late; do
    slow=300; [ "$sc" = late ] && slow=1000
    for rt in "$@"; do
      name=${rt%%=*}
      rm -rf "$out/c"; cp "$out/prof.$sc" "$out/p"
      t0=$(date +%s.%N)
      env IDIOM_PROFILE="$out/p" IDIOM_CACHE_DIR="$out/c" \
        IDIOM_TEST_SLOW_BUILD_MS=$slow IDIOM_DEBUG=time \
        "$out/prog.$name" > "$out/out" 2> "$out/log"
      t1=$(date +%s.%N)
      same=no; cmp -s "$out/expected" "$out/out" && same=yes
      python3 - "$out/log" "$r" "$name" "$sc" "$t0" "$t1" "$same" \
        >> "$out/runs.txt" <<'PY'
import re, sys
log, rnd, name, sc, t0, t1, same = sys.argv[1:]
first, done, left = {}, set(), set()
wait = last = None
for line in open(log, errors="replace"):
    m = re.match(r"idiom: \+([0-9.]+) ms: (.*)", line)
    if not m:
        continue
    t, text = float(m.group(1)), m.group(2)
    last = t
    if text.startswith("exit: waiting for the start-up thread"):
        wait = t
    s = re.match(r"(\S+): (.*)", text)
    if not s:
        continue
    site, what = s.group(1), s.group(2)
    if what.startswith("device run ") and site not in first:
        first[site] = t
    if re.match(r"\d+ of \d+ variants built one by one", what):
        done.add(site)
    if re.match(r"\d+ of \d+ variants left out", what):
        left.add(site)
runs = sorted(first.values())
print("round %s %s %s wall_s %.2f second_site_first_device_run_ms %s "
      "rests_built %d rests_left_out %d exit_wait_ms %.0f same %s load %s" %
      (rnd, name, sc, float(t1) - float(t0),
       "%.0f" % runs[1] if len(runs) > 1 else "none", len(done), len(left),
       (last - wait) if wait is not None else 0.0, same,
       open("/proc/loadavg").read().split()[0]))
PY
      tail -n 1 "$out/runs.txt"
    done
  done
  r=$((r + 1))
done
python3 - "$out/runs.txt" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    key = (f[2], f[3])
    rows.setdefault(key, []).append(dict(zip(f[4::2], f[5::2])))
for (name, sc), rs in sorted(rows.items()):
    def med(k):
        v = [float(r[k]) for r in rs if r[k] != "none"]
        return "%.0f" % statistics.median(v) if v else "none"
    print("median %s %s (%d runs): wall_s %.2f second_site_first_device_run_ms "
          "%s rests_built %s rests_left_out %s exit_wait_ms %s all_same %s" %
          (name, sc, len(rs), statistics.median(float(r["wall_s"]) for r in rs),
           med("second_site_first_device_run_ms"), med("rests_built"),
           med("rests_left_out"), med("exit_wait_ms"),
           all(r["same"] == "yes" for r in rs)))
PY
