//===- HistogramExamples.h - histogram programs shared by tests -*- C++ -*-===//
//
// Part of Idiom. FunIL histogram programs (docs/FunIL.md, "Histograms") used
// by the rewrite rule tests and the OpenCL execution tests: 8 bins stored in
// place in the first elements of h, indices and values from random data.
//
//===----------------------------------------------------------------------===//

#ifndef IDIOM_TEST_FUNIL_HISTOGRAMEXAMPLES_H
#define IDIOM_TEST_FUNIL_HISTOGRAMEXAMPLES_H

namespace idiom::funil::test {

/// i32 bins, add, value v*v, index v & 7.
inline const char *HistAdd =
    "idiom hist_add(x: [i32], h: [i32], n: i64) {\n"
    "  store view(h, 0:i64, 1:i64, 8:i64) = reduceIndexed(\\(a: i32, b: i32) => add(a, b), "
    "view(h, 0:i64, 1:i64, 8:i64), \\(v: i32) => (sext.i64(and(v, 7:i32)), mul(v, v)), "
    "view(x, 0:i64, 1:i64, n));\n"
    "}\n";

/// u8 bins saturating at 255 (uadd.sat), value (u8)(5v): saturates quickly.
inline const char *HistSatU8 =
    "idiom hist_sat(x: [i32], h: [u8], n: i64) {\n"
    "  store view(h, 0:i64, 1:i64, 8:i64) = reduceIndexed(\\(a: u8, b: u8) => "
    "select(icmp_ult(add(a, b), a), 255:u8, add(a, b)), view(h, 0:i64, 1:i64, 8:i64), "
    "\\(v: i32) => (sext.i64(and(v, 7:i32)), trunc.u8(mul(v, 5:i32))), "
    "view(x, 0:i64, 1:i64, n));\n"
    "}\n";

/// i16 bins, signed minimum (narrow signed bins).
inline const char *HistSMin =
    "idiom hist_smin(x: [i32], h: [i16], n: i64) {\n"
    "  store view(h, 0:i64, 1:i64, 8:i64) = reduceIndexed(\\(a: i16, b: i16) => smin(a, b), "
    "view(h, 0:i64, 1:i64, 8:i64), \\(v: i32) => (sext.i64(and(v, 7:i32)), "
    "trunc.i16(mul(v, 1000:i32))), view(x, 0:i64, 1:i64, n));\n"
    "}\n";

/// f32 bins, fadd of v/2 (exact in f32 for these small values).
inline const char *HistFAdd =
    "idiom hist_fadd(x: [i32], h: [f32], n: i64) {\n"
    "  store view(h, 0:i64, 1:i64, 8:i64) = reduceIndexed(\\(a: f32, b: f32) => fadd(a, b), "
    "view(h, 0:i64, 1:i64, 8:i64), \\(v: i32) => (sext.i64(and(v, 7:i32)), "
    "fmul(sitofp.f32(v), 0.5:f32)), view(x, 0:i64, 1:i64, n));\n"
    "}\n";

/// i64 bins, add (atom_add under cl_khr_int64_base_atomics).
inline const char *HistAddI64 =
    "idiom hist_add64(x: [i32], h: [i64], n: i64) {\n"
    "  store view(h, 0:i64, 1:i64, 8:i64) = reduceIndexed(\\(a: i64, b: i64) => add(a, b), "
    "view(h, 0:i64, 1:i64, 8:i64), \\(v: i32) => (sext.i64(and(v, 7:i32)), "
    "mul(sext.i64(v), 100000000:i64)), view(x, 0:i64, 1:i64, n));\n"
    "}\n";

/// u32 bins, unsigned maximum; u64 bins, xor (a cmpxchg loop on 64 bits).
inline const char *HistUMax =
    "idiom hist_umax(x: [i32], h: [u32], n: i64) {\n"
    "  store view(h, 0:i64, 1:i64, 8:i64) = reduceIndexed(\\(a: u32, b: u32) => umax(a, b), "
    "view(h, 0:i64, 1:i64, 8:i64), \\(v: i32) => (sext.i64(and(v, 7:i32)), "
    "bitcast.u32(mul(v, 77777:i32))), view(x, 0:i64, 1:i64, n));\n"
    "}\n";
inline const char *HistXorU64 =
    "idiom hist_xor64(x: [i32], h: [u64], n: i64) {\n"
    "  store view(h, 0:i64, 1:i64, 8:i64) = reduceIndexed(\\(a: u64, b: u64) => xor(a, b), "
    "view(h, 0:i64, 1:i64, 8:i64), \\(v: i32) => (sext.i64(and(v, 7:i32)), "
    "bitcast.u64(mul(sext.i64(v), 123456789012:i64))), view(x, 0:i64, 1:i64, n));\n"
    "}\n";

/// A symbolic bin count m (global atomics only: no privatised variant).
inline const char *HistRuntimeBins =
    "idiom hist_m(x: [i32], h: [i32], m: i64, n: i64) {\n"
    "  store view(h, 0:i64, 1:i64, m) = reduceIndexed(\\(a: i32, b: i32) => add(a, b), "
    "view(h, 0:i64, 1:i64, m), \\(v: i32) => (urem(sext.i64(v), m), 1:i32), "
    "view(x, 0:i64, 1:i64, n));\n"
    "}\n";

} // namespace idiom::funil::test

#endif // IDIOM_TEST_FUNIL_HISTOGRAMEXAMPLES_H
