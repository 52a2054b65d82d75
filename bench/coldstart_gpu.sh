#!/bin/sh
# Issue 12 on a machine with a GPU and PoCL: a first run is never much
# slower than the sequential build, a program that never profits from the
# second (CPU) device pays no more than noise for it, and exit never waits
# long on a kernel build. For nas-parboil/mg.c (LT NIT, default 8 4: 256^3)
# and bench/jacobi2d.c (4096 150): the sequential build's wall time, then
# the plugin's with the defaults and a fresh IDIOM_CACHE_DIR three times in
# a row (the first: every build, tuning and profile from scratch; then with
# what the runs before left), then RUNS more (default 3, "warm"). Each run of the
# plugin's build runs with IDIOM_DEBUG=time; the script prints its wall
# time, how long exit waited for the runtime thread ("exit: waiting" to the
# last line), the second device's openings, explorations and choices
# (cpu-explore decisions, background warm-ups and their run times,
# "cpu-device wins"), the builds from source (one variant per step on the
# runtime thread) and the slowest runs on the calling thread. Outputs compared with the sequential build's
# (compare.py: reductions to a relative 1e-6). Binaries from
# bench/build_coldstart_carry.sh:
#   coldstart_gpu.sh DIR [RUNS] [LT] [NIT]
# Logs are kept in DIR/NAME.runK.log.
set -eu
dir=$1; runs=${2:-3}; lt=${3:-8}; nit=${4:-4}
# timed OUT ERR cmd...: runs cmd with stdout to OUT and stderr to ERR,
# prints its wall time in ms
timed() { o=$1; e=$2; shift 2; a=$(date +%s%N); "$@" > "$o" 2> "$e" || true
  b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
report() { # log
  log=$1
  awk '
    /exit: waiting/ { split($0, a, "+"); split(a[2], b, " "); w = b[1] }
    /^idiom: \+/ { split($0, a, "+"); split(a[2], b, " "); last = b[1] }
    END { if (w != "") printf "    exit waited %.0f ms for the runtime thread\n", last - w;
          else print "    exit did not wait" }' "$log"
  printf '    second device: %s opened, %s cpu-explore decisions\n' \
    "$(grep -c '^idiom: +[0-9.]* ms: second device:' "$log" || true)" \
    "$(grep -o 'cpu-explore x[0-9]*' "$log" | awk -Fx '{s += $2} END {print s + 0}')"
  grep -E 'cpu-device wins|built program from source|variants built one by one|waiting for the start-up|build stopped|warming up in the background|warm-up run|timed run' "$log" |
    cut -c1-160 | head -24 | sed 's/^/    /'
  # the slowest runs on the calling thread (device runs, in us)
  grep -E 'device run [0-9.]+ us' "$log" | sed -E 's/.*(\+[0-9.]+ ms): ([^:]*:[0-9]+): device run ([0-9.]+) us.*/\3 \2 \1/' |
    sort -rn | head -3 | awk '{printf "    slow run: %s at %s %s: %.0f ms\n", $2, $3, $4, $1 / 1000}'
}
bench() { # name args...
  name=$1; shift
  cache=$(mktemp -d)
  echo "== $name $*"
  "$dir/$name.seq" "$@" > "$dir/$name.out.seq"
  for i in 1 2 3; do
    echo "  seq run $i: $(timed /dev/null /dev/null "$dir/$name.seq" "$@") ms"
  done
  k=0
  for kind in "fresh cache" "second run" "third run" $(seq "$runs" | sed 's/.*/warm/'); do
    k=$((k + 1))
    t=$(timed "$dir/$name.out.idiom" "$dir/$name.run$k.log" env \
          IDIOM_CACHE_DIR="$cache" IDIOM_DEBUG=time IDIOM_STATS=1 \
          "$dir/$name.idiom" "$@")
    echo "  run $k ($kind): $t ms"
    report "$dir/$name.run$k.log"
    python3 "$dir/compare.py" "$dir/$name.out.seq" "$dir/$name.out.idiom" \
      ${cmp_n:+--n "$cmp_n"} > /dev/null 2>&1 &&
      echo "    output agrees with seq" || echo "    output DIFFERS from seq"
  done
  rm -rf "$cache"
}
cmp_n= bench mg "$lt" "$nit"
set -- ${JACOBI_ARGS:-4096 150}
cmp_n=$1 bench jacobi "$@" # its output has no `n` line: the grid size
