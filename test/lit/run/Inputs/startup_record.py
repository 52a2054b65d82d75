"""Writes a device start-up record (runtime/lib/calibration.c) for
test/lit/run/start-record.c, start-wait.c, start-record-age.c and
bench/fixed_cost.sh:

  startup_record.py START_MS FILE [--age N] [--same-device]
                    [--lat-ns N] [--bw-bps N] [--stage-bps N]
                    [--device-log LOG]
      latency 20 us (or N ns), 10 GB/s (or N bytes a second), a start-up
      of START_MS ms; the device "start-record.c", or with --same-device
      the one FILE names now (the record a run wrote); with --age N an age
      line (processes since the latency and bandwidth were measured); with
      --stage-bps N a staged bandwidth line (N bytes a second); the check
      line computed; with --device-log LOG the device that an IDIOM_DEBUG
      log names ("idiom: device: NAME (")
"""
import sys

args = sys.argv[1:]
same = "--same-device" in args
if same:
    args.remove("--same-device")


def option(name, default):
    if name not in args:
        return default
    i = args.index(name)
    value = int(args[i + 1])
    del args[i:i + 2]
    return value


age = option("--age", None)
lat_ns = option("--lat-ns", 20000)
bw_bps = option("--bw-bps", 10000000000)
stage_bps = option("--stage-bps", None)
log = None
if "--device-log" in args:
    i = args.index("--device-log")
    log = args[i + 1]
    del args[i:i + 2]
start_ms, path = int(args[0]), args[1]
device = "start-record.c"
if log:
    for line in open(log):
        if line.startswith("idiom: device: "):
            device = line[len("idiom: device: "):].split(" (")[0]
if same:
    for line in open(path):
        if line.startswith("device "):
            device = line[len("device "):].rstrip("\n")
text = ("idiom-startup 1\ndevice %s\nlat_ns %d\nbw_bps %d\nstart_ms %d\n"
        % (device, lat_ns, bw_bps, start_ms))
if age is not None:
    text += "age %d\n" % age
if stage_bps is not None:
    text += "stage_bps %d\n" % stage_bps
h = 0xcbf29ce484222325
for b in text.encode():
    h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
open(path, "w").write(text + "check %016x\n" % h)
