#!/bin/sh
# Issue 12: what the per-site profile (runtime/lib/profile.c) does to whole
# programs that are run again and again. Whole-process wall time on the
# machine it runs on, for the 2-D Jacobi (bench/jacobi2d.c) and the
# axpby + norm loop (bench/residency_axpby.c): the sequential build, the
# plugin build with the defaults and IDIOM_PROFILE=off (every process
# learns from scratch: the behaviour before the profile), and with the
# profile (the first run after the warm-up writes it; the next ones use
# it). Median of RUNS (default 5); every run's time is printed. With
# TIMELINE=1, one warm run of each with IDIOM_DEBUG=time shows the time
# line. Then the nas-parboil programs in DIR/np (if any): sequential
# against the defaults, median of 3 after two warm runs that fill the
# caches and the profile, outputs compared with compare.py.
# Binaries from bench/build_profile_carry.sh:
#   profile_gpu.sh DIR [RUNS]
set -eu
dir=$1; runs=${2:-5}
ms() { a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
series() { # label cmd...
  label=$1; shift; all=""
  for i in $(seq "$runs"); do all="$all $(ms "$@")"; done
  echo "$label ms: $(median $all) ($all )"
}
prog() { # name args...
  name=$1; shift
  echo "== $name $*"
  cache=$(mktemp -d)
  "$dir/$name.seq" "$@" > "$dir/out.$name.seq"
  series "$name seq" "$dir/$name.seq" "$@"
  # warm-up: fills the program and tuning caches, no profile yet
  env IDIOM_CACHE_DIR="$cache" IDIOM_PROFILE=off "$dir/$name.idiom" "$@" > "$dir/out.$name.idiom"
  series "$name defaults, profile off" env IDIOM_CACHE_DIR="$cache" IDIOM_PROFILE=off "$dir/$name.idiom" "$@"
  echo "$name first run with the profile on (writes it): $(ms env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" "$@") ms"
  series "$name defaults, profile on" env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" "$@"
  series "$name forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/$name.idiom" "$@"
  echo "outputs: seq $(cat "$dir/out.$name.seq") / idiom $(cat "$dir/out.$name.idiom")"
  [ -n "${TIMELINE:-}" ] || return 0
  echo "-- time line, defaults with the profile:"
  env IDIOM_CACHE_DIR="$cache" IDIOM_DEBUG=time IDIOM_STATS=1 "$dir/$name.idiom" "$@" 2>&1 >/dev/null |
    grep -v "declined\|device run" | cut -c1-220 | tail -40
  cat "$cache"/profile/*.txt 2>/dev/null | head -8
}
prog jacobi 4096 150
prog axpby 26 100
if [ -d "$dir/np" ]; then
  echo "== nas-parboil, defaults"
  cache=$(mktemp -d)
  for s in "$dir"/np/*.seq; do
    p=$(basename "$s" .seq)
    "$s" > "$dir/np/$p.expected" 2>/dev/null
    for i in 1 2; do IDIOM_CACHE_DIR="$cache" "$dir/np/$p.idiom" > "$dir/np/$p.out" 2>/dev/null; done
    ok=$(python3 "$dir/np/compare.py" -q --src "$dir/np/$p.c" "$dir/np/$p.expected" "$dir/np/$p.out" && echo same || echo DIFF)
    a=""; b=""
    for i in 1 2 3; do a="$a $(ms "$s")"; b="$b $(ms env IDIOM_CACHE_DIR="$cache" "$dir/np/$p.idiom")"; done
    sm=$(median $a); im=$(median $b)
    echo "$p out=$ok seq ms: $sm ($a ) defaults ms: $im ($b ) ratio $(awk "BEGIN{printf \"%.2f\", $sm/$im}")"
  done
fi
