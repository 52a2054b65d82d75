#!/usr/bin/env python3
"""np_ratio_ci.py's protocol for one program and several plugin builds in
the same rounds, with what each child process cost (helper "tinypocl",
docs/Benchmarks.md): wall time from fork to wait as np_ratio_ci.py takes
it, the child's CPU time (user + system) and minor page faults from wait4,
and whether the run rewrote a file of its cache directory (the profile at
exit).

  tiny_ab.py ROUNDS SEQ NAME=PLUGIN [NAME=PLUGIN ...]

SEQ: the sequential build; each PLUGIN a plugin build of the same program
(a base and a branch, say), run with its own IDIOM_CACHE_DIR, warmed by two
runs first (as np_ratio_ci.py does). Each round runs SEQ and every PLUGIN
once, in an order rotated from round to round. Reported per build: the
median wall and CPU times, the mean minor faults, the rounds whose run
changed its cache directory, and the median of the paired ratios (SEQ's
wall time over the build's, same round) with np_ratio_ci.py's 95%
confidence interval of that median, and the same of CPU times (user +
system: what the process itself spent, less moved by other processes'
load than its wall time). With two or more plugin builds, also each
later build's paired difference from the first (us, the median over the
rounds and its confidence interval): what a change to the runtime costs
or saves per process.

Environment: PIN=2,3 (CPUs, inherited), EXTRA_ENV="K=V ..." for the plugin
builds only, BLOCK=N: instead of rotating, each round runs every build N
times back to back (as `perf stat -r` does: a build's pages and caches
stay warm between its runs); the first run of each block is left out.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from np_ratio_ci import median_ci  # noqa: E402


def run(cmd, env):
    """(wall s, CPU s, minor faults) of one child, fork to wait."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    w = time.perf_counter() - t
    p.returncode = 0
    return w, ru.ru_utime + ru.ru_stime, ru.ru_minflt


def snapshot(d):
    out = {}
    for root, _, files in os.walk(d):
        for f in files:
            q = os.path.join(root, f)
            st = os.stat(q)
            out[q] = (st.st_mtime_ns, st.st_size)
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    seq = os.path.abspath(sys.argv[2])
    builds = [(n, os.path.abspath(b))
              for n, b in (a.split("=", 1) for a in sys.argv[3:])]
    pin = os.environ.get("PIN")
    if pin:
        os.sched_setaffinity(0, {int(c) for c in pin.split(",")})
    block = int(os.environ.get("BLOCK", "0"))
    extra = dict(kv.split("=", 1)
                 for kv in os.environ.get("EXTRA_ENV", "").split())
    caches = {n: tempfile.mkdtemp() for n, _ in builds}
    envs = {n: dict(os.environ, IDIOM_CACHE_DIR=caches[n], **extra)
            for n, _ in builds}
    seq_env = dict(os.environ, IDIOM_CACHE_DIR=tempfile.mkdtemp())
    for n, b in builds:
        for _ in range(2):
            subprocess.run([b], env=envs[n], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    jobs = [("seq", seq, seq_env)] + [(n, b, envs[n]) for n, b in builds]
    res = {n: [] for n, _, _ in jobs}
    rewrites = {n: 0 for n, _ in builds}
    for r in range(rounds):
        k = r % len(jobs)
        for n, b, env in jobs[k:] + jobs[:k]:
            reps = block + 1 if block else 1
            for i in range(reps):
                before = snapshot(caches[n]) if n in caches else None
                x = run([b], env)
                if before is not None and snapshot(caches[n]) != before:
                    rewrites[n] += 1
                if not block or i:
                    res[n].append(x)
    print("rounds %d%s, pinned to %s, plugin env %s, load %s"
          % (rounds, ", blocks of %d" % block if block else "",
             pin or "no CPUs", extra or "defaults",
             os.getloadavg()))
    s = res["seq"]
    for n, _, _ in jobs:
        v = res[n]
        line = "%-8s wall %.3f ms cpu %.3f ms faults %.1f" % (
            n, 1e3 * statistics.median(x[0] for x in v),
            1e3 * statistics.median(x[1] for x in v),
            statistics.mean(x[2] for x in v))
        if n != "seq":
            ratios = [a[0] / b[0] for a, b in zip(s, v)]
            lo, hi = median_ci(ratios)
            line += " ratio %.3f [%.3f, %.3f]" % (statistics.median(ratios),
                                                  lo, hi)
            # the same of CPU times: less moved by other processes' load
            cpu = [a[1] / b[1] for a, b in zip(s, v) if b[1] > 0]
            lo, hi = median_ci(cpu)
            line += " cpu ratio %.3f [%.3f, %.3f] rewrites %d/%d" % (
                statistics.median(cpu), lo, hi, rewrites[n], len(v))
        print(line)
    # Two plugin builds against each other, round by round (helper
    # "tinymain"): the paired differences of the first plugin build's
    # times and each other's, their median and its confidence interval, in
    # us. A change of a few us per process (one page fault) is below the
    # ratios' resolution against the sequential build; the paired
    # difference of two builds run in the same rounds resolves it.
    first = builds[0][0] if builds else None
    for n, _ in builds[1:]:
        for k, what in ((0, "wall"), (1, "cpu")):
            d = [1e6 * (b[k] - a[k]) for a, b in zip(res[first], res[n])]
            lo, hi = median_ci(d)
            print("%s - %s %s %+.1f us [%+.1f, %+.1f]" % (
                n, first, what, statistics.median(d), lo, hi))


if __name__ == "__main__":
    main()
