//===- matmul.cpp - matrix-product macro rules -----------------------------===//
//
// Part of Idiom. The macro rules of seeds/000 ("Case Study: Matrix
// Multiplication", section 4: tiling 4.2, register blocking 4.3, and the
// four macro rules of its exploration: 1-D blocking, 2-D blocking, tiling)
// over the canonical GEMM program of the lifting contract, plus the
// floating-point contraction the contract licenses for GEMM programs.
// The forms are built in MatMulForm.cpp.
//
//===----------------------------------------------------------------------===//

#include "../MatMulForm.h"
#include "../RuleHelpers.h"
#include "idiom/Rewrite/Rules.h"

namespace idiom::rewrite {

using namespace detail;

namespace {

/// fmuladd(a, b, c) -> fma(a, b, c). llvm.fmuladd allows the fused
/// evaluation, so the rule is exact with respect to the source's semantics;
/// the GEMM strategies apply it in every variant (the GEMM contract), so
/// that all of them round alike.
Rule fmuladdToFma() {
  Rule R;
  R.Name = "fmuladd-to-fma";
  R.Family = "matmul";
  R.Doc = "fmuladd(a, b, c) -> fma(a, b, c) (llvm.fmuladd licenses fusion)";
  R.Roots = {"fmuladd"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("fmuladd"))
      return false;
    B["e"] = E;
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &) {
    return Expr::call("fma", B.at("e")->Args);
  };
  return R;
}

} // namespace

bool isCanonicalGemm(const ExprPtr &Body) {
  matmul::GemmParts G;
  return matmul::matchCanonicalGemm(Body, G);
}

bool isTwoProductGemm(const ExprPtr &Body) {
  matmul::GemmParts G;
  matmul::Triangle Tri;
  return (matmul::matchCanonicalGemm(Body, G) || matmul::matchTriangularGemm(Body, G, Tri)) &&
         G.pairs();
}

bool isTriangularGemm(const ExprPtr &Body) {
  matmul::GemmParts G;
  matmul::Triangle Tri;
  return matmul::matchTriangularGemm(Body, G, Tri);
}

bool isBandGemm(const ExprPtr &Body) {
  matmul::GemmParts G;
  return matmul::matchBandGemm(Body, G);
}

Rule matMulRule(int64_t TM, int64_t TN, int64_t TK, int64_t RM, int64_t RN, int64_t GM,
                int64_t GN) {
  matmul::TileParams P;
  P.TM = TM;
  P.TN = TN;
  P.TK = TK;
  P.RM = RM;
  P.RN = RN;
  P.GM = GM == RM ? 0 : GM;
  P.GN = GN == RN ? 0 : GN;
  Rule R;
  R.Name = "mm-tile-" + std::to_string(TM) + "x" + std::to_string(TN) + "x" +
           std::to_string(TK) + "-block-" + std::to_string(RM) + "x" + std::to_string(RN);
  if (P.GM || P.GN)
    R.Name += "-groups-" + std::to_string(P.gm()) + "x" + std::to_string(P.gn());
  R.Family = "matmul";
  R.Context = AppliesIn::Host;
  R.Doc = "map(\\r => map(\\q => POST(reduceSeq(STEP, INIT, zip(r.0, q.0)), q.1), "
          "zip(B, r.1)), zip(A, C)) -> join(mapWorkgroup(1, .. mapWorkgroup(0, .. "
          "mapLocal(1, mapLocal(0, toPrivate(block))) .. reduceSeq over K tiles ..))); "
          "a triangular GEMM (select(MASK, POST, q.1) over zips with iota) -> the "
          "tiled form of its square merged with C by MASK (mergeTriangle); two "
          "products per step (zips ending with A2, B2) tile all four operands; a band "
          "program (TRMM: STEP select(icmp_slt(x.2, E(r.2)), acc, S) or its lower "
          "form) -> the tiled form whose row tiles zip their indices and K tiles "
          "their k indices, each element's step keeping the mask (bandStep)";
  R.Roots = {"map"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!isCanonicalGemm(E) && !isTriangularGemm(E) && !isBandGemm(E))
      return false;
    B["e"] = E;
    return true;
  };
  R.Condition = [P](const Bindings &, const RuleContext &) {
    return P.valid() && P.wgX() * P.wgY() <= 1024;
  };
  R.Build = [P](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    matmul::GemmParts G;
    matmul::Triangle Tri;
    matmul::FreshFn Fresh = [&Ctx](const std::string &Base) { return Ctx.fresh(Base); };
    if (matmul::matchCanonicalGemm(B.at("e"), G) || matmul::matchBandGemm(B.at("e"), G))
      return matmul::buildTiledMatMul(G, P, Fresh);
    if (!matmul::matchTriangularGemm(B.at("e"), G, Tri))
      return nullptr;
    return matmul::mergeTriangle(matmul::buildTiledMatMul(G, P, Fresh), G, Tri, Fresh);
  };
  return R;
}

const std::vector<Rule> &matMulRules() {
  static const std::vector<Rule> Rules = [] {
    std::vector<Rule> V{fmuladdToFma()};
    // seeds/000's three shapes: 2-D tiling alone (one output per
    // work-item), 1-D register blocking (a column of RM outputs per
    // work-item), 2-D register blocking (an RM x RN block per
    // work-item; small instances, exploration instantiates larger ones).
    Rule Tile = matMulRule(8, 8, 4, 1, 1);
    Tile.Name = "mm-tile-2d";
    Rule Block1 = matMulRule(16, 8, 4, 2, 1);
    Block1.Name = "mm-block-1d";
    Rule Block2 = matMulRule(16, 16, 4, 2, 2);
    Block2.Name = "mm-block-2d";
    V.push_back(Tile);
    V.push_back(Block1);
    V.push_back(Block2);
    return V;
  }();
  return Rules;
}

} // namespace idiom::rewrite
