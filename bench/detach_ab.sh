#!/bin/sh
# Issue 12: the GPU driver's exit teardown moved after the process's exit
# (runtime/lib/exit_detach.c) against it in the exit (IDIOM_EXIT_DETACH=0),
# whole-process wall time. For each PROGRAM:ARGS: two warm-up runs in a
# fresh IDIOM_CACHE_DIR, then ROUNDS rounds of one sequential run (with
# SEQ=1, the default) and two plugin runs back to back with the detach and
# two without, interleaved (the second of two shows whether a teardown still
# running slows the next process's start-up); prints every time, the
# medians and the ratios against the sequential median.
# Binaries DIR/NAME.seq and DIR/NAME.idiom (bench/build_profile_carry.sh).
#   detach_ab.sh DIR ROUNDS NAME:ARG,ARG...
set -eu
dir=$1; rounds=$2; shift 2
. "$(dirname "$0")/timing.sh"
for spec in "$@"; do
  name=${spec%%:*}; args=$(echo "${spec#*:}" | tr ',' ' ')
  cache=$(mktemp -d)
  # shellcheck disable=SC2086
  for i in 1 2; do env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" $args > /dev/null 2>&1; done
  s=""; d=""; n=""
  for r in $(seq "$rounds"); do
    # shellcheck disable=SC2086
    [ "${SEQ:-1}" = 1 ] && s="$s $(ms "$dir/$name.seq" $args)"
    # shellcheck disable=SC2086
    d="$d $(ms env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" $args)"
    # shellcheck disable=SC2086
    d="$d $(ms env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" $args)"
    # shellcheck disable=SC2086
    n="$n $(ms env IDIOM_CACHE_DIR="$cache" IDIOM_EXIT_DETACH=0 "$dir/$name.idiom" $args)"
    # shellcheck disable=SC2086
    n="$n $(ms env IDIOM_CACHE_DIR="$cache" IDIOM_EXIT_DETACH=0 "$dir/$name.idiom" $args)"
  done
  md=$(median_mean $d); mn=$(median_mean $n)
  if [ -n "$s" ]; then
    ms_s=$(median_mean $s)
    echo "== $name $args: sequential $ms_s ms ($s ); detach $md ms ($d ): $(echo "$ms_s $md" | awk '{printf "%.1fx", $1 / $2}'); IDIOM_EXIT_DETACH=0 $mn ms ($n ): $(echo "$ms_s $mn" | awk '{printf "%.1fx", $1 / $2}')"
  else
    echo "== $name $args: detach $md ms ($d ); IDIOM_EXIT_DETACH=0 $mn ms ($n )"
  fi
  # shellcheck disable=SC2086
  echo "   outputs: seq $("$dir/$name.seq" $args | tail -1) / idiom $(env IDIOM_CACHE_DIR="$cache" IDIOM_DEBUG=1 "$dir/$name.idiom" $args 2> "$cache/log" | tail -1); $(grep -c "stay open" "$cache/log") detach line(s)"
  rm -rf "$cache"
done
