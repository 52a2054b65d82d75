"""Runs PROGRAM for test/lit/run/exit-detach.c (IDIOM_DEBUG on, a detach
hold of several seconds) and checks: its stdout is EXPECTED's and ends
within 1 s of its exit; its log names the detached process ("exit: the
device's files stay open in process N"), which runs after the exit and
holds DEVICE (the stand-in for a driver's file) among at most two
descriptors (with its wait pipe) within 3 s; it ends within 15 s. Exit status 1
otherwise, with what was found.

  detach_check.py EXPECTED DEVICE PROGRAM
"""
import os
import re
import subprocess
import sys
import time

expected, device, program = sys.argv[1:4]


def alive(pid):
    try:
        stat = open("/proc/%d/stat" % pid).read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


p = subprocess.Popen([program], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
err = p.stderr.read()  # ends at the program's exit: the detached process
p.wait()               # closed its copies of the pipes at once
exited = time.time()
out = p.stdout.read()
eof = time.time() - exited
log = err.decode(errors="replace")
m = re.search(r"exit: the device's files stay open in process (\d+)", log)
if not m:
    sys.exit("no detached process in the log:\n" + log[-2000:])
pid = int(m.group(1))
if not alive(pid):
    sys.exit("the detached process %d is not running after the exit" % pid)


def held(pid):
    fds = []
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            fds.append(os.readlink("/proc/%d/fd/%s" % (pid, fd)))
        except OSError:
            pass
    return fds


# It closes the other descriptors in increasing order: stderr's end says
# it is past 2, not that it is done; under load the rest may take a while.
t0 = time.time()
fds = held(pid)
while (fds.count(device) != 1 or len(fds) > 2) and time.time() - t0 < 3:
    time.sleep(0.02)
    fds = held(pid)
if fds.count(device) != 1 or len(fds) > 2:
    sys.exit("the detached process holds %r, not %s and its pipe" % (fds, device))
if out != open(expected, "rb").read():
    sys.exit("output %r differs from %s" % (out, expected))
if eof > 1.0:
    sys.exit("stdout ended %.2f s after the exit" % eof)
t0 = time.time()
while alive(pid) and time.time() - t0 < 15:
    time.sleep(0.05)
if alive(pid):
    sys.exit("the detached process %d still runs 15 s after the exit" % pid)
print("detached process %d held %s; stdout ended %.3f s after the exit"
      % (pid, device, eof))
