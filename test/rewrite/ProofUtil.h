//===- ProofUtil.h - Z3 helpers of the index proofs (tests) -----*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#ifndef IDIOM_TEST_REWRITE_PROOFUTIL_H
#define IDIOM_TEST_REWRITE_PROOFUTIL_H

#include <gtest/gtest.h>
#include <z3++.h>

#include <cstdint>

namespace idiom::rwtest {

/// True when \p Claim holds for every assignment satisfying \p Assume
/// (Assume && !Claim is unsatisfiable).
inline bool proved(z3::context &C, const z3::expr &Assume, const z3::expr &Claim) {
  z3::solver S(C);
  S.add(Assume && !Claim);
  return S.check() == z3::unsat;
}

/// The row-lanes kernel's work-items (RowLanesGen.cpp) with W lanes per row
/// and R rows per work-group of L = R*W: with \p LaneDim 0, work-item lid
/// of group G works on row G*R + lid/W, lane lid%W; with 1, on row G*R +
/// lid%R, lane lid/R. The runtime launches n*W work-items rounded up to L
/// (ept=1/W). Expects, on 64-bit vectors with n < 2^40, that two launched
/// work-items never share a (row, lane) and that every row i < n, lane l <
/// W is a launched work-item; and, for each halving step s = W/2 .. 1, that
/// a lane below s reads the slot s lanes on in its own row, which no other
/// reading lane writes (the slot of a work-item is its lid).
inline void expectLaneLayout(uint64_t W, uint64_t R, unsigned LaneDim) {
  z3::context C;
  auto Var = [&](const char *N) { return C.bv_const(N, 64); };
  auto K = [&](uint64_t X) { return C.bv_val(X, 64); };
  z3::expr n = Var("n"), G = Var("G"), lid = Var("lid"), G2 = Var("G2"), lid2 = Var("lid2");
  z3::expr L = K(R * W), Wk = K(W), Rk = K(R);
  z3::expr Groups = z3::udiv(n * Wk + L - K(1), L);
  auto Row = [&](const z3::expr &g, const z3::expr &l) {
    return g * Rk + (LaneDim ? z3::urem(l, Rk) : z3::udiv(l, Wk));
  };
  auto Lane = [&](const z3::expr &l) { return LaneDim ? z3::udiv(l, Rk) : z3::urem(l, Wk); };
  z3::expr Small = z3::ult(n, K(uint64_t(1) << 40));
  z3::expr Launched = z3::ult(G, Groups) && z3::ult(lid, L);
  z3::expr Launched2 = z3::ult(G2, Groups) && z3::ult(lid2, L);
  std::string Shape = "W=" + std::to_string(W) + " R=" + std::to_string(R) +
                      " lanes in dimension " + std::to_string(LaneDim);
  EXPECT_TRUE(proved(C, Small && Launched && Launched2 && Row(G, lid) == Row(G2, lid2) &&
                            Lane(lid) == Lane(lid2),
                     G == G2 && lid == lid2))
      << Shape;
  z3::expr i = Var("i"), l = Var("l");
  z3::expr Gi = z3::udiv(i, Rk);
  z3::expr Li = LaneDim ? l * Rk + z3::urem(i, Rk) : z3::urem(i, Rk) * Wk + l;
  EXPECT_TRUE(proved(C, Small && z3::ult(i, n) && z3::ult(l, Wk),
                     z3::ult(Gi, Groups) && z3::ult(Li, L) && Row(Gi, Li) == i &&
                         Lane(Li) == l))
      << Shape;
  for (uint64_t S = W / 2; S >= 1; S /= 2) {
    z3::expr Sk = K(S);
    z3::expr Reads = z3::ult(lid, L) && z3::ult(Lane(lid), Sk);
    z3::expr Other = lid + Sk * (LaneDim ? Rk : K(1));
    EXPECT_TRUE(proved(C, Reads,
                       z3::ult(Other, L) && Row(G, Other) == Row(G, lid) &&
                           Lane(Other) == Lane(lid) + Sk))
        << Shape << " s=" << S;
    EXPECT_TRUE(proved(C, Reads && z3::ult(lid2, L) && z3::ult(Lane(lid2), Sk), lid2 != Other))
        << Shape << " s=" << S;
  }
}

} // namespace idiom::rwtest

#endif // IDIOM_TEST_REWRITE_PROOFUTIL_H
