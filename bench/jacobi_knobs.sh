#!/bin/sh
# The 2-D Jacobi (bench/jacobi2d.c, 4096^2, 150 sweeps) with the defaults
# under the copy settings of runtime/README.md (IDIOM_STAGING,
# IDIOM_STAGING_CHUNK, IDIOM_COPY_THREADS): whole-process wall time, median
# of 3 after two warm-up runs. Run from the folder bench/build_jacobi_carry.sh
# fills (it needs jacobi.idiom there):  sh jacobi_knobs.sh
cache=$(mktemp -d); export IDIOM_CACHE_DIR=$cache
ms() { a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
for i in 1 2; do ./jacobi.idiom 4096 150 > /dev/null 2>&1; done
for cfg in "X=1" "IDIOM_STAGING=off" "IDIOM_STAGING_CHUNK=4194304" "IDIOM_STAGING_CHUNK=67108864" "IDIOM_COPY_THREADS=0" "IDIOM_COPY_THREADS=4" "IDIOM_COPY_THREADS=16"; do
  t1=$(ms env $cfg ./jacobi.idiom 4096 150); t2=$(ms env $cfg ./jacobi.idiom 4096 150); t3=$(ms env $cfg ./jacobi.idiom 4096 150)
  echo "$cfg: $(median $t1 $t2 $t3) ($t1 $t2 $t3)"
done
rm -rf "$cache"
