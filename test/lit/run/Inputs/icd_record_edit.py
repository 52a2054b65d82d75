"""Edits the record of the OpenCL vendor library (runtime/lib/cl_direct.c,
IDIOM_CACHE_DIR/icd-<auto|gpu|cpu>.txt) for test/lit/run/icd-direct.c.

  icd_record_edit.py set FIELD VALUE FILE
                                the line "FIELD ..." (library, platform or
                                device) set to "FIELD VALUE"; the check
                                recomputed
  icd_record_edit.py corrupt FILE
                                a character of the platform line changed,
                                the check left as it was
"""
import sys

FNV_OFFSET = 0xcbf29ce484222325
FNV_PRIME = 0x100000001b3


def fnv1a(data):
    h = FNV_OFFSET
    for b in data:
        h ^= b
        h = (h * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    cmd, path = sys.argv[1], sys.argv[-1]
    with open(path) as f:
        lines = f.read().splitlines()
    assert lines[0] == "idiom-icd 1" and lines[-1].startswith("check "), path
    body = lines[:-1]
    if cmd == "set":
        field, value = sys.argv[2], sys.argv[3]
        hits = [i for i, l in enumerate(body) if l.startswith(field + " ")]
        assert len(hits) == 1, (field, body)
        body[hits[0]] = field + " " + value
        check = "check %016x" % fnv1a(("\n".join(body) + "\n").encode())
    elif cmd == "corrupt":
        i = [i for i, l in enumerate(body) if l.startswith("platform ")][0]
        body[i] = body[i][:-1] + ("X" if body[i][-1] != "X" else "Y")
        check = lines[-1]
    else:
        sys.exit("unknown command " + cmd)
    with open(path, "w") as f:
        f.write("\n".join(body + [check]) + "\n")


main()
