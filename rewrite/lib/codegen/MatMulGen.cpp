//===- MatMulGen.cpp - OpenCL C for tiled matrix products -----------------===//
//
// Part of Idiom. See MatMulGen.h; the index maps are proved in
// test/rewrite/MatMulIndexProofTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "MatMulGen.h"

#include "../MatMulForm.h"
#include "LambdaTemplate.h"
#include "ScalarC.h"
#include "idiom/FunIL/ExprUtil.h"

#include <cctype>
#include <optional>

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

/// True when the band bound \(i) => E of \p G is non-decreasing in i: E
/// is i, mul(a, i), add(b, i) or add(b, mul(a, i)) with literals a >= 0
/// (the lifter's forms). Then the rows of a tile bound its K tiles.
bool monotoneBound(const GemmParts &G) {
  const ExprPtr &Fn = G.Band.Bound;
  const std::string &I = Fn->Params[0].Name;
  auto IsI = [&](const ExprPtr &E) { return E->K == Expr::Var && E->Name == I; };
  auto IsLit = [](const ExprPtr &E) {
    return E->K == Expr::Lit && funil::isInteger(E->LitKind);
  };
  auto Scaled = [&](const ExprPtr &E) {
    return IsI(E) || (E->isCall("mul") && IsLit(E->Args[0]) && E->Args[0]->signedValue() >= 0 &&
                      IsI(E->Args[1]));
  };
  const ExprPtr &E = Fn->body();
  return Scaled(E) || (E->isCall("add") && IsLit(E->Args[0]) && Scaled(E->Args[1]));
}

/// One operand's cooperative fill: the Rows x TK tile (element (row, k) of
/// the view at rows Row0.., k0..) cut into groups of W elements along the
/// view's unit stride (rows when RowFast, else k), group L = tid + s*WG of
/// slot s < Slots; W = 4 allows one vector load per group.
struct Fill {
  CVal V;              ///< the view
  const ExprPtr *View = nullptr; ///< its FunIL expression
  std::string Dst;     ///< __local array
  int64_t Ld = 0, Rows = 0, W = 1, Groups = 0, Slots = 0;
  std::string Row0, Limit; ///< first row of the tile; M or N
  bool RowFast = false, IsA = false;
  std::string VecOk;   ///< run-time alignment test (W = 4), else empty
  std::vector<std::string> Regs; ///< prefetch registers (double buffering)
};

struct Gen {
  Emitter &Em;
  const GemmParts &G;
  const TileParams &P;
  const GemmKernelOptions &O;
  bool Local;
  /// A triangular GEMM's triangle (matchMergeTriangle), or none.
  std::optional<matmul::Triangle> Tri;
  std::string Ty; ///< element type in C
  CVal A, B, C;   ///< the operand views
  CVal A2, B2;    ///< the second pair's views (two products per step)
  std::string M, N, K, I0, J0, Lx, Ly, Tid, Gi, Gj, K0;
  std::string As, Bs;   ///< __local arrays
  std::string As2, Bs2; ///< the second pair's (same shapes as As, Bs)
  int64_t LdA = 0, LdB = 0;
  std::vector<std::vector<std::string>> Acc;
  /// A band program (G.banded()): E(i) of each block row, and whether the
  /// steps being emitted test it (false in a K tile wholly inside the band
  /// of every row of the work-group).
  std::vector<std::string> BandE;
  bool Masked = true;
  /// A band's test that the K tile at K0 lies inside every row's band, or
  /// empty (no band, or a bound not known to be monotone).
  std::string Interior;
  /// E of the work-group's first and last rows (the least and the greatest
  /// when E is non-decreasing), or empty.
  std::string BandMin, BandMax;
  /// G.Step's text for (acc, (a, b)) leaves (LambdaTemplate.h), prepared at
  /// the first step; the bindings do not change during run.
  LambdaTemplate StepText;
  bool StepTextTried = false;

  Gen(Emitter &Em, const GemmParts &G, const TileParams &P, const GemmKernelOptions &O,
      bool Local)
      : Em(Em), G(G), P(P), O(O), Local(Local), Ty(clType(G.T)) {}

  std::string at(const CVal &V, const std::string &I, const std::string &J) {
    CVal Row = V.Arr->At(I);
    if (Row.K != CVal::Array)
      throw CodegenError("matrix view is not 2-D");
    CVal X = Row.Arr->At(J);
    if (X.K != CVal::Scalar)
      throw CodegenError("matrix element is not a scalar");
    return X.Expr;
  }
  /// kT < Base + Slope * k0: element (k0, kT) lies in the triangle.
  std::string triangleTest(const std::string &KT, const std::string &K0) {
    return "(" + KT + ") < " + num(Tri->Base) + "L + " + num(Tri->Slope) + "L * (" + K0 + ")";
  }
  std::string clampM(const std::string &I) { return "min(" + I + ", " + M + " - 1)"; }
  std::string clampN(const std::string &J) { return "min(" + J + ", " + N + " - 1)"; }
  std::string clampK(const std::string &Kx) { return "min(" + Kx + ", " + K + " - 1)"; }
  std::string zero() { return G.T == funil::ScalarKind::F64 ? "0.0" : "0.0f"; }
  std::string vecTy() { return Ty + "4"; }

  /// Tile row (column) of block row r (column c) of work-item ly (lx):
  /// group r / GM at g*WY*GM, offset r % GM (MatMulForm.h, TileParams).
  std::string rowOf(int64_t R) {
    int64_t Off = (R / P.gm()) * P.wgY() * P.gm() + R % P.gm();
    return Off ? I0 + " + " + num(Off) : I0;
  }
  std::string colOf(int64_t Cc) {
    int64_t Off = (Cc / P.gn()) * P.wgX() * P.gn() + Cc % P.gn();
    return Off ? J0 + " + " + num(Off) : J0;
  }

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

  /// True when \p E is an lvalue `name[...]` (its address can be taken).
  static bool isSubscript(const std::string &E) {
    return !E.empty() && (std::isalpha(static_cast<unsigned char>(E[0])) || E[0] == '_') &&
           E.back() == ']' && E.find('[') != std::string::npos;
  }

  Fill plan(const CVal &V, const ExprPtr &Vx, const std::string &Dst, int64_t Ld, int64_t Rows,
            const std::string &Row0, bool IsA) {
    Fill F;
    F.V = V;
    F.View = &Vx;
    F.Dst = Dst;
    F.Ld = Ld;
    F.Rows = Rows;
    F.Row0 = Row0;
    F.IsA = IsA;
    F.Limit = IsA ? M : N;
    F.RowFast = isUnit(Vx->Args[2]);
    bool KFast = isUnit(Vx->Args[4]);
    if (O.VectorFill && (F.RowFast ? Rows % 4 == 0 : KFast && P.TK % 4 == 0) &&
        isSubscript(at(V, "0", "0"))) {
      F.W = 4;
      // Every group address is a multiple of 4 elements: the element (0, 0)
      // 4-element aligned and the other stride a multiple of 4 (the buffer
      // itself is aligned by clCreateBuffer).
      std::string Other = Em.emit(F.RowFast ? Vx->Args[4] : Vx->Args[2]).Expr;
      F.VecOk = konst(IsA ? "vecA" : "vecB", "bool",
                      "((ulong)&" + at(V, "0", "0") + ") % " +
                          num(4 * funil::scalarBits(G.T) / 8) + " == 0 && (" + Other +
                          ") % 4 == 0");
    }
    F.Groups = Rows * P.TK / F.W;
    const int64_t WG = P.wgX() * P.wgY();
    F.Slots = (F.Groups + WG - 1) / WG;
    return F;
  }

  /// (row, k) of group L of fill \p F, as two int constants.
  std::pair<std::string, std::string> slotPos(const Fill &F, int64_t S) {
    const int64_t WG = P.wgX() * P.wgY();
    std::string L = S ? "(" + Tid + " + " + num(S * WG) + ")" : "(" + Tid + ")";
    std::string R, Kk;
    if (F.RowFast) {
      int64_t PerK = F.Rows / F.W;
      R = L + " % " + num(PerK) + (F.W > 1 ? " * " + num(F.W) : "");
      Kk = L + " / " + num(PerK);
    } else {
      int64_t PerRow = P.TK / F.W;
      R = L + " / " + num(PerRow);
      Kk = L + " % " + num(PerRow) + (F.W > 1 ? " * " + num(F.W) : "");
    }
    return {konst("r", "int", R), konst("kk", "int", Kk)};
  }

  std::string guardOf(const Fill &F, int64_t S) {
    const int64_t WG = P.wgX() * P.wgY();
    if (F.Groups % WG == 0)
      return "";
    return Tid + (S ? " + " + num(S * WG) : "") + " < " + num(F.Groups);
  }

  /// The value of slot \p S of \p F for the K tile at \p Kt: a vector
  /// (W = 4) or a scalar; the vector load when \p Fast.
  std::string loadExpr(const Fill &F, const std::string &R, const std::string &Kk,
                       const std::string &Kt, bool Fast) {
    std::string Row = F.Row0 + " + " + R, Kx = Kt + " + " + Kk;
    if (Fast)
      return "*((const __global " + vecTy() + " *)&" + at(F.V, Row, Kx) + ")";
    auto Cl = [&](const std::string &X) { return F.IsA ? clampM(X) : clampN(X); };
    if (F.W == 1)
      return at(F.V, Cl(Row), clampK(Kx));
    std::string Out = "(" + vecTy() + ")(";
    for (int E = 0; E < 4; ++E) {
      std::string Re = F.RowFast ? Row + " + " + num(E) : Row;
      std::string Ke = F.RowFast ? Kx : Kx + " + " + num(E);
      Out += (E ? ", " : "") + at(F.V, Cl(Re), clampK(Ke));
    }
    return Out + ")";
  }

  /// Stores value \p Val of a slot at (R, Kk) into F's __local array at
  /// element offset \p Buf.
  void storeSlot(const Fill &F, const std::string &R, const std::string &Kk,
                 const std::string &Val, const std::string &Buf) {
    std::string Base = (Buf.empty() ? "" : Buf + " + ") + Kk + " * " + num(F.Ld) + " + " + R;
    if (F.W == 1) {
      Em.line(F.Dst + "[" + Base + "] = " + Val + ";");
    } else if (F.RowFast && F.Ld % 4 == 0) {
      Em.line("*((__local " + vecTy() + " *)(" + F.Dst + " + " + Base + ")) = " + Val + ";");
    } else {
      for (int E = 0; E < 4; ++E) {
        std::string Idx = F.RowFast ? Base + " + " + num(E)
                                    : (Buf.empty() ? "" : Buf + " + ") + "(" + Kk + " + " +
                                          num(E) + ") * " + num(F.Ld) + " + " + R;
        Em.line(F.Dst + "[" + Idx + "] = " + Val + ".s" + Lane[E] + ";");
      }
    }
  }

  /// Loads every slot of \p F for the K tile at \p Kt: into F.Regs when
  /// \p ToRegs, else straight into the __local array at \p Buf.
  void loadFill(Fill &F, const std::string &Kt, bool ToRegs, const std::string &Buf) {
    auto Body = [&](bool Fast) {
      for (int64_t S = 0; S < F.Slots; ++S) {
        block();
        auto [R, Kk] = slotPos(F, S);
        std::string Gd = guardOf(F, S);
        if (!Gd.empty())
          Em.open("if (" + Gd + ")");
        std::string Val = loadExpr(F, R, Kk, Kt, Fast);
        if (ToRegs)
          Em.line(F.Regs[S] + " = " + Val + ";");
        else
          storeSlot(F, R, Kk, F.W == 4 ? konst("f", vecTy(), Val) : Val, Buf);
        if (!Gd.empty())
          Em.close();
        Em.close();
      }
    };
    if (F.VecOk.empty()) {
      Body(false);
      return;
    }
    // The fast path for a complete, aligned tile (a work-group-uniform test).
    Em.open("if (" + F.VecOk + " && " + F.Row0 + " + " + num(F.Rows) + " <= " + F.Limit +
            " && " + Kt + " + " + num(P.TK) + " <= " + K + ")");
    Body(true);
    Em.close();
    Em.open("else");
    Body(false);
    Em.close();
  }

  /// F.Regs into the __local array at \p Buf.
  void storeRegs(const Fill &F, const std::string &Buf) {
    for (int64_t S = 0; S < F.Slots; ++S) {
      block();
      auto [R, Kk] = slotPos(F, S);
      std::string Gd = guardOf(F, S);
      if (!Gd.empty())
        Em.open("if (" + Gd + ")");
      storeSlot(F, R, Kk, F.Regs[S], Buf);
      if (!Gd.empty())
        Em.close();
      Em.close();
    }
  }

  /// Values of one k for this work-item: Cnt consecutive elements of Src at
  /// Base (vector loads of 4 when Cnt is a multiple of 4 and \p Ld keeps the
  /// rows aligned), or scalars.
  void localRow(std::vector<CVal> &Out, const std::string &Src, const std::string &Base,
                int64_t Cnt, int64_t Ld) {
    if (Cnt % 4 == 0 && Ld % 4 == 0) {
      std::string VT = vecTy();
      for (int64_t Q = 0; Q < Cnt / 4; ++Q) {
        std::string V = konst("v", VT,
                              "*((const __local " + VT + " *)(" + Src + " + " + Base +
                                  (Q ? " + " + num(4 * Q) : "") + "))");
        for (int L = 0; L < 4; ++L)
          Out.push_back(CVal::scalar(V + ".s" + Lane[L], G.T));
      }
      return;
    }
    for (int64_t Q = 0; Q < Cnt; ++Q)
      Out.push_back(
          CVal::scalar(konst("a", Ty, Src + "[" + Base + (Q ? " + " + num(Q) : "") + "]"), G.T));
  }

  /// acc[r][c] = STEP(acc[r][c], (a[r], b[c])) for one k (\p Kk); the
  /// __local tiles at element offsets \p BufA, \p BufB.
  /// This work-item's RM values of one k (\p Kk) of A's tile (or A2's:
  /// \p Src and \p V), from the __local tile at \p BufA or global memory.
  std::vector<CVal> rowValues(const std::string &Kk, const std::string &BufA,
                              const std::string &Src, const CVal &V) {
    std::vector<CVal> Av;
    if (Local) {
      std::string Off = BufA.empty() ? "" : BufA + " + ";
      for (int64_t Gr = 0; Gr < P.RM / P.gm(); ++Gr)
        localRow(Av, Src,
                 Off + Kk + " * " + num(LdA) + " + " + Ly + " * " + num(P.gm()) +
                     (Gr ? " + " + num(Gr * P.wgY() * P.gm()) : ""),
                 P.gm(), LdA);
    } else {
      for (int64_t R = 0; R < P.RM; ++R)
        Av.push_back(CVal::scalar(konst("a", Ty, at(V, clampM(rowOf(R)), K0 + " + " + Kk)), G.T));
    }
    return Av;
  }
  /// The RN values of B's tile (or B2's), as rowValues.
  std::vector<CVal> colValues(const std::string &Kk, const std::string &BufB,
                              const std::string &Src, const CVal &V) {
    std::vector<CVal> Bv;
    if (Local) {
      std::string Off = BufB.empty() ? "" : BufB + " + ";
      for (int64_t Gr = 0; Gr < P.RN / P.gn(); ++Gr)
        localRow(Bv, Src,
                 Off + Kk + " * " + num(LdB) + " + " + Lx + " * " + num(P.gn()) +
                     (Gr ? " + " + num(Gr * P.wgX() * P.gn()) : ""),
                 P.gn(), LdB);
    } else {
      for (int64_t Cc = 0; Cc < P.RN; ++Cc)
        Bv.push_back(CVal::scalar(konst("b", Ty, at(V, clampN(colOf(Cc)), K0 + " + " + Kk)), G.T));
    }
    return Bv;
  }

  static bool isScalarLeaf(const CVal &V) { return V.Lanes == 1 && V.K == CVal::Scalar; }

  void step(const std::string &Kk, const std::string &BufA, const std::string &BufB) {
    const bool Pairs = G.pairs();
    std::vector<CVal> Av = rowValues(Kk, BufA, As, A), Bv = colValues(Kk, BufB, Bs, B), A2v,
                      B2v;
    if (Pairs) {
      A2v = rowValues(Kk, BufA, As2, A2);
      B2v = colValues(Kk, BufB, Bs2, B2);
    }
    if (!StepTextTried) {
      StepTextTried = true;
      CVal X;
      X.K = CVal::Tuple;
      X.Elems = {CVal::scalar("", Av[0].S), CVal::scalar("", Bv[0].S)};
      if (Pairs) {
        X.Elems.push_back(CVal::scalar("", A2v[0].S));
        X.Elems.push_back(CVal::scalar("", B2v[0].S));
      }
      StepText.prepare(Em, G.Step, {CVal::scalar("", G.T), X});
    }
    std::string L;
    for (int64_t R = 0; R < P.RM; ++R) {
      // A band: the row's products only inside it (acc kept outside, as
      // the program's select keeps it).
      const bool Guard = G.banded() && Masked;
      if (Guard)
        Em.open("if ((" + K0 + " + " + Kk + ") " + (G.Band.Lower ? "<" : ">=") + " " +
                BandE[R] + ")");
      for (int64_t Cc = 0; Cc < P.RN; ++Cc) {
        L.assign(Acc[R][Cc]).append(" = ");
        bool Done = false;
        if (!Pairs && isScalarLeaf(Av[R]) && isScalarLeaf(Bv[Cc]))
          Done = StepText.instantiate(
              {{Acc[R][Cc], G.T}, {Av[R].Expr, Av[R].S}, {Bv[Cc].Expr, Bv[Cc].S}}, L);
        else if (Pairs && isScalarLeaf(Av[R]) && isScalarLeaf(Bv[Cc]) &&
                 isScalarLeaf(A2v[R]) && isScalarLeaf(B2v[Cc]))
          Done = StepText.instantiate({{Acc[R][Cc], G.T},
                                       {Av[R].Expr, Av[R].S},
                                       {Bv[Cc].Expr, Bv[Cc].S},
                                       {A2v[R].Expr, A2v[R].S},
                                       {B2v[Cc].Expr, B2v[Cc].S}},
                                      L);
        if (!Done) {
          CVal X;
          X.K = CVal::Tuple;
          X.Elems = {Av[R], Bv[Cc]};
          if (Pairs) {
            X.Elems.push_back(A2v[R]);
            X.Elems.push_back(B2v[Cc]);
          }
          L.append(Em.apply(G.Step, {CVal::scalar(Acc[R][Cc], G.T), X}).Expr);
        }
        Em.line(L.append(";"));
      }
      if (Guard)
        Em.close();
    }
  }

  /// The products of one K tile (at K0) from the __local tiles at \p BufA,
  /// \p BufB (or from global memory): a complete tile unrolled (or a
  /// `#pragma unroll` loop), the last partial one a counted loop.
  void compute(const std::string &BufA, const std::string &BufB) {
    Em.open("if (" + K0 + " + " + num(P.TK) + " <= " + K + ")");
    if (!Interior.empty()) {
      // A band's K tile inside every row's band (a work-group-uniform
      // test): its steps unmasked.
      Em.open("if (" + Interior + ")");
      Masked = false;
      complete(BufA, BufB);
      Masked = true;
      Em.close();
      Em.open("else");
      complete(BufA, BufB);
      Em.close();
    } else {
      complete(BufA, BufB);
    }
    Em.close();
    Em.open("else");
    std::string Kk = Em.fresh("kk");
    Em.open("for (int " + Kk + " = 0; " + Kk + " < " + K + " - " + K0 + "; ++" + Kk + ")");
    step(Kk, BufA, BufB);
    Em.close();
    Em.close();
  }

  /// The TK steps of a complete K tile, unrolled (or a `#pragma unroll`
  /// loop).
  void complete(const std::string &BufA, const std::string &BufB) {
    if (O.UnrollLoop) {
      Em.line("#pragma unroll");
      std::string Kk = Em.fresh("kk");
      Em.open("for (int " + Kk + " = 0; " + Kk + " < " + num(P.TK) + "; ++" + Kk + ")");
      step(Kk, BufA, BufB);
      Em.close();
    } else {
      for (int64_t Kk = 0; Kk < P.TK; ++Kk) {
        block();
        step(num(Kk), BufA, BufB);
        Em.close();
      }
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
    if (G.pairs()) {
      A2 = Em.emit(G.A2);
      B2 = Em.emit(G.B2);
      if (A2.K != CVal::Array || B2.K != CVal::Array)
        throw CodegenError("matrix operands must be arrays");
    }
    if (O.Pad % 4 != 0 && O.Pad != 0)
      throw CodegenError("local padding must be a multiple of 4");
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
    I0 = konst("i0", "long", RowA0 + " + " + Ly + " * " + num(P.gm()));
    J0 = konst("j0", "long", ColB0 + " + " + Lx + " * " + num(P.gn()));
    const bool Double = Local && O.DoubleBuffer;
    const int64_t NB = Double ? 2 : 1;
    if (Local) {
      LdA = P.TM + O.Pad;
      LdB = P.TN + O.Pad;
      unsigned Align = 4 * funil::scalarBits(G.T) / 8;
      // A __local array of \p Elems elements named after \p Base.
      auto Declare = [&](const char *Base, int64_t Elems) {
        std::string Nm = Em.fresh(Base);
        Em.line("__local " + Ty + " " + Nm + "[" + num(Elems) + "] __attribute__((aligned(" +
                num(Align) + ")));");
        return Nm;
      };
      As = Declare("As", NB * P.TK * LdA);
      Bs = Declare("Bs", NB * P.TK * LdB);
      if (G.pairs()) {
        As2 = Declare("As2", NB * P.TK * LdA);
        Bs2 = Declare("Bs2", NB * P.TK * LdB);
      }
    }
    // A triangle: a work-group whose tile lies wholly outside it runs no K
    // tile (its loop bound is 0, the same in every work-item, so the
    // barriers stay in uniform control flow; no early return, which PoCL
    // mis-compiles before barriers) and stores nothing (the stores are
    // masked); its corner nearest the triangle is the first row or column
    // and the last one.
    std::string KLoop = K;
    if (Tri) {
      std::string Far = Tri->Columns ? RowA0 + " + " + num(P.TM - 1) : ColB0 + " + " + num(P.TN - 1);
      std::string Near = Tri->Columns ? ColB0 : RowA0;
      KLoop = konst("kt", "long", "(" + triangleTest(Near, Far) + ") ? " + K + " : 0L");
    }
    // A band: E(i) per block row; with a non-decreasing E, the work-group
    // runs only the K tiles that meet its rows' band, from the tile of
    // E(ti) (upper: k >= E(i)) or up to E of its last row (lower: k <
    // E(i)), both uniform in the work-group.
    std::string KStart = "0";
    if (G.banded()) {
      auto E = [&](const std::string &Row) {
        return "(long)(" + Em.apply(G.Band.Bound, {CVal::scalar(Row, funil::ScalarKind::I64)}).Expr + ")";
      };
      for (int64_t R = 0; R < P.RM; ++R)
        BandE.push_back(konst("e", "long", E(rowOf(R))));
      if (monotoneBound(G)) {
        std::string Last = konst("tl", "long", "min(" + RowA0 + " + " + num(P.TM - 1) + ", " + M + " - 1)");
        std::string EFirst = konst("ef", "long", E(RowA0)), ELast = konst("el", "long", E(Last));
        if (G.Band.Lower) {
          KLoop = konst("kb", "long", "min(" + K + ", " + ELast + ")");
        } else {
          KStart = konst("ka", "long", "max(0L, " + EFirst + ") / " + num(P.TK) + " * " + num(P.TK));
        }
        BandMin = EFirst;
        BandMax = ELast;
      }
    }
    // Private accumulators: INIT of the element of C (clamped: rows and
    // columns past the edge are computed but never stored).
    bool InitC = usesParam(G.Init);
    Acc.assign(P.RM, std::vector<std::string>(P.RN));
    for (int64_t R = 0; R < P.RM; ++R)
      for (int64_t Cc = 0; Cc < P.RN; ++Cc) {
        CVal Cv = InitC ? CVal::scalar(at(C, clampM(rowOf(R)), clampN(colOf(Cc))), G.T)
                        : CVal::scalar(zero(), G.T);
        CVal V = Em.apply(G.Init, {Cv});
        Acc[R][Cc] = Em.fresh("acc_" + num(R) + "_" + num(Cc));
        Em.line(Ty + " " + Acc[R][Cc] + " = " + V.Expr + ";");
      }
    K0 = Em.fresh("k0");
    if (!BandMin.empty())
      Interior = G.Band.Lower ? K0 + " + " + num(P.TK) + " <= " + BandMin : K0 + " >= " + BandMax;
    if (!Local) {
      Em.open("for (long " + K0 + " = " + KStart + "; " + K0 + " < " + KLoop + "; " + K0 +
              " += " + num(P.TK) + ")");
      compute("", "");
      Em.close();
    } else {
      // The fills: A's and B's tiles, then A2's and B2's (two products).
      std::vector<Fill> Fs{plan(A, G.A, As, LdA, P.TM, RowA0, true),
                           plan(B, G.B, Bs, LdB, P.TN, ColB0, false)};
      if (G.pairs()) {
        Fs.push_back(plan(A2, G.A2, As2, LdA, P.TM, RowA0, true));
        Fs.push_back(plan(B2, G.B2, Bs2, LdB, P.TN, ColB0, false));
      }
      if (!Double) {
        // The K tiles, in order (each output's k order stays sequential):
        // fill, barrier, products, barrier.
        Em.open("for (long " + K0 + " = " + KStart + "; " + K0 + " < " + KLoop + "; " + K0 +
                " += " + num(P.TK) + ")");
        for (Fill &F : Fs)
          loadFill(F, K0, false, "");
        Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
        compute("", "");
        Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
        Em.close();
      } else {
        // Double buffering: tile 0 into buffer 0; then per K tile, the next
        // tile's loads into registers, the products on the current buffer,
        // the registers into the other buffer, one barrier.
        for (Fill &F : Fs)
          for (int64_t S = 0; S < F.Slots; ++S) {
            F.Regs.push_back(Em.fresh(F.IsA ? "pa" : "pb"));
            Em.line((F.W == 4 ? vecTy() : Ty) + " " + F.Regs.back() + ";");
          }
        for (Fill &F : Fs)
          loadFill(F, "(long)" + KStart, false, "");
        Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
        std::string Buf = Em.fresh("buf");
        Em.line("int " + Buf + " = 0;");
        Em.open("for (long " + K0 + " = " + KStart + "; " + K0 + " < " + KLoop + "; " + K0 +
                " += " + num(P.TK) + ")");
        std::string Next = konst("kn", "long", K0 + " + " + num(P.TK));
        std::string CurA = konst("ca", "int", Buf + " * " + num(P.TK * LdA));
        std::string CurB = konst("cb", "int", Buf + " * " + num(P.TK * LdB));
        std::string NxtA = konst("na", "int", num(P.TK * LdA) + " - " + CurA);
        std::string NxtB = konst("nb", "int", num(P.TK * LdB) + " - " + CurB);
        Em.open("if (" + Next + " < " + K + ")");
        for (Fill &F : Fs)
          loadFill(F, Next, true, "");
        Em.close();
        compute(CurA, CurB);
        Em.open("if (" + Next + " < " + K + ")");
        for (const Fill &F : Fs)
          storeRegs(F, F.IsA ? NxtA : NxtB);
        Em.close();
        Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
        Em.line(Buf + " ^= 1;");
        Em.close();
      }
    }
    // POST and the guarded stores.
    bool PostC = usesComponent1(G.Post->body(), G.Post->Params[0].Name);
    for (int64_t R = 0; R < P.RM; ++R) {
      std::string I = rowOf(R);
      Em.open("if (" + I + " < " + M + ")");
      for (int64_t Cc = 0; Cc < P.RN; ++Cc) {
        std::string J = colOf(Cc);
        Em.open("if (" + J + " < " + N + ")");
        if (Tri)
          Em.open("if (" + triangleTest(Tri->Columns ? J : I, Tri->Columns ? I : J) + ")");
        CVal W;
        W.K = CVal::Tuple;
        W.Elems = {CVal::scalar(Acc[R][Cc], G.T),
                   PostC ? CVal::scalar(at(C, I, J), G.T) : CVal::scalar(zero(), G.T)};
        CVal V = Em.apply(G.Post, {W});
        Em.line(at(Target, I, J) + " = " + V.Expr + ";");
        if (Tri)
          Em.close();
        Em.close();
      }
      Em.close();
    }
  }
};

} // namespace

bool emitMatMul(Emitter &Em, const ExprPtr &Body, const CVal &Target,
                const GemmKernelOptions &Opts) {
  GemmParts G;
  TileParams P;
  bool Local = false;
  // A triangular GEMM: the tiled square merged with C by the triangle.
  ExprPtr Full = Body, C;
  matmul::Triangle Tri;
  bool IsTri = matmul::matchMergeTriangle(Body, Full, C, Tri);
  if (!matmul::matchTiledMatMul(Full, G, P, Local) ||
      (IsTri && !funil::sameExpr(*C, *G.C)))
    return false;
  Gen Gn(Em, G, P, Opts, Local);
  if (IsTri)
    Gn.Tri = Tri;
  Gn.run(Target);
  return true;
}

} // namespace idiom::rewrite::codegen
