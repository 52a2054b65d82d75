#!/usr/bin/env python3
"""idiom-report on the hand-written inputs of test/report/Inputs.

Usage: report_test.py REPORT INPUTS_DIR CASE

REPORT is build/bin/idiom-report. CASE:
  rows     the Markdown table: offloaded or not, reasons, calls, times,
           speed-up; loop-idiom's and other passes' remarks left out
  html     the HTML page has the same rows and refers to its plots
  plots    the plots are SVG documents with a bar per timed site
  order    the inputs in another order give the same report
  stderr   the JSON document amid a program's messages on stderr
  estimate a runtime without host_runs: the cost model's host estimate
  errors   unreadable and malformed inputs: FILE[:LINE] message, status 1,
           no traceback
  garbled  100 randomly damaged inputs: a report or such an error
  help     --help shows the usage; no FILE is a usage error
"""
import html
import html.parser
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

REPORT, INPUTS, CASE = os.path.abspath(sys.argv[1]), \
    os.path.abspath(sys.argv[2]), sys.argv[3]
WORK = tempfile.mkdtemp(prefix="idiom-report-")
FILES = [os.path.join(INPUTS, f) for f in
         ("records.opt.yaml", "stats.json", "stats-forced.json")]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def report(args, status=0):
    p = subprocess.run([sys.executable, REPORT] + args, cwd=WORK,
                       capture_output=True, text=True)
    if p.returncode != status:
        fail("idiom-report %s: status %d, not %d\n%s%s" %
             (" ".join(args), p.returncode, status, p.stdout, p.stderr))
    if "Traceback" in p.stderr:
        fail("idiom-report %s: a traceback\n%s" % (" ".join(args), p.stderr))
    return p


def md_rows(path):
    """The rows of the Markdown 'Source loops' table as dicts by header."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = lines.index("## Source loops")
    table = [l for l in lines[start:] if l.startswith("| ") and
             not l.startswith("| ---")]
    split = lambda l: [html.unescape(c.strip().replace("\\|", "|"))
                       for c in l.strip("| ").split(" | ")]
    head = split(table[0])
    rows = {}
    for l in table[1:]:
        cells = split(l)
        if len(cells) != len(head):
            fail("row with %d cells, not %d: %s" % (len(cells), len(head), l))
        row = dict(zip(head, cells))
        rows[row["Loop"]] = row
    return rows


class Cells(html.parser.HTMLParser):
    """Rows of the HTML table (cell text) and the img sources."""
    def __init__(self):
        super().__init__()
        self.rows, self.imgs, self.cell = [], [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "li" and self.cell and self.cell[-1] != "; ":
            self.cell.append("; ")
        elif tag == "img":
            self.imgs.append(dict(attrs)["src"])

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.rows[-1].append("".join(self.cell).strip("; ").strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def html_rows(path):
    p = Cells()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    head = p.rows[0]
    return {r[0]: dict(zip(head, r)) for r in p.rows[1:]}, p.imgs


def expect(rows, loop, **want):
    if loop not in rows:
        fail("no row %r in %r" % (loop, sorted(rows)))
    for key, value in want.items():
        key = key.replace("_", " ").replace("Speed up", "Speed-up")
        got = rows[loop][key]
        if callable(value):
            if not value(got):
                fail("%s %s: %r" % (loop, key, got))
        elif got != value:
            fail("%s %s: %r, not %r" % (loop, key, got, value))


def check_rows(rows):
    # Only Idiom's loops: loop-idiom (line 50), gvn (70) and the !Failure
    # remark (80) are not rows; nor is loop-idiom's text on line 30.
    want = {"prog.c:10:3", "prog.c:20:3", "prog.c:30:3", "prog.c:40:5",
            "prog.c:60:3",
            "other.c:7", "(no location) map #1", "(no location) in nodebug"}
    if set(rows) != want:
        fail("rows %r, not %r" % (sorted(rows), sorted(want)))
    if any("LOOP-IDIOM" in c for r in rows.values() for c in r.values()):
        fail("a loop-idiom remark shows")
    # Offloaded (2 inlined copies; a third copy missed); 4 calls, 3 on the
    # device: (3 + 1.5) / 3 = 1.5 ms per device call, 2.0 ms per timed host
    # run: 1.33x.
    expect(rows, "prog.c:10:3", Function="scale, main", Idiom="map",
           Compiled="offloaded", Calls="4", On_device="3", Device_ms="3.00",
           Transfer_ms="1.50", Host_ms="2.00", Speed_up="1.33×",
           **{"Why not / notes": "also missed: a pointer argument may alias "
              "(stage: stitch); 2 inlined copies; ran on the host: cost "
              "model: measuring the host loop ×1"})
    # Two runs add up: 10 calls, 5 on the device (1.25 ms: 0.25 per call),
    # host 0.5 ms over 5 runs (0.1 per run): 0.40x. The FPReassociation
    # analysis does not make it "not offloaded"; the idiom is the stats'.
    expect(rows, "prog.c:20:3", Compiled="offloaded", Idiom="scalar-reduction",
           Calls="10", On_device="5", Device_ms="0.500", Transfer_ms="0.750",
           Host_ms="0.500", Speed_up="0.40×",
           **{"Why not / notes": lambda s: "host faster ×4" in s})
    # Not offloaded: the structured Atom, Reason and Stage of idiom-offload.
    expect(rows, "prog.c:30:3", Compiled="not offloaded",
           Idiom="scalar-reduction", Calls="—", Device_ms="—",
           Speed_up="n/a (not offloaded)",
           **{"Why not / notes": "PureCall(c): call may have side effects"})
    expect(rows, "prog.c:60:3", Compiled="not offloaded", Idiom="map",
           **{"Why not / notes": "the kernel uses more than 8 buffers "
              "(stage: lift)"})
    # The message without the extra arguments (Site, a trailing
    # InlinedCopies).
    expect(rows, "prog.c:40:5", Compiled="not offloaded",
           Speed_up="n/a (not offloaded)",
           **{"Why not / notes": "offloadable map (<builtin>/map.idl), not "
              "offloaded (-idiom-detect-only)"})
    # Only in the statistics: shown, no compile-time verdict, no host time.
    expect(rows, "other.c:7", Compiled="—", Idiom="histogram", Calls="2",
           On_device="2", Device_ms="1.00", Transfer_ms="1.00", Host_ms="—",
           Speed_up=lambda s: s.startswith("n/a (host loop not timed"))
    expect(rows, "(no location) map #1", Calls="1", Device_ms="0.250")
    # A remark without DebugLoc (no -g): a row for its function.
    expect(rows, "(no location) in nodebug", Compiled="not offloaded",
           **{"Why not / notes": "loop is not an idiom (no debug location)"})


def main():
    if CASE == "rows":
        report(["-o", "r.md"] + FILES)
        check_rows(md_rows(os.path.join(WORK, "r.md")))
        with open(os.path.join(WORK, "r.md"), encoding="utf-8") as f:
            if "<builtin>" in f.read():
                fail("Markdown with '<' unescaped (read as HTML)")
    elif CASE == "html":
        p = report(["-o", os.path.join(WORK, "sub", "r")] + FILES, status=1)
        if "cannot write" not in p.stderr:
            fail("no directory: %r" % p.stderr)
        os.mkdir(os.path.join(WORK, "sub"))
        report(["-o", os.path.join(WORK, "sub", "r")] + FILES)
        rows, imgs = html_rows(os.path.join(WORK, "sub", "r.html"))
        check_rows(rows)
        if imgs != ["r-times.svg", "r-outcomes.svg"]:
            fail("img sources %r" % imgs)
        for i in imgs:
            if not os.path.isfile(os.path.join(WORK, "sub", i)):
                fail("no plot " + i)
    elif CASE == "plots":
        report(["-o", "p.html"] + FILES)
        ns = "{http://www.w3.org/2000/svg}"
        trees = {}
        for name in ("p-times.svg", "p-outcomes.svg"):
            try:
                trees[name] = ET.parse(os.path.join(WORK, name)).getroot()
            except (OSError, ET.ParseError) as e:
                fail("%s: %s" % (name, e))
            if trees[name].tag != ns + "svg":
                fail("%s: root %s" % (name, trees[name].tag))
        # A host bar for the 2 sites with a host time, kernel bars for the 4
        # that ran on the device; the speed-ups as labels.
        tips = [t.text for t in trees["p-times.svg"].iter(ns + "title")]
        if sum(t.startswith("host ") for t in tips) != 2 or \
           sum(t.startswith("kernel ") for t in tips) != 4:
            fail("times plot bars: %r" % tips)
        texts = [t.text for t in trees["p-times.svg"].iter(ns + "text")]
        if "1.33×" not in texts or "0.40×" not in texts:
            fail("times plot labels: %r" % texts)
        # Outcomes: 2 offloaded, 1 per failing atom / remark, 2 without
        # records.
        tips = sorted(t.text for t in trees["p-outcomes.svg"].iter(
            ns + "title"))[1:]
        want = sorted(["offloaded: 2", "not offloaded: PureCall: 1",
                       "not offloaded: DetectOnly: 1",
                       "not offloaded: NotAnIdiom: 1",
                       "not offloaded: NotOffloaded: 1",
                       "no record (statistics only): 2"])
        if tips != want:
            fail("outcomes plot %r, not %r" % (tips, want))
    elif CASE == "order":
        outs, plots = [], []
        for i, files in enumerate([FILES, FILES[::-1],
                                   [FILES[1], FILES[0], FILES[2]]]):
            report(["-o", "o%d.md" % i] + files)
            outs.append(md_rows(os.path.join(WORK, "o%d.md" % i)))
            plots.append([])
            for name in ("times", "outcomes"):
                with open(os.path.join(WORK, "o%d-%s.svg" % (i, name))) as f:
                    plots[-1].append(f.read())
        if outs[1] != outs[0] or outs[2] != outs[0]:
            fail("the order of the inputs changes the table")
        if plots[1] != plots[0] or plots[2] != plots[0]:
            fail("the order of the inputs changes the plots")
        check_rows(outs[1])
    elif CASE == "stderr":
        # IDIOM_STATS=json captured with the program's messages around it.
        with open(FILES[1]) as f:
            doc = f.read()
        with open(os.path.join(WORK, "run.err"), "w") as f:
            f.write("prog: starting\nidiom: a warning\n" + doc +
                    "prog: done\n")
        report(["-o", "s.md", FILES[0], "run.err", FILES[2]])
        check_rows(md_rows(os.path.join(WORK, "s.md")))
    elif CASE == "estimate":
        # A runtime that does not count the timed host runs: the cost
        # model's per-call estimate (3000 us) against 1.5 ms: 2.00x (est.).
        with open(FILES[1]) as f:
            doc = json.load(f)
        for s in doc["sites"]:
            s.pop("host_runs", None)
        with open(os.path.join(WORK, "old.json"), "w") as f:
            json.dump(doc, f)
        report(["-o", "e.md", FILES[0], "old.json"])
        rows = md_rows(os.path.join(WORK, "e.md"))
        expect(rows, "prog.c:10:3", Speed_up="2.00× (est.)", Host_ms="2.00")
        expect(rows, "prog.c:20:3",
               Speed_up="n/a (never ran on the device (cost model: host "
               "faster))")
    elif CASE == "errors":
        bad = {
            "tab.opt.yaml": ("--- !Passed\nPass: idiom\nName: X\n"
                             "Args:\n  - String: 'a\n...\n", ":6: malformed YAML"),
            "nopass.opt.yaml": ("--- !Passed\nPass: gvn\nName: A\n...\n"
                                "--- !Missed\nName: B\n...\n",
                                ":5: remark without Pass"),
            "untagged.yaml": ("--- !Passed\nPass: idiom\nName: A\n...\n"
                              "---\n- 1\n- 2\n", ":5: not an optimization"),
            "args.opt.yaml": ("--- !Passed\nPass: idiom\nName: A\n"
                              "Args: 3\n...\n", ":1: Args is not a list"),
            "comma.json": ('{"idiom_stats_version": 1,\n "sites": [],\n}\n',
                           ":3:1: malformed JSON"),
            "other.json": ('{"a": 1}\n', ": not an IDIOM_STATS document"),
            "v2.json": ('{"idiom_stats_version": 2, "sites": []}\n',
                        ": idiom_stats_version 2 is not supported"),
            "site.json": ('{"idiom_stats_version": 1, "sites": [{"site": '
                          '"a.c:1", "calls": "many"}]}\n',
                          ": sites[0]: 'calls' is not a number"),
            "text.txt": ("hello\n", ": neither optimization records"),
            "latin1.json": (b'{"idiom_stats_version": 1,\n"x": "\xe9"}',
                            ":2: not UTF-8"),
        }
        for name, (text, want) in bad.items():
            path = os.path.join(WORK, name)
            with open(path, "wb") as f:
                f.write(text if isinstance(text, bytes) else text.encode())
            # A bad file among good ones, in any place: nothing is written.
            p = report(["-o", "x.html", FILES[0], path, FILES[1]], status=1)
            if not p.stderr.startswith("idiom-report: " + path + want):
                fail("%s: %r does not start with %r" %
                     (name, p.stderr, path + want))
            if os.path.exists(os.path.join(WORK, "x.html")):
                fail(name + ": a report was written")
        p = report(["/no/such/file.json"], status=1)
        if "idiom-report: /no/such/file.json: cannot read" not in p.stderr:
            fail("missing file: %r" % p.stderr)
        # An empty record file (no remarks) is a valid input.
        open(os.path.join(WORK, "empty.opt.yaml"), "w").close()
        report(["-o", "empty.md", "empty.opt.yaml"])
    elif CASE == "garbled":
        # Bytes of the inputs changed, cut or added (a fixed seed): a report
        # or an error, never a traceback (report() checks).
        rnd = random.Random(15)
        for i in range(100):
            name = FILES[i % 2]
            with open(name, "rb") as f:
                data = bytearray(f.read())
            for _ in range(rnd.randint(1, 4)):
                pos = rnd.randrange(len(data))
                op = rnd.randint(0, 2)
                if op == 0:
                    data[pos] = rnd.choice(b'{}[]:,-"\' \n!0a\t9.')
                elif op == 1:
                    del data[pos:pos + rnd.randint(1, 20)]
                else:
                    data[pos:pos] = bytes(rnd.choice(b'{}[]:,-"\' \n!0a')
                                          for _ in range(rnd.randint(1, 5)))
            path = os.path.join(WORK, os.path.basename(name))
            with open(path, "wb") as f:
                f.write(data)
            p = subprocess.run([sys.executable, REPORT, "-o", "g.md", path],
                               cwd=WORK, capture_output=True, text=True)
            if p.returncode not in (0, 1) or "Traceback" in p.stderr or \
               (p.returncode == 1 and not p.stderr.startswith(
                   "idiom-report: " + path)):
                fail("garbled %s (try %d): status %d\n%s" %
                     (name, i, p.returncode, p.stderr))
    elif CASE == "help":
        p = report(["--help"])
        for word in ("usage: idiom-report [-o OUT]", "OUT.md", "IDIOM_STATS",
                     "-fsave-optimization-record", "speed-up"):
            if word not in p.stdout:
                fail("--help lacks %r:\n%s" % (word, p.stdout))
        p = report([], status=2)
        if "usage: idiom-report" not in p.stderr:
            fail("no usage without FILE: %r" % p.stderr)
    else:
        fail("unknown case " + CASE)
    shutil.rmtree(WORK, ignore_errors=True)
    print("PASS")


main()
