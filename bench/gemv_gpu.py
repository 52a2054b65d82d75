#!/usr/bin/env python3
"""Issue 13 benchmark: the offloaded GEMV (y = A x, row-major A), GEMV^T
(s[j] += A[i][j] * r[i], i outer) and the fused bicg nest (both in one nest:
a GEMV pair, two kernels of one idiom_run_pair call) of bench/gemv_bench.c
against the copy bandwidth of the same device, measured in the same run.

    python3 gemv_gpu.py DIR [n] [reps] [gpu|cpu]

DIR holds gemv.seq and gemv.idiom (bench/build_gemv_carry.sh); n is the
matrix order (default 8192: a 256 MiB float matrix), reps the calls of each
product per process (default 10), the last argument IDIOM_DEVICE (default
gpu). Prints: the sequential and offloaded outputs (a hash of the result
bits: equal when every element is summed in the loop's order; the row-lanes
variants, 4-7, reassociate each sum under the licence, so their bits may
differ and gemv_bench's own check, 64 sampled outputs of each product
within the bound of a reassociated sum, must say ok); for every
kernel variant (IDIOM_VARIANT=K: for the pair, both of its kernels) and
for the runtime's own choice (tuned on the real input, IDIOM_TUNE_MIN=0)
the kernel time per call from IDIOM_STATS (timing runs excluded) and the
bandwidth of the bytes one product must move (the matrix once, x or r, y
written; s read and written; the pair: its two kernels' times summed, the
matrix read by each, so also shown against one read of the matrix, what a
fused kernel would move); the device's copy
bandwidth (gpu: torch copy of 1 GiB, bytes read plus written, median of 20
with CUDA events; cpu: memcpy of 1 GiB by gemv.seq copy, best of 5); each
product's best variant as a fraction of it, against the issue's target of
80%; the tuner's pick against the best forced variant; with gemv.variants
(bench/build_gemv_carry.sh) each variant's description first."""
import json, os, statistics, subprocess, sys, tempfile

d = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
reps = sys.argv[3] if len(sys.argv) > 3 else "10"
device = sys.argv[4] if len(sys.argv) > 4 else "gpu"
tmp = tempfile.mkdtemp()
env = dict(os.environ, IDIOM_CACHE_DIR=os.path.join(tmp, "cache"),
           IDIOM_DEVICE=device, IDIOM_MIN_TRIP="0")
SITES = {"gemv_bench.c:23": "GEMV", "gemv_bench.c:33": "GEMV^T",
         "gemv_bench.c:43": "pair"}
# The pair: two kernels, each reading the matrix (p, r read; q written; s
# read and written); ONE_READ: the bytes of a fused kernel (the matrix once).
NEED = {"GEMV": 4 * (n * n + 2 * n), "GEMV^T": 4 * (n * n + 3 * n),
        "pair": 4 * (2 * n * n + 5 * n)}
ONE_READ = 4 * (n * n + 5 * n)
PRODUCTS = ("GEMV", "GEMV^T", "pair")


def run(binary, extra=None, args=None):
    p = subprocess.run([os.path.join(d, binary)] + (args or [str(n), reps]),
                       env=dict(env, **(extra or {})), capture_output=True,
                       text=True)
    if p.returncode != 0:
        sys.exit("%s failed: %s" % (binary, p.stderr[-2000:]))
    return p.stdout


def kernels(extra):
    """Per product: (ms per call, tuning text, calls offloaded)."""
    stats = os.path.join(tmp, "stats.json")
    out = run("gemv.idiom", dict(extra, IDIOM_STATS=stats))
    res = {}
    parts = {}  # product -> kernels offloaded (the pair needs both)
    for s in json.load(open(stats))["sites"]:
        if s["site"] in SITES and s["offloaded"]:
            p = SITES[s["site"]]
            r = (s["kernel_ms"] / s["offloaded"], s.get("tuning"),
                 s["offloaded"], s["variants"])
            if p in res:  # the pair's second kernel: same site, times add
                q = res[p]
                r = (q[0] + r[0], "%s + %s" % (q[1], r[1]), min(q[2], r[2]),
                     max(q[3], r[3]))
            res[p] = r
            parts[p] = parts.get(p, 0) + 1
    if parts.get("pair", 2) < 2:
        # one of the pair's kernels did not run on the device (a variant
        # index only the other kernel has): its time is not the pair's
        del res["pair"]
    return out, res


def compare(name, out):
    """The bits against the sequential build's, and the bound check."""
    same = out.splitlines()[0] == ref.splitlines()[0]
    ok = out.splitlines()[1] == "check GEMV ok GEMV^T ok pair ok"
    print("%s: output bits %s, %s" % (name, "same" if same else "differ",
                                      "within the bound" if ok else "BEYOND THE BOUND: " + out))


# The variants' descriptions (bench/build_gemv_carry.sh): "PRODUCT K: text".
DESC = {}
if os.path.exists(os.path.join(d, "gemv.variants")):
    for line in open(os.path.join(d, "gemv.variants")):
        head, _, text = line.rstrip("\n").partition(": ")
        DESC.setdefault(head.rsplit(" ", 1)[0], {})[head.rsplit(" ", 1)[1]] = text
for p in sorted(DESC):
    for k in sorted(DESC[p], key=int):
        print("%s variant %s: %s" % (p, k, DESC[p][k]))

ref = run("gemv.seq")
run("gemv.idiom")  # builds the programs into the cache
out, tuned = kernels({"IDIOM_TUNE_MIN": "0"})
print("outputs:", ref.strip().replace("\n", "; "), "|", out.strip().replace("\n", "; "))
compare("tuned", out)
nvar = max(v[3] for v in tuned.values()) if tuned else 0
rows = [("tuned", tuned)]
for k in range(nvar):
    o, r = kernels({"IDIOM_VARIANT": str(k)})
    compare("variant %d" % k, o)
    rows.append(("variant %d" % k, r))

if device == "gpu":
    import torch
    dev = torch.device("cuda")

    def cuda_median(fn, reps=20):
        fn(); torch.cuda.synchronize()
        t = []
        for _ in range(reps):
            a = torch.cuda.Event(enable_timing=True)
            b = torch.cuda.Event(enable_timing=True)
            a.record(); fn(); b.record(); torch.cuda.synchronize()
            t.append(a.elapsed_time(b))
        return statistics.median(t)

    src = torch.empty(1 << 30, dtype=torch.uint8, device=dev)
    dst = torch.empty_like(src)
    copy = 2 * (1 << 30) / (cuda_median(lambda: dst.copy_(src)) * 1e-3) / 1e9
    what = "torch copy of 1 GiB on %s" % torch.cuda.get_device_name(0)
else:
    copy = float(run("gemv.seq", args=["copy", "1024"]).split()[1])
    what = "host memcpy of 1 GiB"
print("device copy bandwidth: %.1f GB/s (read + write, %s)" % (copy, what))
print("n %d: bytes per product: GEMV %.1f MB, GEMV^T %.1f MB, pair %.1f MB "
      "(a fused kernel: %.1f MB)" % (n, NEED["GEMV"] / 1e6, NEED["GEMV^T"] / 1e6,
                                    NEED["pair"] / 1e6, ONE_READ / 1e6))
best = {}
pergb = {}  # product -> {variant: GB/s}
for name, r in rows:
    line = []
    for p in PRODUCTS:
        if p not in r:
            line.append("%s not offloaded" % p)
            continue
        ms, tuning, calls, _ = r[p]
        gbps = NEED[p] / (ms * 1e-3) / 1e9
        best[p] = max(best.get(p, 0), gbps)
        if name.startswith("variant "):
            pergb.setdefault(p, {})[int(name.split()[1])] = gbps
        fused = ""
        if p == "pair":
            fused = ", %.0f%% against one read" % (
                100 * ONE_READ / (ms * 1e-3) / 1e9 / copy)
        line.append("%s %.3f ms/call %.1f GB/s (%.0f%% of copy%s)%s"
                    % (p, ms, gbps, 100 * gbps / copy, fused,
                       " [%s]" % tuning if name == "tuned" else ""))
    print("%-10s %s" % (name + ":", "; ".join(line)))
import re
for p in PRODUCTS:
    # the tuner's pick (its first "variant K": the pair's GEMV kernel)
    # against the best variant forced in this run
    if p not in pergb or p not in tuned:
        continue
    m = re.search(r"variant (\d+)", str(tuned[p][1]))
    k = int(m.group(1)) if m else -1
    b = max(pergb[p], key=pergb[p].get)
    print("%s tuner's pick: variant %s (%s); best variant %d %.1f GB/s%s"
          % (p, k if k >= 0 else "?",
             "%.1f GB/s forced" % pergb[p][k] if k in pergb[p] else "not forced",
             b, pergb[p][b], ": the pick is the best" if k == b else ""))
for p in PRODUCTS:
    if p in best:
        f = best[p] / copy
        print("%s best: %.1f GB/s = %.0f%% of the copy bandwidth (target 80%%: %s)"
              % (p, best[p], 100 * f, "met" if f >= 0.8 else "NOT met"))
