#!/usr/bin/env python3
"""Runs the nas-parboil programs on the lent GPU: the sequential build and the
plugin build with IDIOM_DEVICE=gpu; compares outputs with compare.py and
reports wall times (median of 3 runs each, the second run onward using the
program cache)."""
import os, subprocess, statistics, sys, time
here = os.path.dirname(os.path.abspath(__file__))
os.chdir(here)
env = dict(os.environ, IDIOM_CACHE_DIR=os.path.join(here, "cache"))
def run(cmd, extra=None):
    e = dict(env, **(extra or {}))
    t = time.perf_counter()
    p = subprocess.run(cmd, env=e, capture_output=True, text=True)
    return time.perf_counter() - t, p
for prog in ["cg", "ep", "histo", "image", "is", "saxpy", "sgemm", "stats"]:
    _, seq = run(["./%s.seq" % prog])
    _, gpu = run(["./%s.idiom" % prog], {"IDIOM_DEVICE": "gpu", "IDIOM_STATS": "1"})
    open(prog + ".expected", "w").write(seq.stdout)
    open(prog + ".gpu", "w").write(gpu.stdout)
    ok = subprocess.run([sys.executable, "compare.py", "-q", "--src", prog + ".c",
                         prog + ".expected", prog + ".gpu"]).returncode == 0
    on_dev = sum(1 for l in gpu.stderr.splitlines() if "offloaded=" in l and "offloaded=0" not in l)
    ts = [run(["./%s.seq" % prog])[0] for _ in range(3)]
    tg = [run(["./%s.idiom" % prog], {"IDIOM_DEVICE": "gpu"})[0] for _ in range(3)]
    print("%-6s %s idioms_on_gpu=%d seq_s=%.3f gpu_s=%.3f" % (
        prog, "PASS" if ok else "FAIL", on_dev, statistics.median(ts), statistics.median(tg)))
    for l in gpu.stderr.splitlines()[:2]:
        print("   ", l[:180])
