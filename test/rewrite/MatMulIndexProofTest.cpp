//===- MatMulIndexProofTest.cpp - Z3 proofs of the matmul index maps ------===//
//
// Part of Idiom. The tiled matrix-product form (rewrite/lib/MatMulForm.cpp)
// and its kernel (rewrite/lib/codegen/MatMulGen.cpp) rest on index
// arithmetic, proved here for all 64-bit values in the stated ranges
// (bit-vectors, wrap-around included) for every tile shape the exploration
// uses (GemmExplore.cpp) and the registered rules:
//  - the output map (group g, work-item l, block offset r) -> g*TM + l*RM + r
//    is one-to-one onto [0, roundup(M, TM)), so with the guard i < M every
//    output is stored exactly once, and the runtime's NDRange
//    (roundup(ceil(M / RM), WY) work-items, ept and wg of the marker) has
//    exactly ceil(M / TM) work-groups;
//  - K tiles: k = k0 + kk over the full tiles (k0 + TK <= K, kk < TK) and the
//    last partial one (kk < K - k0) visits every k < K once, in increasing
//    order (the sequential k order of every output);
//  - the cooperative fill: e = tid + t*WG over t < ceil(E/WG) visits every
//    element of the E = R*TK tile once, (e / TK, e % TK) and
//    (e % R, e / R) are one-to-one onto the tile, and the k-major store
//    kk*LD + row is one-to-one and inside the __local array;
//  - clamped reads min(x, n - 1) stay inside [0, n) for n >= 1;
//  - the vector reads of the __local rows are aligned.
// The rules' interpreter equality is in MatMulTest.cpp.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>
#include <z3++.h>

#include <vector>

namespace {

bool proved(z3::context &C, const z3::expr &Assumptions, const z3::expr &Claim) {
  z3::solver S(C);
  S.add(Assumptions && !Claim);
  return S.check() == z3::unsat;
}

struct Shape {
  uint64_t TM, TN, TK, RM, RN;
};
// GemmExplore.cpp's rows and the registered rules (mm-tile-2d, mm-block-1d,
// mm-block-2d).
const Shape Shapes[] = {{128, 128, 8, 8, 8}, {128, 128, 16, 8, 8}, {128, 64, 16, 8, 4},
                        {64, 64, 16, 4, 4},   {64, 128, 16, 4, 8},  {64, 64, 8, 4, 4},
                        {16, 16, 16, 1, 1},   {8, 8, 4, 1, 1},      {16, 8, 4, 2, 1},
                        {16, 16, 4, 2, 2}};
constexpr uint64_t Pad = 4; // MatMulGen.cpp

struct Bv {
  z3::context C;
  z3::expr var(const char *N) { return C.bv_const(N, 64); }
  z3::expr lit(uint64_t V) { return C.bv_val(V, 64); }
  z3::expr small(const z3::expr &X) { return z3::ult(X, lit(1ULL << 40)); }
};

z3::expr ceilDiv(Bv &B, const z3::expr &A, uint64_t D) {
  return z3::udiv(A + B.lit(D - 1), B.lit(D));
}

} // namespace

TEST(MatMulIndexProof, OutputMapIsOneToOneAndCoversEveryOutput) {
  for (const Shape &S : Shapes)
    for (int Dim = 0; Dim < 2; ++Dim) {
      uint64_t T = Dim ? S.TN : S.TM, R = Dim ? S.RN : S.RM, W = T / R;
      Bv B;
      z3::expr M = B.var("M"), g = B.var("g"), l = B.var("l"), r = B.var("r");
      z3::expr g2 = B.var("g2"), l2 = B.var("l2"), r2 = B.var("r2"), i = B.var("i");
      auto Valid = [&](const z3::expr &G, const z3::expr &L, const z3::expr &Rr) {
        return z3::ult(G, ceilDiv(B, M, T)) && z3::ult(L, B.lit(W)) && z3::ult(Rr, B.lit(R));
      };
      auto Idx = [&](const z3::expr &G, const z3::expr &L, const z3::expr &Rr) {
        return G * B.lit(T) + L * B.lit(R) + Rr;
      };
      z3::expr Pre = B.small(M) && z3::uge(M, B.lit(1));
      // One-to-one.
      EXPECT_TRUE(proved(B.C, Pre && Valid(g, l, r) && Valid(g2, l2, r2) &&
                                  Idx(g, l, r) == Idx(g2, l2, r2),
                         g == g2 && l == l2 && r == r2))
          << "tile " << T << " block " << R;
      // Every output i < M has a preimage (the decomposition the views make).
      z3::expr G = z3::udiv(i, B.lit(T)), L = z3::udiv(z3::urem(i, B.lit(T)), B.lit(R)),
               Rr = z3::urem(i, B.lit(R));
      EXPECT_TRUE(proved(B.C, Pre && z3::ult(i, M), Valid(G, L, Rr) && Idx(G, L, Rr) == i))
          << "tile " << T << " block " << R;
      // The runtime's NDRange: roundup(ceil(M / R), W) work-items make
      // exactly ceil(M / T) groups of W.
      z3::expr Items = ceilDiv(B, M, R);
      z3::expr Global = z3::udiv(Items + B.lit(W - 1), B.lit(W)) * B.lit(W);
      EXPECT_TRUE(proved(B.C, Pre, z3::udiv(Global, B.lit(W)) == ceilDiv(B, M, T)))
          << "tile " << T << " block " << R;
    }
}

TEST(MatMulIndexProof, KTilesVisitEveryKOnceInOrder) {
  for (uint64_t TK : {4, 8, 16}) {
    Bv B;
    z3::expr K = B.var("K"), t = B.var("t"), kk = B.var("kk"), t2 = B.var("t2"),
             kk2 = B.var("kk2"), k = B.var("k");
    z3::expr Pre = B.small(K) && B.small(t) && B.small(t2) && B.small(kk) && B.small(kk2);
    // Tile t runs kk < TK when full, kk < K - t*TK otherwise: kk < min(TK, K - t*TK).
    auto Visits = [&](const z3::expr &T, const z3::expr &Kk) {
      z3::expr K0 = T * B.lit(TK);
      return z3::ult(K0, K) &&
             z3::ite(z3::ule(K0 + B.lit(TK), K), z3::ult(Kk, B.lit(TK)), z3::ult(Kk, K - K0));
    };
    auto Kof = [&](const z3::expr &T, const z3::expr &Kk) { return T * B.lit(TK) + Kk; };
    EXPECT_TRUE(proved(B.C, Pre && Visits(t, kk), z3::ult(Kof(t, kk), K))) << TK;
    EXPECT_TRUE(proved(B.C, Pre && z3::ult(k, K),
                       Visits(z3::udiv(k, B.lit(TK)), z3::urem(k, B.lit(TK))) &&
                           Kof(z3::udiv(k, B.lit(TK)), z3::urem(k, B.lit(TK))) == k))
        << TK;
    // Lexicographic (t, kk) order is the order of k: sequential per output.
    z3::expr Before = z3::ult(t, t2) || (t == t2 && z3::ult(kk, kk2));
    EXPECT_TRUE(proved(B.C, Pre && Visits(t, kk) && Visits(t2, kk2),
                       Before == z3::ult(Kof(t, kk), Kof(t2, kk2))))
        << TK;
  }
}

TEST(MatMulIndexProof, FillCoversTheTileOnceAndStoresInside) {
  for (const Shape &S : Shapes)
    for (uint64_t Rows : {S.TM, S.TN}) {
      uint64_t WG = (S.TM / S.RM) * (S.TN / S.RN), E = Rows * S.TK, Ld = Rows + Pad;
      uint64_t Steps = (E + WG - 1) / WG;
      Bv B;
      z3::expr tid = B.var("tid"), t = B.var("t"), tid2 = B.var("tid2"), t2 = B.var("t2"),
               e = B.var("e");
      auto Valid = [&](const z3::expr &Tid, const z3::expr &T) {
        return z3::ult(Tid, B.lit(WG)) && z3::ult(T, B.lit(Steps)) &&
               z3::ult(Tid + T * B.lit(WG), B.lit(E));
      };
      auto El = [&](const z3::expr &Tid, const z3::expr &T) { return Tid + T * B.lit(WG); };
      EXPECT_TRUE(proved(B.C, Valid(tid, t) && Valid(tid2, t2) && El(tid, t) == El(tid2, t2),
                         tid == tid2 && t == t2));
      EXPECT_TRUE(proved(B.C, z3::ult(e, B.lit(E)),
                         Valid(z3::urem(e, B.lit(WG)), z3::udiv(e, B.lit(WG))) &&
                             El(z3::urem(e, B.lit(WG)), z3::udiv(e, B.lit(WG))) == e));
      // Both decompositions of e are one-to-one onto rows x TK; the
      // k-major store kk*Ld + row is one-to-one and inside TK*Ld.
      for (bool RowFast : {false, true}) {
        auto Row = [&](const z3::expr &X) {
          return RowFast ? z3::urem(X, B.lit(Rows)) : z3::udiv(X, B.lit(S.TK));
        };
        auto Kk = [&](const z3::expr &X) {
          return RowFast ? z3::udiv(X, B.lit(Rows)) : z3::urem(X, B.lit(S.TK));
        };
        z3::expr e2 = B.var("e2");
        z3::expr In = z3::ult(e, B.lit(E)) && z3::ult(e2, B.lit(E));
        EXPECT_TRUE(proved(B.C, z3::ult(e, B.lit(E)),
                           z3::ult(Row(e), B.lit(Rows)) && z3::ult(Kk(e), B.lit(S.TK))));
        auto Store = [&](const z3::expr &X) { return Kk(X) * B.lit(Ld) + Row(X); };
        EXPECT_TRUE(proved(B.C, In && Store(e) == Store(e2), e == e2));
        EXPECT_TRUE(proved(B.C, z3::ult(e, B.lit(E)), z3::ult(Store(e), B.lit(S.TK * Ld))));
      }
    }
}

TEST(MatMulIndexProof, ClampedReadsStayInside) {
  Bv B;
  z3::expr n = B.var("n"), x = B.var("x");
  z3::expr Clamp = z3::ite(z3::slt(x, n - B.lit(1)), x, n - B.lit(1)); // min(x, n - 1)
  EXPECT_TRUE(proved(B.C, B.small(n) && z3::uge(n, B.lit(1)) && B.small(x),
                     z3::sge(Clamp, B.lit(0)) && z3::slt(Clamp, n)));
  // ... and equal x whenever x is inside: the unclamped element.
  EXPECT_TRUE(proved(B.C, B.small(n) && z3::ult(x, n), Clamp == x));
}

TEST(MatMulIndexProof, LocalVectorReadsAreAligned) {
  for (const Shape &S : Shapes)
    for (int Dim = 0; Dim < 2; ++Dim) {
      uint64_t T = Dim ? S.TN : S.TM, R = Dim ? S.RN : S.RM, Ld = T + Pad;
      if (R % 4)
        continue; // read element by element
      Bv B;
      z3::expr kk = B.var("kk"), l = B.var("l"), q = B.var("q");
      z3::expr Idx = kk * B.lit(Ld) + l * B.lit(R) + q * B.lit(4);
      EXPECT_TRUE(proved(B.C, z3::ult(kk, B.lit(S.TK)) && z3::ult(l, B.lit(T / R)) &&
                                  z3::ult(q, B.lit(R / 4)),
                         z3::urem(Idx, B.lit(4)) == B.lit(0) &&
                             z3::ult(Idx + B.lit(3), B.lit(S.TK * Ld))));
    }
}
