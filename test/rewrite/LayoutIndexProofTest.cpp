//===- LayoutIndexProofTest.cpp - Z3 proofs of the layout index maps ------===//
//
// Part of Idiom. The rules of rules/views.cpp, rules/coalescing.cpp and the
// vector-type rules, and the views of codegen/Views.cpp, rest on index
// arithmetic: reorderStride is a permutation whose inverse is
// reorderStride(n/s); the coalescing rewrite reads every element once, at
// consecutive addresses for consecutive work-items; transpose and split
// index maps; slide windows stay inside the array and equal split's chunks
// when they tile it; pad's clamped index is in bounds and is the element
// whenever the select picks it; asScalar . asVector is the identity.
// Claims are proved over the mathematical integers (the generator's long
// indices stay below 2^62, so they do not wrap): for every index, and for
// every length and stride where the claim is linear in them; where it is
// not (a stride times a quotient by another size), for every index and each
// pair of sizes in a grid, since Z3 does not settle the nonlinear claims in
// reasonable time. Interpreter equality of the rules is in
// LayoutRuleTest.cpp (DESIGN section 8).
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>
#include <z3++.h>

namespace {

/// True when \p Claim holds whenever \p Assumptions do.
bool proved(z3::context &C, const z3::expr &Assumptions, const z3::expr &Claim) {
  z3::solver S(C);
  S.add(Assumptions && !Claim);
  return S.check() == z3::unsat;
}

/// Sizes (strides, chunk lengths, counts) of the grid.
const int64_t Grid[] = {1, 2, 3, 4, 5, 8, 16, 64, 1000};

/// 0 <= X < N.
z3::expr below(const z3::expr &X, const z3::expr &N) { return X >= 0 && X < N; }

/// Element i of reorderStride(s, a) over n = s * B elements reads a[p(i)]
/// (seeds/004 section 5): p(i) = i / B + s * (i % B), B = n/s.
z3::expr reorderStride(const z3::expr &I, const z3::expr &B, const z3::expr &S) {
  return I / B + S * (I % B);
}

TEST(LayoutIndexProof, ReorderStrideIsAPermutationWithInverseReorderStride) {
  for (int64_t Sv : Grid)
    for (int64_t Kv : Grid) {
      z3::context C;
      z3::expr s = C.int_val(Sv), k = C.int_val(Kv), n = C.int_val(Sv * Kv);
      z3::expr i = C.int_const("i"), i2 = C.int_const("i2");
      z3::expr Pre = below(i, n) && below(i2, n);
      // reorderStride(s) over n = s*k has blocks of k; reorderStride(k) of s.
      z3::expr P = reorderStride(i, k, s);
      EXPECT_TRUE(proved(C, Pre, below(P, n))) << Sv << "x" << Kv;
      EXPECT_TRUE(proved(C, Pre && P == reorderStride(i2, k, s), i == i2)) << Sv << "x" << Kv;
      // reorderStride(n/s, reorderStride(s, a)) = a (coalesce-mapGlobal),
      // and the generator's inverse view of a stored reorderStride(s, X):
      // X[j] goes to element (j % s) * (n/s) + j / s.
      EXPECT_TRUE(proved(C, Pre, reorderStride(reorderStride(i, s, k), k, s) == i))
          << Sv << "x" << Kv;
      EXPECT_TRUE(proved(C, Pre, reorderStride((i % s) * k + i / s, k, s) == i))
          << Sv << "x" << Kv;
    }
}

TEST(LayoutIndexProof, WrongInversesAreNotProved) {
  // The checker can fail: reorderStride(s) is not its own inverse when
  // s != n/s, and without s | n the blocks leave elements out.
  z3::context C;
  z3::expr i = C.int_const("i");
  EXPECT_FALSE(proved(C, below(i, C.int_val(6)),
                      reorderStride(reorderStride(i, C.int_val(3), C.int_val(2)), C.int_val(3),
                                    C.int_val(2)) == i));
  z3::expr j = C.int_const("j");
  EXPECT_FALSE(proved(C, below(i, C.int_val(7)) && below(j, C.int_val(7)) &&
                             reorderStride(i, C.int_val(3), C.int_val(2)) ==
                                 reorderStride(j, C.int_val(3), C.int_val(2)),
                      i == j && below(reorderStride(i, C.int_val(3), C.int_val(2)), C.int_val(7))));
}

TEST(LayoutIndexProof, CoalesceChunksReadsEachElementOnceCoalesced) {
  // reorderStride(k, join(map(mapSeq f, split(k, reorderStride(s, a))))),
  // s = n/k: output q is f(a[q]); work-item t, step j reads a[t + s*j].
  for (int64_t Sv : Grid)
    for (int64_t Kv : Grid) {
      z3::context C;
      z3::expr s = C.int_val(Sv), k = C.int_val(Kv), n = C.int_val(Sv * Kv);
      z3::expr q = C.int_const("q"), t = C.int_const("t"), j = C.int_const("j");
      z3::expr Y = reorderStride(q, s, k); // element of the joined map
      EXPECT_TRUE(proved(C, below(q, n), reorderStride(Y, k, s) == q)) << Sv << "x" << Kv;
      EXPECT_TRUE(proved(C, below(t, s) && below(j, k), reorderStride(t * k + j, k, s) == t + s * j))
          << Sv << "x" << Kv;
    }
}

TEST(LayoutIndexProof, TransposeAndSplitIndexMaps) {
  for (int64_t Mv : Grid) {
    z3::context C;
    z3::expr m = C.int_val(Mv), r = C.int_const("r");
    z3::expr i = C.int_const("i"), j = C.int_const("j"), i2 = C.int_const("i2"),
             j2 = C.int_const("j2");
    z3::expr Pre = r >= 1 && below(i, m) && below(j, r) && below(i2, m) && below(j2, r);
    // transpose(split(m, a)) element (i, j) is a[j*m + i]: in bounds, and a
    // different element for every (i, j).
    EXPECT_TRUE(proved(C, Pre, below(j * m + i, m * r))) << Mv;
    EXPECT_TRUE(proved(C, Pre && j * m + i == j2 * m + i2, i == i2 && j == j2)) << Mv;
  }
  // The generator's transpose of view(x, o, s0, r, s1, m): element (i, j)
  // is x[o + s0*j + s1*i], element (j, i) of the view; transposed twice,
  // element (j, i) reads x[o + s0*j + s1*i], what the view reads.
  z3::context C;
  z3::expr o = C.int_const("o"), s0 = C.int_const("s0"), s1 = C.int_const("s1");
  z3::expr i = C.int_const("i"), j = C.int_const("j");
  auto ViewAt = [&](const z3::expr &Row, const z3::expr &Col) { return o + s0 * Row + s1 * Col; };
  auto TAt = [&](const z3::expr &Row, const z3::expr &Col) { return ViewAt(Col, Row); };
  auto TTAt = [&](const z3::expr &Row, const z3::expr &Col) { return TAt(Col, Row); };
  EXPECT_TRUE(proved(C, C.bool_val(true), TTAt(j, i) == ViewAt(j, i)));
}

TEST(LayoutIndexProof, SlideWindows) {
  for (int64_t Szv : Grid)
    for (int64_t Stv : Grid) {
      z3::context C;
      z3::expr sz = C.int_val(Szv), st = C.int_val(Stv);
      z3::expr n = C.int_const("n"), w = C.int_const("w"), j = C.int_const("j");
      z3::expr Count = z3::ite(n >= sz, (n - sz) / st + 1, C.int_val(0));
      // Every element of every window is inside the array ...
      EXPECT_TRUE(proved(C, n >= 0 && below(w, Count) && below(j, sz), below(w * st + j, n)))
          << Szv << "," << Stv;
      // ... and no further window fits.
      EXPECT_TRUE(proved(C, n >= sz, Count * st + sz > n)) << Szv << "," << Stv;
    }
  // slide(sz, sz, a) with sz | n is split(sz, a): as many windows as
  // chunks, window w column j is element w*sz + j, chunk w column j.
  for (int64_t Szv : Grid) {
    z3::context C;
    z3::expr sz = C.int_val(Szv), r = C.int_const("r");
    z3::expr n = sz * r;
    z3::expr Count = z3::ite(n >= sz, (n - sz) / sz + 1, C.int_val(0));
    EXPECT_TRUE(proved(C, r >= 0, Count == n / sz)) << Szv;
  }
}

TEST(LayoutIndexProof, PadIndices) {
  z3::context C;
  z3::expr n = C.int_const("n"), l = C.int_const("l"), i = C.int_const("i");
  z3::expr Pre = n >= 1 && l >= 0 && i >= 0;
  // As the generator computes it: max(min(i - l, n - 1), 0).
  z3::expr J = i - l;
  z3::expr Min = z3::ite(J < n - 1, J, n - 1);
  z3::expr Clamped = z3::ite(Min > 0, Min, C.int_val(0));
  EXPECT_TRUE(proved(C, Pre, below(Clamped, n)));
  // Where pad's select takes the array element, the clamped index is i - l.
  EXPECT_TRUE(proved(C, Pre && below(J, n), Clamped == J));
  // padClamp is the interpreter's clamp(i - l, 0, n - 1).
  z3::expr Ref = z3::ite(J < 0, C.int_val(0), z3::ite(J >= n, n - 1, J));
  EXPECT_TRUE(proved(C, Pre, Clamped == Ref));
}

TEST(LayoutIndexProof, AsScalarOfAsVectorIsTheIdentity) {
  for (int64_t Wv : {2, 4, 8, 16}) {
    z3::context C;
    z3::expr W = C.int_val(Wv), v = C.int_const("v"), i = C.int_const("i"),
             L = C.int_const("L");
    z3::expr n = v * W;
    // asScalar's element i is lane i % W of vector i / W, which asVector
    // loaded from element (i / W) * W + i % W.
    EXPECT_TRUE(proved(C, v >= 0 && below(i, n), (i / W) * W + i % W == i)) << Wv;
    // vloadW of vector i reads elements i*W .. i*W+W-1, inside the array.
    EXPECT_TRUE(proved(C, below(i, v) && below(L, W), below(i * W + L, n))) << Wv;
  }
}

} // namespace
