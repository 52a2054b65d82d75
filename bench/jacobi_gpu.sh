#!/bin/sh
# Whole-process wall time of bench/jacobi2d.c on the machine it runs on:
# the sequential build against the plugin build with the defaults
# (IDIOM_DEVICE=auto: cost model, residency region) and forced onto the GPU
# (IDIOM_DEVICE=gpu), median of 3 after one warm-up run that fills the
# program and tuning caches; without the region (forced), one run. Prints each
# build's output once (the residual is a floating-point sum: the device's
# may differ in its last digits). Binaries from bench/build_jacobi_carry.sh:
#   jacobi_gpu.sh DIR [N] [sweeps]
set -eu
dir=$1; n=${2:-4096}; s=${3:-150}
export IDIOM_CACHE_DIR=${IDIOM_CACHE_DIR:-$(mktemp -d)}
ms() { a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
run() { # name env...
  name=$1; shift
  env "$@" "$dir/jacobi.${name%%-*}" $n $s > "$dir/out.$name" 2> /dev/null
  t1=$(ms env "$@" "$dir/jacobi.${name%%-*}" $n $s)
  t2=$(ms env "$@" "$dir/jacobi.${name%%-*}" $n $s)
  t3=$(ms env "$@" "$dir/jacobi.${name%%-*}" $n $s)
  echo "$name ms: $(median $t1 $t2 $t3) ($t1 $t2 $t3) out: $(cat "$dir/out.$name")"
}
run seq
run idiom
run idiom-forced IDIOM_DEVICE=gpu
echo "noregion-forced ms: $(ms env IDIOM_DEVICE=gpu "$dir/jacobi.noregion" $n $s)"
env IDIOM_STATS=1 "$dir/jacobi.idiom" $n $s 2>&1 > /dev/null | sed 's/device="[^"]*"//' | cut -c1-500
