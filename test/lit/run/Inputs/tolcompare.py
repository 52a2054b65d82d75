#!/usr/bin/env python3
"""Compares two outputs of a GEMM run test line by line.

A line "tol NAME T" starts a block whose numbers may differ by at most T
(absolute); every other field is compared exactly: lines that are not
numbers (labels, the tol lines themselves) must be identical. Exit 0 when
equal within the tolerances, 1 otherwise (first difference on stderr).
Usage: tolcompare.py EXPECTED ACTUAL
"""
import sys


def main():
    exp = open(sys.argv[1]).read().splitlines()
    act = open(sys.argv[2]).read().splitlines()
    if len(exp) != len(act):
        print("line counts differ: %d vs %d" % (len(exp), len(act)), file=sys.stderr)
        return 1
    tol = 0.0
    for n, (a, b) in enumerate(zip(exp, act), 1):
        fa, fb = a.split(), b.split()
        if fa[:1] == ["tol"]:
            if a != b:
                print("line %d: %r vs %r" % (n, a, b), file=sys.stderr)
                return 1
            tol = float(fa[2])
            continue
        if len(fa) != len(fb):
            print("line %d: %r vs %r" % (n, a, b), file=sys.stderr)
            return 1
        for x, y in zip(fa, fb):
            try:
                dx, dy = float(x), float(y)
            except ValueError:
                if x != y:
                    print("line %d: %r vs %r" % (n, a, b), file=sys.stderr)
                    return 1
                continue
            if abs(dx - dy) > tol:
                print("line %d: |%s - %s| > %g" % (n, x, y, tol), file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
