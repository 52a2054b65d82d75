"""Edits a runtime profile file (runtime/lib/profile.c) for test/lit/run/profile.c,
test/lit/run/host-probe.c and test/lit/run/stale-probe.c.

  profile_edit.py fast FILE     every site: device time 1/100 of the host's,
                                100000 device runs; a wall line (if any)
                                of a minute, no build measured (a run
                                long enough for any build); the check
                                recomputed
  profile_edit.py slow F FILE   every site without a device time: device
                                time F times the host's, 3 device runs
                                (format 3: measured by the last run, which
                                it lost: AGE 0, LOSSES 1); the check
                                recomputed
  profile_edit.py stale AGE LOSSES LOAD FILE
                                format 3, every site with a device time:
                                its age in runs, its losses in a row and
                                the contention of its run (stale.c); the
                                check recomputed
  profile_edit.py corrupt FILE  a digit of the first site line changed, the
                                check left as it was
  profile_edit.py v1 FILE       format 3 or 2 written back as format 1 (no
                                second-device fields); the check recomputed
  profile_edit.py v2 FILE       format 3 written back as format 2 (no AGE
                                LOSSES LOAD); the check recomputed
  profile_edit.py wall MS BUILD_MS FILE
                                the wall line (the last run's time from start
                                to exit, its longest build step) set, or
                                added after the worthy line; the check
                                recomputed
  profile_edit.py worthy MS FILE
                                the worthy line (host time the cost model
                                wanted on the device) set to MS milliseconds;
                                the check recomputed
  profile_edit.py fruitless STARTS HELD FILE
                                the fruitless line (runtime/lib/fruitless.c:
                                fruitless device start-ups in a row, runs
                                held since) set, or added after the wall line
                                (else the worthy line); the check recomputed
"""
import sys


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def checked(body):
    """The lines of body and a check line of their FNV-1a 64."""
    text = "\n".join(body) + "\n"
    return text + "check %016x\n" % fnv1a64(text.encode())


mode, path = sys.argv[1], sys.argv[-1]
lines = open(path).read().splitlines()
body = [l for l in lines if not l.startswith("check ")]
sites = [i for i, l in enumerate(body) if l.startswith("site ")]
if not sites:
    sys.exit("%s: no site lines" % path)
if mode == "fast":
    for i in sites:
        f = body[i].split(" ", 6)  # site HEX CLASS HOST DEV RUNS LOC
        f[4] = "%.6g" % (float(f[3]) / 100)
        f[5] = "100000"
        body[i] = " ".join(f)
    body = [("wall %d 0" % 60e9) if l.startswith("wall ") else l
            for l in body]
    text = checked(body)
elif mode == "slow":
    factor = float(sys.argv[2])
    v3 = body[0] == "idiom-profile 3"
    for i in sites:
        f = body[i].split(" ", 11 if v3 else 6)
        if float(f[4]) < 0:
            f[4] = "%.6g" % (float(f[3]) * factor)
            f[5] = "3"
            if v3:
                f[8], f[9] = "0", "1"
            body[i] = " ".join(f)
    text = checked(body)
elif mode == "stale":
    if body[0] != "idiom-profile 3":
        sys.exit("%s: not format 3" % path)
    for i in sites:
        f = body[i].split(" ", 11)  # ... CRUNS AGE LOSSES LOAD LOC
        if float(f[4]) >= 0:
            f[8:11] = sys.argv[2:5]
            body[i] = " ".join(f)
    text = checked(body)
elif mode == "v2":
    if body[0] != "idiom-profile 3":
        sys.exit("%s: not format 3" % path)
    body[0] = "idiom-profile 2"
    for i in sites:
        f = body[i].split(" ", 11)
        body[i] = " ".join(f[:8] + f[11:])
    text = checked(body)
elif mode == "v1":
    v3 = body[0] == "idiom-profile 3"
    body[0] = "idiom-profile 1"
    for i in sites:
        # site HEX CLASS HOST DEV RUNS CPU CRUNS [AGE LOSSES LOAD] LOC
        f = body[i].split(" ", 11 if v3 else 8)
        body[i] = " ".join(f[:6] + f[11 if v3 else 8:])
    text = checked(body)
elif mode == "wall":
    line = "wall %d %d" % (float(sys.argv[2]) * 1e6, float(sys.argv[3]) * 1e6)
    body = [l for l in body if not l.startswith("wall ")]
    at = [i for i, l in enumerate(body) if l.startswith("worthy ")]
    body.insert(at[0] + 1 if at else 2, line)
    text = checked(body)
elif mode == "worthy":
    ns = int(float(sys.argv[2]) * 1e6)
    body = [("worthy %d" % ns) if l.startswith("worthy ") else l for l in body]
    text = checked(body)
elif mode == "fruitless":
    line = "fruitless %d %d" % (int(sys.argv[2]), int(sys.argv[3]))
    body = [l for l in body if not l.startswith("fruitless ")]
    at = [i for i, l in enumerate(body) if l.startswith("wall ")] or \
        [i for i, l in enumerate(body) if l.startswith("worthy ")]
    body.insert(at[0] + 1 if at else 2, line)
    text = checked(body)
elif mode == "corrupt":
    i = sites[0]
    f = body[i].split(" ", 6)
    f[2] = str(int(f[2]) ^ 1)
    body[i] = " ".join(f)
    text = "\n".join(body) + "\n" + [l for l in lines if l.startswith("check ")][0] + "\n"
else:
    sys.exit("unknown mode " + mode)
open(path, "w").write(text)
