#!/usr/bin/env python3
"""Phase times of a program that prints "NAME MS NAME MS ..." on stderr,
sequential build against plugin build, with the whole process's wall time
and what lies outside the phases (start-up, exit): after two warm runs of
the plugin build (a private IDIOM_CACHE_DIR), ROUNDS rounds running both
builds back to back in alternating order (ABBA), pinned to PIN (default
2,3); medians per build. EXTRA_ENV="K=V ..." is the plugin build's.

  phases_ab.py DIR [ROUNDS]        (DIR/np/h.seq, DIR/np/h.idiom:
                                    bench/heat3d_phases.sh)
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    d = os.path.join(sys.argv[1], "np")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    pin = os.environ.get("PIN", "2,3")
    os.sched_setaffinity(0, {int(c) for c in pin.split(",")})
    env = dict(os.environ, IDIOM_CACHE_DIR=tempfile.mkdtemp())
    extra = dict(kv.split("=", 1) for kv in os.environ.get("EXTRA_ENV", "").split())
    for _ in range(2):
        subprocess.run([os.path.join(d, "h.idiom")], env=dict(env, **extra),
                       capture_output=True)
    res = {"seq": [], "idiom": []}
    for r in range(rounds):
        for b in (("seq", "idiom") if r % 2 == 0 else ("idiom", "seq")):
            e = dict(env, **extra) if b == "idiom" else env
            t = time.perf_counter()
            p = subprocess.run([os.path.join(d, "h." + b)], env=e,
                               capture_output=True, text=True)
            wall = (time.perf_counter() - t) * 1e3
            f = p.stderr.split()
            phases = dict(zip(f[0::2], map(float, f[1::2])))
            phases["outside"] = wall - sum(phases.values())
            phases["wall"] = wall
            res[b].append(phases)
    print("rounds %d, pinned to %s, plugin env %s" % (rounds, pin, extra or "defaults"))
    for b, runs in res.items():
        print("%-6s" % b, " ".join("%s %.3f ms" % (k, statistics.median(x[k] for x in runs))
                                   for k in runs[0]))


if __name__ == "__main__":
    main()
