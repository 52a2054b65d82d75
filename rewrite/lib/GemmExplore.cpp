//===- GemmExplore.cpp - the variants of a matrix product ------------------===//
//
// Part of Idiom. Exploration for GEMM programs (DESIGN section 5; seeds/000,
// "Heuristics for Matrix Multiplication": the macro rules are applied with
// a small set of tile parameters, pruned by resource limits, and the
// choice is left to measurement, runtime/lib/tuning.c).
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/Rules.h"

#include "idiom/FunIL/Type.h"

namespace idiom::rewrite {

using funil::Expr;
using funil::Program;

namespace {

struct GemmRow {
  unsigned TM, TN, TK, RM, RN;
  bool Local;
};

// Most promising first (docs/Benchmarks.md has the H200 measurements). The
// last row is the default lowering (one output per work-item), kept as the
// safe fallback.
const GemmRow Rows[] = {
    {128, 128, 8, 8, 8, true},  {128, 128, 16, 8, 8, true}, {128, 64, 16, 8, 4, true},
    {64, 64, 16, 4, 4, true},   {64, 128, 16, 4, 8, true},  {128, 128, 8, 8, 8, false},
    {64, 64, 8, 4, 4, true},    {16, 16, 16, 1, 1, true},   {0, 0, 0, 1, 1, false},
};

/// Limits known at compile time (conservative: every GPU we target has at
/// least these).
constexpr unsigned MaxWorkGroup = 256;
constexpr unsigned MaxAccumulatorBytes = 256; ///< private accumulators per work-item
/// Elements of padding per local row (keeps rows 16-byte aligned and
/// spreads transposed stores over the banks; codegen/MatMulGen.cpp).
constexpr unsigned LocalPad = 4;

unsigned elementBytes(const Program &P) {
  for (const funil::Param &Pa : P.Params)
    if (Pa.Ty->isBuffer())
      return funil::scalarBits(Pa.Ty->Elem->S) / 8;
  return 4;
}

} // namespace

std::vector<VariantParams> gemmVariants(const Program &P, unsigned Max) {
  unsigned Bytes = elementBytes(P);
  std::vector<VariantParams> Out;
  for (const GemmRow &R : Rows) {
    if (Out.size() >= std::max(1u, Max))
      break;
    VariantParams V;
    V.Gemm = true;
    if (R.TM) {
      unsigned WX = R.TN / R.RN, WY = R.TM / R.RM;
      unsigned LocalBytes = R.Local ? R.TK * (R.TM + LocalPad + R.TN + LocalPad) * Bytes : 0;
      if (WX * WY > MaxWorkGroup || R.RM * R.RN * Bytes > MaxAccumulatorBytes ||
          LocalBytes > MaxLocalBytes)
        continue;
      V.WorkGroup[0] = WX;
      V.WorkGroup[1] = WY;
      V.Tile[0] = R.TM;
      V.Tile[1] = R.TN;
      V.Tile[2] = R.TK;
      V.Block[0] = R.RM;
      V.Block[1] = R.RN;
      V.Local = R.Local;
    }
    Out.push_back(V);
  }
  return Out;
}

Strategy gemmVariantStrategy(const VariantParams &V) {
  std::vector<Strategy> Steps{normalize(ruleStrategy(*findRule("fmuladd-to-fma")))};
  if (V.Tile[0]) {
    Steps.push_back(ruleStrategy(
        matMulRule(V.Tile[0], V.Tile[1], V.Tile[2], V.Block[0], V.Block[1])));
    if (V.Local)
      Steps.push_back(oncePosition(ruleStrategy(*findRule("to-local-operands"))));
  } else {
    Steps.push_back(mapToGlobalStrategy());
    Steps.push_back(sequentialiseStrategy());
  }
  return sequence(std::move(Steps));
}

} // namespace idiom::rewrite
