#!/usr/bin/env python3
"""Issue 14 benchmark: the offloaded CSR SpMV of bench/spmv_csr.c on the
lent GPU against the bandwidth its bytes need and against cuSPARSE (through
torch.sparse) on the same matrix, in the same run.

    python3 spmv_gpu.py DIR [log2 rows] [reps] [uniform|skewed]

DIR holds spmv.seq and spmv.idiom (bench/build_spmv_carry.sh). Prints:
the sequential and forced-GPU whole-process times; the kernel time per call
from IDIOM_STATS (the tuned variant, timing runs excluded); then every
kernel variant forced in turn (IDIOM_VARIANT=K: one row per work-item, 4
rows per work-item, CSR-vector with 4..64 work-items per row, and the
load-balanced row blocks, CSR-Adaptive: a work-group per block of rows of
about equal work; docs/Rewrite.md, "Row reductions by lanes"), its kernel
time per call and bandwidth, and the row blocks again with their block
bound IDIOM_ROW_BLOCK_ITERS at 1, 2, 8 and 16 steps per lane (default 4); the bytes one SpMV must move at least (values, column
indices, row pointers, y, and x once); the device's copy bandwidth (torch
clone of 1 GiB); cuSPARSE's time for the same product (torch CSR @ x,
median of 20 with CUDA events) and each variant's share of it. The matrix
is uniform (8..24 nonzeros per row) or skewed (bench/spmv_csr.c)."""
import json, os, re, statistics, subprocess, sys, tempfile, time

d = sys.argv[1]
lg = sys.argv[2] if len(sys.argv) > 2 else "22"
reps = sys.argv[3] if len(sys.argv) > 3 else "20"
shape = sys.argv[4] if len(sys.argv) > 4 else "uniform"
tmp = tempfile.mkdtemp()
env = dict(os.environ, IDIOM_CACHE_DIR=os.path.join(tmp, "cache"))


def timed(cmd, extra=None):
    t = time.perf_counter()
    p = subprocess.run(cmd, env=dict(env, **(extra or {})), capture_output=True, text=True)
    return time.perf_counter() - t, p


mat = os.path.join(tmp, "matrix.bin")
ts, seq = timed([os.path.join(d, "spmv.seq"), lg, reps, mat, shape])
idiom = [os.path.join(d, "spmv.idiom"), lg, reps, "-", shape]
timed(idiom, {"IDIOM_DEVICE": "gpu"})  # caches
stats = os.path.join(tmp, "stats.json")


def site_of(path):
    return [s for s in json.load(open(path))["sites"] if s["idiom"] == "spmv-csr"][0]


tg, gpu = timed(idiom, {"IDIOM_DEVICE": "gpu", "IDIOM_STATS": stats})
print("outputs:", seq.stdout.strip(), "|", gpu.stdout.strip(),
      "same" if seq.stdout == gpu.stdout else "DIFFERENT (reassociated row sums)")
site = site_of(stats)
per_call = site["kernel_ms"] / site["offloaded"]
print("whole process: sequential %.3f s, forced GPU %.3f s" % (ts, tg))
print("spmv site: calls %d offloaded %d kernel %.3f ms/call transfer %.1f ms total tuning %s"
      % (site["calls"], site["offloaded"], per_call, site["transfer_ms"], site.get("tuning")))

# Every variant forced in turn; its description is the marker line of the
# kernel source embedded in the binary.
markers = re.findall(rb"//@idiom-variant (\d+) wg=\S+ ept=(\S+): ([^\n\\]*)",
                     open(idiom[0], "rb").read())
descs = {k: d for k, _, d in markers}
blocks = sorted({int(k) for k, e, _ in markers if e.startswith(b"blocks/")})
variants = []


def forced(k, label, extra=None):
    vs = os.path.join(tmp, "stats%s.json" % re.sub(r"\W+", "_", label))
    _, out = timed(idiom, dict({"IDIOM_DEVICE": "gpu", "IDIOM_STATS": vs,
                                "IDIOM_VARIANT": str(k)}, **(extra or {})))
    v = site_of(vs)
    if not v["offloaded"]:
        print("variant %s: not run (%s)" % (label, v.get("reasons")))
        return
    ms = v["kernel_ms"] / v["offloaded"]
    variants.append((label, ms, descs.get(str(k).encode(), b"?").decode(), out.stdout.strip()))


for k in range(site.get("variants") or 1):
    forced(k, str(k))
for k in blocks:  # the row blocks' bound (IDIOM_ROW_BLOCK_ITERS, default 4)
    for it in (1, 2, 8, 16):
        forced(k, "%d, IDIOM_ROW_BLOCK_ITERS=%d" % (k, it), {"IDIOM_ROW_BLOCK_ITERS": str(it)})

import numpy as np
import torch

raw = open(mat, "rb").read()
rows, nnz = np.frombuffer(raw, np.int64, 2)
o = 16
rowptr = np.frombuffer(raw, np.int32, rows + 1, o); o += 4 * (rows + 1)
col = np.frombuffer(raw, np.int32, nnz, o); o += 4 * nnz
val = np.frombuffer(raw, np.float64, nnz, o); o += 8 * nnz
x = np.frombuffer(raw, np.float64, rows, o)
need = nnz * (8 + 4) + (rows + 1) * 4 + rows * 8 + rows * 8
print("rows %d nnz %d bytes needed per SpMV %.1f MB" % (rows, nnz, need / 1e6))
print("Idiom kernel: %.1f GB/s of needed bytes" % (need / (per_call * 1e-3) / 1e9))

dev = torch.device("cuda")


def cuda_median(fn, n=20):
    fn(); torch.cuda.synchronize()
    out = []
    for _ in range(n):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); torch.cuda.synchronize()
        out.append(a.elapsed_time(b))
    return statistics.median(out)


buf = torch.empty(1 << 30, dtype=torch.uint8, device=dev)
dst = torch.empty_like(buf)
tc = cuda_median(lambda: dst.copy_(buf))
print("device copy: %.1f GB/s (read + write of 1 GiB)" % (2 * (1 << 30) / (tc * 1e-3) / 1e9))
A = torch.sparse_csr_tensor(torch.from_numpy(rowptr.astype(np.int64)).to(dev),
                            torch.from_numpy(col.astype(np.int64)).to(dev),
                            torch.from_numpy(val.copy()).to(dev), size=(int(rows), int(rows)))
xv = torch.from_numpy(x.copy()).to(dev)
tsp = cuda_median(lambda: torch.mv(A, xv))
print("cuSPARSE (torch CSR @ x, int64 indices): %.3f ms = %.1f GB/s of needed bytes"
      % (tsp, need / (tsp * 1e-3) / 1e9))
print("Idiom kernel / cuSPARSE time: %.2f" % (tsp / per_call))
for k, ms, desc, out in variants:
    print("variant %s: %.3f ms/call = %.1f GB/s of needed bytes = %.2f of cuSPARSE (%s)%s"
          % (k, ms, need / (ms * 1e-3) / 1e9, tsp / ms, desc,
             "" if out == seq.stdout.strip() else " output: " + out))
