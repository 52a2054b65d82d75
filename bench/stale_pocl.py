#!/usr/bin/env python3
"""Stale profile samples on PoCL (helper "stale", issue 12): whole-process
wall and CPU time of the iterative programs and of programs that never
profit from the device, with the default settings (IDIOM_DEVICE=auto), for
two runtimes linked with the same plugin build, in interleaved rounds:

  base  BASE/lib/libidiomrt.a (e.g. main's build)
  new   BUILD/lib/libidiomrt.a

and the sequential build (clang-19 -O2) in every round. Scenarios, each
with its own cache directory per runtime:

  fresh   a new IDIOM_CACHE_DIR for every run (no profile, no kernels)
  warm    one cache per runtime kept across the rounds (after 2 warm-ups);
          also "forced" (new, IDIOM_DEVICE=cpu IDIOM_COST=off: every call
          on PoCL), the device's ceiling at the round's load
  loaded  one run of new beside HOGS busy processes writes a profile (a
          loaded run's); both runtimes start from it (base from its
          format-2 form: no age, losses or load; the env line rewritten to
          each runtime's environment, so the early start is judged alike),
          with their warm kernel caches, copied afresh in every round, then
          SERIES runs in a row without the busy processes (loaded1, ...)
  slowprof  as loaded, but the profile is new's warm one edited to what a
          loaded run writes when the device lost there (every device time
          3 times the host's, measured by that run: AGE 0, LOSSES 1, LOAD
          80): base keeps it (a losing device is not probed before the
          device starts); new re-probes it (slowprof1, ...)

Each round runs the modes of a scenario alternately, base first in even
rounds and new first in odd ones (ABBA), and prints the load average and
the cores this script's processes got: two busy loops for 0.3 s, their CPU
time over their wall time (2.0: both cores). On the 2-core VMs here the
scheduler shares the machine between sessions (autogroups), not processes:
while another session is busy a 2-thread PoCL device gets about one core,
no more than the sequential build (forced Jacobi 1.0x, against 1.8x with
two). --min-cores C waits (up to --wait s) before each timed run until the
probe gives at least C cores, and probes again after it: every mode, the
sequential build included, then runs while this session had both cores
(as far as a probe before and after can tell; "late" counts the runs whose
second probe gave fewer).
Reported per program, scenario and mode: the median wall time, the ratio
sequential / mode (medians), the median CPU time (user + system), the runs
that started the device (IDIOM_STATS: a site with a device), the
re-probes (decision device-reprobe), and whether every output was the
sequential one.

Usage: bench/stale_pocl.py BUILD BASE [--rounds N] [--series S]
         [--hogs H] [--progs jacobi,axpby,jds,tiny]
         [--scenarios fresh,warm,loaded | ...,slowprof]
         [--min-cores C] [--wait S]
The figures of docs/Benchmarks.md (helper "stale"): --rounds 5 --series 3
--hogs 8 --min-cores 1.8 --wait 600, then --scenarios slowprof with the
programs jacobi,axpby,jds (loaded and slowprof exclude each other:
loaded is run when both are given).
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PROGS = {  # name: (source, arguments)
    "jacobi": ("bench/jacobi2d.c", ["2048", "150"]),
    "axpby": ("bench/residency_axpby.c", ["23", "200"]),
    "jds": ("nas-parboil/jds.c", []),
    "tiny": ("bench/policy_tiny.c", []),
}


def build(tmp, build_dir, base_dir, prog):
    src, _ = PROGS[prog]
    src = os.path.join(ROOT, src)
    plugin = os.path.join(build_dir, "lib", "libIdiom.so")
    out = {}
    out["seq"] = os.path.join(tmp, prog + ".seq")
    subprocess.run(["clang-19", "-O2", src, "-lm", "-o", out["seq"]],
                   check=True)
    for mode, lib in (("new", build_dir), ("base", base_dir)):
        out[mode] = os.path.join(tmp, prog + "." + mode)
        subprocess.run(["clang-19", "-O2", "-fpass-plugin=" + plugin, src,
                        "-L" + os.path.join(lib, "lib"), "-lidiomrt", "-lm",
                        "-o", out[mode]], check=True)
    return out


MIN_CORES = [0.0, 0.0, 0]  # cores wanted, the longest wait (s), late runs


def wait_cores():
    c, t0 = cores(), time.monotonic()
    while c < MIN_CORES[0] and time.monotonic() - t0 < MIN_CORES[1]:
        time.sleep(5)
        c = cores()
    return c


def timed(binary, args, cache, plugin, forced=False):
    """run(), after wait_cores() when --min-cores is given."""
    if MIN_CORES[0] <= 0:
        return run(binary, args, cache, plugin, forced)
    wait_cores()
    r = run(binary, args, cache, plugin, forced)
    if cores() < MIN_CORES[0]:
        MIN_CORES[2] += 1
    return r


def run(binary, args, cache, plugin, forced=False):
    """One run: (wall s, cpu s, stdout, stderr)."""
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("IDIOM_"):
            del env[k]
    if plugin:
        env["IDIOM_CACHE_DIR"] = cache
        env["IDIOM_STATS"] = "1"
    if forced:
        env["IDIOM_DEVICE"] = "cpu"
        env["IDIOM_COST"] = "off"
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run([binary] + args, env=env, capture_output=True,
                       text=True)
    t1 = time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return t1 - t0, cpu, p.stdout, p.stderr


def started(stderr):
    return any('device="none"' not in l
               for l in stderr.splitlines()
               if l.startswith("idiom-stats: ") and "device=" in l)


def reprobes(stderr):
    return sum(int(m) for m in re.findall(r"device-reprobe x(\d+)", stderr))


def hogged(n, fn):
    hogs = [subprocess.Popen(["sh", "-c", "while :; do :; done"])
            for _ in range(n)]
    try:
        return fn()
    finally:
        for h in hogs:
            h.kill()
        for h in hogs:
            h.wait()


def cores(secs=0.3):
    """CPU time of two busy loops over secs of wall time (0..2)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    ps = [subprocess.Popen(["timeout", str(secs), "sh", "-c",
                            "while :; do :; done"]) for _ in range(2)]
    for p in ps:
        p.wait()
    t1 = time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return cpu / (t1 - t0)


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def as_profile_for(text, cache, v2):
    """A profile's text for runs with IDIOM_CACHE_DIR=cache (run()'s
    environment: its env line, runtime/lib/profile.c's hash), in format 2
    when v2 (AGE LOSSES LOAD dropped), its check line recomputed."""
    env = ["IDIOM_CACHE_DIR=" + cache, "IDIOM_STATS=1"]
    h = sum(fnv1a64(e.encode()) for e in env) & 0xFFFFFFFFFFFFFFFF
    body = []
    for l in text.splitlines():
        if l.startswith("check "):
            continue
        if l.startswith("env "):
            l = "env %016x" % h
        elif v2 and l == "idiom-profile 3":
            l = "idiom-profile 2"
        elif v2 and l.startswith("site "):
            f = l.split(" ", 11)
            l = " ".join(f[:8] + f[11:])
        body.append(l)
    t = "\n".join(body) + "\n"
    return t + "check %016x\n" % fnv1a64(t.encode())


def slowed(text):
    """Profile text (format 3) whose every class has a device time 3 times
    its host time, measured by the last run, lost once, at 80% load."""
    out = []
    for l in text.splitlines():
        if l.startswith("site "):
            f = l.split(" ", 11)
            f[4] = "%.6g" % (3 * float(f[3]))
            f[5] = "3"
            f[8:11] = ["0", "1", "80"]
            l = " ".join(f)
        out.append(l)
    return "\n".join(out) + "\n"


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("base")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--series", type=int, default=3)
    ap.add_argument("--hogs", type=int, default=4)
    ap.add_argument("--progs", default="jacobi,axpby,jds,tiny")
    ap.add_argument("--scenarios", default="fresh,warm,loaded")
    ap.add_argument("--min-cores", type=float, default=0.0)
    ap.add_argument("--wait", type=float, default=1800.0)
    a = ap.parse_args()
    MIN_CORES[0], MIN_CORES[1] = a.min_cores, a.wait
    build_dir = os.path.abspath(a.build)
    base_dir = os.path.abspath(a.base)
    scen = a.scenarios.split(",")
    tmp = tempfile.mkdtemp(prefix="stale-pocl-")
    print("cores %d; rounds %d; load %s" % (os.cpu_count(), a.rounds,
                                            loadavg()))
    try:
        for prog in a.progs.split(","):
            bins = build(tmp, build_dir, base_dir, prog)
            args = PROGS[prog][1]
            expected = run(bins["seq"], args, None, False)[2]
            res = {}  # (scenario, mode) -> list of (wall, cpu, start, rp, ok)

            def rec(sc, mode, r):
                res.setdefault((sc, mode), []).append(
                    (r[0], r[1], started(r[3]), reprobes(r[3]),
                     r[2] == expected))
                print("  run %s %s: %.3f s, cpu %.3f s, started %d, "
                      "re-probes %d" % (sc, mode, r[0], r[1], started(r[3]),
                                        reprobes(r[3])), flush=True)

            warm = {m: os.path.join(tmp, prog + ".warm." + m)
                    for m in ("base", "new")}
            snap = {m: os.path.join(tmp, prog + ".snap." + m)
                    for m in ("base", "new")}
            if "warm" in scen or "loaded" in scen or "slowprof" in scen:
                for m in ("base", "new"):
                    for _ in range(2):
                        run(bins[m], args, warm[m], True)
            # the loaded runs' cache path: the profile's environment (which
            # the early start compares) names it
            lc = {m: os.path.join(tmp, prog + ".loaded." + m)
                  for m in ("base", "new")}
            kind = "loaded" if "loaded" in scen else \
                "slowprof" if "slowprof" in scen else None
            if kind:
                for m in ("base", "new"):
                    shutil.copytree(warm[m], lc[m])
                if kind == "loaded":
                    r = hogged(a.hogs,
                               lambda: run(bins["new"], args, lc["new"], True))
                    print("%s: the loaded run of new (%d busy processes): "
                          "%.2f s" % (prog, a.hogs, r[0]))
                pdir = {m: os.path.join(lc[m], "profile")
                        for m in ("base", "new")}
                (pnew,) = os.listdir(pdir["new"])
                (pbase,) = os.listdir(pdir["base"])
                with open(os.path.join(pdir["new"], pnew)) as f:
                    text = f.read()
                if kind == "slowprof":
                    text = slowed(text)
                for m, name in (("new", pnew), ("base", pbase)):
                    with open(os.path.join(pdir[m], name), "w") as f:
                        f.write(as_profile_for(text, lc[m], m == "base"))
                    shutil.copytree(lc[m], snap[m])
                for l in text.splitlines():
                    if l.startswith("site ") and l.split()[4] != "-1":
                        print("  " + l)
            for rnd in range(a.rounds):
                order = ["base", "new"] if rnd % 2 == 0 else ["new", "base"]
                print("%s round %d: load %s, cores %.2f" %
                      (prog, rnd, loadavg(), cores()), flush=True)
                rec("all", "seq", timed(bins["seq"], args, None, False))
                if "fresh" in scen:
                    for m in order:
                        c = tempfile.mkdtemp(dir=tmp)
                        rec("fresh", m, timed(bins[m], args, c, True))
                        shutil.rmtree(c)
                if "warm" in scen:
                    for m in order:
                        rec("warm", m, timed(bins[m], args, warm[m], True))
                    if prog in ("jacobi", "axpby"):
                        rec("warm", "forced",
                            timed(bins["new"], args, warm["new"], True, True))
                if kind:
                    for m in order:
                        shutil.rmtree(lc[m], ignore_errors=True)
                        shutil.copytree(snap[m], lc[m])
                    for k in range(a.series):
                        for m in order:
                            rec("%s%d" % (kind, k + 1), m,
                                timed(bins[m], args, lc[m], True))
            if MIN_CORES[0] > 0:
                print("%s: %d runs so far whose second probe gave fewer than "
                      "%.2f cores (late)" % (prog, MIN_CORES[2], MIN_CORES[0]))
            seq = statistics.median(w for w, *_ in res[("all", "seq")])
            print("%s %s: median of %d rounds, wall s (ratio = sequential / "
                  "mode), cpu s, runs that started the device, re-probes, "
                  "outputs" % (prog, " ".join(args), a.rounds))
            for (sc, mode), v in res.items():
                w = statistics.median(x[0] for x in v)
                c = statistics.median(x[1] for x in v)
                print("  %-8s %-5s %7.3f  %5.2fx  cpu %6.3f  started %d/%d"
                      "  reprobes %d  outputs %s  (%s)" %
                      (sc, mode, w, seq / w, c, sum(x[2] for x in v), len(v),
                       sum(x[3] for x in v),
                       "same" if all(x[4] for x in v) else "DIFF",
                       " ".join("%.3f" % x[0] for x in v)))
            sys.stdout.flush()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
