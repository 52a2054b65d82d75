//===- Examples.h - FunIL programs shared by the unit tests -----*- C++ -*-===//
//
// Part of Idiom. The three programs of the pass contract, verbatim, and a
// few more shapes.
//
//===----------------------------------------------------------------------===//

#ifndef IDIOM_TEST_FUNIL_EXAMPLES_H
#define IDIOM_TEST_FUNIL_EXAMPLES_H

namespace idiom::funil::test {

/// 1-D map with a zip of two views (the contract's first example).
inline const char *Saxpy =
    "idiom saxpy(x: [f32], y: [f32], a: f32, n0: i64) {\n"
    "  store view(y, 0:i64, 1:i64, n0) = map(\\(t: (f32, f32)) => "
    "fadd(fmul(a, t.0), t.1), zip(view(x, 0:i64, 1:i64, n0), "
    "view(y, 0:i64, 1:i64, n0)));\n"
    "}\n";

/// Two-accumulator reduction (the contract's second example).
inline const char *DotAndMax =
    "idiom dot_and_max(x: [f32], y: [f32], n0: i64) {\n"
    "  return reduce(\\(a: (f32, f32), b: (f32, f32)) => (fadd(a.0, b.0), "
    "fmax(a.1, b.1)), (0.0:f32, -inf:f32), map(\\(t: (f32, f32)) => "
    "(fmul(t.0, t.1), t.0), zip(view(x, 0:i64, 1:i64, n0), "
    "view(y, 0:i64, 1:i64, n0))));\n"
    "}\n";

/// 2-D map with row/column indices (the contract's third example).
inline const char *Scale2D =
    "idiom scale2d(a: [f64], b: [f64], s: f64, n0: i64, n1: i64, lda: i64) {\n"
    "  store view(b, 0:i64, lda, n0, 1:i64, n1) = map(\\(r: ([f64]_n1, i64)) "
    "=> map(\\(t: (f64, i64)) => fadd(fmul(s, t.0), sitofp.f64(add(r.1, "
    "t.1))), zip(r.0, iota(n1))), zip(view(a, 0:i64, lda, n0, 1:i64, n1), "
    "iota(n0)));\n"
    "}\n";

/// A 3-D map (planes sp apart, rows sr apart, unit stride) reading the
/// plane, row and element indices: y = s * x + (7 * plane + row - element),
/// written from element 1 on.
inline const char *Scale3D =
    "idiom scale3d(x: [f32], y: [f32], n0: i64, n1: i64, n2: i64, sp: i64, sr: i64, "
    "s: f32) {\n"
    "  store view(y, 1:i64, sp, n0, sr, n1, 1:i64, n2) = map(\\(p: ([[f32]_n2]_n1, i64)) "
    "=> map(\\(r: ([f32]_n2, i64)) => map(\\(t: (f32, i64)) => fadd(fmul(s, t.0), "
    "sitofp.f32(add(mul(p.1, 7:i64), sub(r.1, t.1)))), zip(r.0, iota(n2))), zip(p.0, "
    "iota(n1))), zip(view(x, 0:i64, sp, n0, sr, n1, 1:i64, n2), iota(n0)));\n"
    "}\n";

/// Integer sum reduction with a cast.
inline const char *SumI32 =
    "idiom sum_i32(x: [i32], n0: i64) {\n"
    "  return reduce(\\(a: i64, b: i64) => add(a, b), 0:i64, "
    "map(\\(v: i32) => sext.i64(v), view(x, 0:i64, 1:i64, n0)));\n"
    "}\n";

/// Two outputs from one map.
inline const char *TwoOuts =
    "idiom two_outs(x: [f32], p: [f32], q: [f32], n0: i64) {\n"
    "  store (view(p, 0:i64, 1:i64, n0), view(q, 0:i64, 1:i64, n0)) = "
    "map(\\(v: f32) => (fmul(v, v), fneg(v)), view(x, 0:i64, 1:i64, n0));\n"
    "}\n";

/// Conditional count and sum over doubles (a mixed-type tuple reduction).
inline const char *CountPositive =
    "idiom count_pos(x: [f64], n0: i64) {\n"
    "  return reduce(\\(a: (i32, f64), b: (i32, f64)) => (add(a.0, b.0), "
    "fadd(a.1, b.1)), (0:i32, 0.0:f64), map(\\(v: f64) => "
    "(select(fcmp_ogt(v, 0.0:f64), 1:i32, 0:i32), fabs(v)), "
    "view(x, 0:i64, 1:i64, n0)));\n"
    "}\n";

} // namespace idiom::funil::test

#endif // IDIOM_TEST_FUNIL_EXAMPLES_H
