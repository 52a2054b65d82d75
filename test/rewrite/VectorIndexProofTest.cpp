//===- VectorIndexProofTest.cpp - Z3 proofs of the vector index arithmetic ===//
//
// Part of Idiom. The vectorisation rules (as-vector-map, as-vector-reduce)
// and the generator's realisation of their rows rest on index arithmetic:
// join(split(N, a)) is a, a ragged split covers every element once, the
// vector path of a row reads only elements inside the array, its alignment
// test is the same for every row, and the grid-stride loop over rows visits
// each row once. Each is proved here for all 64-bit values in the stated
// ranges (bit-vectors, so wrap-around is part of the model), with
// N in {2, 4, 8, 16} and element sizes 1..8 bytes (DESIGN section 8: index
// rules are also proved with Z3). The rules' interpreter equality is in
// RuleTest.cpp.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>
#include <z3++.h>

namespace {

/// True when \p Claim holds for every assignment satisfying \p Assumptions
/// (i.e. Assumptions && !Claim is unsatisfiable).
bool proved(z3::context &C, const z3::expr &Assumptions, const z3::expr &Claim) {
  z3::solver S(C);
  S.add(Assumptions && !Claim);
  return S.check() == z3::unsat;
}

struct Bv {
  z3::context C;
  z3::expr var(const char *Name) { return C.bv_const(Name, 64); }
  z3::expr lit(uint64_t V) { return C.bv_val(V, 64); }
};

/// Lengths are below 2^62 (arrays of at most 2^62 elements), as are
/// indices; the generator's index expressions are signed longs.
z3::expr inRange(Bv &B, const z3::expr &X) { return z3::ult(X, B.lit(1ULL << 62)); }

TEST(VectorIndexProof, JoinOfSplitIsTheIdentity) {
  // Element i of join(split(N, a)) is row i / N, column i % N, which is
  // element (i / N) * N + i % N of a: i itself.
  for (uint64_t N : {2, 4, 8, 16}) {
    Bv B;
    z3::expr I = B.var("i"), Nn = B.lit(N);
    EXPECT_TRUE(proved(B.C, inRange(B, I), z3::udiv(I, Nn) * Nn + z3::urem(I, Nn) == I))
        << "N=" << N;
  }
}

TEST(VectorIndexProof, RaggedSplitCoversEveryElementOnce) {
  for (uint64_t N : {2, 4, 8, 16}) {
    Bv B;
    z3::expr n = B.var("n"), t = B.var("t"), r = B.var("r"), j = B.var("j");
    z3::expr Nn = B.lit(N);
    z3::expr Rows = z3::udiv(n + B.lit(N - 1), Nn); // ((n + N-1) / N)
    z3::expr Start = r * Nn;
    z3::expr Rest = n - Start;
    z3::expr RowLen = z3::ite(z3::ult(Nn, Rest), Nn, Rest); // min(N, n - r*N)
    z3::expr Ranges = inRange(B, n) && inRange(B, t) && inRange(B, r) && inRange(B, j);
    // Every element t < n is in row t / N at column t % N, inside that row.
    z3::expr R0 = z3::udiv(t, Nn), J0 = z3::urem(t, Nn);
    z3::expr RowLen0 = z3::ite(z3::ult(Nn, n - R0 * Nn), Nn, n - R0 * Nn);
    EXPECT_TRUE(proved(B.C, Ranges && z3::ult(t, n),
                       z3::ult(R0, Rows) && z3::ult(J0, RowLen0) && R0 * Nn + J0 == t))
        << "N=" << N;
    // Every (row, column) inside the ragged split is an element of a ...
    EXPECT_TRUE(proved(B.C, Ranges && z3::ult(r, Rows) && z3::ult(j, RowLen),
                       z3::ult(Start + j, n)))
        << "N=" << N;
    // ... and a different one for every (row, column): the map is injective.
    z3::expr r2 = B.var("r2"), j2 = B.var("j2");
    EXPECT_TRUE(proved(B.C,
                       Ranges && inRange(B, r2) && inRange(B, j2) && z3::ult(j, Nn) &&
                           z3::ult(j2, Nn) && r * Nn + j == r2 * Nn + j2,
                       r == r2 && j == j2))
        << "N=" << N;
  }
}

TEST(VectorIndexProof, FullRowsReadOnlyInsideTheArray) {
  // The vector path runs when (r*N + N <= n) and reads r*N .. r*N + N-1;
  // the row then has its full length N.
  for (uint64_t N : {2, 4, 8, 16}) {
    Bv B;
    z3::expr n = B.var("n"), r = B.var("r"), j = B.var("j"), Nn = B.lit(N);
    z3::expr Full = z3::ule(r * Nn + Nn, n);
    z3::expr Pre = inRange(B, n) && inRange(B, r) && z3::ult(j, Nn) && Full;
    EXPECT_TRUE(proved(B.C, Pre, z3::ult(r * Nn + j, n))) << "N=" << N;
    z3::expr Rest = n - r * Nn;
    EXPECT_TRUE(proved(B.C, Pre, z3::ite(z3::ult(Nn, Rest), Nn, Rest) == Nn)) << "N=" << N;
    // Rows before the last one are always full when N divides n (the
    // exact case, where FunIL's split is defined).
    EXPECT_TRUE(proved(B.C,
                       inRange(B, n) && inRange(B, r) && z3::urem(n, Nn) == B.lit(0) &&
                           z3::ult(r, z3::udiv(n, Nn)),
                       Full))
        << "N=" << N;
  }
}

TEST(VectorIndexProof, AlignmentTestIsTheSameForEveryRow) {
  // The generator tests ((ulong)(p + off + r*N)) & (N*s - 1) == 0 for row r,
  // with p a byte address and s the element size: the outcome does not
  // depend on r, and when it holds the N*s-byte vector access is aligned.
  for (uint64_t N : {2, 4, 8, 16})
    for (uint64_t S : {1, 2, 4, 8}) {
      Bv B;
      z3::expr P = B.var("p"), Off = B.var("off"), R = B.var("r"), R2 = B.var("r2");
      z3::expr Nn = B.lit(N), Sz = B.lit(S), Mask = B.lit(N * S - 1);
      auto Addr = [&](const z3::expr &Row) { return P + (Off + Row * Nn) * Sz; };
      auto Aligned = [&](const z3::expr &Row) { return (Addr(Row) & Mask) == B.lit(0); };
      EXPECT_TRUE(proved(B.C, B.C.bool_val(true), Aligned(R) == Aligned(R2)))
          << "N=" << N << " s=" << S;
      EXPECT_TRUE(proved(B.C, Aligned(R), z3::urem(Addr(R), B.lit(N * S)) == B.lit(0)))
          << "N=" << N << " s=" << S;
    }
}

TEST(VectorIndexProof, GridStrideVisitsEveryRowOnce) {
  // Work-item k of G visits rows k, k + G, ...: row c is visited by work-item
  // c % G at step c / G, and by no other (k, step).
  Bv B;
  z3::expr c = B.var("c"), G = B.var("G"), k = B.var("k"), t = B.var("t");
  z3::expr Pre = inRange(B, c) && inRange(B, k) && inRange(B, t) &&
                 z3::ult(B.lit(0), G) && z3::ult(G, B.lit(1ULL << 31)) &&
                 z3::ult(t, B.lit(1ULL << 31));
  EXPECT_TRUE(proved(B.C, Pre, z3::urem(c, G) + z3::udiv(c, G) * G == c));
  EXPECT_TRUE(proved(B.C, Pre && z3::ult(k, G) && k + t * G == c,
                     k == z3::urem(c, G) && t == z3::udiv(c, G)));
}

TEST(VectorIndexProof, AProofCanFail) {
  // The harness is not vacuous: without N | n, the last row need not be full.
  Bv B;
  z3::expr n = B.var("n"), r = B.var("r"), Nn = B.lit(4);
  EXPECT_FALSE(proved(B.C, inRange(B, n) && inRange(B, r) && z3::ult(r, z3::udiv(n + B.lit(3), Nn)),
                      z3::ule(r * Nn + Nn, n)));
}

} // namespace
