#!/usr/bin/env python3
"""Why a plugin build's wall time varies from run to run: for each round,
the sequential build's and the plugin build's whole-process wall times
(paired, order alternating, as bench/np_ratio_ci.py runs them) next to
the plugin run's IDIOM_STATS summary: calls offloaded of all calls, and
every decision kind with its count over the run's sites (host-hint,
host-cost, device-auto, ...). Slow runs that line up with device runs,
start-ups or explorations show where the time goes.

  runs_decisions.py DIR ROUNDS PROGRAM[:ARG,ARG...]     (DIR from
  bench/build_profile_carry.sh: DIR/np/P.seq and P.idiom)

Two warm runs first fill a private IDIOM_CACHE_DIR. Environment: PIN=2,3
(CPUs, as np_ratio_ci.py), EXTRA_ENV="K=V ..." for the plugin build only.
"""
import os
import re
import subprocess
import sys
import tempfile
import time


def run(cmd, env, err=subprocess.DEVNULL):
    t = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
    return (time.perf_counter() - t) * 1e3, p


def summary(stats):
    calls = sum(int(x) for x in re.findall(r" calls=(\d+)", stats))
    off = sum(int(x) for x in re.findall(r" offloaded=(\d+)", stats))
    kinds = {}
    for d in re.findall(r'decisions="([^"]*)"', stats):
        for part in d.split("; "):
            m = re.match(r"(\S+) x(\d+)", part)
            if m:
                kinds[m.group(1)] = kinds.get(m.group(1), 0) + int(m.group(2))
    devs = sorted(set(re.findall(r'device="([^"]*)"', stats)) - {"none"})
    k = " ".join("%s:%d" % kv for kv in sorted(kinds.items()))
    return "%d/%d offloaded %s%s" % (off, calls, k, (" on " + ",".join(devs)) if devs else "")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    d, rounds, spec = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    prog, _, args = spec.partition(":")
    args = args.split(",") if args else []
    pin = os.environ.get("PIN")
    if pin:
        os.sched_setaffinity(0, {int(c) for c in pin.split(",")})
    cache = tempfile.mkdtemp(prefix="idiom-runs-")
    env = dict(os.environ, IDIOM_CACHE_DIR=cache)
    for kv in os.environ.get("EXTRA_ENV", "").split():
        k, _, v = kv.partition("=")
        env[k] = v
    seq = [os.path.join(d, "np", prog + ".seq")] + args
    idi = [os.path.join(d, "np", prog + ".idiom")] + args
    for _ in range(2):
        run(idi, env)
    senv = dict(os.environ)
    senv.pop("IDIOM_STATS", None)
    ienv = dict(env, IDIOM_STATS="1")
    print("round  seq_ms  idiom_ms  ratio  plugin run")
    for r in range(rounds):
        if r % 2 == 0:
            ts, _ = run(seq, senv)
            ti, p = run(idi, ienv, subprocess.PIPE)
        else:
            ti, p = run(idi, ienv, subprocess.PIPE)
            ts, _ = run(seq, senv)
        print("%5d %7.1f %9.1f %6.3f  %s" % (r, ts, ti, ts / ti,
                                            summary(p.stderr.decode(errors="replace"))))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
