"""Reads an IDIOM_DEBUG=time log (runtime/README.md) for
test/lit/run/rest-later.c. The sites are those whose variant 0 was built
first ("LOC: variant 0 of N built first"), or, in a log of the runtime
before the rest queue, those whose variants were all built one by one; at
least MIN_SITES of them. Every site's first device run must come before any
site's other variants are all built (the line "LOC: K of N variants built
one by one", with "(variant 0 first)" since the rest queue), and every
site's must be. Exit status 1 otherwise, with what was found.

  rest_order.py LOG MIN_SITES
"""
import re
import sys

path, min_sites = sys.argv[1], int(sys.argv[2])
sites, first_run, rest_done = set(), {}, {}
for n, line in enumerate(open(path, errors="replace")):
    m = re.match(r"idiom: \+[0-9.]+ ms: (\S+): (.*)", line)
    if not m:
        continue
    site, text = m.group(1), m.group(2)
    if re.match(r"variant 0 of \d+ built first", text):
        sites.add(site)
    if text.startswith("device run ") and site not in first_run:
        first_run[site] = n
    if re.match(r"\d+ of \d+ variants built one by one", text) and \
            site not in rest_done:
        rest_done[site] = n
        sites.add(site)
print("sites %s; first device run (line): %r; rest complete (line): %r" %
      (sorted(sites), first_run, rest_done))
if len(sites) < min_sites:
    sys.exit("%s: %d sites, fewer than %d" % (path, len(sites), min_sites))
missing = [s for s in sites if s not in first_run or s not in rest_done]
if missing:
    sys.exit("%s: no device run or no complete rest for %s" % (path, missing))
if max(first_run[s] for s in sites) > min(rest_done[s] for s in sites):
    sys.exit("%s: a site's rest was complete before another site's first "
             "device run" % path)
