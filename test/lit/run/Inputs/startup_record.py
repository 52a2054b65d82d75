"""Writes a device start-up record (runtime/lib/calibration.c) for
test/lit/run/start-record.c, start-wait.c, start-record-age.c and
bench/fixed_cost.sh:

  startup_record.py START_MS FILE [--age N] [--same-device]
      latency 20 us, 10 GB/s, a start-up of START_MS ms; the device
      "start-record.c", or with --same-device the one FILE names now (the
      record a run wrote); with --age N an age line (processes since the
      latency and bandwidth were measured); the check line computed
"""
import sys

args = sys.argv[1:]
age = None
same = "--same-device" in args
if same:
    args.remove("--same-device")
if "--age" in args:
    i = args.index("--age")
    age = int(args[i + 1])
    del args[i:i + 2]
start_ms, path = int(args[0]), args[1]
device = "start-record.c"
if same:
    for line in open(path):
        if line.startswith("device "):
            device = line[len("device "):].rstrip("\n")
text = ("idiom-startup 1\ndevice %s\nlat_ns 20000\n"
        "bw_bps 10000000000\nstart_ms %d\n" % (device, start_ms))
if age is not None:
    text += "age %d\n" % age
h = 0xcbf29ce484222325
for b in text.encode():
    h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
open(path, "w").write(text + "check %016x\n" % h)
