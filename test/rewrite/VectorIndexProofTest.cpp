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
/// Row numbers of rows of N elements of such an array.
z3::expr rowInRange(Bv &B, const z3::expr &R, uint64_t N) {
  return z3::ult(R, B.lit((1ULL << 62) / N));
}

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
    z3::expr Ranges = inRange(B, n) && inRange(B, t) && rowInRange(B, r, N) && inRange(B, j);
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
                       Ranges && rowInRange(B, r2, N) && inRange(B, j2) && z3::ult(j, Nn) &&
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
    z3::expr Pre = inRange(B, n) && rowInRange(B, r, N) && z3::ult(j, Nn) && Full;
    EXPECT_TRUE(proved(B.C, Pre, z3::ult(r * Nn + j, n))) << "N=" << N;
    z3::expr Rest = n - r * Nn;
    EXPECT_TRUE(proved(B.C, Pre, z3::ite(z3::ult(Nn, Rest), Nn, Rest) == Nn)) << "N=" << N;
    // Rows before the last one are always full when N divides n (the
    // exact case, where FunIL's split is defined).
    EXPECT_TRUE(proved(B.C,
                       inRange(B, n) && rowInRange(B, r, N) && z3::urem(n, Nn) == B.lit(0) &&
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
  // Work-item k of G visits rows k, k + G, ...: row c is visited by
  // work-item c % G at step c / G, and by no other (k, step). G = work-items
  // in the NDRange (groups x work-group size), for sizes the runtime uses
  // with the explored work-group sizes. The loop indices are longs below
  // 2^62 that never wrap, so this is proved over the integers (bit-vector
  // division by a constant that is not a power of two is too slow for a
  // unit test).
  for (int64_t G : {64LL, 128LL * 7, 256LL * 1024, 512LL * 1023}) {
    z3::context C;
    z3::expr c = C.int_const("c"), k = C.int_const("k"), t = C.int_const("t");
    z3::expr k2 = C.int_const("k2"), t2 = C.int_const("t2"), Gg = C.int_val(G);
    z3::expr Item = k >= 0 && k < Gg && t >= 0;
    EXPECT_TRUE(proved(C, Item && k2 >= 0 && k2 < Gg && t2 >= 0 && k + t * Gg == k2 + t2 * Gg,
                       k == k2 && t == t2))
        << "G=" << G;
    EXPECT_TRUE(proved(C, c >= 0, z3::mod(c, Gg) >= 0 && z3::mod(c, Gg) < Gg &&
                                      z3::mod(c, Gg) + (c / Gg) * Gg == c))
        << "G=" << G;
  }
}

TEST(VectorIndexProof, AProofCanFail) {
  // The harness is not vacuous: without N | n, the last row need not be full.
  Bv B;
  z3::expr n = B.var("n"), r = B.var("r"), Nn = B.lit(4);
  EXPECT_FALSE(proved(B.C, inRange(B, n) && z3::ult(r, z3::udiv(n + B.lit(3), Nn)),
                      z3::ule(r * Nn + Nn, n)));
}

} // namespace
