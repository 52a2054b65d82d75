"""Reads an IDIOM_DEBUG log (runtime/README.md) for test/lit/run/rest-later.c.
A site is ready for device runs at its line "LOC: variant 0 of N built
first" (since the rest queue) or, in a log of the runtime before it, at
"LOC: K of N variants built one by one" (its whole program built, one
variant per step); its other variants are all built at its first line
"LOC: K of N variants built one by one". Checks that there are at least
MIN_SITES sites, that every site is ready before any site's other variants
are all built (every variant 0 before any rest), and that every site's
are built. Prints the first device run of each site too (informative: the
cost model decides whether a run goes there). Exit status 1 otherwise,
with what was found.

  rest_order.py LOG MIN_SITES
"""
import re
import sys

path, min_sites = sys.argv[1], int(sys.argv[2])
ready, rest_done, first_run = {}, {}, {}
for n, line in enumerate(open(path, errors="replace")):
    m = re.match(r"idiom: (?:\+[0-9.]+ ms: )?(\S+): (.*)", line)
    if not m:
        continue
    site, text = m.group(1), m.group(2)
    if re.match(r"variant 0 of \d+ built first", text):
        ready.setdefault(site, n)
    if re.match(r"\d+ of \d+ variants built one by one", text):
        ready.setdefault(site, n)
        rest_done.setdefault(site, n)
    if text.startswith("device run "):
        first_run.setdefault(site, n)
print("ready (line): %r; rest built (line): %r; first device run (line): %r"
      % (ready, rest_done, first_run))
if len(ready) < min_sites:
    sys.exit("%s: %d sites, fewer than %d" % (path, len(ready), min_sites))
missing = [s for s in ready if s not in rest_done]
if missing:
    sys.exit("%s: the other variants of %s were not built" % (path, missing))
if max(ready.values()) > min(rest_done.values()):
    sys.exit("%s: a site's other variants were all built before another "
             "site's variant 0" % path)
