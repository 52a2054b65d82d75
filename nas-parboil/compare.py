#!/usr/bin/env python3
"""Compare the output of a benchmark program built with Idiom to the output
of the plain sequential build, and read Idiom's IDIOM_STATS report.

Usage:
  compare.py REF TEST [--src PROG.c] [--n N] [-q]
      Line-by-line comparison. Exit 0: equal within tolerance; 1: differ;
      2: usage or I/O error.
  compare.py --stats STDERR_FILE [--expect offload|none|any] [--src PROG.c]
      Parse the IDIOM_STATS report. --expect offload: exit 1 unless at least
      one idiom ran on an OpenCL device; --expect none: exit 1 if any did.
      With --src, also exit 1 when a loop whose `for` line carries a
      `not-idiom:` marker is reported (at its `for` line or a line of its
      body) as run on a device, and note the `idiom:` loops that did not
      run on one. Needs line information in the report (e.g. a build with
      -g); reports without it are only counted.

Output format of the programs
  Every line is "LABEL FIELD..." (usually one field). The line labelled `n`
  (printed first) gives the problem size n used for the tolerance. A field
  that reads as an integer (optional sign, digits only) is compared exactly;
  any other number (`%.10e`, nan, inf) with the tolerance below; anything
  else as a string, exactly. Labels, the number of lines and the number and
  kind of fields must match.

Tolerance rule
  Reordering a sum of n terms (the offloaded reduction combines partial
  results in a tree, the sequential loop left to right) changes its value by
  at most about n * u * sum(|terms|), u the unit roundoff (the classical
  bound for recursive summation, Higham, "Accuracy and Stability of
  Numerical Algorithms", ch. 4). Taking the result as the scale and a
  factor 4 of slack:
      single precision:  rel_tol = n * 2**-24 * 4
      double precision:  rel_tol = n * 2**-53 * 4
  A line is single precision when its label ends in ".f32", double
  otherwise. The rule is floored at PRINT_REL = 1e-10: a value printed with
  `%.10e` carries 11 significant digits, so two results that differ in the
  last bit may print 1 unit apart in the 11th digit (up to 1e-10 relative). Two values a (reference) and b pass when
      |a - b| <= max(rel_tol * max(|a|, |b|), abs_tol),  abs_tol = rel_tol
  i.e. the absolute floor treats a value near zero as if it were of
  magnitude 1: the programs keep their data O(1) per element, so this is
  the error a cancelling sum of O(1) terms may legitimately show. NaN
  equals NaN; infinities must match exactly.

  Overrides, per label (fnmatch patterns allowed), take precedence in this
  order: a comment in the program source, anywhere on a line,
      # tol LABEL REL [ABS]
  (found when --src is given; an exact label beats a pattern, patterns are
  tried in source order; ABS defaults to REL; no PRINT_REL floor), then the
  TOL_TABLE below, keyed by (program basename, label pattern).
"""

import argparse
import fnmatch
import math
import os
import re
import sys

# (program, label pattern) -> (rel_tol, abs_tol or None for abs = rel).
TOL_TABLE = {
    # Example: ("saxpy", "sdot_xy.f32"): (1e-2, None),
}

# Relative resolution of a value printed with %.10e (11 significant digits).
PRINT_REL = 1e-10

INT_RE = re.compile(r"^[+-]?\d+$")
TOL_RE = re.compile(r"#\s*tol\s+(\S+)\s+([0-9.eE+-]+)(?:\s+([0-9.eE+-]+))?")
MARK_RE = re.compile(r"/\*\s*(idiom|not-idiom|maybe):\s*(.*?)\s*\*/")
LOC_RE = re.compile(r"([\w./+-]+\.c):(\d+)")
KV_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s,;]*)")

NO_DEVICE = {"", "none", "-", "seq", "null", "n/a", "na", "(none)", "host"}


def die(msg):
    print("compare.py: error: " + msg, file=sys.stderr)
    sys.exit(2)


def read_lines(path):
    try:
        with open(path, "r", errors="replace") as f:
            return f.read().splitlines()
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))


def source_overrides(src):
    """{label pattern: (rel, abs or None)} from `# tol` comments."""
    out = {}
    if not src:
        return out
    for line in read_lines(src):
        m = TOL_RE.search(line)
        if m:
            try:
                rel = float(m.group(2))
                ab = float(m.group(3)) if m.group(3) else None
            except ValueError:
                die("%s: bad tol comment: %s" % (src, line.strip()))
            out[m.group(1)] = (rel, ab)
    return out


def classify(tok):
    if INT_RE.match(tok):
        return "int", int(tok)
    try:
        return "float", float(tok)
    except ValueError:
        return "str", tok


def find_n(lines):
    for line in lines:
        toks = line.split()
        if len(toks) == 2 and toks[0] == "n" and INT_RE.match(toks[1]):
            return int(toks[1])
    return None


class Tolerance:
    def __init__(self, n, prog, src_over):
        self.n = n
        self.prog = prog
        self.src_over = src_over

    def default(self, label):
        bits = 24 if label.endswith(".f32") else 53
        rel = max(self.n * 2.0 ** -bits * 4, PRINT_REL)
        return rel, rel

    def lookup(self, label):
        # An exact label beats a pattern; patterns go in source order.
        hits = [(pat != label, i, pat) for i, pat in enumerate(self.src_over)
                if fnmatch.fnmatchcase(label, pat)]
        if hits:
            pat = min(hits)[2]
            rel, ab = self.src_over[pat]
            return rel, rel if ab is None else ab, "source: tol " + pat
        for (prog, pat), (rel, ab) in TOL_TABLE.items():
            if prog == self.prog and fnmatch.fnmatchcase(label, pat):
                return rel, rel if ab is None else ab, "table"
        rel, ab = self.default(label)
        return rel, ab, "n=%d" % self.n


def close(a, b, rel, ab):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), ab)


def compare(args):
    ref = read_lines(args.files[0])
    test = read_lines(args.files[1])
    n = args.n if args.n is not None else find_n(ref)
    if n is None:
        die("no `n N` line in %s and no --n given" % args.files[0])
    prog = os.path.splitext(os.path.basename(args.src))[0] if args.src else ""
    tol = Tolerance(n, prog, source_overrides(args.src))
    errors = []
    worst = (0.0, None)  # (fraction of tolerance used, label)

    if len(ref) != len(test):
        errors.append("line count differs: reference %d, test %d"
                      % (len(ref), len(test)))
        longer, name = (ref, "reference") if len(ref) > len(test) \
            else (test, "test")
        for no in range(min(len(ref), len(test)), len(longer)):
            errors.append("line %d only in %s: %r" % (no + 1, name, longer[no]))
    for no, (r, t) in enumerate(zip(ref, test), 1):
        rt, tt = r.split(), t.split()
        if not rt and not tt:
            continue
        if not rt or not tt or rt[0] != tt[0]:
            errors.append("line %d: label differs: %r vs %r" % (no, r, t))
            continue
        label = rt[0]
        if len(rt) != len(tt):
            errors.append("line %d (%s): field count differs: %r vs %r"
                          % (no, label, r, t))
            continue
        for k, (rf, tf) in enumerate(zip(rt[1:], tt[1:]), 1):
            rk, rv = classify(rf)
            tk, tv = classify(tf)
            where = "line %d (%s) field %d" % (no, label, k)
            if rk != tk:
                errors.append("%s: kind differs: %s %r vs %s %r"
                              % (where, rk, rf, tk, tf))
            elif rk == "float":
                rel, ab, why = tol.lookup(label)
                if not close(rv, tv, rel, ab):
                    diff = abs(rv - tv)
                    rdiff = diff / max(abs(rv), abs(tv)) if rv or tv else 0
                    errors.append(
                        "%s: %s vs %s (abs diff %.3e, rel diff %.3e; "
                        "tolerance rel %.3e abs %.3e from %s)"
                        % (where, rf, tf, diff, rdiff, rel, ab, why))
                elif rv != tv and not (math.isnan(rv) or math.isinf(rv)):
                    allowed = max(rel * max(abs(rv), abs(tv)), ab)
                    used = abs(rv - tv) / allowed if allowed else 0.0
                    if used > worst[0]:
                        worst = (used, label)
            elif rv != tv:
                errors.append("%s: %r vs %r (%s fields compare exactly)"
                              % (where, rf, tf, rk))
    if errors:
        for e in errors[:50]:
            print("  " + e)
        if len(errors) > 50:
            print("  ... %d more" % (len(errors) - 50))
        return 1
    if not args.quiet:
        msg = "%d lines match" % len(ref)
        if worst[1]:
            msg += " (largest difference: %.1f%% of the tolerance, %s)" % (
                100 * worst[0], worst[1])
        print("  " + msg)
    return 0


def to_int(s, default=0):
    m = re.match(r"[+-]?\d+", s or "")
    return int(m.group(0)) if m else default


def parse_stats(path):
    """One dict per report line that mentions calls=."""
    rows = []
    for line in read_lines(path):
        if "calls" not in line:
            continue
        kv = {k.lower(): v.strip("\"'") for k, v in KV_RE.findall(line)}
        if "calls" not in kv:
            continue
        loc = LOC_RE.search(line)
        device = kv.get("device", "")
        calls = to_int(kv.get("calls"))
        fallbacks = to_int(kv.get("fallbacks"))
        ran = device.lower() not in NO_DEVICE and calls - fallbacks > 0
        rows.append({
            "line": line.strip(),
            "file": os.path.basename(loc.group(1)) if loc else None,
            "lineno": int(loc.group(2)) if loc else None,
            "device": device,
            "calls": calls,
            "fallbacks": fallbacks,
            "ran": ran,
        })
    return rows


def indent(line):
    return len(line) - len(line.lstrip())


def source_markers(src):
    """({`for` line: (kind, text)}, {any line of that loop: `for` line}) for
    the marker comments on `for` lines. A loop spans its `for` line, the
    following lines indented deeper, and a closing brace at its own depth."""
    marks, owner = {}, {}
    if not src:
        return marks, owner
    lines = read_lines(src)
    for no, line in enumerate(lines, 1):
        m = MARK_RE.search(line)
        if not m:
            continue
        marks[no] = (m.group(1), m.group(2))
        owner[no] = no
        depth = indent(line)
        for k in range(no + 1, len(lines) + 1):
            text = lines[k - 1]
            if text.strip() and indent(text) <= depth:
                if text.strip().startswith("}") and indent(text) == depth:
                    owner.setdefault(k, no)
                break
            owner.setdefault(k, no)
    return marks, owner


def stats(args):
    rows = parse_stats(args.stats)
    src_base = os.path.basename(args.src) if args.src else None
    marks, owner = source_markers(args.src)
    ran = [r for r in rows if r["ran"]]
    status = 0
    for r in ran:
        print("  on device: " + r["line"])
    print("  %d idiom report line(s), %d ran on a device"
          % (len(rows), len(ran)))

    if src_base:
        # Reported lines mapped to the marked loop they fall in.
        seen = {owner[r["lineno"]] for r in ran
                if r["file"] == src_base and r["lineno"] in owner}
        for no in sorted(seen):
            if marks[no][0] == "not-idiom":
                print("  must-not-match loop ran on a device: %s:%d (%s)"
                      % (src_base, no, marks[no][1]))
                status = 1
        if seen:  # line information is usable
            for no in sorted(marks):
                kind, text = marks[no]
                if kind == "idiom" and no not in seen:
                    print("  note: not offloaded: %s:%d (%s)"
                          % (src_base, no, text))

    if args.expect == "offload" and not ran:
        if not rows:
            print("  no idiom report lines (with calls=) on stderr")
        else:
            print("  no idiom ran on an OpenCL device")
        status = 1
    elif args.expect == "none" and ran:
        print("  %d idiom(s) ran on a device where none should" % len(ran))
        status = 1
    return status


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", metavar="REF TEST")
    ap.add_argument("--src", help="program source (tol comments, markers)")
    ap.add_argument("--n", type=int, help="problem size (default: `n` line)")
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("--stats", metavar="STDERR_FILE")
    ap.add_argument("--expect", choices=("offload", "none", "any"),
                    default="any")
    args = ap.parse_args()
    if args.stats:
        if args.files:
            die("--stats takes no REF TEST files")
        sys.exit(stats(args))
    if len(args.files) != 2:
        ap.print_usage(sys.stderr)
        die("need REF and TEST")
    sys.exit(compare(args))


if __name__ == "__main__":
    main()
