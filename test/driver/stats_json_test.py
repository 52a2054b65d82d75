#!/usr/bin/env python3
"""IDIOM_STATS=json and IDIOM_STATS=FILE.json against a known run.

Usage: stats_json_test.py BIN_DIR SOURCE_DIR

Builds test/driver/Inputs/stats_prog.c with idiom-cc (from a copy whose
name needs JSON escaping: a quote, a backslash and a byte that is not
UTF-8) and runs it on PoCL (IDIOM_DEVICE=cpu): the map of 65536 elements
runs on the device 3 times, the map of 100 elements declines twice
(IDIOM_MIN_TRIP). Checks the document against those facts, against the
text report of the same run (IDIOM_STATS=1) and against the schema that
README.md documents.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CC = os.path.join(BIN, "idiom-cc")
WORK = tempfile.mkdtemp(prefix="idiom-stats-")
ENV = dict(os.environ)
for var in ["IDIOM_DEVICE", "IDIOM_STATS", "IDIOM_MIN_TRIP", "IDIOM_COST"]:
    ENV.pop(var, None)
# IDIOM_ZERO_COPY=off: the checks below count the bytes copied (on PoCL's
# host-unified memory the runtime would copy none: runtime/README.md).
ENV.update(IDIOM_CACHE_DIR="off", IDIOM_DEVICE="cpu", IDIOM_ZERO_COPY="off",
           POCL_CACHE_DIR=os.path.join(WORK, "pocl-cache"))


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, env=ENV):
    p = subprocess.run(cmd, cwd=WORK, env=env, capture_output=True)
    if p.returncode != 0:
        fail("%s: exit status %d\n%s%s" % (cmd, p.returncode,
                                             p.stdout.decode(errors="replace"),
                                             p.stderr.decode(errors="replace")))
    return p.stdout.decode(), p.stderr


def line_of(marker):
    with open(os.path.join(SRC, "test", "driver", "Inputs",
                           "stats_prog.c")) as f:
        for n, text in enumerate(f, 1):
            if marker in text:
                return n
    fail("no line with " + marker)


# A source name with a quote, a backslash and the byte 0xff.
odd = os.fsencode(WORK) + b'/we"ird\\name\xff.c'
shutil.copy(os.path.join(SRC, "test", "driver", "Inputs", "stats_prog.c"),
            odd)
run([os.fsencode(CC), b"-O2", b"-gline-tables-only", odd, b"-o",
     b"stats_prog"])

out, err = run(["./stats_prog"], env=dict(ENV, IDIOM_STATS="json"))
if "stats_prog: 0 wrong" not in out:
    fail("wrong output: " + out)
try:
    doc = json.loads(err.decode("utf-8"))  # the whole of stderr: one document
except (ValueError, UnicodeDecodeError) as e:
    fail("stderr is not one JSON document (%s):\n%s" % (e, err))

# Top level.
for key, kind in [("idiom_stats_version", int), ("program", str),
                  ("device", str), ("sites", list), ("totals", dict),
                  ("residency", dict), ("device_preference", str),
                  ("cost_model", bool), ("pid", int)]:
    if not isinstance(doc.get(key), kind):
        fail("top-level %s is not %s: %r" % (key, kind.__name__, doc.get(key)))
if doc["idiom_stats_version"] != 1:
    fail("idiom_stats_version %r" % doc["idiom_stats_version"])
if not doc["program"].endswith("stats_prog"):
    fail("program %r" % doc["program"])
if doc["device_preference"] != "cpu" or doc["cost_model"]:
    fail("IDIOM_DEVICE=cpu: preference %r, cost model %r" %
         (doc["device_preference"], doc["cost_model"]))

# Sites: file names escaped and U+FFFD for the invalid byte.
name = 'we"ird\\name\ufffd.c'
sites = {s["site"]: s for s in doc["sites"]}
big = sites.get("%s:%d" % (name, line_of("BIG_LOOP")))
small = sites.get("%s:%d" % (name, line_of("SMALL_LOOP")))
if not big or not small or len(sites) != len(doc["sites"]):
    fail("sites: %r" % list(sites))
fields = {"site": str, "idiom": str, "calls": int, "offloaded": int,
          "device": str, "kernel_ms": (int, float), "transfer_ms": (int, float),
          "run_ms": (int, float), "fallbacks": int, "tune_ms": (int, float), "decisions": dict,
          "reasons": dict, "bytes_in": int, "bytes_out": int, "cost": list,
          "tuning_classes": list}
for s in doc["sites"]:
    for key, kind in fields.items():
        if not isinstance(s.get(key), kind):
            fail("site %s: %s is %r" % (s["site"], key, s.get(key)))
    if not isinstance(s.get("host_runs"), int) or \
            (s["host_runs"] > 0) != (s["host_ms"] is not None):
        fail("site %s: host_runs %r with host_ms %r" %
             (s["site"], s.get("host_runs"), s.get("host_ms")))
    for key in ("variants", "tuning", "host_ms"):
        if key not in s:
            fail("site %s has no %s" % (s["site"], key))
if big["idiom"] != "map" or small["idiom"] != "map":
    fail("idioms: %r %r" % (big["idiom"], small["idiom"]))
if (big["calls"], big["offloaded"], big["fallbacks"]) != (3, 3, 0):
    fail("big map: calls %d offloaded %d fallbacks %d" %
         (big["calls"], big["offloaded"], big["fallbacks"]))
if big["bytes_in"] < 3 * 65536 * 4 or big["bytes_out"] < 3 * 65536 * 4:
    fail("big map bytes: in %d out %d" % (big["bytes_in"], big["bytes_out"]))
if big["device"] != doc["device"] or big["kernel_ms"] <= 0:
    fail("big map device %r kernel_ms %r" % (big["device"], big["kernel_ms"]))
if big["decisions"] != {"device-forced": 3}:
    fail("big map decisions (cost model off): %r" % big["decisions"])
if (small["calls"], small["offloaded"], small["fallbacks"]) != (2, 0, 2):
    fail("small map: calls %d offloaded %d fallbacks %d" %
         (small["calls"], small["offloaded"], small["fallbacks"]))
if small["reasons"] != {"work below threshold": 2}:
    fail("small map reasons: %r" % small["reasons"])

# Totals are the sums over the sites (main's own loops are sites too).
t = doc["totals"]
for key in ("calls", "offloaded", "fallbacks", "bytes_in", "bytes_out"):
    if t[key] != sum(s[key] for s in doc["sites"]):
        fail("totals.%s %r is not the sum over the sites" % (key, t[key]))
if t["sites"] != len(doc["sites"]) or abs(t["kernel_ms"] - sum(
        s["kernel_ms"] for s in doc["sites"])) > 0.001 * len(doc["sites"]):
    fail("totals: %r" % t)

# The text report of a run with the same settings shows the same counts.
_, text = run(["./stats_prog"], env=dict(ENV, IDIOM_STATS="1"))
text = text.decode("utf-8", errors="replace")
counts = []
for l in text.splitlines():
    m = re.match(r"idiom-stats: .* calls=(\d+) offloaded=(\d+) .*"
                 r"fallbacks=(\d+).* bytes_in=(\d+) bytes_out=(\d+)$", l)
    if m:
        counts.append(tuple(int(x) for x in m.groups()))
want = sorted((s["calls"], s["offloaded"], s["fallbacks"], s["bytes_in"],
               s["bytes_out"]) for s in doc["sites"])
if sorted(counts) != want:
    fail("text report %r != JSON %r\n%s" % (counts, want, text))
if "{" in text:
    fail("IDIOM_STATS=1 wrote JSON:\n" + text)

# IDIOM_STATS=FILE.json, with %p: the file, nothing on stderr.
_, err = run(["./stats_prog"],
             env=dict(ENV, IDIOM_STATS=os.path.join(WORK, "s-%p.json")))
files = [f for f in os.listdir(WORK) if re.match(r"s-\d+\.json$", f)]
if len(files) != 1 or err.strip():
    fail("IDIOM_STATS=FILE.json: files %r, stderr %r" % (files, err))
with open(os.path.join(WORK, files[0])) as f:
    fdoc = json.load(f)
if fdoc["totals"]["calls"] != t["calls"] or fdoc["pid"] != int(files[0][2:-5]):
    fail("file report: %r" % fdoc["totals"])
# An unwritable file: a message, the program's status unchanged.
p = subprocess.run(["./stats_prog"], cwd=WORK, capture_output=True, text=True,
                   env=dict(ENV, IDIOM_STATS="/no/such/dir/s.json"))
if p.returncode != 0 or "IDIOM_STATS: cannot write" not in p.stderr:
    fail("unwritable file: status %d, stderr %r" % (p.returncode, p.stderr))

shutil.rmtree(WORK, ignore_errors=True)
print("PASS")
