"""Checks the float sums of fp-contract-fast.c's two outputs against the
bound of docs/ARCHITECTURE.md, "Correctness contract": each sum within
gamma(n) sum |x y| of the exact one, so two within twice that of each other
(gamma(n) = n u / (1 - n u), u the unit roundoff of the sum's type). The
terms are recomputed from the program's data.

  sum_bound.py EXPECTED OUT
"""
import sys

N = 8192


def sums(path):
    out = {}
    for line in open(path):
        label, _, rest = line.partition(":")
        if label in ("dot", "sumsq"):
            out[label] = float.fromhex(rest.split()[0])
    return out


def gamma(n, u):
    return n * u / (1 - n * u)


a = [1.0 + (i % 97) * 2.0**-13 for i in range(N)]  # floats, exact in double
da = [1.0 + (i % 97) * 2.0**-29 for i in range(N)]
db = [(1.0 if i % 2 else -1.0) * (1.0 - (i % 83) * 2.0**-29) for i in range(N)]
scale = {"dot": (sum(abs(x * y) for x, y in zip(da, db)), 2.0**-53),
         "sumsq": (sum(x * x for x in a), 2.0**-24)}
want, got = sums(sys.argv[1]), sums(sys.argv[2])
ok = sorted(want) == ["dot", "sumsq"] and sorted(got) == sorted(want)
for k in sorted(want):
    s, u = scale[k]
    bound = 2 * gamma(N, u) * s
    diff = abs(want[k] - got.get(k, float("inf")))
    print("%s: %a against %a, difference %.3g, bound %.3g" % (k, want[k], got.get(k, 0), diff, bound))
    ok = ok and diff <= bound
sys.exit(0 if ok else 1)
