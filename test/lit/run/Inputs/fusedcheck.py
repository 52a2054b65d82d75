#!/usr/bin/env python3
"""Checks a fused GEMM run test (gemm-fused.c) against the sequential output.

Lines "F NAME I VALUE REF BOUND" are elements of a GEMM the device evaluates
fused: in the sequential output VALUE is the loop's element (unfused), REF
the loop's expression evaluated with fmaf/fma on the host and BOUND the
stated bound of |device - sequential|. The actual output's VALUE must equal
the sequential REF bit for bit and lie within BOUND of the sequential VALUE;
per NAME, some sequential VALUE must differ from its REF (the data tell
fused from unfused). Lines "X NAME I VALUE" must be equal; every other line
must be identical, except those of the NAMEs given with --skip NAME (a
product forced into a variant that reassociates under the licence, checked
by its own tests). Exit 0 when all hold, 1 otherwise (the first failure on
stderr). Usage: fusedcheck.py [--skip NAME]... EXPECTED ACTUAL
"""
import sys


def fail(msg):
    print(msg, file=sys.stderr)
    return 1


def main():
    args, skip = sys.argv[1:], set()
    while len(args) > 2 and args[0] == "--skip":
        skip.add(args[1])
        args = args[2:]
    exp = open(args[0]).read().splitlines()
    act = open(args[1]).read().splitlines()
    if len(exp) != len(act):
        return fail("line counts differ: %d vs %d" % (len(exp), len(act)))
    distinct = {}
    for n, (e, a) in enumerate(zip(exp, act), 1):
        fe, fa = e.split(), a.split()
        if fe[:1] != ["F"]:
            if fe[:1] == ["X"] and len(fe) > 1 and fe[1] in skip and fe[:3] == fa[:3]:
                continue
            if e != a:
                return fail("line %d: %r vs %r" % (n, e, a))
            continue
        if len(fe) != 6 or len(fa) != 6 or fe[:3] != fa[:3]:
            return fail("line %d: %r vs %r" % (n, e, a))
        seq, ref, got = (float.fromhex(v) for v in (fe[3], fe[4], fa[3]))
        bound = float(fe[5])
        distinct.setdefault(fe[1], False)
        if fe[3] != fe[4]:
            distinct[fe[1]] = True
        if fa[3] != fe[4]:
            return fail("line %d: %s %s element %s is %s, the fused reference %s"
                        % (n, fe[1], fe[2], fe[2], fa[3], fe[4]))
        if not abs(got - seq) <= bound:
            return fail("line %d: |%s - %s| > %g" % (n, fa[3], fe[3], bound))
        if not abs(ref - seq) <= bound:
            return fail("line %d: the reference %s is not within %g of %s"
                        % (n, fe[4], bound, fe[3]))
    for name, seen in sorted(distinct.items()):
        if not seen:
            return fail("%s: no element where fused and unfused differ" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
