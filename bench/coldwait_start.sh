#!/usr/bin/env bash
# Does the device-wait rule (runtime/lib/devwait.c) start the device where
# it was not started before? Every nas-parboil program at its default size
# and bench/policy_tiny.c (one-shot and small programs), built with the
# plugin and runtime of BASE_BUILD and of NEW_BUILD, run ROUNDS times each
# in alternation with the default settings (IDIOM_DEVICE=auto, the cost
# model on) from an empty IDIOM_CACHE_DIR (a first run: no calibration
# file, no profile). Per run: whether OpenCL was loaded (IDIOM_DEBUG's
# "loaded libOpenCL" line), the count of each cost-model decision
# (IDIOM_STATS) summed over the sites, and whether the output matches the
# sequential build's (nas-parboil/compare.py). Prints one line per program
# and build: runs that started the device, the summed decisions, output
# checks.
# Usage: bench/coldwait_start.sh BASE_BUILD NEW_BUILD [ROUNDS] [PROG...]
set -euo pipefail
BASE=$(cd "${1:?usage: coldwait_start.sh BASE_BUILD NEW_BUILD [ROUNDS] [PROG...]}" && pwd)
NEW=$(cd "${2:?usage: coldwait_start.sh BASE_BUILD NEW_BUILD [ROUNDS] [PROG...]}" && pwd)
ROUNDS=${3:-2}
shift 3 || shift $#
HERE=$(cd "$(dirname "$0")" && pwd)
NP=$HERE/../nas-parboil
PROGS=("$@")
if [ ${#PROGS[@]} -eq 0 ]; then
  for f in "$NP"/*.c; do PROGS+=("$(basename "$f" .c)"); done
  PROGS+=(policy_tiny)
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "# rounds=$ROUNDS; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for p in "${PROGS[@]}"; do
  src=$NP/$p.c
  [ -f "$src" ] || src=$HERE/$p.c
  clang-19 -O2 "$src" -lm -o "$T/$p.seq"
  for b in base new; do
    B=$BASE
    [ "$b" = new ] && B=$NEW
    clang-19 -O2 -fpass-plugin="$B/lib/libIdiom.so" "$src" -L"$B/lib" \
      -lidiomrt -lm -o "$T/$p.$b" 2> /dev/null
  done
  (cd "$T" && "./$p.seq" > "$p.ref")
  for b in base new; do : > "$T/$p.$b.sum"; done
  for r in $(seq "$ROUNDS"); do
    for b in base new; do
      rm -rf "$T/cache" && mkdir "$T/cache"
      (cd "$T" && IDIOM_CACHE_DIR="$T/cache" IDIOM_DEBUG=1 IDIOM_STATS=1 \
        "./$p.$b" > "$p.$b.out" 2> "$p.$b.err") || echo "exit $?" >> "$T/$p.$b.sum"
      ok=ok
      if [ "$p" = policy_tiny ]; then
        cmp -s "$T/$p.ref" "$T/$p.$b.out" || ok=DIFF
      else
        python3 "$NP/compare.py" "$T/$p.ref" "$T/$p.$b.out" -q > /dev/null 2>&1 || ok=DIFF
      fi
      started=$(grep -c "loaded libOpenCL\|OpenCL: opened" "$T/$p.$b.err" || true)
      echo "started $started $ok" >> "$T/$p.$b.sum"
      grep -o 'decisions="[^"]*"' "$T/$p.$b.err" | sed 's/decisions="//; s/"$//' |
        tr ';' '\n' >> "$T/$p.$b.sum" || true
    done
  done
  for b in base new; do
    python3 - "$p" "$b" "$T/$p.$b.sum" <<'PY'
import collections, sys
prog, build, path = sys.argv[1:4]
started = runs = 0
checks = collections.Counter()
dec = collections.Counter()
for line in open(path):
    f = line.split()
    if not f:
        continue
    if f[0] == "started":
        runs += 1
        started += int(f[1]) > 0
        checks[f[2]] += 1
    elif f[0] == "exit":
        checks["exit " + f[1]] += 1
    elif len(f) == 2 and f[1].startswith("x"):
        dec[f[0]] += int(f[1][1:])
print("%-12s %-4s device started in %d of %d runs; outputs %s; decisions %s" % (
    prog, build, started, runs,
    " ".join("%s %d" % kv for kv in sorted(checks.items())),
    ", ".join("%s %d" % kv for kv in sorted(dec.items())) or "none"))
PY
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
