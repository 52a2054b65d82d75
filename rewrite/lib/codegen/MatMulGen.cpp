//===- MatMulGen.cpp - OpenCL C for tiled matrix products -----------------===//
//
// Part of Idiom. See MatMulGen.h; the index maps are proved in
// test/rewrite/MatMulIndexProofTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "MatMulGen.h"

#include "../MatMulForm.h"
#include "ScalarC.h"
#include "idiom/FunIL/ExprUtil.h"

namespace idiom::rewrite::codegen {

using funil::Expr;
using matmul::GemmParts;
using matmul::TileParams;

namespace {

const char *const Lane = "0123456789abcdef";
/// Elements of padding per __local row (GemmExplore.cpp counts it too).
constexpr int64_t Pad = 4;

std::string num(int64_t V) { return std::to_string(V); }

bool isUnit(const ExprPtr &E) {
  return E->K == Expr::Lit && funil::isInteger(E->LitKind) && E->signedValue() == 1;
}

/// True when \p Fn's body uses component 1 of its tuple parameter (or, for
/// a scalar parameter, the parameter at all).
bool usesParam(const ExprPtr &Fn) {
  std::set<std::string> Free;
  funil::freeVars(*Fn->body(), Free);
  return Free.count(Fn->Params[0].Name) != 0;
}

bool usesComponent1(const ExprPtr &E, const std::string &W) {
  if (E->K == Expr::Proj && E->Index == 1 && E->Args[0]->K == Expr::Var &&
      E->Args[0]->Name == W)
    return true;
  if (E->K == Expr::Var && E->Name == W)
    return true; // the whole tuple: c is needed
  if (E->K == Expr::Proj && E->Args[0]->K == Expr::Var && E->Args[0]->Name == W)
    return false;
  for (const ExprPtr &A : E->Args)
    if (usesComponent1(A, W))
      return true;
  return false;
}

struct Gen {
  Emitter &Em;
  const GemmParts &G;
  const TileParams &P;
  bool Local;
  std::string Ty; ///< element type in C
  CVal A, B, C;   ///< the operand views
  std::string M, N, K, I0, J0, Lx, Ly, Tid, Gi, Gj, K0;
  std::string As, Bs; ///< __local arrays
  int64_t LdA = 0, LdB = 0;
  std::vector<std::vector<std::string>> Acc;

  Gen(Emitter &Em, const GemmParts &G, const TileParams &P, bool Local)
      : Em(Em), G(G), P(P), Local(Local), Ty(clType(G.T)) {}

  std::string at(const CVal &V, const std::string &I, const std::string &J) {
    CVal Row = V.Arr->At(I);
    if (Row.K != CVal::Array)
      throw CodegenError("matrix view is not 2-D");
    CVal X = Row.Arr->At(J);
    if (X.K != CVal::Scalar)
      throw CodegenError("matrix element is not a scalar");
    return X.Expr;
  }
  std::string clampM(const std::string &I) { return "min(" + I + ", " + M + " - 1)"; }
  std::string clampN(const std::string &J) { return "min(" + J + ", " + N + " - 1)"; }
  std::string clampK(const std::string &Kx) { return "min(" + Kx + ", " + K + " - 1)"; }
  std::string zero() { return G.T == funil::ScalarKind::F64 ? "0.0" : "0.0f"; }

  /// Opens a bare `{` block (scopes the names of one unrolled step).
  void block() {
    Em.line("{");
    ++Em.Depth;
  }

  std::string konst(const std::string &Base, const std::string &Type, const std::string &V) {
    std::string Nm = Em.fresh(Base);
    Em.line("const " + Type + " " + Nm + " = " + V + ";");
    return Nm;
  }

  /// One operand tile into __local memory: Rows x TK elements of view V
  /// (element (row, k)) starting at row Row0, stored at Dst[k * Ld + row].
  /// RowFast: consecutive work-items take consecutive rows (the view's row
  /// stride is 1), else consecutive k.
  void fill(const CVal &V, const std::string &Dst, int64_t Ld, int64_t Rows,
            const std::string &Row0, bool RowFast, bool IsA) {
    const int64_t WG = P.wgX() * P.wgY(), E = Rows * P.TK;
    for (int64_t T = 0; T * WG < E; ++T) {
      block();
      std::string Ex = T ? Tid + " + " + num(T * WG) : Tid;
      if (E % WG)
        Em.open("if (" + Ex + " < " + num(E) + ")");
      std::string R = RowFast ? "(" + Ex + ") % " + num(Rows) : "(" + Ex + ") / " + num(P.TK);
      std::string Kk = RowFast ? "(" + Ex + ") / " + num(Rows) : "(" + Ex + ") % " + num(P.TK);
      std::string Rv = konst("r", "int", R), Kv = konst("kk", "int", Kk);
      std::string GRow = IsA ? clampM(Row0 + " + " + Rv) : clampN(Row0 + " + " + Rv);
      std::string Src = at(V, GRow, clampK(K0 + " + " + Kv));
      Em.line(Dst + "[" + Kv + " * " + num(Ld) + " + " + Rv + "] = " + Src + ";");
      if (E % WG)
        Em.close();
      Em.close();
    }
  }

  /// Values of one k for this work-item: N consecutive elements of Src at
  /// Base (vector loads of 4 when N is a multiple of 4), or from the view.
  std::vector<CVal> localRow(const std::string &Src, const std::string &Base, int64_t Cnt) {
    std::vector<CVal> Out;
    if (Cnt % 4 == 0) {
      std::string VT = Ty + "4";
      for (int64_t Q = 0; Q < Cnt / 4; ++Q) {
        std::string V = konst("v", VT,
                              "*((const __local " + VT + " *)(" + Src + " + " + Base +
                                  (Q ? " + " + num(4 * Q) : "") + "))");
        for (int L = 0; L < 4; ++L)
          Out.push_back(CVal::scalar(V + ".s" + Lane[L], G.T));
      }
      return Out;
    }
    for (int64_t Q = 0; Q < Cnt; ++Q)
      Out.push_back(CVal::scalar(konst("a", Ty, Src + "[" + Base + " + " + num(Q) + "]"), G.T));
    return Out;
  }

  /// acc[r][c] = STEP(acc[r][c], (a[r], b[c])) for one k (\p Kk).
  void step(const std::string &Kk) {
    std::vector<CVal> Av, Bv;
    if (Local) {
      Av = localRow(As, Kk + " * " + num(LdA) + " + " + Ly + " * " + num(P.RM), P.RM);
      Bv = localRow(Bs, Kk + " * " + num(LdB) + " + " + Lx + " * " + num(P.RN), P.RN);
    } else {
      std::string Kx = K0 + " + " + Kk;
      for (int64_t R = 0; R < P.RM; ++R)
        Av.push_back(CVal::scalar(
            konst("a", Ty, at(A, clampM(I0 + " + " + num(R)), Kx)), G.T));
      for (int64_t Cc = 0; Cc < P.RN; ++Cc)
        Bv.push_back(CVal::scalar(
            konst("b", Ty, at(B, clampN(J0 + " + " + num(Cc)), Kx)), G.T));
    }
    for (int64_t R = 0; R < P.RM; ++R)
      for (int64_t Cc = 0; Cc < P.RN; ++Cc) {
        CVal X;
        X.K = CVal::Tuple;
        X.Elems = {Av[R], Bv[Cc]};
        CVal V = Em.apply(G.Step, {CVal::scalar(Acc[R][Cc], G.T), X});
        Em.line(Acc[R][Cc] + " = " + V.Expr + ";");
      }
  }

  void run(const CVal &Target) {
    const int64_t WX = P.wgX();
    A = Em.emit(G.A);
    B = Em.emit(G.B);
    C = Em.emit(G.C);
    if (A.K != CVal::Array || B.K != CVal::Array || C.K != CVal::Array ||
        Target.K != CVal::Array)
      throw CodegenError("matrix operands must be arrays");
    M = konst("M", "long", Em.emit(G.A->Args[3]).Expr);
    K = konst("K", "long", Em.emit(G.A->Args[5]).Expr);
    N = konst("N", "long", Em.emit(G.B->Args[3]).Expr);
    Gi = konst("gi", "long", "get_group_id(1)");
    Gj = konst("gj", "long", "get_group_id(0)");
    Lx = konst("lx", "int", "get_local_id(0)");
    Ly = konst("ly", "int", "get_local_id(1)");
    Tid = konst("tid", "int", Ly + " * " + num(WX) + " + " + Lx);
    std::string RowA0 = konst("ti", "long", Gi + " * " + num(P.TM));
    std::string ColB0 = konst("tj", "long", Gj + " * " + num(P.TN));
    I0 = konst("i0", "long", RowA0 + " + " + Ly + " * " + num(P.RM));
    J0 = konst("j0", "long", ColB0 + " + " + Lx + " * " + num(P.RN));
    if (Local) {
      LdA = P.TM + Pad;
      LdB = P.TN + Pad;
      unsigned Align = 4 * funil::scalarBits(G.T) / 8;
      As = Em.fresh("As");
      Bs = Em.fresh("Bs");
      Em.line("__local " + Ty + " " + As + "[" + num(P.TK * LdA) + "] __attribute__((aligned(" +
              num(Align) + ")));");
      Em.line("__local " + Ty + " " + Bs + "[" + num(P.TK * LdB) + "] __attribute__((aligned(" +
              num(Align) + ")));");
    }
    // Private accumulators: INIT of the element of C (clamped: rows and
    // columns past the edge are computed but never stored).
    bool InitC = usesParam(G.Init);
    Acc.assign(P.RM, std::vector<std::string>(P.RN));
    for (int64_t R = 0; R < P.RM; ++R)
      for (int64_t Cc = 0; Cc < P.RN; ++Cc) {
        CVal Cv = InitC ? CVal::scalar(at(C, clampM(I0 + " + " + num(R)),
                                          clampN(J0 + " + " + num(Cc))),
                                       G.T)
                        : CVal::scalar(zero(), G.T);
        CVal V = Em.apply(G.Init, {Cv});
        Acc[R][Cc] = Em.fresh("acc_" + num(R) + "_" + num(Cc));
        Em.line(Ty + " " + Acc[R][Cc] + " = " + V.Expr + ";");
      }
    // The K tiles, in order (each output's k order stays sequential).
    K0 = Em.fresh("k0");
    Em.open("for (long " + K0 + " = 0; " + K0 + " < " + K + "; " + K0 + " += " + num(P.TK) + ")");
    if (Local) {
      fill(A, As, LdA, P.TM, RowA0, isUnit(G.A->Args[2]), true);
      fill(B, Bs, LdB, P.TN, ColB0, isUnit(G.B->Args[2]), false);
      Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
    }
    Em.open("if (" + K0 + " + " + num(P.TK) + " <= " + K + ")");
    for (int64_t Kk = 0; Kk < P.TK; ++Kk) {
      block();
      step(num(Kk));
      Em.close();
    }
    Em.close();
    Em.open("else");
    std::string Kk = Em.fresh("kk");
    Em.open("for (int " + Kk + " = 0; " + Kk + " < " + K + " - " + K0 + "; ++" + Kk + ")");
    step(Kk);
    Em.close();
    Em.close();
    if (Local)
      Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
    Em.close();
    // POST and the guarded stores.
    bool PostC = usesComponent1(G.Post->body(), G.Post->Params[0].Name);
    for (int64_t R = 0; R < P.RM; ++R) {
      std::string I = R ? I0 + " + " + num(R) : I0;
      Em.open("if (" + I + " < " + M + ")");
      for (int64_t Cc = 0; Cc < P.RN; ++Cc) {
        std::string J = Cc ? J0 + " + " + num(Cc) : J0;
        Em.open("if (" + J + " < " + N + ")");
        CVal W;
        W.K = CVal::Tuple;
        W.Elems = {CVal::scalar(Acc[R][Cc], G.T),
                   PostC ? CVal::scalar(at(C, I, J), G.T) : CVal::scalar(zero(), G.T)};
        CVal V = Em.apply(G.Post, {W});
        Em.line(at(Target, I, J) + " = " + V.Expr + ";");
        Em.close();
      }
      Em.close();
    }
  }
};

} // namespace

bool isTiledMatMul(const ExprPtr &Body) {
  GemmParts G;
  TileParams P;
  bool Local = false;
  return matmul::matchTiledMatMul(Body, G, P, Local);
}

void emitMatMul(Emitter &Em, const ExprPtr &Body, const CVal &Target) {
  GemmParts G;
  TileParams P;
  bool Local = false;
  if (!matmul::matchTiledMatMul(Body, G, P, Local))
    throw CodegenError("not a tiled matrix-product form");
  Gen(Em, G, P, Local).run(Target);
}

} // namespace idiom::rewrite::codegen
