//===- RowLanesGen.cpp - kernels of row reductions by lanes ---------------===//
//
// Part of Idiom. See RowLanesGen.h: CSR-vector (Bell and Garland, SC 2009)
// as the kernel of the map-row-lanes form, and its load-balanced schedule
// over row blocks (CSR-Adaptive, Greathouse and Daga, SC 2014).
//
//===----------------------------------------------------------------------===//

#include "RowLanesGen.h"

#include "ScalarC.h"
#include "idiom/FunIL/ExprUtil.h"

namespace idiom::rewrite::codegen {

using funil::Expr;

namespace {

bool isLambda1(const ExprPtr &E) { return E->K == Expr::Lambda && E->Params.size() == 1; }

bool isVarNamed(const ExprPtr &E, const std::string &N) {
  return E->K == Expr::Var && E->Name == N;
}

/// A positive integer literal, or 0.
int64_t literal(const ExprPtr &E) {
  return E->K == Expr::Lit && E->signedValue() > 0 ? E->signedValue() : 0;
}

/// The parts of the lane sum at(iterate(K, STEP, toLocal(mapLocal(0, PL,
/// strided(W, xs)))), 0).
struct LaneSum {
  ExprPtr Node;    ///< the at(...) node
  ExprPtr Combine; ///< \pr => reduceSeq(c, e, pr)
  ExprPtr Lane;    ///< \p => reduceSeq(f, e', p)
  ExprPtr Strided; ///< strided(W, xs)
  int64_t W = 0;
  int64_t Dim = 0; ///< the local dimension of the lanes (0 or 1)
};

bool matchLaneSum(const ExprPtr &E, LaneSum &S) {
  if (!E->isCall("at") || E->Args[1]->K != Expr::Lit ||
      E->Args[1]->signedValue() != 0 || !E->Args[0]->isCall("iterate"))
    return false;
  const ExprPtr &It = E->Args[0];
  int64_t K = It->Args[0]->K == Expr::Lit ? It->Args[0]->signedValue() : -1;
  const ExprPtr &Step = It->Args[1], &Seq = It->Args[2];
  if (K < 1 || K > 10 || !isLambda1(Step) || !Seq->isCall("toLocal") ||
      !Seq->Args[0]->isCall("mapLocal") ||
      (Seq->Args[0]->Attr != 0 && Seq->Args[0]->Attr != 1))
    return false;
  const int64_t Dim = Seq->Args[0]->Attr;
  const ExprPtr &SB = Step->body();
  if (!SB->isCall("toLocal") || !SB->Args[0]->isCall("mapLocal") || SB->Args[0]->Attr != Dim ||
      !SB->Args[0]->Args[1]->isCall("halves") ||
      !isVarNamed(SB->Args[0]->Args[1]->Args[0], Step->Params[0].Name))
    return false;
  const ExprPtr &Comb = SB->Args[0]->Args[0], &Lane = Seq->Args[0]->Args[0];
  const ExprPtr &Str = Seq->Args[0]->Args[1];
  if (!isLambda1(Comb) || !Comb->body()->isCall("reduceSeq") ||
      !isVarNamed(Comb->body()->Args[2], Comb->Params[0].Name) || !isLambda1(Lane) ||
      !Lane->body()->isCall("reduceSeq") ||
      !isVarNamed(Lane->body()->Args[2], Lane->Params[0].Name) || !Str->isCall("strided") ||
      literal(Str->Args[0]) != (int64_t(1) << K))
    return false;
  // The tree's operator and the lanes' step accumulate the same non-bool
  // scalar (the __local array's element).
  const ExprPtr &C = Comb->body()->Args[0], &F = Lane->body()->Args[0];
  if (C->K != Expr::Lambda || C->Params.size() != 2 || !C->Params[0].Ty->isScalar() ||
      C->Params[0].Ty->S == ScalarKind::Bool || F->K != Expr::Lambda || F->Params.size() != 2 ||
      !F->Params[0].Ty->isScalar(C->Params[0].Ty->S))
    return false;
  S = {E, Comb, Lane, Str, int64_t(1) << K, Dim};
  return true;
}

} // namespace

bool emitRowLanes(Emitter &Em, const ExprPtr &Body, const CVal &Target,
                  const std::string &Blocks) {
  // join(mapWorkgroup(0, \g => mapLocal(1, \r => B, g), split(R, a)))
  if (!Body->isCall("join") || !Body->Args[0]->isCall("mapWorkgroup"))
    return false;
  const ExprPtr &MW = Body->Args[0];
  const ExprPtr &G = MW->Args[0], &Split = MW->Args[1];
  if (MW->Attr != 0 || !isLambda1(G) || !Split->isCall("split") || !literal(Split->Args[0]))
    return false;
  const ExprPtr &ML = G->body();
  if (!ML->isCall("mapLocal") || (ML->Attr != 0 && ML->Attr != 1) ||
      !isLambda1(ML->Args[0]) || !isVarNamed(ML->Args[1], G->Params[0].Name))
    return false;
  const ExprPtr &Row = ML->Args[0];
  LaneSum S;
  std::vector<ExprPtr> Found;
  funil::findOutsideLambdas(Row->body(), [&](const ExprPtr &E) { return matchLaneSum(E, S); },
                            Found);
  int64_t R = literal(Split->Args[0]);
  if (Found.size() != 1 || !matchLaneSum(Found[0], S) || R * S.W > 1024 ||
      ML->Attr != 1 - S.Dim || (!Blocks.empty() && (R != 1 || S.Dim != 0)))
    return false;

  ScalarKind T = S.Combine->body()->Args[0]->Params[0].Ty->S;
  std::string Lid = Em.fresh("lid"), Lane = Em.fresh("lane"), I = Em.fresh("i0");
  std::string Sums = Em.fresh("lane_sums"), Part = Em.fresh("part");
  std::string W = std::to_string(S.W), End;
  Em.line("const long " + Lid + " = get_local_id(0);");
  if (Blocks.empty()) {
    // Lanes in dimension 0: local id l is row l / W, lane l % W, and a
    // lane's neighbour in the tree is 1 slot away per lane; in dimension 1:
    // row l % R, lane l / R, R slots per lane. The slot of (row, lane) is l.
    const std::string RS = std::to_string(R);
    Em.line("const long " + Lane + " = " + Lid + (S.Dim ? " / " + RS : " % " + W) + ";");
    Em.line("const long " + I + " = (long)get_group_id(0) * " + RS + " + " + Lid +
            (S.Dim ? " % " + RS : " / " + W) + ";");
  } else {
    // Rows r0 .. r1-1 of block get_group_id(0), at most S.W of them (the
    // runtime's blocks), each with w = 2^lg = S.W / (r1 - r0) lanes rounded
    // down to a power of two (uniform in the work-group; shifts, not 64-bit
    // divisions).
    std::string R0 = Em.fresh("r0"), Lg = Em.fresh("lg"), Wv = Em.fresh("w");
    End = Em.fresh("r1");
    int64_t Log = 0;
    while ((int64_t(1) << Log) < S.W)
      ++Log;
    Em.line("const long " + R0 + " = " + Blocks + "[get_group_id(0)];");
    Em.line("const long " + End + " = " + Blocks + "[get_group_id(0) + 1];");
    Em.line("int " + Lg + " = " + std::to_string(Log) + ";");
    Em.line("while (" + Lg + " > 0 && (" + End + " - " + R0 + ") << " + Lg + " > " + W + ")");
    Em.line("  --" + Lg + ";");
    Em.line("const long " + Wv + " = 1L << " + Lg + ";");
    Em.line("const long " + Lane + " = " + Lid + " & (" + Wv + " - 1);");
    Em.line("const long " + I + " = " + R0 + " + (" + Lid + " >> " + Lg + ");");
    W = Wv;
  }
  Em.line(std::string("__local ") + clType(T) + " " + Sums + "[" + std::to_string(R * S.W) +
          "];");
  CVal Init = Em.emit(S.Lane->body()->Args[1]);
  if (Init.K != CVal::Scalar)
    throw CodegenError("a row lane's initial value must be a scalar");
  Em.line(std::string(clType(T)) + " " + Part + " = " + Init.Expr + ";");
  CVal Rows = Em.emit(Split->Args[1]);
  if (Rows.K != CVal::Array)
    throw CodegenError("map of a non-array");
  const std::string &RowParam = Row->Params[0].Name;
  std::string InRange = I + " < " + Rows.Arr->Len;
  if (!End.empty())
    InRange = I + " < " + End + " && " + InRange;

  // Lane `lane` of row i: elements lane, lane + W, ... of the row (W the
  // literal, or with row blocks the block's w, bound as a variable).
  Em.open("if (" + InRange + ")");
  size_t D0 = Em.envDepth();
  Em.bind(RowParam, Em.settle(Rows.Arr->At(I), RowParam));
  ExprPtr Strided = S.Strided;
  if (!End.empty()) {
    const std::string StepVar = "$row_lanes";
    Em.bind(StepVar, CVal::scalar(W, ScalarKind::I64));
    Strided = Expr::call("strided", {Expr::var(StepVar), S.Strided->Args[1]});
  }
  CVal Lanes = Em.emit(Strided);
  if (Lanes.K != CVal::Array)
    throw CodegenError("strided of a non-array");
  CVal Sum = Em.apply(S.Lane, {Lanes.Arr->At(Lane)});
  Em.line(Part + " = " + Sum.Expr + ";");
  Em.popTo(D0);
  Em.close();
  Em.line(Sums + "[" + Lid + "] = " + Part + ";");
  Em.line("barrier(CLK_LOCAL_MEM_FENCE);");

  // The halving tree over the W lanes of each row: unrolled for a literal
  // W, a loop for a block's w (uniform: every work-item reaches each
  // barrier). Slots: the distance of a lane's partner in the __local array
  // (R per lane with the lanes in dimension 1).
  auto HalvingStep = [&](const std::string &H, const std::string &Slots) {
    Em.open("if (" + Lane + " < " + H + ")");
    auto Pair = std::make_shared<View>();
    Pair->Len = "2";
    Pair->At = [Sums, Lid, Slots, T](const std::string &J) {
      return CVal::scalar(Sums + "[" + addS(Lid, mulS(J, Slots)) + "]", T);
    };
    CVal V = Em.settle(Em.apply(S.Combine, {CVal::array(Pair)}));
    Em.line(Sums + "[" + Lid + "] = " + V.Expr + ";");
    Em.close();
    Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
  };
  if (End.empty()) {
    for (int64_t Half = S.W / 2; Half >= 1; Half /= 2)
      HalvingStep(std::to_string(Half), std::to_string(S.Dim ? Half * R : Half));
  } else {
    std::string H = Em.fresh("half");
    Em.open("for (long " + H + " = " + W + " / 2; " + H + " >= 1; " + H + " /= 2)");
    HalvingStep(H, H);
    Em.close();
  }

  // Lane 0: the map's function with the row's sum, stored at row i.
  Em.open("if (" + Lane + " == 0 && " + InRange + ")");
  Em.bind(RowParam, Em.settle(Rows.Arr->At(I), RowParam));
  const std::string SumVar = "$lane_sum";
  Em.bind(SumVar, CVal::scalar(Sums + "[" + Lid + "]", T));
  ExprPtr Fin = funil::replaceSubterm(Row->body(), S.Node, Expr::var(SumVar));
  Em.assign(Em.elementOf(Target, I), Em.emit(Fin));
  Em.popTo(D0);
  Em.close();
  return true;
}

} // namespace idiom::rewrite::codegen
