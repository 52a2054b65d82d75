#!/usr/bin/env python3
"""Issue 13 benchmark: Idiom's SYRK kernel (bench/syrk_bench.c) against cuBLAS
SSYRK, called through ctypes on the libcublas that torch loads, in the same
process run.

    python3 syrk_gpu.py DIR [n] [k] [reps] [gpu|cpu] [tri|square|syr2k]

DIR holds syrk.seq and syrk.idiom (bench/build_syrk_carry.sh); n, k the
sizes (default 4096 x 4096), reps the calls per process (default 5), then
IDIOM_DEVICE (default gpu) and the loop: tri (default) is the lower
triangle j <= i, SSYRK's own work, lifted as a triangular GEMM (spec
gemm-triangle: the kernel skips the work-groups whose tile lies above the
diagonal and masks the stores of the diagonal tiles); square is PolyBench
3.2's syrk over the whole square (a GEMM whose B is A^T, twice the work);
syr2k is the rank-2k update C = alpha A B^T + alpha B A^T + beta C over
the lower triangle (spec syr2k-triangle: two products per step), against
cuBLAS SSYR2K (cublasSsyr2k_v2) and two cuBLAS SGEMMs over the square
(C = alpha A B^T + beta C, then C += alpha B A^T).
Prints: the sequential and offloaded outputs at a small size (n 384, k 320:
hash of the bits of C and its sum; the bits differ where the device fuses
the multiply-adds under the floating-point licence, the sums then agree to
about 1e-7); for the runtime's own choice (tuned on the real input,
IDIOM_TUNE_MIN=0) and every kernel variant (IDIOM_VARIANT=K) the kernel
time per call from IDIOM_STATS (timing runs excluded) and its rate in
TFLOP/s of SSYRK's n (n + 1) k (tri), of the square's 2 n^2 k or of
SSYR2K's 2 n (n + 1) k (syr2k); with gpu,
cuBLAS SSYRK (FP32, default math mode: no TF32) and cuBLAS SGEMM of A A^T,
median of 20 with CUDA events; then the best Idiom kernel as a fraction of
SSYRK's speed (the issue's target: 70%)."""
import ctypes, json, os, statistics, subprocess, sys, tempfile

d = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
k = int(sys.argv[3]) if len(sys.argv) > 3 else 4096
reps = sys.argv[4] if len(sys.argv) > 4 else "5"
device = sys.argv[5] if len(sys.argv) > 5 else "gpu"
shape = sys.argv[6] if len(sys.argv) > 6 else "tri"
if shape not in ("tri", "square", "syr2k"):
    sys.exit("the loop is tri, square or syr2k, not %s" % shape)
tmp = tempfile.mkdtemp()
env = dict(os.environ, IDIOM_CACHE_DIR=os.path.join(tmp, "cache"),
           IDIOM_DEVICE=device, IDIOM_MIN_TRIP="0")
# The loops' lines in syrk_bench.c (IDIOM_STATS names a site by its line).
SITE = "syrk_bench.c:%d" % {"tri": 25, "syr2k": 38, "square": 51}[shape]
FLOPS = {"tri": n * (n + 1.0) * k, "syr2k": 2.0 * n * (n + 1.0) * k,
         "square": 2.0 * n * n * k}[shape]


def run(binary, args, extra=None):
    p = subprocess.run([os.path.join(d, binary)] + args,
                       env=dict(env, **(extra or {})), capture_output=True,
                       text=True)
    if p.returncode != 0:
        sys.exit("%s failed: %s" % (binary, p.stderr[-2000:]))
    return p.stdout


def kernel(extra):
    """(ms per call, tuning text, variants) of the SYRK site, or None."""
    stats = os.path.join(tmp, "stats.json")
    run("syrk.idiom", [str(n), str(k), reps, shape], dict(extra, IDIOM_STATS=stats))
    for s in json.load(open(stats))["sites"]:
        if s["site"] == SITE and s["offloaded"]:
            return s["kernel_ms"] / s["offloaded"], s.get("tuning"), s["variants"]
    return None


small = ["384", "320", "1", shape]
ref = run("syrk.seq", small)
out = run("syrk.idiom", small)
def total(line):
    return float(line.split("sum")[1].split()[0])


if ref == out:
    verdict = "same bits"
else:
    # The GEMM family is fused on the device under the floating-point
    # licence (docs/ARCHITECTURE.md, "GEMMs under the licence: accuracy"):
    # the bits differ; the lit tests check each element against the bound,
    # this only compares the sums of C.
    rel = abs(total(ref) - total(out)) / max(abs(total(ref)), 1e-30)
    verdict = "bits differ (fused multiply-adds), sums agree to %.1e relative%s" % (
        rel, "" if rel < 1e-5 else ": TOO FAR")
print("outputs (n 384, k 320):", ref.strip(), "|", out.strip(), verdict)
rows = [("tuned", kernel({"IDIOM_TUNE_MIN": "0"}))]
if rows[0][1] is None:
    sys.exit("the SYRK site was not offloaded (IDIOM_STATS has no %s)" % SITE)
for v in range(rows[0][1][2]):
    rows.append(("variant %d" % v, kernel({"IDIOM_VARIANT": str(v)})))
best = None
print("n %d k %d %s: %.1f GFLOP per call" % (n, k, shape, FLOPS / 1e9))
for name, r in rows:
    if r is None:
        print("%-10s not offloaded" % (name + ":"))
        continue
    ms, tuning, _ = r
    best = ms if best is None else min(best, ms)
    print("%-10s %.3f ms/call %.2f TFLOP/s%s" % (name + ":", ms, FLOPS / ms / 1e9,
          " [%s]" % tuning if name == "tuned" and tuning else ""))

if device != "gpu":
    sys.exit(0)
import torch

dev = torch.device("cuda")
g = torch.Generator(device="cpu").manual_seed(1)
A = (torch.rand(n, k, generator=g) - 0.5).to(dev)
B = (torch.rand(n, k, generator=g) - 0.5).to(dev)
C = torch.zeros(n, n, device=dev)
(A[:8, :8] @ A[:8, :8].T).sum().item()  # makes torch load libcublas
lib = None
for line in open("/proc/self/maps"):
    if "libcublas.so" in line and "libcublasLt" not in line:
        lib = line.split()[-1]
        break
if lib is None:
    sys.exit("libcublas is not loaded by torch in this process")
cublas = ctypes.CDLL(lib)
handle = ctypes.c_void_p()
assert cublas.cublasCreate_v2(ctypes.byref(handle)) == 0
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
assert cublas.cublasSetStream_v2(handle, stream) == 0
alpha, beta = ctypes.c_float(1.5), ctypes.c_float(0.5)
pa, pc = ctypes.c_void_p(A.data_ptr()), ctypes.c_void_p(C.data_ptr())
pb = ctypes.c_void_p(B.data_ptr())
one = ctypes.c_float(1.0)
LOWER, OP_N, OP_T = 0, 0, 1


def ssyrk():  # row-major A (n x k) is the column-major k x n A^T: trans T
    st = cublas.cublasSsyrk_v2(handle, LOWER, OP_T, n, k, ctypes.byref(alpha),
                               pa, k, ctypes.byref(beta), pc, n)
    assert st == 0, "cublasSsyrk_v2: status %d" % st


def sgemm():  # the same square as Idiom: C = alpha A A^T + beta C
    st = cublas.cublasSgemm_v2(handle, OP_T, OP_N, n, n, k, ctypes.byref(alpha),
                               pa, k, pa, k, ctypes.byref(beta), pc, n)
    assert st == 0, "cublasSgemm_v2: status %d" % st


def ssyr2k():  # C = alpha (A B^T + B A^T) + beta C, row-major as for ssyrk
    st = cublas.cublasSsyr2k_v2(handle, LOWER, OP_T, n, k, ctypes.byref(alpha),
                                pa, k, pb, k, ctypes.byref(beta), pc, n)
    assert st == 0, "cublasSsyr2k_v2: status %d" % st


def sgemm2():  # the square as two SGEMMs: C = alpha A B^T + beta C; C += alpha B A^T
    for x, y, b in ((pa, pb, beta), (pb, pa, one)):
        st = cublas.cublasSgemm_v2(handle, OP_T, OP_N, n, n, k, ctypes.byref(alpha),
                                   y, k, x, k, ctypes.byref(b), pc, n)
        assert st == 0, "cublasSgemm_v2: status %d" % st


def cuda_median(fn, reps=20):
    fn(); torch.cuda.synchronize()
    t = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); torch.cuda.synchronize()
        t.append(a.elapsed_time(b))
    return statistics.median(t)


def against(name, call, want, bound, flops, other, other_call, other_flops):
    """Checks cuBLAS's `call` against the float64 product `want` (its lower
    triangle, column-major, is the upper triangle of the row-major torch
    view; float sums of k products of elements in [-0.5, 0.5] err far below
    `bound`), times it and `other_call` (median of 20, CUDA events), and
    reports the best Idiom kernel as a fraction of `call`'s speed."""
    C.zero_()
    call(); torch.cuda.synchronize()
    err = (torch.triu(C).double() - torch.triu(want)).abs().max().item()
    print("cuBLAS %s check: max |error| %.3g against a float64 product (%s)"
          % (name, err, "ok" if err <= bound else "WRONG: the call's layout is off"))
    t, t_other = cuda_median(call), cuda_median(other_call)
    print("device: %s (%s)" % (torch.cuda.get_device_name(0), lib))
    print("cuBLAS %s: %.3f ms (%.2f TFLOP/s of its own multiply-adds)"
          % (name, t, flops / t / 1e9))
    print("%s: %.3f ms (%.2f TFLOP/s)" % (other, t_other, other_flops / t_other / 1e9))
    f = t / best
    print("Idiom best (%s): %.3f ms = %.0f%% of cuBLAS %s's speed (target 70%%: %s); "
          "%.0f%% of the time of %s"
          % (shape, best, 100 * f, name, "met" if f >= 0.7 else "NOT met",
             100 * t_other / best, other))


if shape == "syr2k":
    Ad, Bd = A.double(), B.double()
    against("SSYR2K", ssyr2k, 1.5 * (Ad @ Bd.T + Bd @ Ad.T), 2e-5 * k, FLOPS,
            "cuBLAS 2 x SGEMM over the square", sgemm2, 4.0 * n * n * k)
else:
    Ad = A.double()
    against("SSYRK", ssyrk, 1.5 * (Ad @ Ad.T), 1e-5 * k, n * (n + 1.0) * k,
            "cuBLAS SGEMM A A^T", sgemm, 2.0 * n * n * k)
