"""The runs of test/lit/run/host-probe.c, repeated until one tests the rule.

  probe_attempts.py IDIOM EXPECTED_SHORT EXPECTED_LONG CALLS DIR

An attempt: a run of IDIOM with 10 calls writes a profile (DIR/prof, with
a disk cache DIR/cache, both emptied first), profile_edit.py makes its
site's device time 3 times the host time that run measured (the device
lost), and a run of CALLS calls starts from that seed, with IDIOM_STATS=1
and IDIOM_DEBUG=1. Both runs must print what the sequential build printed
(EXPECTED_SHORT, EXPECTED_LONG), or the script fails at once.

The seed's ratio to the second run's host time is 3 only when both runs
see the same load: a loaded first run (5-10 times slower beside busy
processes on 2 cores) makes the device so slow that its re-measurement
does not come due within CALLS calls, and a loaded second run makes the
seed win. Neither tests the rule (a due re-measurement of a device that
is not started neither counts toward its start-up nor starts it), so such
an attempt is repeated, up to ATTEMPTS times. An attempt tests the rule
when the second run's device was due (the runtime's IDIOM_DEBUG line says
so) or when a device decision shows that it was (a runtime that breaks
the rule); the device never won (no "device wins" line). The script then
prints that attempt's stderr (stats and debug lines) for FileCheck. When
no attempt tested the rule it fails: the test never passes untested.
"""
import os
import re
import shutil
import subprocess
import sys

ATTEMPTS = 6
SITE = "probe_loop.c:19"
EDIT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                    "profile_edit.py")


def run(idiom, calls, expected, env):
    """Runs idiom with `calls` calls; its stderr. Exits if stdout differs."""
    p = subprocess.run([idiom, str(calls)], env=env, capture_output=True,
                       text=True)
    if p.returncode != 0 or p.stdout != open(expected).read():
        sys.exit("%s %d: status %d, output %r (expected %r)\n%s" %
                 (idiom, calls, p.returncode, p.stdout,
                  open(expected).read(), p.stderr))
    return p.stderr


def classify(err):
    """'tested', or why the attempt did not test the rule."""
    if re.search(re.escape(SITE) + r": size class \d+: device wins", err):
        return "the seed won (this run's host time was slower)"
    if re.search(re.escape(SITE) + r": size class \d+: the device lost and "
                 r"is due to be measured again", err):
        return "tested"
    stats = [l for l in err.splitlines()
             if l.startswith("idiom-stats: " + SITE + " ")]
    decisions = re.search(r'decisions="([^"]*)"', stats[0]) if stats else None
    if decisions and re.sub(r"host-(cost|hint) x\d+(; )?", "",
                            decisions.group(1)):
        return "tested"  # another decision (host-prestart, device...)
    return "the device's re-measurement did not come due"


def main():
    idiom, exp_short, exp_long, calls, work = sys.argv[1:6]
    base = dict(os.environ)
    for k in ("IDIOM_STATS", "IDIOM_DEBUG", "IDIOM_DEVICE", "IDIOM_COST"):
        base.pop(k, None)
    base["IDIOM_CACHE_DIR"] = os.path.join(work, "cache")
    base["IDIOM_PROFILE"] = os.path.join(work, "prof")
    for attempt in range(1, ATTEMPTS + 1):
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        run(idiom, 10, exp_short, base)
        subprocess.run([sys.executable, EDIT, "slow", "3",
                        base["IDIOM_PROFILE"]], check=True)
        env = dict(base, IDIOM_STATS="1", IDIOM_DEBUG="1")
        err = run(idiom, int(calls), exp_long, env)
        why = classify(err)
        sys.stderr.write("attempt %d: %s\n" % (attempt, why))
        if why == "tested":
            sys.stdout.write(err)
            return 0
    sys.exit("no attempt of %d tested the rule" % ATTEMPTS)


if __name__ == "__main__":
    sys.exit(main())
