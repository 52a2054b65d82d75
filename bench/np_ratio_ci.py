#!/usr/bin/env python3
"""Issue 12's "every nas-parboil program at least 0.95x sequential": the
speed ratio of each program's plugin build (defaults) against its
sequential build, with a confidence interval, so that a target can be
shown met, shown missed, or left unresolved by the machine's noise.

Protocol: after two warm runs of the plugin build (they fill the program,
tuning and profile caches of a private IDIOM_CACHE_DIR, as a user who runs
a program again and again), ROUNDS rounds, each running the two builds
back to back in an order that alternates from round to round (ABBA), both
pinned to the CPUs of PIN when set (os.sched_setaffinity, inherited by the
child). Each round gives one paired ratio, sequential wall time over
plugin wall time (whole process, from fork to wait). Reported: the median
of the paired ratios and a distribution-free 95% confidence interval of
that median (order statistics of the binomial(n, 1/2) law: Conover,
"Practical Nonparametric Statistics", 3rd ed., section 3.2), and a
verdict against TARGET (default 0.95): "met" when the interval's lower
end is at or above it, "missed" when its upper end is below it, else
"unresolved". Outputs are compared first: equal text, else compare.py.

  np_ratio_ci.py DIR [ROUNDS] [PROGRAM[:ARG,ARG...]...]     (DIR from
  bench/build_profile_carry.sh: DIR/np/P.seq, P.idiom, P.c, compare.py;
  ARGs are passed to both builds, as mg:8,4 for a 256^3 grid)

Environment: PIN=2,3 (CPUs), TARGET=0.95, EXTRA_ENV="K=V ..." for the
plugin build only (for example IDIOM_DEVICE=seq, the runtime's floor).
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def median_ci(xs, level=0.95):
    """The narrowest pair of order statistics (k-th smallest, k-th largest)
    that covers the median with probability at least LEVEL."""
    s = sorted(xs)
    n = len(s)
    # the largest k with 2 P(B <= k - 1) <= 1 - level, B ~ binomial(n, 1/2)
    k, tail = 0, 0.0
    for j in range(n // 2 + 1):
        nxt = tail + math.comb(n, j) / 2.0 ** n
        if 2 * nxt > 1 - level:
            break
        tail, k = nxt, j + 1
    if k == 0:
        return s[0], s[-1]
    return s[k - 1], s[n - k]


def same_output(expected, got, compare_py, src):
    """Whether a plugin build's output is the sequential build's: equal
    text, else compare.py's verdict (its tolerances; it needs an `n N`
    line, which a one-number program such as policy_tiny.c does not
    print, so equal text is tried first)."""
    if expected == got:
        return True
    with tempfile.NamedTemporaryFile("w") as fe, \
            tempfile.NamedTemporaryFile("w") as fg:
        fe.write(expected)
        fg.write(got)
        fe.flush()
        fg.flush()
        return subprocess.run([sys.executable, compare_py, "-q", "--src", src,
                               fe.name, fg.name]).returncode == 0


def wall(cmd, env):
    t = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 31
    progs = sys.argv[3:] or sorted(
        f[:-4] for f in os.listdir(os.path.join(d, "np")) if f.endswith(".seq"))
    target = float(os.environ.get("TARGET", "0.95"))
    pin = os.environ.get("PIN")
    if pin:
        os.sched_setaffinity(0, {int(c) for c in pin.split(",")})
    cache = tempfile.mkdtemp()
    base = dict(os.environ, IDIOM_CACHE_DIR=cache)
    extra = dict(kv.split("=", 1) for kv in os.environ.get("EXTRA_ENV", "").split())
    plug = dict(base, **extra)
    print("rounds %d, pinned to %s, target %.2f, plugin env %s"
          % (rounds, pin or "no CPUs", target, extra or "defaults"))
    for spec in progs:
        p, _, args = spec.partition(":")
        args = args.split(",") if args else []
        s = [os.path.join(d, "np", p + ".seq")] + args
        i = [os.path.join(d, "np", p + ".idiom")] + args
        exp = subprocess.run(s, env=base, capture_output=True, text=True).stdout
        for _ in range(2):
            got = subprocess.run(i, env=plug, capture_output=True, text=True).stdout
        same = same_output(exp, got, os.path.join(d, "np", "compare.py"),
                           os.path.join(d, "np", p + ".c"))
        ratios, ts, ti = [], [], []
        for r in range(rounds):
            if r % 2:
                b = wall(i, plug)
                a = wall(s, base)
            else:
                a = wall(s, base)
                b = wall(i, plug)
            ts.append(a)
            ti.append(b)
            ratios.append(a / b)
        lo, hi = median_ci(ratios)
        verdict = "met" if lo >= target else "missed" if hi < target else "unresolved"
        print("%-12s out=%s seq %.1f ms plugin %.1f ms (medians) ratio %.3f "
              "[95%% CI %.3f, %.3f] %s" % (spec, "same" if same else "DIFF",
                                         1e3 * median(ts), 1e3 * median(ti),
                                         median(ratios), lo, hi, verdict))
        sys.stdout.flush()
    shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
