#!/usr/bin/env bash
# Runs on the lent GPU machine from the folder bench/build_lowering_carry.sh
# filled: the sum of 2^28 floats with three generated lowerings.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv || true
for K in default variant4 lanes; do
  B=$(grep -o '__kernel void [A-Za-z0-9_]*_partial' "$K.cl" | head -1 | sed 's/__kernel void //; s/_partial$//')
  ./lowering_gpu "$K.cl" "$B" 28 9
done
