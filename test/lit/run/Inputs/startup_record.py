"""Writes a device start-up record (runtime/lib/calibration.c) for
test/lit/run/start-record.c and bench/fixed_cost.sh:

  startup_record.py START_MS FILE   latency 20 us, 10 GB/s, a start-up of
                                    START_MS ms; the check line computed
"""
import sys

text = ("idiom-startup 1\ndevice start-record.c\nlat_ns 20000\n"
        "bw_bps 10000000000\nstart_ms %d\n" % int(sys.argv[1]))
h = 0xcbf29ce484222325
for b in text.encode():
    h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
open(sys.argv[2], "w").write(text + "check %016x\n" % h)
