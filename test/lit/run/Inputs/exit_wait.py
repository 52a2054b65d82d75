"""Reads an IDIOM_DEBUG=time log (runtime/README.md) for test/lit/run/coldstart.c
and prints how long exit waited for the runtime thread: from the line
"exit: waiting for the start-up thread's current step" to the last line of
the log, in ms. Exit status 1 when that is more than LIMIT_MS, or when exit
did not wait (the test then shows nothing).

  exit_wait.py LIMIT_MS LOG
"""
import re
import sys

limit, path = float(sys.argv[1]), sys.argv[2]
times, wait_at = [], None
for line in open(path, errors="replace"):
    m = re.match(r"idiom: \+([0-9.]+) ms: (.*)", line)
    if not m:
        continue
    t = float(m.group(1))
    times.append(t)
    if m.group(2).startswith("exit: waiting for the start-up thread"):
        wait_at = t
if wait_at is None:
    sys.exit("%s: exit did not wait for the runtime thread" % path)
waited = max(times) - wait_at
print("exit-wait-ms %.0f" % waited)
sys.exit(0 if waited <= limit else 1)
