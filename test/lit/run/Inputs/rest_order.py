"""Reads an IDIOM_DEBUG=time log (runtime/README.md) for
test/lit/run/rest-later.c: every SITE's first device run comes before any
SITE's variants after variant 0 are all built (the line "SITE: K of N
variants built one by one", with "(variant 0 first)" since the rest queue),
and every SITE's are. Exit status 1
otherwise, with what was found.

  rest_order.py LOG SITE...
"""
import re
import sys

path, sites = sys.argv[1], sys.argv[2:]
first_run, rest_done = {}, {}
for n, line in enumerate(open(path, errors="replace")):
    m = re.match(r"idiom: \+[0-9.]+ ms: (\S+): (.*)", line)
    if not m or m.group(1) not in sites:
        continue
    site, text = m.group(1), m.group(2)
    if text.startswith("device run ") and site not in first_run:
        first_run[site] = n
    if re.match(r"\d+ of \d+ variants built one by one", text) and \
            site not in rest_done:
        rest_done[site] = n
print("first device run (line): %r; rest complete (line): %r" %
      (first_run, rest_done))
missing = [s for s in sites if s not in first_run or s not in rest_done]
if missing:
    sys.exit("%s: no device run or no complete rest for %s" % (path, missing))
if max(first_run.values()) > min(rest_done.values()):
    sys.exit("%s: a site's rest was complete before another site's first "
             "device run" % path)
