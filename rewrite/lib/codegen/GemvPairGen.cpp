//===- GemvPairGen.cpp - the fused GEMV pair kernel -------------------------===//
//
// Part of Idiom. See GemvPair.h and docs/Rewrite.md, "Fused GEMV pair".
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/GemvPair.h"

#include "Emitter.h"
#include "ScalarC.h"
#include "idiom/FunIL/ExprUtil.h"
#include "idiom/FunIL/Type.h"
#include "idiom/Rewrite/Gemv.h"
#include "idiom/Rewrite/RowLanes.h"

#include <set>

namespace idiom::rewrite {

using funil::Expr;
using funil::Program;
using namespace codegen;

namespace {

/// One GEMV of the pair as a map of row sums (gemvAsRowMap):
/// map(\q => F[reduceSeq(STEP, INIT, zip(Z...))], zip(Matrix, Out)).
struct PairPart {
  Program P;
  ExprPtr Fn;     ///< the map's function \q => ...
  ExprPtr Red;    ///< its one reduceSeq
  ExprPtr Matrix; ///< view(B, o, s0, n0, s1, n1)
  ExprPtr Out;    ///< the output view, the program's store target
  /// The sum's zip operands; nullptr where the operand is the matrix row
  /// (q.0), else a vector view free of q.
  std::vector<ExprPtr> Operands;
  ScalarKind T = ScalarKind::F32; ///< the sum's kind
};

bool isRowOfQ(const ExprPtr &E, const std::string &Q) {
  return E->K == Expr::Proj && E->Index == 0 && E->Args[0]->K == Expr::Var &&
         E->Args[0]->Name == Q;
}

bool splitPart(const Program &In, const char *Which, PairPart &Pt, std::string &Err) {
  Pt.P = In;
  if (!gemvAsRowMap(Pt.P, Err)) {
    Err = std::string("the ") + Which + " GEMV: " + Err;
    return false;
  }
  Err = std::string("the ") + Which + " GEMV is not a map of one float sum per output";
  const ExprPtr &B = Pt.P.Body;
  if (!B->isCall("map") || B->Args[0]->K != Expr::Lambda ||
      B->Args[0]->Params.size() != 1 || !B->Args[1]->isCall("zip") ||
      B->Args[1]->Args.size() != 2 || Pt.P.Outs.size() != 1)
    return false;
  Pt.Fn = B->Args[0];
  Pt.Matrix = B->Args[1]->Args[0];
  Pt.Out = B->Args[1]->Args[1];
  if (!Pt.Matrix->isCall("view") || Pt.Matrix->Args.size() != 6 ||
      !funil::sameExpr(*Pt.Out, *Pt.P.Outs[0]))
    return false;
  std::vector<ExprPtr> Found;
  funil::findOutsideLambdas(
      Pt.Fn->body(), [](const ExprPtr &E) { return E->isCall("reduceSeq"); }, Found);
  if (Found.size() != 1)
    return false;
  Pt.Red = Found[0];
  const std::string &Q = Pt.Fn->Params[0].Name;
  const ExprPtr &Xs = Pt.Red->Args[2];
  const ExprPtr &Step = Pt.Red->Args[0];
  if (!Xs->isCall("zip") || Step->K != Expr::Lambda || Step->Params.size() != 2 ||
      !Step->Params[0].Ty->isScalar() || !funil::isFloat(Step->Params[0].Ty->S) ||
      laneCombineOp(Step) != "fadd")
    return false;
  Pt.T = Step->Params[0].Ty->S;
  unsigned Rows = 0;
  for (const ExprPtr &Z : Xs->Args) {
    if (isRowOfQ(Z, Q)) {
      Pt.Operands.push_back(nullptr);
      ++Rows;
      continue;
    }
    std::set<std::string> Free;
    funil::freeVars(*Z, Free);
    if (Free.count(Q) || !Z->isCall("view") || Z->Args.size() != 4)
      return false;
    Pt.Operands.push_back(Z);
  }
  Err.clear();
  return Rows == 1;
}

/// Unifies \p A (over the first program's parameters) with \p B (over the
/// second's), adding the parameter pairs that must be equal to \p Same.
bool unify(const Program &PA, const ExprPtr &A, const Program &PB, const ExprPtr &B,
           std::vector<std::pair<unsigned, unsigned>> &Same) {
  if (A->K != B->K)
    return false;
  switch (A->K) {
  case Expr::Lit:
    return funil::sameExpr(*A, *B);
  case Expr::Var: {
    int IA = -1, IB = -1;
    for (size_t I = 0; I < PA.Params.size(); ++I)
      if (PA.Params[I].Name == A->Name)
        IA = static_cast<int>(I);
    for (size_t I = 0; I < PB.Params.size(); ++I)
      if (PB.Params[I].Name == B->Name)
        IB = static_cast<int>(I);
    if (IA < 0 || IB < 0 || !funil::sameType(*PA.Params[IA].Ty, *PB.Params[IB].Ty))
      return false;
    std::pair<unsigned, unsigned> P(IA, IB);
    for (const auto &S : Same)
      if (S == P)
        return true;
    Same.push_back(P);
    return true;
  }
  case Expr::Call:
    if (A->Name != B->Name || A->Args.size() != B->Args.size() || A->Attr != B->Attr)
      return false;
    for (size_t I = 0; I < A->Args.size(); ++I)
      if (!unify(PA, A->Args[I], PB, B->Args[I], Same))
        return false;
    return true;
  default:
    return false;
  }
}

/// The kernel-side C names of \p P's parameters: Name + Suffix, made
/// unique against the OpenCL reserved words and \p Taken (which gets them).
std::vector<std::string> paramNames(const Program &P, const std::string &Suffix,
                                    std::set<std::string> &Taken) {
  std::vector<std::string> Names;
  const std::unordered_set<std::string> &Reserved = openclReservedNames();
  for (const funil::Param &Pa : P.Params) {
    std::string C = Pa.Name + Suffix;
    while (Reserved.count(C) || Taken.count(C) || C.rfind("__", 0) == 0)
      C += "_p";
    Taken.insert(C);
    Names.push_back(C);
  }
  return Names;
}

/// Binds \p P's parameters in \p Em under the C names \p Names and returns
/// their declarations; \p Stored: the buffer the program writes.
std::vector<std::string> bindPart(Emitter &Em, const Program &P,
                                  const std::vector<std::string> &Names,
                                  const std::string &Stored) {
  std::vector<std::string> Decls;
  for (size_t I = 0; I < P.Params.size(); ++I) {
    const funil::Param &Pa = P.Params[I];
    const std::string &C = Names[I];
    if (Pa.Ty->isBuffer()) {
      ScalarKind K = Pa.Ty->Elem->S;
      Decls.push_back(std::string("__global ") + (Pa.Name == Stored ? "" : "const ") +
                      clType(K) + " *" + C);
      CVal B;
      B.K = CVal::Buffer;
      B.Expr = C;
      B.S = K;
      Em.bind(Pa.Name, B);
    } else {
      if (Pa.Ty->S == ScalarKind::Bool)
        throw CodegenError("parameter '" + Pa.Name + "' is bool");
      Decls.push_back(std::string("const ") + clType(Pa.Ty->S) + " " + C);
      Em.bind(Pa.Name, CVal::scalar(C, Pa.Ty->S));
    }
  }
  return Decls;
}

/// The tuple of the sum's zip: the matrix element \p A where the operand
/// is the row, element \p Idx of each vector operand (emitted in \p S).
CVal stepElement(Emitter &Em, const std::vector<CVal> &Vecs, const CVal &A,
                 const std::string &Idx) {
  CVal X;
  X.K = CVal::Tuple;
  for (const CVal &V : Vecs)
    X.Elems.push_back(V.K == CVal::Array ? Em.settle(V.Arr->At(Idx), "x") : A);
  return X;
}

std::string negZero(ScalarKind T) { return T == ScalarKind::F64 ? "(-0.0)" : "(-0.0f)"; }

/// The body of variant \p V: see GemvPair.h. Returns the kernel's
/// parameter declarations; the body goes to Em.Lines.
std::vector<std::string> emitFused(Emitter &Em, const PairPart &F, const PairPart &S,
                                   const GemvPairVariant &V,
                                   const std::vector<std::string> &Names1,
                                   const std::vector<std::string> &Names2) {
  const std::string Stored1 = F.Out->Args[0]->Name, Stored2 = S.Out->Args[0]->Name;
  std::vector<std::string> Decls = bindPart(Em, F.P, Names1, Stored1);
  // the first program's views and scope
  CVal M = Em.emit(F.Matrix), Q = Em.emit(F.Out);
  std::vector<CVal> Vecs1;
  for (const ExprPtr &Z : F.Operands)
    Vecs1.push_back(Z ? Em.emit(Z) : CVal());
  Emitter::Scope S1 = Em.scope();
  Em.popTo(0);
  for (std::string &D : bindPart(Em, S.P, Names2, Stored2))
    Decls.push_back(std::move(D));
  CVal Sv = Em.emit(S.Out);
  std::vector<CVal> Vecs2;
  for (const ExprPtr &Z : S.Operands)
    Vecs2.push_back(Z ? Em.emit(Z) : CVal());
  Emitter::Scope S2 = Em.scope();
  Em.popTo(0);

  const ScalarKind T = F.T;
  const std::string Ty = clType(T), Z = negZero(T);
  const std::string WG = std::to_string(V.WorkGroup), RT = std::to_string(V.Rows);
  const unsigned Bytes = funil::scalarBits(T) / 8;
  unsigned RC = V.Rows; // rows reduced per round of the tree: <= 8 KiB
  while (RC > 1 && RC * V.WorkGroup * Bytes > 8192)
    RC /= 2;
  const std::string RCs = std::to_string(RC);
  const std::string Lid = Em.fresh("lid"), Row0 = Em.fresh("row0"), NRows = Em.fresh("nrows"),
                    QA = Em.fresh("qa"), LQ = Em.fresh("lq"), NCh = Em.fresh("nch"),
                    Rot = Em.fresh("rot"), Tv = Em.fresh("t"), Cv = Em.fresh("c"),
                    Uv = Em.fresh("u"), Hv = Em.fresh("h"), T0 = Em.fresh("t0");
  const std::string Rows = M.Arr->Len, Cols = M.Arr->At("0").Arr->Len;
  Em.line("const long " + Lid + " = get_local_id(0);");
  Em.line("const long " + Row0 + " = (long)get_group_id(0) * " + RT + "L;");
  Em.line("const long " + NRows + " = min((long)" + RT + "L, (long)(" + Rows + ") - " + Row0 + ");");
  Em.line("__local " + Ty + " " + LQ + "[" + std::to_string(RC * V.WorkGroup) + "];");
  Em.line(Ty + " " + QA + "[" + RT + "];");
  Em.line("#pragma unroll");
  Em.open("for (long " + Tv + " = 0; " + Tv + " < " + RT + "L; ++" + Tv + ")");
  Em.line(QA + "[" + Tv + "] = " + Z + ";");
  Em.close();
  // the tile's columns, a work-group-wide chunk at a time, starting at a
  // chunk that depends on the group (neighbouring work-groups update
  // different columns of s at a time)
  Em.line("const long " + NCh + " = ((long)(" + Cols + ") + " + WG + "L - 1) / " + WG + "L;");
  Em.line("const long " + Rot + " = " + NCh + " > 0 ? (long)get_group_id(0) % " + NCh + " : 0;");
  Em.open("for (long " + Cv + " = 0; " + Cv + " < " + NCh + "; ++" + Cv + ")");
  std::string Ch = Em.fresh("ch"), J = Em.fresh("j");
  Em.line("const long " + Ch + " = " + Cv + " + " + Rot + " < " + NCh + " ? " + Cv + " + " + Rot +
          " : " + Cv + " + " + Rot + " - " + NCh + ";");
  Em.line("const long " + J + " = " + Ch + " * " + WG + "L + " + Lid + ";");
  Em.open("if (" + J + " < (long)(" + Cols + "))");
  std::string SP = Em.fresh("sp");
  Em.line(Ty + " " + SP + " = " + Z + ";");
  // the first program's vector elements at column j, read once
  std::vector<CVal> X1;
  for (const CVal &Vc : Vecs1)
    X1.push_back(Vc.K == CVal::Array ? Em.settle(Vc.Arr->At(J), "p") : CVal());
  Em.line("#pragma unroll");
  Em.open("for (long " + Tv + " = 0; " + Tv + " < " + RT + "L; ++" + Tv + ")");
  Em.open("if (" + Tv + " < " + NRows + ")");
  std::string I = Em.fresh("i");
  Em.line("const long " + I + " = " + Row0 + " + " + Tv + ";");
  CVal A = Em.settle(M.Arr->At(I).Arr->At(J), "a");
  CVal T1;
  T1.K = CVal::Tuple;
  for (const CVal &X : X1)
    T1.Elems.push_back(X.Expr.empty() ? A : X);
  CVal R1 = Em.applyIn(S1, F.Red->Args[0], {CVal::scalar(QA + "[" + Tv + "]", T), T1});
  Em.line(QA + "[" + Tv + "] = " + R1.Expr + ";");
  CVal T2 = stepElement(Em, Vecs2, A, I);
  CVal R2 = Em.applyIn(S2, S.Red->Args[0], {CVal::scalar(SP, T), T2});
  Em.line(SP + " = " + R2.Expr + ";");
  Em.close();
  Em.close();
  // s[j] += sp: the compare-and-swap loop of a float fadd bin
  const bool Wide = Bytes == 8;
  const std::string W = Wide ? "ulong" : "uint", AsW = Wide ? "as_ulong" : "as_uint",
                    AsT = Wide ? "as_double" : "as_float";
  std::string P = Em.fresh("p"), Old = Em.fresh("old"), As = Em.fresh("assumed");
  Em.line("volatile __global " + W + " *" + P + " = (volatile __global " + W + " *)(&(" +
          Sv.Arr->At(J).Expr + "));");
  Em.line(W + " " + Old + " = *" + P + ", " + As + ";");
  Em.open("do");
  Em.line(As + " = " + Old + ";");
  Em.line(Old + " = " + (Wide ? "atom_cmpxchg(" : "atomic_cmpxchg(") + P + ", " + As + ", " +
          AsW + "(" + AsT + "(" + As + ") + " + SP + "));");
  Em.close();
  Em.Lines.back() += " while (" + Old + " != " + As + ");";
  Em.close();
  Em.close();
  // q: the tile's row partials summed across the work-group, RC rows a round
  Em.line("#pragma unroll");
  Em.open("for (long " + T0 + " = 0; " + T0 + " < " + RT + "L; " + T0 + " += " + RCs + "L)");
  Em.line("#pragma unroll");
  Em.open("for (long " + Uv + " = 0; " + Uv + " < " + RCs + "L; ++" + Uv + ")");
  Em.line(LQ + "[" + Uv + " * " + WG + "L + " + Lid + "] = " + QA + "[" + T0 + " + " + Uv + "];");
  Em.close();
  Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
  Em.open("for (long " + Hv + " = " + std::to_string(V.WorkGroup / 2) + "L; " + Hv + " > 0; " + Hv + " >>= 1)");
  Em.open("if (" + Lid + " < " + Hv + ")");
  Em.line("#pragma unroll");
  Em.open("for (long " + Uv + " = 0; " + Uv + " < " + RCs + "L; ++" + Uv + ")");
  const std::string Slot = LQ + "[" + Uv + " * " + WG + "L + " + Lid;
  Em.line(Slot + "] = " + Slot + "] + " + Slot + " + " + Hv + "];");
  Em.close();
  Em.close();
  Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
  Em.close();
  Em.open("if (" + Lid + " < " + RCs + "L && " + T0 + " + " + Lid + " < " + NRows + ")");
  std::string IQ = Em.fresh("iq"), Sum = Em.fresh("sum");
  Em.line("const long " + IQ + " = " + Row0 + " + " + T0 + " + " + Lid + ";");
  Em.line("const " + Ty + " " + Sum + " = " + LQ + "[" + Lid + " * " + WG + "L];");
  // the map's function with the sum in place of reduceSeq: POST(c(INIT, sum))
  std::string SumVar = "sum__";
  std::set<std::string> Names;
  funil::allNames(*F.Fn, Names);
  SumVar = funil::freshName(SumVar, Names);
  ExprPtr Final = funil::replaceSubterm(
      F.Fn->body(), F.Red, Expr::call("fadd", {F.Red->Args[1], Expr::var(SumVar)}));
  ExprPtr Fn = Expr::lambda({F.Fn->Params[0], {SumVar, funil::Type::scalar(T)}}, Final);
  CVal QT;
  QT.K = CVal::Tuple;
  QT.Elems = {M.Arr->At(IQ), Q.Arr->At(IQ)};
  CVal R = Em.applyIn(S1, Fn, {QT, CVal::scalar(Sum, T)});
  Em.assign(Q.Arr->At(IQ), R);
  Em.close();
  Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
  Em.close();
  return Decls;
}

} // namespace

const std::vector<GemvPairVariant> &gemvPairVariants() {
  // 16 or 32 rows a tile: an atomic per column every 16 or 32 rows, the
  // partials of q in registers; 64 rows for few atomics, 8 for many tiles
  static const std::vector<GemvPairVariant> V = {
      {256, 16}, {256, 32}, {128, 32}, {256, 8}, {128, 16}, {256, 64}};
  return V;
}

bool unifyPairMatrices(const Program &First, const Program &Second,
                       std::vector<std::pair<unsigned, unsigned>> &Same, std::string &Err) {
  Err = "the two GEMVs do not read one matrix in the row-major and transposed layouts";
  if (gemvLayout(First) != GemvLayout::RowContiguous ||
      gemvLayout(Second) != GemvLayout::ColumnContiguous)
    return false;
  PairPart F, S;
  if (!splitPart(First, "first", F, Err) || !splitPart(Second, "second", S, Err))
    return false;
  const ExprPtr &A = F.Matrix, &B = S.Matrix;
  // view(B, o, s, N, 1, K) ~ view(B', o', 1, K', s', N')
  static const unsigned Map[6] = {0, 1, 4, 5, 2, 3};
  for (unsigned I = 0; I < 6; ++I)
    if (!unify(F.P, A->Args[I], S.P, B->Args[Map[I]], Same)) {
      Err = "the two GEMVs' matrix views differ (term " + std::to_string(I) + ")";
      return false;
    }
  Err.clear();
  return true;
}

bool generateGemvPairFused(const Program &First, const Program &Second,
                           const std::string &Name, bool FPReassoc, GeneratedOpenCL &Out,
                           std::string &Err) {
  if (!FPReassoc) {
    Err = "the fused pair reassociates both sums: not without the floating-point licence";
    return false;
  }
  std::vector<std::pair<unsigned, unsigned>> Same;
  if (!unifyPairMatrices(First, Second, Same, Err))
    return false;
  PairPart F, S;
  if (!splitPart(First, "first", F, Err) || !splitPart(Second, "second", S, Err))
    return false;
  // the second sums into its output in place, with nothing around the sum
  const ExprPtr &Init2 = S.Red->Args[1];
  if (S.Fn->body() != S.Red || Init2->K != Expr::Proj || Init2->Index != 1 ||
      Init2->Args[0]->K != Expr::Var || Init2->Args[0]->Name != S.Fn->Params[0].Name) {
    Err = "the GEMV^T of the pair does not add its sum into its output in place";
    return false;
  }
  if (F.T != S.T) {
    Err = "the two GEMVs sum in different types";
    return false;
  }
  std::string Src = "// Generated by Idiom from the GEMV pair '" + First.Name + "', '" +
                    Second.Name + "' fused (docs/Rewrite.md, \"Fused GEMV pair\"); "
                    "conventions of runtime/include/idiomrt.h.\n";
  const bool F64 = F.T == ScalarKind::F64;
  if (F64)
    Src += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
           "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
           "#ifndef cl_khr_int64_base_atomics\n"
           "#error \"a double GEMV^T's atomic sums need cl_khr_int64_base_atomics\"\n"
           "#endif\n";
  Src += "#pragma OPENCL FP_CONTRACT OFF\n";
  Src += PairSameMarker;
  for (const auto &P : Same)
    Src += " " + std::to_string(P.first) + " " + std::to_string(P.second);
  Src += "\n";
  Out = GeneratedOpenCL();
  const std::vector<GemvPairVariant> &Vs = gemvPairVariants();
  for (size_t K = 0; K < Vs.size(); ++K) {
    const GemvPairVariant &V = Vs[K];
    std::set<std::string> Taken;
    std::vector<std::string> Names1 = paramNames(F.P, "", Taken),
                             Names2 = paramNames(S.P, "_2", Taken);
    Emitter Em(openclReservedNames(), Taken);
    std::vector<std::string> Decls;
    try {
      Decls = emitFused(Em, F, S, V, Names1, Names2);
    } catch (const CodegenError &E) {
      Err = std::string("no fused pair kernel: ") + E.what();
      return false;
    }
    std::string Desc = "fused GEMV pair, work-group " + std::to_string(V.WorkGroup) + ", " +
                       std::to_string(V.Rows) +
                       " rows per work-group read once along the columns (q: local-memory "
                       "tree; s: atomic partial sums per column and tile)";
    Src += "//@idiom-variant " + std::to_string(K) + " wg=" + std::to_string(V.WorkGroup) +
           " ept=1/" + std::to_string(V.WorkGroup / V.Rows) + ": " + Desc + "\n";
    Src += "__kernel __attribute__((reqd_work_group_size(" + std::to_string(V.WorkGroup) +
           ", 1, 1))) void " + Name + (K ? "_v" + std::to_string(K) : "") + "(";
    for (size_t I = 0; I < Decls.size(); ++I)
      Src += (I ? ", " : "") + Decls[I];
    Src += ") {\n";
    for (const std::string &L : Em.Lines)
      Src += L + "\n";
    Src += "}\n\n";
    Out.VariantDescs.push_back(Desc);
  }
  Out.Source = std::move(Src);
  Out.NumVariants = static_cast<unsigned>(Vs.size());
  Out.LoweredFunIL = "fused GEMV pair of '" + First.Name + "' and '" + Second.Name + "'";
  Err.clear();
  return true;
}

} // namespace idiom::rewrite
