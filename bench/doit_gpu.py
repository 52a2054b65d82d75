#!/usr/bin/env python3
"""Issue 13 benchmark: PolyBench doitgen (nas-parboil/doitgen.c) batched as
one GEMM over the flattened (r, q) rows (passes/RowProducts.h), at
PolyBench's EXTRALARGE size (NR 250, NQ 220, NP 270: the sequential build
runs for seconds), built by bench/build_doit_carry.sh into DIR:

    python3 doit_gpu.py DIR [runs] [gpu|cpu]

(the sizes are read from DIR/doitgen_xl.sizes; the device defaults to gpu,
cpu runs the same on PoCL without the cuBLAS part)

Prints
  - the whole program: wall time of doitgen_xl.seq against doitgen_xl.idiom
    with the defaults (after two warm-up runs that fill the program and
    tuning caches and the per-site profile) and with IDIOM_DEVICE=gpu,
    median of RUNS (default 5), every run, and the ratios;
  - compare.py on the sequential and the offloaded outputs;
  - the kernel: kernel_ms per call of the batched GEMM site (IDIOM_STATS
    JSON, timing runs excluded) and its rate in TFLOP/s of 2 M N K (M = NR
    NQ, N = K = NP), for the runtime's choice and every variant
    (IDIOM_VARIANT=K), against cuBLAS DGEMM (float64, what the program
    computes) and SGEMM (float32, TF32 off) of the same shape through torch,
    median of 20 with CUDA events."""
import json, os, statistics, subprocess, sys, tempfile, time

d = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
device = sys.argv[3] if len(sys.argv) > 3 else "gpu"
NR, NQ, NP = (int(x) for x in open(os.path.join(d, "doitgen_xl.sizes")).read().split())
M, N, K = NR * NQ, NP, NP
FLOPS = 2.0 * M * N * K
# The batched GEMM's site: the outer row loop of kernel_doitgen.
SRC = open(os.path.join(d, "doitgen.c")).read().splitlines()
LINE = next(i + 1 for i, l in enumerate(SRC)
            if "for (r = 0; r < nr; r++)" in l and "gemm" in l)
SITE = "doitgen.c:%d" % LINE
tmp = tempfile.mkdtemp()
cache = os.path.join(tmp, "cache")


def run(binary, extra=None, out=None):
    env = dict(os.environ, IDIOM_CACHE_DIR=cache, **(extra or {}))
    t0 = time.perf_counter()
    p = subprocess.run([os.path.join(d, binary)], env=env,
                       capture_output=True, text=True)
    ms = (time.perf_counter() - t0) * 1e3
    if p.returncode != 0:
        sys.exit("%s failed: %s" % (binary, p.stderr[-2000:]))
    if out:
        open(out, "w").write(p.stdout)
    return ms


def series(label, binary, extra=None):
    all_ms = [run(binary, extra) for _ in range(runs)]
    med = statistics.median(all_ms)
    print("%s ms: %.0f (%s)" % (label, med, " ".join("%.0f" % x for x in all_ms)))
    return med


print("== doitgen %d x %d x %d: one GEMM (%d x %d) x (%d x %d)" %
      (NR, NQ, NP, M, K, K, N))
seq_out = os.path.join(tmp, "out.seq")
run("doitgen_xl.seq", out=seq_out)
seq = series("seq", "doitgen_xl.seq")
for _ in range(2):
    run("doitgen_xl.idiom")
dflt = series("defaults", "doitgen_xl.idiom")
gpu = series("forced " + device, "doitgen_xl.idiom", {"IDIOM_DEVICE": device})
print("speed-up: defaults %.2fx, forced %s %.2fx" % (seq / dflt, device, seq / gpu))
gpu_out = os.path.join(tmp, "out.gpu")
run("doitgen_xl.idiom", {"IDIOM_DEVICE": device}, out=gpu_out)
ok = subprocess.run([sys.executable, os.path.join(d, "compare.py"), seq_out,
                     gpu_out, "-q"]).returncode == 0
print("outputs: %s (compare.py)" % ("agree" if ok else "DIFFER"))


def kernel(extra):
    stats = os.path.join(tmp, "stats.json")
    run("doitgen_xl.idiom", dict(extra, IDIOM_DEVICE=device, IDIOM_STATS=stats))
    for s in json.load(open(stats))["sites"]:
        if s["site"] == SITE and s["offloaded"]:
            return s["kernel_ms"] / s["offloaded"], s.get("variants", 1)
    return None


best = None
first = kernel({})
if not first:
    sys.exit("the batched GEMM (%s) did not run on the device" % SITE)
ms, nvar = first
print("idiom kernel (runtime's choice): %.3f ms, %.2f TFLOP/s" %
      (ms, FLOPS / ms / 1e9))
best = ms
for v in range(int(nvar or 1)):
    r = kernel({"IDIOM_VARIANT": str(v)})
    if r:
        print("  variant %d: %.3f ms, %.2f TFLOP/s" % (v, r[0], FLOPS / r[0] / 1e9))
        best = min(best, r[0])
    else:
        print("  variant %d: declined" % v)

if device != "gpu":
    sys.exit(0)
try:
    import torch
except ImportError:
    sys.exit("no torch: no cuBLAS reference")
torch.backends.cuda.matmul.allow_tf32 = False


def cublas(dtype):
    a = torch.rand(M, K, dtype=dtype, device="cuda")
    b = torch.rand(K, N, dtype=dtype, device="cuda")
    c = torch.empty(M, N, dtype=dtype, device="cuda")
    for _ in range(3):
        torch.matmul(a, b, out=c)
    times = []
    for _ in range(20):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.matmul(a, b, out=c)
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


dg = cublas(torch.float64)
sg = cublas(torch.float32)
print("cuBLAS DGEMM: %.3f ms, %.2f TFLOP/s" % (dg, FLOPS / dg / 1e9))
print("cuBLAS SGEMM: %.3f ms, %.2f TFLOP/s" % (sg, FLOPS / sg / 1e9))
print("best idiom kernel: %.0f%% of cuBLAS DGEMM" % (100.0 * dg / best))
