#!/usr/bin/env python3
"""What the device's start-ups cost a program's first N runs (issue 12: "a
program that never profits from the device pays no more than noise"): the
CPU time (user + system, of the process and all its threads: OpenCL's
start-up and the kernel builds on the runtime thread included) and the wall
time of N runs from an empty IDIOM_CACHE_DIR, for the sequential build and
two plugin builds that differ only in the runtime they link, with the runs
of the three interleaved (the order rotates every run), and how many of
those runs started the device (IDIOM_STATS names a device).

  start_runs.py [-n RUNS] [--plugin SO] --new LIBDIR --base LIBDIR PROG...

PROG: a nas-parboil program (nas-parboil/PROG.c, built with its
idiom-cflags) or policy_tiny (bench/policy_tiny.c); PROG:A,B passes
arguments to every build. LIBDIR: a directory holding libidiomrt.a (for
example build/lib and the build of an older commit's runtime). Every build:
clang-19 -O2 -g, as bench/build_profile_carry.sh builds them. Outputs are
compared with the sequential build's (equal text, else compare.py).

Prints per program and build: the CPU time summed over the N runs and its
ratio to the sequential build's (sequential / build, as np_ratio_ci.py's
speed ratios: below 1 is slower), the median wall time, and the runs that
started the device. CPU time is less disturbed by the other processes on
the machine than wall time, and counts the runtime thread's work, which
the wall time of a 2-core machine hides when a core is idle.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import resource

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from np_ratio_ci import same_output  # noqa: E402
NP = os.path.join(HERE, "..", "nas-parboil")
CC = os.environ.get("CC", "clang-19")


def source(p):
    if p == "policy_tiny":
        return os.path.join(HERE, "policy_tiny.c")
    return os.path.join(NP, p + ".c")


def idiom_cflags(src):
    for line in open(src):
        s = line.strip()
        if s.startswith("* idiom-cflags:"):
            return s.split(":", 1)[1].split()
    return []


def build(p, tmp, plugin, libs):
    src = source(p)
    out = {"seq": os.path.join(tmp, p + ".seq")}
    subprocess.run([CC, "-O2", "-g", src, "-lm", "-o", out["seq"]], check=True)
    flags = idiom_cflags(src)
    if flags:
        flags = ["-fplugin=" + plugin] + flags
    for name, lib in libs.items():
        out[name] = os.path.join(tmp, p + "." + name)
        subprocess.run([CC, "-O2", "-g"] + flags +
                       ["-fpass-plugin=" + plugin, src, "-L" + lib,
                        "-lidiomrt", "-lm", "-o", out[name]], check=True)
    return out


def run(cmd, env):
    """(stdout, stderr, wall seconds) of one run; its CPU time is the
    difference of the children's rusage totals around it (main)."""
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    return proc.stdout, proc.stderr, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=12, help="runs per build")
    ap.add_argument("--plugin", default=os.path.join(HERE, "..", "build", "lib",
                                                     "libIdiom.so"))
    ap.add_argument("--new", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("progs", nargs="+")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="start-runs.")
    libs = {"base": a.base, "new": a.new}
    print("runs %d from an empty cache, load average %s" %
          (a.n, " ".join("%.2f" % x for x in os.getloadavg())))
    try:
        for spec in a.progs:
            p, _, args = spec.partition(":")
            args = args.split(",") if args else []
            exe = build(p, tmp, a.plugin, libs)
            names = ["seq", "base", "new"]
            envs = {}
            for n in names:
                cache = os.path.join(tmp, "cache-" + p + "-" + n)
                shutil.rmtree(cache, ignore_errors=True)
                envs[n] = dict(os.environ, IDIOM_CACHE_DIR=cache, IDIOM_STATS="1")
            cpu = {n: [] for n in names}
            wall = {n: [] for n in names}
            starts = {n: 0 for n in names}
            same = {n: True for n in names}
            expected = None
            for r in range(a.n):
                order = names[r % 3:] + names[:r % 3]
                if r % 2:
                    order.reverse()
                for n in order:
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    out, err, w = run([exe[n]] + args, envs[n])
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu[n].append(after.ru_utime - before.ru_utime +
                                  after.ru_stime - before.ru_stime)
                    wall[n].append(w)
                    if n == "seq":
                        expected = expected if expected is not None else out
                        continue
                    starts[n] += any('device="' in l and 'device="none"' not in l
                                     for l in err.splitlines())
                    if expected is not None:
                        same[n] &= same_output(expected, out,
                                               os.path.join(NP, "compare.py"),
                                               source(p))
            s = sum(cpu["seq"])
            for n in names:
                print("%-12s %-4s out=%-4s cpu %7.3f s (seq/this %.3f) wall "
                      "median %7.1f ms  device started in %2d of %d runs" %
                      (spec, n, "same" if same[n] else "DIFF", sum(cpu[n]),
                       s / sum(cpu[n]), 1e3 * statistics.median(wall[n]),
                       starts[n], a.n))
            sys.stdout.flush()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("load average %s" % " ".join("%.2f" % x for x in os.getloadavg()))


if __name__ == "__main__":
    main()
