//===- MatMulIndexProofTest.cpp - Z3 proofs of the matmul index maps ------===//
//
// Part of Idiom. The tiled matrix-product form (rewrite/lib/MatMulForm.cpp)
// and its kernel (rewrite/lib/codegen/MatMulGen.cpp) rest on index
// arithmetic, proved here for all 64-bit values in the stated ranges
// (bit-vectors, wrap-around included) for every GEMM candidate of f32 and
// f64 (GemmExplore.cpp; the default variants are among them), the
// registered rules and the grouped shapes of MatMulTest.cpp:
//  - the output map (group g, work-item l, block element r) -> g*T + (r/G)*W*G
//    + l*G + r%G (strided groups of G; l*R + r when G = R) is one-to-one onto
//    [0, roundup(M, T)), so with the guard i < M every output is stored
//    exactly once, and the runtime's NDRange (roundup(ceil(M / R), W)
//    work-items, ept and wg of the marker) has exactly ceil(M / T) groups;
//  - K tiles: k = k0 + kk over the full tiles (k0 + TK <= K, kk < TK) and the
//    last partial one (kk < K - k0) visits every k < K once, in increasing
//    order (the sequential k order of every output);
//  - the cooperative fill: groups e = tid + t*WG of Wv elements (Wv = 4 with
//    vector fills, along the operand's unit stride) cover the tile once, the
//    k-major store buf*TK*LD + k*LD + row is one-to-one and inside buffer buf
//    (double buffering: two disjoint buffers), vector stores and the vector
//    global loads of complete tiles are 4-element aligned given the run-time
//    test (offset and other stride multiples of 4);
//  - double buffering alternates: the buffer written in K tile t is read in
//    t + 1, never in t;
//  - clamped reads min(x, n - 1) stay inside [0, n) for n >= 1;
//  - the vector reads of the __local rows (every group, either buffer) are
//    aligned and inside.
// The rules' interpreter equality is in MatMulTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "idiom/Rewrite/Explore.h"

#include <gtest/gtest.h>
#include <z3++.h>

#include <algorithm>
#include <tuple>
#include <vector>

namespace {

bool proved(z3::context &C, const z3::expr &Assumptions, const z3::expr &Claim) {
  z3::solver S(C);
  S.add(Assumptions && !Claim);
  return S.check() == z3::unsat;
}

struct Shape {
  uint64_t TM, TN, TK, RM, RN;
  uint64_t GM = 0, GN = 0; ///< row/column group widths (0: RM, RN)
  uint64_t Pad = 4;        ///< __local row padding
  bool Vec = false, Dbl = false;
  uint64_t gm() const { return GM ? GM : RM; }
  uint64_t gn() const { return GN ? GN : RN; }
};

/// The registered rules (mm-tile-2d, mm-block-1d, mm-block-2d), the
/// grouped shapes of MatMulTest.cpp, and every GEMM candidate of f32 and
/// f64 (GemmExplore.cpp; the default variants are among them).
std::vector<Shape> shapes() {
  std::vector<Shape> V = {{8, 8, 4, 1, 1}, {16, 8, 4, 2, 1}, {16, 16, 4, 2, 2},
                          {8, 8, 2, 4, 4, 2, 2}, {16, 8, 4, 4, 2, 2, 1}, {8, 16, 2, 2, 8, 0, 4}};
  for (const char *T : {"f32", "f64"}) {
    std::string Tx = T;
    idiom::funil::Program P = idiom::rwtest::parseOrDie(
        "idiom g(A: [" + Tx + "], B: [" + Tx + "], C: [" + Tx +
        "], M: i64, N: i64, K: i64) { store view(C, 0:i64, N, M, 1:i64, N) = map(\\(r: ([" +
        Tx + "]_K, [" + Tx + "]_N)) => map(\\(q: ([" + Tx + "]_K, " + Tx +
        ")) => reduceSeq(\\(acc: " + Tx + ", x: (" + Tx + ", " + Tx +
        ")) => fmuladd(x.0, x.1, acc), 0.0:" + Tx +
        ", zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, "
        "1:i64, K), view(C, 0:i64, N, M, 1:i64, N))); }");
    std::vector<idiom::rewrite::VariantParams> Cs = idiom::rewrite::gemmCandidates(P);
    EXPECT_GT(Cs.size(), 8u);
    for (const idiom::rewrite::VariantParams &C : Cs) {
      if (!C.Tile[0])
        continue;
      Shape X{C.Tile[0], C.Tile[1], C.Tile[2], C.Block[0], C.Block[1], C.Group[0], C.Group[1]};
      if (C.Local) {
        X.Pad = C.Kernel.Pad;
        X.Vec = C.Kernel.VectorFill;
        X.Dbl = C.Kernel.DoubleBuffer;
      }
      auto Same = [&](const Shape &Y) {
        return std::tie(X.TM, X.TN, X.TK, X.RM, X.RN, X.GM, X.GN, X.Pad, X.Vec, X.Dbl) ==
               std::tie(Y.TM, Y.TN, Y.TK, Y.RM, Y.RN, Y.GM, Y.GN, Y.Pad, Y.Vec, Y.Dbl);
      };
      if (std::none_of(V.begin(), V.end(), Same))
        V.push_back(X);
    }
  }
  return V;
}

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
  for (const Shape &S : shapes())
    for (int Dim = 0; Dim < 2; ++Dim) {
      uint64_t T = Dim ? S.TN : S.TM, R = Dim ? S.RN : S.RM, W = T / R;
      uint64_t Gw = Dim ? S.gn() : S.gm(); // group width (MatMulForm.h groupsOf)
      Bv B;
      z3::expr M = B.var("M"), g = B.var("g"), l = B.var("l"), r = B.var("r");
      z3::expr g2 = B.var("g2"), l2 = B.var("l2"), r2 = B.var("r2"), i = B.var("i");
      auto Valid = [&](const z3::expr &G, const z3::expr &L, const z3::expr &Rr) {
        return z3::ult(G, ceilDiv(B, M, T)) && z3::ult(L, B.lit(W)) && z3::ult(Rr, B.lit(R));
      };
      // Tile offset of block element r of work-item l: group r / Gw at
      // (r / Gw) * W * Gw, then l * Gw + r % Gw (= l*R + r when Gw = R).
      auto Idx = [&](const z3::expr &G, const z3::expr &L, const z3::expr &Rr) {
        return G * B.lit(T) + z3::udiv(Rr, B.lit(Gw)) * B.lit(W * Gw) + L * B.lit(Gw) +
               z3::urem(Rr, B.lit(Gw));
      };
      z3::expr Pre = B.small(M) && z3::uge(M, B.lit(1));
      // One-to-one.
      EXPECT_TRUE(proved(B.C, Pre && Valid(g, l, r) && Valid(g2, l2, r2) &&
                                  Idx(g, l, r) == Idx(g2, l2, r2),
                         g == g2 && l == l2 && r == r2))
          << "tile " << T << " block " << R;
      // Every output i < M has a preimage (the decomposition the views make).
      z3::expr O = z3::urem(i, B.lit(T));
      z3::expr G = z3::udiv(i, B.lit(T)), L = z3::udiv(z3::urem(O, B.lit(W * Gw)), B.lit(Gw)),
               Rr = z3::udiv(O, B.lit(W * Gw)) * B.lit(Gw) + z3::urem(O, B.lit(Gw));
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
  for (const Shape &S : shapes())
    for (uint64_t Rows : {S.TM, S.TN})
      for (bool RowFast : {false, true}) {
        // MatMulGen.cpp's Fill: groups of Wv elements along the unit stride
        // (rows when RowFast, else k); Wv = 4 with vector fills when the
        // group dimension allows it.
        uint64_t Wv = S.Vec && (RowFast ? Rows % 4 == 0 : S.TK % 4 == 0) ? 4 : 1;
        uint64_t WG = (S.TM / S.RM) * (S.TN / S.RN), E = Rows * S.TK / Wv,
                 Ld = Rows + S.Pad, NB = S.Dbl ? 2 : 1;
        uint64_t Steps = (E + WG - 1) / WG;
        Bv B;
        z3::expr tid = B.var("tid"), t = B.var("t"), tid2 = B.var("tid2"), t2 = B.var("t2"),
                 e = B.var("e"), e2 = B.var("e2"), c = B.var("c"), c2 = B.var("c2"),
                 buf = B.var("buf");
        auto Valid = [&](const z3::expr &Tid, const z3::expr &T) {
          return z3::ult(Tid, B.lit(WG)) && z3::ult(T, B.lit(Steps)) &&
                 z3::ult(Tid + T * B.lit(WG), B.lit(E));
        };
        auto El = [&](const z3::expr &Tid, const z3::expr &T) { return Tid + T * B.lit(WG); };
        // Slots (tid, t) enumerate the groups once.
        EXPECT_TRUE(proved(B.C, Valid(tid, t) && Valid(tid2, t2) && El(tid, t) == El(tid2, t2),
                           tid == tid2 && t == t2));
        EXPECT_TRUE(proved(B.C, z3::ult(e, B.lit(E)),
                           Valid(z3::urem(e, B.lit(WG)), z3::udiv(e, B.lit(WG))) &&
                               El(z3::urem(e, B.lit(WG)), z3::udiv(e, B.lit(WG))) == e));
        // Group e, element c < Wv: (row, k) of the tile.
        auto Row = [&](const z3::expr &X, const z3::expr &C) {
          return RowFast ? z3::urem(X, B.lit(Rows / Wv)) * B.lit(Wv) + C
                         : z3::udiv(X, B.lit(S.TK / Wv));
        };
        auto Kk = [&](const z3::expr &X, const z3::expr &C) {
          return RowFast ? z3::udiv(X, B.lit(Rows / Wv))
                         : z3::urem(X, B.lit(S.TK / Wv)) * B.lit(Wv) + C;
        };
        z3::expr In = z3::ult(e, B.lit(E)) && z3::ult(e2, B.lit(E)) && z3::ult(c, B.lit(Wv)) &&
                      z3::ult(c2, B.lit(Wv));
        EXPECT_TRUE(proved(B.C, In,
                           z3::ult(Row(e, c), B.lit(Rows)) && z3::ult(Kk(e, c), B.lit(S.TK))));
        // Every element of the tile is some (e, c): the groups cover it.
        z3::expr r = B.var("r"), k = B.var("k");
        z3::expr Ge = RowFast ? z3::udiv(r, B.lit(Wv)) + k * B.lit(Rows / Wv)
                              : r * B.lit(S.TK / Wv) + z3::udiv(k, B.lit(Wv));
        z3::expr Gc = RowFast ? z3::urem(r, B.lit(Wv)) : z3::urem(k, B.lit(Wv));
        EXPECT_TRUE(proved(B.C, z3::ult(r, B.lit(Rows)) && z3::ult(k, B.lit(S.TK)),
                           z3::ult(Ge, B.lit(E)) && Row(Ge, Gc) == r && Kk(Ge, Gc) == k));
        // The k-major store buf*TK*Ld + k*Ld + row is one-to-one and inside
        // buffer buf of the NB buffers (double buffering: the two disjoint).
        auto Store = [&](const z3::expr &X, const z3::expr &C) {
          return buf * B.lit(S.TK * Ld) + Kk(X, C) * B.lit(Ld) + Row(X, C);
        };
        z3::expr InBuf = z3::ult(buf, B.lit(NB));
        EXPECT_TRUE(proved(B.C, In && InBuf && Store(e, c) == Store(e2, c2), e == e2 && c == c2));
        EXPECT_TRUE(proved(B.C, In && InBuf,
                           z3::uge(Store(e, c), buf * B.lit(S.TK * Ld)) &&
                               z3::ult(Store(e, c), (buf + 1) * B.lit(S.TK * Ld))));
        if (Wv == 4 && RowFast)
          // The vector store of a group (c = 0) is 4-element aligned.
          EXPECT_TRUE(proved(B.C, In && InBuf,
                             z3::urem(Store(e, B.lit(0)), B.lit(4)) == B.lit(0)));
        if (Wv == 4) {
          // The vector global load of a complete tile: element offset
          // o + s*(row0 + row) + (k0 + k) (unit stride along the group) is a
          // multiple of 4 when o and the other stride s are (the run-time
          // test vecA/vecB) and k0 = t*TK; likewise o + (row0 + row) + s*(k0 + k).
          z3::expr o = B.var("o"), sx = B.var("s"), t0 = B.var("t0");
          z3::expr row0 = B.var("gi") * B.lit(Rows); // the tile's first row
          z3::expr Al = z3::urem(o, B.lit(4)) == B.lit(0) && z3::urem(sx, B.lit(4)) == B.lit(0);
          z3::expr Off = RowFast ? o + (row0 + Row(e, B.lit(0))) + sx * (t0 * B.lit(S.TK) +
                                                                          Kk(e, B.lit(0)))
                                 : o + sx * (row0 + Row(e, B.lit(0))) + t0 * B.lit(S.TK) +
                                       Kk(e, B.lit(0));
          EXPECT_TRUE(proved(B.C, In && Al, z3::urem(Off, B.lit(4)) == B.lit(0)));
        }
      }
}

TEST(MatMulIndexProof, DoubleBufferAlternates) {
  // buf starts at 0 and toggles (buf ^= 1) after each K tile; tile t reads
  // buffer ca = buf*SZ and stores the next tile at na = SZ - ca: the buffer
  // read in tile t + 1 is the one written in tile t, and never the one read
  // in tile t (so one barrier per K tile orders every read before the
  // overwrite two tiles later).
  Bv B;
  z3::expr t = B.var("t");
  const uint64_t SZ = 16 * 132;
  z3::expr Buf = t & B.lit(1), BufNext = (t + B.lit(1)) & B.lit(1);
  z3::expr Ca = Buf * B.lit(SZ), Na = B.lit(SZ) - Ca;
  EXPECT_TRUE(proved(B.C, B.small(t), (Buf ^ B.lit(1)) == BufNext));
  EXPECT_TRUE(proved(B.C, B.small(t), Na == BufNext * B.lit(SZ) && Na != Ca));
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
  for (const Shape &S : shapes())
    for (int Dim = 0; Dim < 2; ++Dim) {
      uint64_t T = Dim ? S.TN : S.TM, R = Dim ? S.RN : S.RM, Gw = Dim ? S.gn() : S.gm();
      uint64_t Ld = T + S.Pad, W = T / R, NB = S.Dbl ? 2 : 1;
      if (Gw % 4 || Ld % 4)
        continue; // read element by element
      Bv B;
      // buf*TK*Ld + kk*Ld + l*Gw + g*W*Gw + q*4: group g of work-item l.
      z3::expr kk = B.var("kk"), l = B.var("l"), q = B.var("q"), g = B.var("g"),
               buf = B.var("buf");
      z3::expr Base = buf * B.lit(S.TK * Ld);
      z3::expr Idx = Base + kk * B.lit(Ld) + l * B.lit(Gw) + g * B.lit(W * Gw) + q * B.lit(4);
      EXPECT_TRUE(proved(B.C, z3::ult(kk, B.lit(S.TK)) && z3::ult(l, B.lit(W)) &&
                                  z3::ult(q, B.lit(Gw / 4)) && z3::ult(g, B.lit(R / Gw)) &&
                                  z3::ult(buf, B.lit(NB)),
                         z3::urem(Idx, B.lit(4)) == B.lit(0) && z3::uge(Idx, Base) &&
                             z3::ult(Idx + B.lit(3), Base + B.lit(S.TK * Ld))));
    }
}
