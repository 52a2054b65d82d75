#!/usr/bin/env python3
"""idiom-report: a table of source loops from Idiom's optimization records
and IDIOM_STATS JSON files.

Reads, in any order, the YAML written by -fsave-optimization-record (only
the remarks of Idiom's pass: "idiom" or a name starting with "idiom", never
LLVM's "loop-idiom") and the JSON written by IDIOM_STATS=json or
IDIOM_STATS=FILE.json. Joins them per source loop (file name without
directory, and line) and writes OUT.html or OUT.md with SVG plots beside it
(OUT-times.svg, OUT-outcomes.svg). Needs Python 3 and PyYAML (Debian:
python3-yaml); the SVG is written here, no plotting library.
"""
import argparse
import html
import json
import math
import os
import re
import sys

USAGE_EPILOG = """\
inputs:
  FILE.opt.yaml   optimization records: idiom-cc -O2 -g -fsave-optimization-record
                  -foptimization-record-file=FILE.opt.yaml prog.c -o prog
  FILE.json       run statistics: IDIOM_STATS=FILE.json ./prog, or a capture
                  of IDIOM_STATS=json ./prog 2> FILE (other lines around
                  the document are skipped)
  Files are told apart by their content (or a .json, .yaml name). Several
  runs of one program add up: for example one with IDIOM_COST=off for the
  device times and one with the cost model on, which times the host loop.

output:
  OUT.html (default idiom-report.html; .html is added to an OUT without
  .html or .md) or OUT.md when OUT ends in .md, and OUT-times.svg (per call: host vs. device+transfer) and OUT-outcomes.svg
  (loops by outcome) beside it. Per source loop: offloaded or not and why
  not, calls, device, transfer and host time, and the speed-up of the call
  site (host time per timed host run / (kernel + transfer time) per device
  call). Loops meet their statistics at file name (no directory) and line.

exit status: 0 on success, 1 on unreadable or malformed input, 2 on usage
errors.
"""


class InputError(Exception):
    """A problem with an input file, reported as 'FILE[:LINE]: message'."""


# ----------------------------------------------------------------------------
# Optimization records (YAML)

def is_idiom_pass(name):
    """Idiom's own pass ("idiom", "idiom-offload", ...), not LLVM's loop-idiom."""
    return isinstance(name, str) and name.startswith("idiom")


def yaml_loader():
    try:
        import yaml
    except ImportError:
        raise InputError("reading optimization records needs PyYAML "
                         "(Debian: apt-get install python3-yaml)")
    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):
        pass

    def tagged(loader, suffix, node):
        # LLVM's tags (!Passed, !Missed, !Analysis, ...) and any other.
        if isinstance(node, yaml.MappingNode):
            value = loader.construct_mapping(node, deep=True)
            value["_kind"] = suffix
            value["_line"] = node.start_mark.line + 1
            return value
        if isinstance(node, yaml.SequenceNode):
            return loader.construct_sequence(node, deep=True)
        return loader.construct_scalar(node)

    Loader.add_multi_constructor("!", tagged)
    return yaml, Loader


DOC_START = re.compile(r"^---(\s|$)")
PASS_LINE = re.compile(r"^Pass:\s*['\"]?([^'\"\s]*)")


def split_documents(text):
    """(first line number, text) of each '---' document of a YAML stream."""
    docs, start, cur = [], 1, []
    for n, line in enumerate(text.splitlines(True), 1):
        if DOC_START.match(line) and cur:
            docs.append((start, "".join(cur)))
            start, cur = n, []
        cur.append(line)
    if cur:
        docs.append((start, "".join(cur)))
    return docs


def arg_text(value):
    if isinstance(value, (dict, list)):
        return ""
    return "" if value is None else str(value)


def read_records(path, text):
    """The remarks of Idiom's pass in one record file, as dicts."""
    yaml, Loader = yaml_loader()
    remarks = []
    for first, doc in split_documents(text):
        if not doc.strip() or doc.strip() in ("---", "...") or \
           doc.lstrip().startswith("%"):
            continue
        # Only Idiom's documents are parsed: a record file holds thousands
        # of other passes' remarks.
        m = next((PASS_LINE.match(l) for l in doc.splitlines()
                  if PASS_LINE.match(l)), None)
        if m and not is_idiom_pass(m.group(1)):
            continue
        try:
            values = [v for v in yaml.load_all(doc, Loader=Loader)
                      if v is not None]
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None) or \
                getattr(e, "context_mark", None)
            line = first + mark.line if mark else first
            problem = getattr(e, "problem", None) or str(e).splitlines()[0]
            raise InputError("%s:%d: malformed YAML: %s" % (path, line, problem))
        for v in values:
            line = first + v.get("_line", 1) - 1 if isinstance(v, dict) \
                else first
            if not isinstance(v, dict) or "_kind" not in v:
                raise InputError("%s:%d: not an optimization record (a remark "
                                 "is a tagged mapping such as '--- !Passed')"
                                 % (path, line))
            if "Pass" not in v:
                raise InputError("%s:%d: remark without Pass" % (path, line))
            kind = remark_kind(v["_kind"])
            if is_idiom_pass(v["Pass"]) and kind:
                remarks.append(remark_of(path, line, v, kind))
    return remarks


# Arguments of Idiom's remarks that are never part of the message, and
# those that are not when they come after its last text.
EXTRA_ARGS = {"Site", "Stage", "ErrnoCheck"}
TRAILING_ARGS = {"InlinedCopies"}


def remark_kind(tag):
    """Passed, Missed or Analysis (also LLVM's AnalysisFPCommute and
    AnalysisAliasing); None for other tags, which are ignored."""
    if tag in ("Passed", "Missed"):
        return tag
    return "Analysis" if tag.startswith("Analysis") else None


def remark_of(path, line, v, kind):
    """Kind, name, location, message and the structured args of a remark."""
    loc = v.get("DebugLoc") or {}
    if not isinstance(loc, dict):
        raise InputError("%s:%d: DebugLoc is not a mapping" % (path, line))
    args = v.get("Args") or []
    if not isinstance(args, list):
        raise InputError("%s:%d: Args is not a list" % (path, line))
    pairs, named = [], {}
    for a in args:
        if not isinstance(a, dict):
            raise InputError("%s:%d: an element of Args is not a mapping"
                             % (path, line))
        for key, value in a.items():
            if key == "DebugLoc":
                continue
            pairs.append((key, arg_text(value)))
            if key != "String":
                named.setdefault(key, arg_text(value))
            break  # the first key is the argument; DebugLoc may follow
    # The message as clang prints it: without the arguments that follow the
    # text (LLVM's "extra" arguments, which the YAML does not mark).
    last = max([i for i, (k, _) in enumerate(pairs) if k == "String"] + [-1])
    text = [v for i, (k, v) in enumerate(pairs)
            if k not in EXTRA_ARGS and (i < last or k == "String" or
                                        k not in TRAILING_ARGS)]
    try:
        lineno = int(loc.get("Line", 0) or 0)
        col = int(loc.get("Column", 0) or 0)
    except (TypeError, ValueError):
        raise InputError("%s:%d: DebugLoc Line or Column is not a number"
                         % (path, line))
    return {
        "kind": kind, "pass": v["Pass"], "name": str(v.get("Name", "")),
        "file": str(loc.get("File", "") or ""), "line": lineno, "col": col,
        "function": str(v.get("Function", "") or ""),
        "message": "".join(text).strip(), "args": named,
        "where": "%s:%d" % (path, line),
    }


# ----------------------------------------------------------------------------
# Run statistics (JSON)

STATS_START = re.compile(r'^\{\s*"idiom_stats_version"', re.M)


def read_stats(path, text):
    try:
        doc = json.loads(text)
    except ValueError as e:
        # IDIOM_STATS=json writes to stderr: a capture of it may hold the
        # program's own messages around the document.
        doc = None
        for m in STATS_START.finditer(text):
            try:
                doc = json.JSONDecoder().raw_decode(text, m.start())[0]
                break
            except ValueError:
                pass
        if doc is None:
            where = "%s:%d:%d" % (path, e.lineno, e.colno) \
                if hasattr(e, "lineno") else path
            raise InputError("%s: malformed JSON: %s"
                             % (where, getattr(e, "msg", e)))
    if not isinstance(doc, dict) or "idiom_stats_version" not in doc:
        raise InputError("%s: not an IDIOM_STATS document (no "
                         "idiom_stats_version)" % path)
    if doc["idiom_stats_version"] != 1:
        raise InputError("%s: idiom_stats_version %r is not supported (1 is)"
                         % (path, doc["idiom_stats_version"]))
    sites = doc.get("sites")
    if not isinstance(sites, list):
        raise InputError("%s: 'sites' is not a list" % path)
    out = []
    for i, s in enumerate(sites):
        where = "%s: sites[%d]" % (path, i)
        if not isinstance(s, dict):
            raise InputError(where + " is not an object")
        site = s.get("site")
        if site is not None and not isinstance(site, str):
            raise InputError(where + ": 'site' is not a string")

        def num(key, default=0, null_ok=False):
            v = s.get(key, default)
            if v is None and null_ok:
                return None
            if isinstance(v, bool) or not isinstance(v, (int, float)) or \
               not math.isfinite(v) or v < 0:
                raise InputError("%s: '%s' is not a number >= 0: %r"
                                 % (where, key, v))
            return v
        reasons = s.get("reasons") or {}
        if not isinstance(reasons, dict) or not all(
                isinstance(n, int) for n in reasons.values()):
            raise InputError(where + ": 'reasons' is not an object of counts")
        cost = s.get("cost") or []
        if not isinstance(cost, list) or not all(isinstance(c, dict)
                                                 for c in cost):
            raise InputError(where + ": 'cost' is not a list of objects")
        out.append({
            "site": site, "idiom": s.get("idiom") or "",
            "calls": num("calls"), "offloaded": num("offloaded"),
            "fallbacks": num("fallbacks"), "kernel_ms": num("kernel_ms"),
            "transfer_ms": num("transfer_ms"),
            "host_ms": num("host_ms", None, True),
            "host_runs": num("host_runs", None, True),
            "reasons": reasons, "cost": cost,
            "decisions": s.get("decisions") or {},
        })
    return {"path": path, "program": doc.get("program"),
            "device": doc.get("device"),
            "cost_model": doc.get("cost_model"), "sites": out}


def read_input(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (path, e.strerror or e))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError("%s:%d: not UTF-8 text" %
                         (path, data[:e.start].count(b"\n") + 1))
    head = text.lstrip()
    if head.startswith("{") or path.endswith(".json") or \
       STATS_START.search(text):
        return "stats", read_stats(path, text)
    if head.startswith("---") or head.startswith("%YAML") or \
       path.endswith((".yaml", ".yml")):
        return "records", read_records(path, text)
    raise InputError("%s: neither optimization records (YAML) nor "
                     "IDIOM_STATS (JSON)" % path)


# ----------------------------------------------------------------------------
# Joining per source loop

class Loop:
    def __init__(self, key):
        self.file, self.line = key
        self.cols = set()
        self.functions = []
        self.remarks = []
        self.sites = []        # stats sites (several runs, several kernels)
        self.stat_idioms = []

    def add_remark(self, r):
        if r["col"]:
            self.cols.add(r["col"])
        if r["function"] and r["function"] not in self.functions:
            self.functions.append(r["function"])
        self.remarks.append(r)

    # Compile time
    def compiled(self):
        if not self.remarks:
            return None
        return any(r["kind"] == "Passed" for r in self.remarks)

    def idiom(self):
        for r in self.remarks:
            if r["args"].get("Idiom"):
                return r["args"]["Idiom"]
        for i in self.stat_idioms:
            if i:
                return i
        return ""

    def why_not(self, kinds=("Missed", "Analysis")):
        """Unique reasons of the missed (else analysis) remarks, in order."""
        for kind in kinds:
            seen = []
            for r in self.remarks:
                if r["kind"] == kind:
                    a = r["args"]
                    text = r["message"] or r["name"]
                    if a.get("Reason"):
                        text = a["Reason"] if not a.get("Atom") else \
                            "%s: %s" % (a["Atom"], a["Reason"])
                        if a.get("Stage"):
                            text += " (stage: %s)" % a["Stage"]
                    if text not in seen:
                        seen.append(text)
            if seen:
                return seen
        return []

    def outcome(self):
        """The category of the outcome plot."""
        c = self.compiled()
        if c is None:
            return "no record (statistics only)"
        if c:
            return "offloaded"
        for kind in ("Missed", "Analysis"):
            for r in self.remarks:
                if r["kind"] == kind:
                    atom = re.sub(r"\(.*\)$", "", r["args"].get("Atom", ""))
                    return "not offloaded: " + (atom or r["name"] or "?")
        return "not offloaded"

    def inlined_copies(self):
        counts = [r["args"].get("InlinedCopies") for r in self.remarks]
        counts = [int(c) for c in counts if c and str(c).isdigit()]
        return max(counts) if counts else None

    # Run time (sums over the sites and runs)
    def total(self, key):
        return sum(s[key] for s in self.sites)

    def host_per_call(self):
        """(ms, how) of the host loop per timed run, or (None, why)."""
        timed = [s for s in self.sites if s["host_ms"] is not None]
        runs = [s for s in timed if s["host_runs"]]
        if runs and len(runs) == len(timed):
            return (sum(s["host_ms"] for s in runs) /
                    sum(s["host_runs"] for s in runs), "measured")
        # Older runtimes give no run count: the cost model's per-call
        # estimates of the size classes it timed (microseconds).
        est = [c["host_us"] for s in timed for c in s["cost"]
               if isinstance(c.get("host_us"), (int, float))]
        if est:
            return sum(est) / len(est) / 1000.0, "estimate"
        return None, "host loop not timed: add a run with the cost model on"

    def device_per_call(self):
        n = self.total("offloaded")
        if n:
            return (self.total("kernel_ms") + self.total("transfer_ms")) / n, ""
        reasons = {}
        for s in self.sites:
            for k, v in s["reasons"].items():
                reasons[k] = reasons.get(k, 0) + v
        if reasons:
            top = max(reasons, key=lambda k: reasons[k])
            return None, "never ran on the device (%s)" % top
        return None, "never ran on the device"

    def speedup(self):
        """(factor, None) or (None, why n/a)."""
        if self.compiled() is False:
            return None, "not offloaded"
        if not self.sites:
            return None, "no run statistics"
        if not self.total("calls"):
            return None, "never called"
        dev, why_dev = self.device_per_call()
        if dev is None:
            return None, why_dev
        host, why_host = self.host_per_call()
        if host is None:
            return None, why_host
        if dev <= 0:
            return None, "device time is 0"
        return host / dev, None

    def label(self):
        if self.file is None:
            return "(no location) %s" % self.line
        cols = ":" + ",".join(str(c) for c in sorted(self.cols)) \
            if self.cols else ""
        return "%s:%d%s" % (self.file, self.line, cols)


SITE = re.compile(r"^(.*?):(\d+)(?::(\d+))?$")  # file:line[:col]


def join(records, stats):
    loops = {}

    def loop(key):
        if key not in loops:
            loops[key] = Loop(key)
        return loops[key]

    # The same report whatever the order of the inputs.
    records = sorted(records, key=lambda r: (r["where"].rsplit(":", 1)[0],
                                             int(r["where"].rsplit(":", 1)[1])))
    stats = sorted(stats, key=lambda run: run["path"])
    for r in records:
        site = SITE.match(r["args"].get("Site", ""))
        if site:
            # The runtime's own name of the loop (IDIOM_STATS "site").
            key = (os.path.basename(site.group(1)), int(site.group(2)))
        elif r["file"] and r["line"]:
            key = (os.path.basename(r["file"]), r["line"])
        else:
            # No debug location (compiled without -g): one row per function.
            key = (None, "in %s" % (r["function"] or "?"))
        loop(key).add_remark(r)
    unnamed = 0
    for run in stats:
        for s in run["sites"]:
            m = SITE.match(s["site"] or "")
            if m:
                key = (os.path.basename(m.group(1)), int(m.group(2)))
            else:
                # No -g: a site per idiom of each run, unjoined.
                unnamed += 1
                key = (None, "%s #%d" % (s["idiom"] or "site", unnamed))
            lp = loop(key)
            lp.sites.append(s)
            lp.stat_idioms.append(s["idiom"])
    return sorted(loops.values(),
                  key=lambda l: (0, l.file, l.line, "") if l.file is not None
                  else (1, "", 0, l.line))


# ----------------------------------------------------------------------------
# Rendering

def fmt_ms(v):
    if v is None:
        return "—"
    if v == 0:
        return "0"
    if v >= 100:
        return "%.0f" % v
    if v >= 1:
        return "%.2f" % v
    if v >= 0.001:
        return "%.3f" % v
    return "%.2g" % v


def fmt_speedup(lp):
    f, why = lp.speedup()
    if f is None:
        return "n/a (%s)" % why
    return "%.2f×%s" % (f, " (est.)" if lp.host_per_call()[1] == "estimate"
                         else "")


def runtime_notes(lp):
    """Run-time declines: 'reason ×N', most frequent first."""
    reasons = {}
    for s in lp.sites:
        for k, v in s["reasons"].items():
            reasons[k] = reasons.get(k, 0) + v
    return ["%s ×%d" % (k, v) for k, v in
            sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))]


def row_of(lp):
    c = lp.compiled()
    status = {None: "—", True: "offloaded", False: "not offloaded"}[c]
    # An offloaded loop may have copies (or parts) that were not.
    why = lp.why_not() if c is False else \
        ["also missed: " + w for w in lp.why_not(("Missed",))] if c else []
    copies = lp.inlined_copies()
    notes = list(why)
    if copies and copies > 1:
        notes.append("%d inlined copies" % copies)
    declines = runtime_notes(lp)
    if declines:
        notes.append("ran on the host: " + ", ".join(declines))
    has = bool(lp.sites)
    host_total = [s["host_ms"] for s in lp.sites if s["host_ms"] is not None]
    return {
        "loop": lp.label(), "function": ", ".join(lp.functions),
        "idiom": lp.idiom(), "status": status, "notes": notes,
        "calls": str(lp.total("calls")) if has else "—",
        "device_calls": str(lp.total("offloaded")) if has else "—",
        "device_ms": fmt_ms(lp.total("kernel_ms")) if has else "—",
        "transfer_ms": fmt_ms(lp.total("transfer_ms")) if has else "—",
        "host_ms": fmt_ms(sum(host_total)) if host_total else "—",
        "speedup": fmt_speedup(lp),
    }


COLUMNS = [("loop", "Loop"), ("function", "Function"), ("idiom", "Idiom"),
           ("status", "Compiled"), ("notes", "Why not / notes"),
           ("calls", "Calls"), ("device_calls", "On device"),
           ("device_ms", "Device ms"), ("transfer_ms", "Transfer ms"),
           ("host_ms", "Host ms"), ("speedup", "Speed-up")]


def esc(s):
    return html.escape(str(s), quote=True)


def svg_text(x, y, s, anchor="start", size=12, extra=""):
    return ('<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s"%s>%s'
            '</text>' % (x, y, size, anchor, extra, esc(s)))


def svg_doc(width, height, body, title):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'viewBox="0 0 %d %d" font-family="sans-serif">\n'
            '<title>%s</title>\n<rect width="100%%" height="100%%" '
            'fill="white"/>\n%s\n</svg>\n'
            % (width, height, width, height, esc(title), "\n".join(body)))


def nice_max(v):
    """The smallest 1, 2 or 5 times a power of ten at or above v."""
    if v <= 0:
        return 1.0
    p = 10 ** math.floor(math.log10(v))
    for m in (1, 2, 5, 10):
        if m * p >= v * (1 - 1e-9):
            return m * p
    return 10 * p


HOST, KERNEL, TRANSFER = "#888888", "#1f77b4", "#ff7f0e"


def plot_times(loops):
    """Per call site: host ms per call vs. kernel + transfer ms per call."""
    rows = []
    for lp in loops:
        n = lp.total("offloaded") if lp.sites else 0
        kernel = lp.total("kernel_ms") / n if n else None
        transfer = lp.total("transfer_ms") / n if n else None
        host, _ = lp.host_per_call() if lp.sites else (None, "")
        if kernel is not None or host is not None:
            rows.append((lp.label(), host, kernel, transfer, lp.speedup()[0]))
    left, right, top, bar, gap = 190, 90, 50, 12, 14
    width = 760
    plot_w = width - left - right
    height = top + max(1, len(rows)) * (2 * bar + gap) + 50
    vmax = nice_max(max([r[1] or 0 for r in rows] +
                        [(r[2] or 0) + (r[3] or 0) for r in rows] + [0]))
    body = [svg_text(width / 2, 20, "Time per call (ms): host loop vs. "
                     "device (kernel + transfer)", "middle", 14,
                     ' font-weight="bold"')]
    # legend
    for i, (name, color) in enumerate([("host", HOST), ("kernel", KERNEL),
                                       ("transfer", TRANSFER)]):
        x = left + i * 110
        body.append('<rect x="%d" y="30" width="12" height="12" fill="%s"/>'
                    % (x, color))
        body.append(svg_text(x + 16, 40, name))
    axis_y = height - 40
    for i in range(6):
        x = left + plot_w * i / 5
        body.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                    'stroke="#dddddd"/>' % (x, top - 4, x, axis_y))
        body.append(svg_text(x, axis_y + 15, "%g" % round(vmax * i / 5, 9),
                             "middle", 11))
    body.append(svg_text(left + plot_w / 2, axis_y + 32, "ms per call",
                         "middle", 11))
    if not rows:
        body.append(svg_text(left + plot_w / 2, top + 12,
                             "no timed calls in the inputs", "middle"))
    scale = plot_w / vmax
    for i, (label, host, kernel, transfer, sp) in enumerate(rows):
        y = top + i * (2 * bar + gap)
        body.append(svg_text(left - 8, y + bar + 4, label, "end", 11))
        if host is not None:
            body.append('<rect x="%d" y="%d" width="%.2f" height="%d" '
                        'fill="%s"><title>host %s ms</title></rect>'
                        % (left, y, host * scale, bar, HOST, fmt_ms(host)))
        if kernel is not None:
            body.append('<rect x="%d" y="%d" width="%.2f" height="%d" '
                        'fill="%s"><title>kernel %s ms</title></rect>'
                        % (left, y + bar, kernel * scale, bar, KERNEL,
                           fmt_ms(kernel)))
            body.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" '
                        'fill="%s"><title>transfer %s ms</title></rect>'
                        % (left + kernel * scale, y + bar, transfer * scale,
                           bar, TRANSFER, fmt_ms(transfer)))
        end = max(host or 0, (kernel or 0) + (transfer or 0)) * scale
        if sp is not None:
            body.append(svg_text(left + end + 4, y + bar + 4, "%.2f×" % sp,
                                 "start", 11))
    body.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
                % (left, top - 4, left, axis_y))
    return svg_doc(width, height, body, "Idiom: time per call")


def plot_outcomes(loops):
    """Source loops per outcome (offloaded, or the failing atom or remark)."""
    counts = {}
    for lp in loops:
        counts[lp.outcome()] = counts.get(lp.outcome(), 0) + 1
    items = sorted(counts.items(), key=lambda kv: (kv[0] != "offloaded",
                                                   -kv[1], kv[0]))
    left, right, top, bar, gap, width = 300, 50, 40, 16, 8, 760
    plot_w = width - left - right
    height = top + max(1, len(items)) * (bar + gap) + 20
    vmax = max([c for _, c in items] + [1])
    body = [svg_text(width / 2, 20, "Source loops by outcome", "middle", 14,
                     ' font-weight="bold"')]
    for i, (name, c) in enumerate(items):
        y = top + i * (bar + gap)
        color = "#2ca02c" if name == "offloaded" else "#d62728" \
            if name.startswith("not") else "#888888"
        shown = name if len(name) <= 48 else name[:47] + "…"
        body.append(svg_text(left - 8, y + bar - 3, shown, "end", 11))
        body.append('<rect x="%d" y="%d" width="%.2f" height="%d" fill="%s">'
                    '<title>%s: %d</title></rect>'
                    % (left, y, c * plot_w / vmax, bar, color, esc(name), c))
        body.append(svg_text(left + c * plot_w / vmax + 4, y + bar - 3,
                             str(c), "start", 11))
    return svg_doc(width, height, body, "Idiom: loops by outcome")


def inputs_summary(inputs):
    lines = []
    for path, kind, value in inputs:
        if kind == "records":
            lines.append("%s: optimization records, %d remarks of Idiom"
                         % (path, len(value)))
        else:
            lines.append("%s: run of %s, device %s, cost model %s, sites: %d"
                         % (path, value["program"] or "?",
                            value["device"] or "none",
                            {True: "on", False: "off"}.get(
                                value["cost_model"], "?"),
                            len(value["sites"])))
    return lines


def render_html(title, rows, plots, summary):
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>%s</title>" % esc(title),
           "<style>body{font-family:sans-serif;margin:2em}"
           "table{border-collapse:collapse;font-size:13px}"
           "th,td{border:1px solid #ccc;padding:3px 6px;vertical-align:top}"
           "th{background:#eee}td.n{text-align:right}"
           ".off{color:#2ca02c}.not{color:#d62728}ul{margin:0;padding-left:1.2em}"
           "</style></head><body>",
           "<h1>%s</h1>" % esc(title), "<h2>Inputs</h2><ul>"]
    out += ["<li>%s</li>" % esc(s) for s in summary]
    out.append("</ul><h2>Source loops</h2><table><tr>")
    out += ["<th>%s</th>" % esc(h) for _, h in COLUMNS]
    out.append("</tr>")
    numeric = {"calls", "device_calls", "device_ms", "transfer_ms", "host_ms"}
    for r in rows:
        out.append("<tr>")
        for key, _ in COLUMNS:
            v = r[key]
            if key == "notes":
                cell = "<ul>%s</ul>" % "".join("<li>%s</li>" % esc(n)
                                               for n in v) if v else ""
                out.append("<td>%s</td>" % cell)
            elif key == "status":
                cls = {"offloaded": "off", "not offloaded": "not"}.get(v, "")
                out.append('<td class="%s">%s</td>' % (cls, esc(v)))
            else:
                out.append('<td%s>%s</td>' % (' class="n"' if key in numeric
                                              else "", esc(v)))
        out.append("</tr>")
    out.append("</table>")
    out.append("<p>Times are sums over the calls, in milliseconds. Speed-up: "
               "host time per timed host run / (kernel + transfer time) per "
               "device call; (est.): the host time is the cost model's "
               "estimate (the runtime did not count the timed runs).</p><h2>Plots</h2>")
    for name, alt in plots:
        out.append('<p><img src="%s" alt="%s"></p>' % (esc(name), esc(alt)))
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def md_cell(v):
    if isinstance(v, list):
        v = "; ".join(v)
    # < and & would start HTML in a renderer's eyes ("<builtin>/map.idl").
    return str(v).replace("&", "&amp;").replace("<", "&lt;").replace(
        ">", "&gt;").replace("|", "\\|").replace("\n", " ")


def render_md(title, rows, plots, summary):
    out = ["# %s" % title, "", "## Inputs", ""]
    out += ["- %s" % s for s in summary]
    out += ["", "## Source loops", "",
            "| " + " | ".join(h for _, h in COLUMNS) + " |",
            "|" + "|".join(" --- " for _ in COLUMNS) + "|"]
    for r in rows:
        out.append("| " + " | ".join(md_cell(r[k]) for k, _ in COLUMNS) +
                   " |")
    out += ["", "Times are sums over the calls, in milliseconds. Speed-up: "
            "host time per timed host run / (kernel + transfer time) per "
            "device call; (est.): the host time is the cost model's "
            "estimate (the runtime did not count the timed runs).", "", "## Plots", ""]
    out += ["![%s](%s)" % (alt, name) for name, alt in plots]
    return "\n".join(out) + "\n"


def write(path, text):
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise InputError("%s: cannot write: %s" % (path, e.strerror or e))


def main(argv):
    ap = argparse.ArgumentParser(
        prog="idiom-report",
        usage="idiom-report [-o OUT] [--title TITLE] FILE...",
        description="Per source loop: whether Idiom offloaded it and why "
        "not, its calls, device, transfer and host time and the speed-up of "
        "the call site, from optimization records (YAML) and IDIOM_STATS "
        "JSON files, given in any order.",
        epilog=USAGE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", metavar="FILE",
                    help="*.opt.yaml records and IDIOM_STATS *.json files")
    ap.add_argument("-o", dest="out", default="idiom-report.html",
                    metavar="OUT", help="OUT.html (default idiom-report.html) "
                    "or OUT.md; plots are written beside it")
    ap.add_argument("--title", default="Idiom report", help="page title")
    args = ap.parse_args(argv)

    try:
        records, stats, inputs = [], [], []
        for path in args.files:
            kind, value = read_input(path)
            inputs.append((path, kind, value))
            if kind == "records":
                records += value
            else:
                stats.append(value)
        loops = join(records, stats)
        out = args.out
        md = out.endswith(".md")
        if not md and not out.endswith((".html", ".htm")):
            out += ".html"
        stem = os.path.splitext(out)[0]
        plots = [(stem + "-times.svg", plot_times(loops), "time per call"),
                 (stem + "-outcomes.svg", plot_outcomes(loops),
                  "loops by outcome")]
        for path, svg, _ in plots:
            write(path, svg)
        refs = [(os.path.basename(p), alt) for p, _, alt in plots]
        rows = [row_of(lp) for lp in loops]
        summary = inputs_summary(inputs)
        render = render_md if md else render_html
        write(out, render(args.title, rows, refs, summary))
    except InputError as e:
        sys.stderr.write("idiom-report: %s\n" % e)
        return 1
    print("idiom-report: wrote %s (%d loops) and %s" %
          (out, len(loops), ", ".join(p for p, _, _ in plots)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
