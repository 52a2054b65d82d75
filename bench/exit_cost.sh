#!/bin/sh
# Exit cost of a process that used the GPU's OpenCL driver: wall time from
# outside minus the time the program saw itself, for NBUF buffers of MB
# MiB written, PINNED MiB of mapped host memory, released before exit or not
# (bench/exit_cost.c, built here with `cc -O2 bench/exit_cost.c -o
# DIR/exit_cost -lOpenCL`):   exit_cost.sh DIR
cd "$1"
for cfg in "0 64 0 0" "4 64 0 0" "4 64 0 1" "4 64 32 0" "4 64 32 1" "8 256 0 0" "8 256 0 1"; do
  for r in 1 2 3; do
    a=$(date +%s%N); ./exit_cost $cfg 2> err.txt; b=$(date +%s%N)
    echo "cfg [$cfg] wall $(( (b - a) / 1000000 )) ms: $(cat err.txt)"
  done
done
