#!/usr/bin/env python3
"""idiom-report on a real compile and two real runs on PoCL.

Usage: report_e2e_test.py BIN_DIR SOURCE_DIR

Compiles test/report/Inputs/report_prog.c with BIN_DIR/idiom-cc and
-fsave-optimization-record, runs it with IDIOM_DEVICE=cpu once with the
cost model off (every call on the device) and once with it on (it times
the host loop), and checks the report of the three files: the map in
scale() offloaded, 8 calls of which 4 on the device, with a speed-up; the
recurrence in smooth() not offloaded, with the failing atom; loop-idiom's
memset loop not shown; an HTML page with its two SVG plots.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BIN, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
PROG = os.path.join(SRC, "test", "report", "Inputs", "report_prog.c")
WORK = tempfile.mkdtemp(prefix="idiom-report-e2e-")
ENV = dict(os.environ)
for var in ["IDIOM_DEVICE", "IDIOM_STATS", "IDIOM_MIN_TRIP", "IDIOM_COST"]:
    ENV.pop(var, None)
ENV.update(IDIOM_CACHE_DIR="off", IDIOM_DEVICE="cpu",
           POCL_CACHE_DIR=os.path.join(WORK, "pocl-cache"))


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, **env):
    p = subprocess.run(cmd, cwd=WORK, env=dict(ENV, **env),
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail("%s: exit status %d\n%s%s" % (cmd, p.returncode, p.stdout,
                                           p.stderr))
    return p


def line_of(marker):
    with open(PROG) as f:
        for n, text in enumerate(f, 1):
            if marker in text:
                return n
    fail("no line with " + marker)


run([os.path.join(BIN, "idiom-cc"), "-O2", "-g",
     "-fsave-optimization-record",
     "-foptimization-record-file=prog.opt.yaml", PROG, "-o", "prog"])
with open(os.path.join(WORK, "prog.opt.yaml")) as f:
    records = f.read()
if not re.search(r"^Pass: +loop-idiom$", records, re.M):
    fail("loop-idiom left no remark to ignore")
for cost, out in (("off", "device.json"), ("on", "host.json")):
    p = run(["./prog"], IDIOM_COST=cost, IDIOM_STATS=out)
    if "report_prog: 0 wrong" not in p.stdout:
        fail("wrong output: " + p.stdout)

os.mkdir(os.path.join(WORK, "out"))
p = run([sys.executable, os.path.join(BIN, "idiom-report"), "-o", "out/r",
         "host.json", "prog.opt.yaml", "device.json"])
page = os.path.join(WORK, "out", "r.html")
for plot in ("r-times.svg", "r-outcomes.svg"):
    try:
        root = ET.parse(os.path.join(WORK, "out", plot)).getroot()
    except (OSError, ET.ParseError) as e:
        fail("%s: %s" % (plot, e))
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        fail("%s is not SVG: %s" % (plot, root.tag))
with open(page, encoding="utf-8") as f:
    text = f.read()
if '<img src="r-times.svg"' not in text:
    fail("the page does not show its plot")
# The rows, cell texts by column (the test of the table itself is
# report_test.py's; here the facts of the run).
rows = {}
for tr in re.findall(r"<tr>(.*?)</tr>", text, re.S):
    cells = [re.sub(r"<[^>]+>", " ", c).strip()
             for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
    rows[cells[0]] = cells
head = rows.pop("Loop")
col = {h: i for i, h in enumerate(head)}


def row(marker):
    want = "report_prog.c:%d:" % line_of(marker)
    found = [r for k, r in rows.items() if k.startswith(want)]
    if len(found) != 1:
        fail("rows for %s: %r" % (want, sorted(rows)))
    return found[0]


m = row("MAP_LOOP")
if m[col["Compiled"]] != "offloaded" or m[col["Idiom"]] != "map":
    fail("map loop: %r" % m)
if m[col["Calls"]] != "8" or m[col["On device"]] != "4":
    fail("map loop: 4 calls in each run, 4 on the device: %r" % m)
if float(m[col["Device ms"]]) <= 0 or m[col["Host ms"]] in ("—", "0"):
    fail("map loop times: %r" % m)
# host_runs counts the timed host runs: a measured speed-up, not the
# cost model's estimate.
sp = m[col["Speed-up"]]
if not re.fullmatch(r"\d+\.\d\d×", sp):
    fail("map loop speed-up %r" % sp)
s = row("CARRIED_LOOP")
if s[col["Compiled"]] != "not offloaded" or \
   "NoLoopCarriedDependence" not in s[col["Why not / notes"]] or \
   s[col["Speed-up"]] != "n/a (not offloaded)":
    fail("recurrence: %r" % s)
# One row per line of Idiom's remarks, none for loop-idiom's.
lines = {"idiom": set(), "loop-idiom": set()}
for doc in re.split(r"^--- ", records, flags=re.M)[1:]:
    pas = re.search(r"^Pass: +(\S+)", doc, re.M).group(1)
    if pas == "loop-idiom" or pas.startswith("idiom"):
        key = "idiom" if pas.startswith("idiom") else pas
        lines[key].add(int(re.search(r"Line: +(\d+)", doc).group(1)))
shown = {int(k.split(":")[1]) for k in rows}
if shown != lines["idiom"] or not lines["loop-idiom"] - shown:
    fail("rows on lines %r; Idiom's remarks %r, loop-idiom's %r" %
         (sorted(shown), sorted(lines["idiom"]), sorted(lines["loop-idiom"])))
shutil.rmtree(WORK, ignore_errors=True)
print("PASS")
