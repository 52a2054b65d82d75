#!/bin/sh
# Which decisions the work gate changes (issue 12, runtime/lib/workgate.c):
# every nas-parboil program of DIR/np (bench/build_workgate_carry.sh) run
# with this runtime and with DIR/before's (the gate by outputs), under
# MODES (default "device auto": IDIOM_COST=off, every call that passes the
# gate offloaded, a deterministic count; and the defaults, the cost model
# deciding), with IDIOM_STATS=1. Prints each output's comparison with the
# sequential build (compare.py) and, per site whose counts differ, the
# calls, the offloaded calls and the calls declined at the gate ("trip
# count below threshold" before, "work below threshold" after), before ->
# after; then a summary line per mode. The auto mode's counts also move
# with timing: compare its lines only where the gate's count changed.
#   workgate_decisions.sh DIR [PROGRAM...]
# Environment: MODES, IDIOM_DEVICE (unset: auto), RUN_TIMEOUT (default 300 s).
set -eu
LC_ALL=C; export LC_ALL
dir=$1; shift
modes=${MODES:-device auto}
to=${RUN_TIMEOUT:-300}
progs=${*:-$(cd "$dir/np" && ls *.seq | sed 's/\.seq$//')}
# one cache directory (programs, tuning, profiles) per runtime: a profile
# written by one would steer the other's start-up and first decisions
cache=$(mktemp -d)
tmp=$(mktemp -d)
mkdir -p "$cache/before" "$cache/after"
unset IDIOM_MIN_TRIP IDIOM_COST
summarize() { # STATS -> "loc calls offloaded gated" lines
  python3 - "$1" <<'PY'
import re, sys
sums = {}  # (loc, idiom) -> [calls, offloaded, gated]: inlined copies of a
           # loop have descriptors of their own with the same location
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r'idiom-stats: (\S+) (\S+) calls=(\d+) offloaded=(\d+)', line)
    if not m:
        continue
    g = 0
    r = line.find(' reasons=')
    if r >= 0:  # reasons="A" xN; "B" xM
        for why, n in re.findall(r'"([^"]*)" x(\d+)', line[r:]):
            if "below threshold" in why:
                g += int(n)
    t = sums.setdefault((m.group(1), m.group(2)), [0, 0, 0])
    t[0] += int(m.group(3)); t[1] += int(m.group(4)); t[2] += g
for (loc, idiom), t in sums.items():
    print("%s/%s %s %d %d %d" % (loc, idiom, idiom, t[0], t[1], t[2]))
PY
}
for mode in $modes; do
  changed=0; sites=0; gb=0; ga=0; ob=0; oa=0
  for p in $progs; do
    "$dir/np/$p.seq" > "$tmp/$p.expected" 2>/dev/null
    for rt in before after; do
      bin=$dir/np/$p.idiom
      [ $rt = before ] && bin=$dir/before/np/$p.idiom
      set +e
      IDIOM_CACHE_DIR=$cache/$rt; export IDIOM_CACHE_DIR
      if [ "$mode" = device ]; then
        env IDIOM_COST=off IDIOM_STATS=1 timeout "$to" "$bin" > "$tmp/$p.$rt.out" 2> "$tmp/$p.$rt.stats"
      else
        env IDIOM_STATS=1 timeout "$to" "$bin" > "$tmp/$p.$rt.out" 2> "$tmp/$p.$rt.stats"
      fi
      rc=$?
      set -e
      ok=$(python3 "$dir/np/compare.py" -q --src "$dir/np/$p.c" "$tmp/$p.expected" "$tmp/$p.$rt.out" && echo same || echo DIFF)
      echo "$mode $p $rt: exit $rc, output $ok"
      summarize "$tmp/$p.$rt.stats" | sort > "$tmp/$p.$rt.sum"
    done
    out=$(join -a1 -a2 -e - -o 0,1.2,1.3,1.4,1.5,2.3,2.4,2.5 \
          "$tmp/$p.before.sum" "$tmp/$p.after.sum" 2>/dev/null || true)
    lines=$(printf '%s\n' "$out" | awk 'NF == 8' )
    [ -n "$lines" ] || continue
    printf '%s\n' "$lines" | while read -r loc idiom cb obf gbf ca oaf gaf; do
      if [ "$cb $obf $gbf" != "$ca $oaf $gaf" ]; then
        echo "  $mode $loc $idiom: calls $cb -> $ca, offloaded $obf -> $oaf, declined at the gate $gbf -> $gaf"
      fi
    done
    s=$(printf '%s\n' "$lines" | awk '{ s++; if ($5 != $8) c++; gb += $5; ga += $8; ob += $4; oa += $7 }
         END { printf "%d %d %d %d %d %d", s, c, gb, ga, ob, oa }')
    set -- $s
    sites=$((sites + $1)); changed=$((changed + $2)); gb=$((gb + $3)); ga=$((ga + $4)); ob=$((ob + $5)); oa=$((oa + $6))
  done
  echo "$mode: $sites sites, $changed with other gate declines; declined at the gate $gb -> $ga calls; offloaded $ob -> $oa calls"
done
rm -rf "$cache" "$tmp"
