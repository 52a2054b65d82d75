#!/bin/sh
# The OpenCL driver's start-up and exit (bench/cl_startup.c), RUNS times
# each: the steps' times printed by the program, then its whole-process wall
# time and the time from its last line to its exit (the driver's teardown).
# With ONLY_VENDOR=NAME.icd the ICD loader is told to load that vendor alone
# (OCL_ICD_VENDORS), to show what the other registered vendors cost.
#   cl_startup.sh BINARY [gpu|cpu|all] [loader|VENDOR_LIBRARY] [exit|release|quick]
#   (RUNS=5; the last two arguments are cl_startup.c's)
set -eu
bin=$1; want=${2:-gpu}; lib=${3:-loader}; how=${4:-exit}
python3 - "$bin" "$want" "${RUNS:-5}" "$lib" "$how" <<'PY'
import os, subprocess, sys, time
binary, want, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
lib, how = sys.argv[4], sys.argv[5]
env = dict(os.environ)
only = os.environ.get("ONLY_VENDOR")
if only:
    env["OCL_ICD_VENDORS"] = os.path.join("/etc/OpenCL/vendors", only)
for _ in range(runs):
    t0 = time.time()
    p = subprocess.Popen([binary, want, lib, how], stdout=subprocess.PIPE, env=env, text=True)
    lines = []
    for line in p.stdout:
        lines.append(line.strip()); t1 = time.time()
    p.wait(); t2 = time.time()
    print("; ".join(lines), "| wall %.0f ms, exit %.0f ms" % ((t2 - t0) * 1e3, (t2 - t1) * 1e3))
PY
