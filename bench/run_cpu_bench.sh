#!/usr/bin/env bash
# The PoCL benchmark of docs/Benchmarks.md: generated reduction and map
# kernels vs OpenMP vs sequential -O2 (bench/cpu_bench.c), in one process,
# twice: the first process times the variants, the second reads the
# tuning file. Usage: bash bench/run_cpu_bench.sh [BUILD_DIR [LOG2 [REPS]]]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
O=carry/cpu
mkdir -p "$O"
clang-19 -O2 '-DNAME(x)=seq_##x' -c bench/cpu_loops.c -o "$O/seq.o"
clang-19 -O2 -fopenmp '-DNAME(x)=omp_##x' -c bench/cpu_loops.c -o "$O/omp.o"
clang-19 -O2 -fpass-plugin="$B/lib/libIdiom.so" '-DNAME(x)=idiom_##x' -c bench/cpu_loops.c -o "$O/idiom.o"
nm "$O/idiom.o" | grep -q ' U idiom_run' || { echo "loops were not offloaded" >&2; exit 1; }
clang-19 -O2 -Iruntime/include bench/cpu_bench.c "$O/seq.o" "$O/omp.o" "$O/idiom.o" \
  -fopenmp -L"$B/lib" -lidiomrt -lm -o "$O/cpu_bench"
export IDIOM_CACHE_DIR=$PWD/$O/cache IDIOM_DEVICE=cpu
rm -rf "$IDIOM_CACHE_DIR"
nproc
echo "== first process (variants timed on the first call of each loop)"
IDIOM_STATS=1 "$O/cpu_bench" "${2:-26}" "${3:-5}"
echo "== second process (tuning file reused)"
IDIOM_STATS=1 "$O/cpu_bench" "${2:-26}" "${3:-5}"
