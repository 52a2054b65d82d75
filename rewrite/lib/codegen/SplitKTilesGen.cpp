//===- SplitKTilesGen.cpp - split-K GEMV^T tiles ----------------------------===//
//
// Part of Idiom. See SplitKTilesGen.h.
//
//===----------------------------------------------------------------------===//

#include "SplitKTilesGen.h"

#include "HistogramGen.h"
#include "ScalarC.h"
#include "idiom/FunIL/ExprUtil.h"

namespace idiom::rewrite::codegen {

using funil::Expr;

namespace {

bool isVarNamed(const ExprPtr &E, const std::string &N) {
  return E->K == Expr::Var && E->Name == N;
}

/// A positive integer literal, or 0.
int64_t literal(const ExprPtr &E) {
  return E->K == Expr::Lit && E->signedValue() > 0 ? E->signedValue() : 0;
}

/// `Op(X, N)` with X the variable \p T and N the same expression as \p Len.
bool isOpOfT(const ExprPtr &E, const char *Op, const std::string &T, const ExprPtr &Len) {
  return E->isCall(Op) && E->Args.size() == 2 && isVarNamed(E->Args[0], T) &&
         funil::sameExpr(*E->Args[1], *Len);
}

/// The parts of the split-K form (SplitKTilesGen.h).
struct SplitKForm {
  ExprPtr Op;     ///< the bins' operator
  ExprPtr Step;   ///< f
  ExprPtr Init;   ///< z
  ExprPtr Vec;    ///< XV, the zip's operand free of t
  ExprPtr Matrix; ///< view(B, oB, 1, N, sB, K)
  bool MatrixFirst = false; ///< XS = zip(at(Matrix, ..), XV)
  int64_t S = 0;
};

bool matchSplitK(const funil::Program &P, SplitKForm &F) {
  const ExprPtr &Root = P.Body;
  if (!Root->isCall("reduceIndexedAtomic") || P.Outs.size() != 1 ||
      P.Outs[0]->Args.size() != 4)
    return false;
  const ExprPtr &N = P.Outs[0]->Args[3], &Pairs = Root->Args[2];
  if (!Pairs->isCall("mapGlobal") || Pairs->Attr != 0 || Pairs->Args[0]->K != Expr::Lambda ||
      Pairs->Args[0]->Params.size() != 1 || !Pairs->Args[1]->isCall("iota"))
    return false;
  const ExprPtr &Count = Pairs->Args[1]->Args[0];
  const ExprPtr &Fn = Pairs->Args[0];
  const std::string &T = Fn->Params[0].Name;
  const ExprPtr &Pair = Fn->body();
  if (!Count->isCall("mul") || Count->Args.size() != 2 || !funil::sameExpr(*Count->Args[0], *N) ||
      Pair->K != Expr::Tuple || Pair->Args.size() != 2 || !isOpOfT(Pair->Args[0], "srem", T, N))
    return false;
  const ExprPtr &Red = Pair->Args[1];
  if (!Red->isCall("reduceSeq") || Red->Args[0]->K != Expr::Lambda ||
      Red->Args[0]->Params.size() != 2 || !Red->Args[0]->Params[0].Ty->isScalar())
    return false;
  const ExprPtr &At = Red->Args[2];
  if (!At->isCall("at") || !isOpOfT(At->Args[1], "sdiv", T, N) ||
      !At->Args[0]->isCall("strided"))
    return false;
  int64_t S = literal(At->Args[0]->Args[0]);
  const ExprPtr &XS = At->Args[0]->Args[1];
  if (S == 0 || S % SplitKTileSlices != 0 || literal(Count->Args[1]) != S ||
      !XS->isCall("zip") || XS->Args.size() != 2)
    return false;
  for (unsigned M = 0; M < 2; ++M) {
    const ExprPtr &Col = XS->Args[M], &Other = XS->Args[1 - M];
    if (!Col->isCall("at") || !isOpOfT(Col->Args[1], "srem", T, N))
      continue;
    const ExprPtr &V = Col->Args[0];
    std::set<std::string> Free;
    funil::freeVars(*Other, Free);
    if (!V->isCall("view") || V->Args.size() != 6 || V->Args[2]->K != Expr::Lit ||
        V->Args[2]->signedValue() != 1 || !funil::sameExpr(*V->Args[3], *N) || Free.count(T))
      continue;
    F = {Root->Args[0], Red->Args[0], Red->Args[1], Other, V, M == 0, S};
    return true;
  }
  return false;
}

} // namespace

void emitSplitKTiles(Emitter &Em, const funil::Program &P, unsigned Unroll) {
  SplitKForm F;
  if (!matchSplitK(P, F))
    throw CodegenError("the split-K tiles need the split-K form of a GEMV^T (a literal "
                       "multiple of 16 slices, a matrix view with unit output stride)");
  if (Unroll < 1 || Unroll > 16)
    throw CodegenError("the split-K tiles unroll 1 to 16 rows");
  ScalarKind T = F.Step->Params[0].Ty->S;
  const std::string Ty = clType(T), Ty4 = Ty + std::string("4");
  CVal Bins = Em.emit(P.Outs[0]), Vec = Em.emit(F.Vec), Mat = Em.emit(F.Matrix);
  if (Bins.K != CVal::Array || Vec.K != CVal::Array || Mat.K != CVal::Array)
    throw CodegenError("the split-K tiles' operands are not arrays");
  const std::string N = Bins.Arr->Len, K = Vec.Arr->Len;
  // Element (j, k) of the matrix: column j's row k.
  auto Elem = [&](const std::string &J, const std::string &Kx) {
    CVal Col = Mat.Arr->At(J);
    if (Col.K != CVal::Array)
      throw CodegenError("the split-K tiles' matrix is not 2-D");
    CVal E = Col.Arr->At(Kx);
    if (E.K != CVal::Scalar || E.S != T)
      throw CodegenError("the split-K tiles' matrix elements are not the sum's scalars");
    return E.Expr;
  };
  auto VecAt = [&](const std::string &Kx) {
    CVal E = Vec.Arr->At(Kx);
    if (E.K != CVal::Scalar)
      throw CodegenError("the split-K tiles' vector elements are not scalars");
    return E;
  };
  // acc := f(acc, (x, m)) in the zip's order.
  auto Fold = [&](const std::string &Acc, const CVal &X, const CVal &M) {
    size_t D0 = Em.envDepth();
    CVal Pair;
    Pair.K = CVal::Tuple;
    Pair.Elems = F.MatrixFirst ? std::vector<CVal>{M, X} : std::vector<CVal>{X, M};
    CVal R = Em.apply(F.Step, {CVal::scalar(Acc, T), Pair});
    Em.line(Acc + " = " + R.Expr + ";");
    Em.popTo(D0);
  };

  const std::string S = std::to_string(F.S), SG = std::to_string(F.S / SplitKTileSlices);
  const std::string Lid = Em.fresh("lid"), Q = Em.fresh("quad"), Sl = Em.fresh("slice");
  const std::string Nb = Em.fresh("nb"), VecOk = Em.fresh("vec_ok"), W = Em.fresh("tile");
  const std::string J = Em.fresh("j"), Sk = Em.fresh("s"), Kv = Em.fresh("k");
  const std::string Sums = Em.fresh("slice_sums");
  std::vector<std::string> Acc;
  for (unsigned C = 0; C < 4; ++C)
    Acc.push_back(Em.fresh("acc"));
  const std::string G = std::to_string(SplitKTileGroup);
  Em.line("const long " + Lid + " = get_local_id(0);");
  Em.line("const long " + Q + " = " + Lid + " % 16, " + Sl + " = " + Lid + " / 16;");
  Em.line("const long " + Nb + " = ((" + N + ") + 63) / 64;");
  Em.line("__local " + Ty + " " + Sums + "[" + std::to_string(4 * SplitKTileGroup) + "];");
  // Vector loads of 4 outputs' elements: column 0's row 0 aligned to the
  // vector and a row stride that keeps every row so (j is a multiple of 4).
  CVal Stride = Em.emit(F.Matrix->Args[4]);
  Em.line("const int " + VecOk + " = (((ulong)&(" + Elem("0", "0") + ")) % sizeof(" + Ty4 +
          ")) == 0 && ((" + Stride.Expr + ") % 4) == 0;");
  Em.open("for (long " + W + " = get_group_id(0); " + W + " < " + Nb + " * " + SG + "; " + W +
          " += get_num_groups(0))");
  Em.line("const long " + J + " = (" + W + " % " + Nb + ") * 64 + " + Q + " * 4;");
  Em.line("const long " + Sk + " = (" + W + " / " + Nb + ") * 16 + " + Sl + ";");
  CVal Z = Em.emit(F.Init);
  if (Z.K != CVal::Scalar)
    throw CodegenError("the split-K tiles' initial value must be a scalar");
  for (const std::string &A : Acc)
    Em.line(Ty + " " + A + " = " + Z.Expr + ";");

  // The vector path: U rows' loads, then their folds in row order.
  Em.open("if (" + VecOk + " && " + J + " + 3 < " + N + ")");
  Em.line("long " + Kv + " = " + Sk + ";");
  auto Rows = [&](unsigned U) {
    std::vector<std::string> M, X;
    std::vector<CVal> XV;
    for (unsigned R = 0; R < U; ++R) {
      std::string Row = R ? Kv + " + " + std::to_string(R) + " * " + S : Kv;
      M.push_back(Em.fresh("m"));
      Em.line("const " + Ty4 + " " + M.back() + " = *(__global const " + Ty4 + " *)&(" +
              Elem(J, "(" + Row + ")") + ");");
      X.push_back(Em.fresh("x"));
      CVal V = VecAt("(" + Row + ")");
      Em.line("const " + std::string(clType(V.S)) + " " + X.back() + " = " + V.Expr + ";");
      XV.push_back(CVal::scalar(X.back(), V.S));
    }
    for (unsigned R = 0; R < U; ++R)
      for (unsigned C = 0; C < 4; ++C)
        Fold(Acc[C], XV[R], CVal::scalar(M[R] + ".s" + std::to_string(C), T));
  };
  if (Unroll > 1) {
    Em.open("for (; " + Kv + " + " + std::to_string(Unroll - 1) + " * " + S + " < " + K + "; " +
            Kv + " += " + std::to_string(Unroll) + " * " + S + ")");
    Rows(Unroll);
    Em.close();
  }
  Em.open("for (; " + Kv + " < " + K + "; " + Kv + " += " + S + ")");
  Rows(1);
  Em.close();
  Em.close();
  // The scalar tail: each of the 4 outputs below N element by element.
  Em.open("else");
  for (unsigned C = 0; C < 4; ++C) {
    std::string Jc = "(" + J + " + " + std::to_string(C) + ")";
    Em.open("if (" + Jc + " < " + N + ")");
    Em.open("for (long " + Kv + " = " + Sk + "; " + Kv + " < " + K + "; " + Kv + " += " + S + ")");
    Fold(Acc[C], VecAt(Kv), CVal::scalar(Elem(Jc, Kv), T));
    Em.close();
    Em.close();
  }
  Em.close();

  // The 16 slices of each output combined with op (slot l + 256 c holds
  // output c of work-item l; slices are 16 slots apart), then one update
  // of the bin per output by the work-items of slices 0 .. 3.
  for (unsigned C = 0; C < 4; ++C)
    Em.line(Sums + "[" + Lid + " + " + std::to_string(C * SplitKTileGroup) + "] = " + Acc[C] +
            ";");
  Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
  for (unsigned H = SplitKTileSlices / 2; H >= 1; H /= 2) {
    Em.open("if (" + Sl + " < " + std::to_string(H) + ")");
    for (unsigned C = 0; C < 4; ++C) {
      std::string Here = Sums + "[" + Lid + " + " + std::to_string(C * SplitKTileGroup) + "]";
      std::string There = Sums + "[" + Lid + " + " +
                          std::to_string(C * SplitKTileGroup + H * 16) + "]";
      size_t D0 = Em.envDepth();
      CVal R = Em.settle(Em.apply(F.Op, {CVal::scalar(Here, T), CVal::scalar(There, T)}));
      Em.line(Here + " = " + R.Expr + ";");
      Em.popTo(D0);
    }
    Em.close();
    Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
  }
  std::string Out = Em.fresh("out");
  Em.open("if (" + Sl + " < 4)");
  Em.line("const long " + Out + " = " + J + " + " + Sl + ";");
  Em.open("if (" + Out + " < " + N + ")");
  emitBinUpdate(Em, P, Out, CVal::scalar(Sums + "[" + Q + " + " + Sl + " * " + G + "]", T));
  Em.close();
  Em.close();
  Em.line("barrier(CLK_LOCAL_MEM_FENCE);"); // the next tile reuses the slots
  Em.close();
}

} // namespace idiom::rewrite::codegen
