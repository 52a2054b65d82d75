#!/bin/sh
# Issue 12 ("a program that never profits from the device pays no more than
# noise"): the exit stalls of nas-parboil/jds.c and syrk.c on PoCL (helper
# exitstall, docs/Benchmarks.md). Each round gives every runtime a fresh
# IDIOM_CACHE_DIR and POCL_CACHE_DIR, seeded only with a start-up
# calibration file (start-up 47 ms, as PoCL's here: what earlier programs
# in the same cache leave, bench/np_gpu.sh), then runs the plugin build RUNS
# times in a row (run 1 from the fresh cache, later runs warm: the profile's
# "worthy" rule starts the device at program start once a run has had two
# start-ups of device-worthy host time), each with IDIOM_DEBUG=time. Per run
# it prints the wall time, how long exit waited for the runtime thread
# (from "exit: waiting for the start-up thread" to the log's last line,
# test/lit/run/Inputs/exit_wait.py), the builds from source and binaries
# written, and whether the output is the sequential build's (compare.py).
# Runtimes alternate run by run (ABAB) within a round, each run after one
# of the sequential build (its wall time printed too).
#   exitstall_pocl.sh BUILD_DIR OUTDIR ROUNDS RUNS NAME=LIBDIR...
# NAME=LIBDIR: a runtime to link (LIBDIR holds libidiomrt.a; the plugin is
# BUILD_DIR's for all), for example base=/tmp/base new=build/lib.
set -eu
build=$1; out=$2; rounds=$3; runs=$4; shift 4
here=$(cd "$(dirname "$0")" && pwd)
np=$here/../nas-parboil
cc=${CLANG:-clang-19}
mkdir -p "$out"
progs=${PROGS:-jds syrk}
for p in $progs; do
  $cc -O2 "$np/$p.c" -lm -o "$out/$p.seq"
  "$out/$p.seq" > "$out/$p.expected"
  for rt in "$@"; do
    name=${rt%%=*}; lib=${rt#*=}
    $cc -O2 -fpass-plugin="$build/lib/libIdiom.so" "$np/$p.c" -L"$lib" \
      -lidiomrt -lm -o "$out/$p.$name"
  done
done
calib() { # DIR: the start-up calibration file of a PoCL here
  mkdir -p "$1"
  python3 - "$1/startup-auto.txt" <<'EOF'
import sys
body = ("idiom-startup 1\ndevice pthread-skylake-avx512-AMD EPYC\n"
        "lat_ns 8112\nbw_bps 10906576625\nstart_ms 47\n")
h = 0xcbf29ce484222325
for c in body.encode():
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
open(sys.argv[1], "w").write(body + "check %016x\n" % h)
EOF
}
ms() { echo $(( $(date +%s%N) / 1000000 )); }
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
  for p in $progs; do
    for rt in "$@"; do
      name=${rt%%=*}
      rm -rf "$out/cache.$name" "$out/pocl.$name"
      calib "$out/cache.$name"
    done
    for k in $(seq "$runs"); do
      a=$(ms); "$out/$p.seq" > /dev/null; b=$(ms)
      echo "$p seq round $r run $k: wall $((b - a)) ms"
      for rt in "$@"; do
        name=${rt%%=*}
        log=$out/$p.$name.r$r.k$k.log
        a=$(ms)
        st=0
        IDIOM_CACHE_DIR=$out/cache.$name POCL_CACHE_DIR=$out/pocl.$name \
          IDIOM_DEBUG=time "$out/$p.$name" > "$out/$p.out" 2> "$log" || st=$?
        b=$(ms)
        same=$(python3 "$np/compare.py" -q --src "$np/$p.c" \
          "$out/$p.expected" "$out/$p.out" > /dev/null && echo same || echo DIFF)
        wait=$(python3 "$here/../test/lit/run/Inputs/exit_wait.py" 1e9 \
          "$log" 2> /dev/null | sed 's/exit-wait-ms //' || true)
        echo "$p $name round $r run $k: status $st out=$same wall $((b - a)) ms" \
          "exit-wait ${wait:-0} ms" \
          "built $(grep -c 'built program from source' "$log" || true)" \
          "binaries-written $(grep -c 'disk cache: wrote' "$log" || true)" \
          "kicked $(grep -c 'starting it at program start' "$log" || true)" \
          "load $(cut -d' ' -f1 /proc/loadavg)"
      done
    done
  done
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
