#!/usr/bin/env bash
# The GEMM variants of bench/sgemm.funil twice, for an A/B of the inner
# product's rounding (issue 12's SGEMM target): as lifted (`fmuladd`, which
# the OpenCL generator writes unfused, a * b + acc under FP_CONTRACT OFF, as
# the x86-64 host rounds) and with `fma` (one fused multiply-add, what
# llvm.fmuladd licenses). Builds OUT/sgemm_plain and OUT/sgemm_fma
# (bench/sgemm_variants.c, the runtime linked statically); on the GPU
# machine: IDIOM_DEVICE=gpu OUT/sgemm_plain 4096 4096 4096 5, the same with
# sgemm_fma.   bench/build_sgemm_fma_carry.sh [BUILD_DIR [OUT]]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
O=${2:-carry/sgemmfma}
mkdir -p "$O"
sed 's/fmuladd(x.0, x.1, acc)/fma(x.0, x.1, acc)/' bench/sgemm.funil > "$O/sgemm_fma.funil"
for v in plain fma; do
  src=bench/sgemm.funil
  [ "$v" = fma ] && src="$O/sgemm_fma.funil"
  "$B/bin/idiom-funil" "$src" --emit=opencl --variants --kernel-name=sgemm > "$O/$v.cl"
  mkdir -p "$O/inc_$v"
  python3 - "$O/inc_$v/sgemm_source.h" "$O/$v.cl" <<'PY'
import json, re, sys
out, src = sys.argv[1], open(sys.argv[2]).read()
n = max(1, len(re.findall(r"^//@idiom-variant ", src, re.M)))
with open(out, "w") as f:
    f.write("#define SGEMM_NSOURCES 1\nstatic const char sgemm_source_0[] =\n")
    for line in src.splitlines(True):
        f.write("    " + json.dumps(line) + "\n")
    f.write(";\nstatic const char *const sgemm_sources[] = {sgemm_source_0};\n")
    f.write("static const int sgemm_nvariants[] = {%d};\n" % n)
PY
  cc -O2 -std=gnu11 -Iruntime/include -I"$O/inc_$v" bench/sgemm_variants.c \
     "$B/lib/libidiomrt.a" -lm -lpthread -ldl -o "$O/sgemm_$v"
done
echo "built $O/sgemm_plain and $O/sgemm_fma"
