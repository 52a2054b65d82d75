#!/usr/bin/env python3
"""Issue 12: what a process's exit costs, with and without the runtime's
exit detach (runtime/lib/exit_detach.c). For each of ROUNDS rounds, runs
BINARY ARGS... once with the defaults and once with IDIOM_EXIT_DETACH=0,
alternating which goes first, and measures from outside:
  wall  the whole process (fork to reaped exit), ms;
  exit  from the end of the program's standard output (the stdio flush at
        exit, after the atexit handlers) to the reaped exit: the kernel's
        part of the exit, where the GPU driver's teardown runs, ms.
Both builds share one IDIOM_CACHE_DIR (warmed first), which is not hashed
with IDIOM_EXIT_DETACH, so the profile's early start applies to both.
Prints every pair and the medians.
  exit_ms.py ROUNDS BINARY [ARGS...]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(argv, env):
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    t1 = t0
    while p.stdout.read(65536):
        t1 = time.monotonic()
    p.wait()
    t2 = time.monotonic()
    return (t2 - t0) * 1e3, (t2 - t1) * 1e3


def main():
    rounds, argv = int(sys.argv[1]), sys.argv[2:]
    cache = tempfile.mkdtemp()
    on = dict(os.environ, IDIOM_CACHE_DIR=cache)
    off = dict(on, IDIOM_EXIT_DETACH="0")
    for _ in range(2):
        run(argv, on)
    res = {"detach": [], "IDIOM_EXIT_DETACH=0": []}
    for r in range(rounds):
        order = [("detach", on), ("IDIOM_EXIT_DETACH=0", off)]
        if r % 2:
            order.reverse()
        for name, env in order:
            res[name].append(run(argv, env))
        print("round %d: " % r + "; ".join(
            "%s wall %.0f exit %.1f" % (n, *res[n][-1]) for n, _ in order), flush=True)
    for name, v in res.items():
        print("== %s %s: wall median %.0f ms, exit median %.1f ms (%s)" % (
            os.path.basename(argv[0]), name, statistics.median(w for w, _ in v),
            statistics.median(e for _, e in v),
            " ".join("%.1f" % e for _, e in v)))


if __name__ == "__main__":
    main()
