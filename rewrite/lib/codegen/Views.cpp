//===- Views.cpp - layout primitives and vectors in OpenCL C --------------===//
//
// Part of Idiom. See Views.h.
//
//===----------------------------------------------------------------------===//

#include "Views.h"

#include "OpCache.h"
#include "ScalarC.h"
#include "idiom/FunIL/Ops.h"
#include "idiom/FunIL/TypeCheck.h"

#include <cctype>

namespace idiom::rewrite::codegen {

using funil::Expr;

namespace {

std::string par(const std::string &S) {
  for (char C : S)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
      return "(" + S + ")";
  return S;
}

/// `(long)(S)`: lengths and indices may be int or long expressions.
std::string asLong(const std::string &S) { return "((long)" + par(S) + ")"; }

/// `(long)(A) - (long)(B)`, or `(long)A` when B is 0.
std::string minusS(const std::string &A, const std::string &B) {
  if (B == "0" || B == "0L")
    return asLong(A);
  return "(" + asLong(A) + " - " + asLong(B) + ")";
}

/// The element of \p Base at index 0, without keeping emitted statements
/// (for its shape: kind, lanes, row length).
CVal probe(Emitter &Em, const View &Base) {
  size_t Mark = Em.Lines.size();
  CVal V = Base.At("0");
  Em.Lines.resize(Mark);
  return V;
}

/// True when \p I is a decimal literal (optionally with an L suffix).
bool literalIndex(std::string I, long long &V) {
  if (!I.empty() && I.back() == 'L')
    I.pop_back();
  if (I.empty() || I.size() > 18)
    return false;
  for (char C : I)
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return false;
  V = std::stoll(I);
  return true;
}

/// Applies \p F to every array leaf of a store target.
template <typename Fn> CVal mapTarget(const CVal &T, Fn F) {
  if (T.K == CVal::Tuple) {
    CVal R = T;
    for (CVal &E : R.Elems)
      E = mapTarget(E, F);
    return R;
  }
  if (T.K != CVal::Array)
    throw CodegenError("store target is not an array");
  return CVal::array(F(T.Arr));
}

/// asScalar's store target: element i of the result is the vector slot of
/// elements i*W .. i*W+W-1 of \p Base.
std::shared_ptr<const View> vectorTarget(Emitter &Em, std::shared_ptr<const View> Base,
                                         unsigned W) {
  CVal E0 = probe(Em, *Base);
  if (E0.K != CVal::Scalar || E0.Lanes != 1)
    throw CodegenError("'asScalar' stores through an array of scalars only");
  ScalarKind K = E0.S;
  auto V = std::make_shared<View>();
  std::string Ws = std::to_string(W);
  V->Len = divS(Base->Len, Ws);
  V->At = [Base, W, Ws, K](const std::string &I) {
    CVal Slot;
    Slot.K = CVal::VecSlot;
    Slot.S = K;
    Slot.Lanes = W;
    std::string Start = mulS(I, Ws);
    if (Base->Addr) {
      Slot.Expr = Base->Addr(Start);
    } else {
      for (unsigned L = 0; L < W; ++L)
        Slot.Elems.push_back(Base->At(addS(Start, std::to_string(L))));
    }
    return Slot;
  };
  return V;
}

} // namespace

std::string clValueType(ScalarKind K, unsigned Lanes) {
  return std::string(clType(K)) + (Lanes > 1 ? std::to_string(Lanes) : "");
}

std::string laneOf(const std::string &V, unsigned L) {
  return par(V) + ".s" + "0123456789abcdef"[L];
}

void storeVector(Emitter &Em, const CVal &Slot, const CVal &V) {
  if (V.K != CVal::Scalar || V.Lanes != Slot.Lanes)
    throw CodegenError("a vector store of a value that is not a vector of " +
                       std::to_string(Slot.Lanes) + " lanes");
  if (!Slot.Expr.empty()) {
    Em.line("vstore" + std::to_string(Slot.Lanes) + "(" + V.Expr + ", 0, " + Slot.Expr +
            ");");
    return;
  }
  CVal X = Em.settle(V, "vec");
  for (unsigned L = 0; L < Slot.Lanes; ++L)
    Em.line(Slot.Elems[L].Expr + " = " + laneOf(X.Expr, L) + ";");
}

std::shared_ptr<const View> transposeView(Emitter &Em, std::shared_ptr<const View> Base) {
  CVal Row0 = probe(Em, *Base);
  if (Row0.K != CVal::Array)
    throw CodegenError("'transpose' of an array whose elements are not arrays");
  auto V = std::make_shared<View>();
  V->Len = Row0.Arr->Len;
  V->At = [Base](const std::string &I) {
    auto Col = std::make_shared<View>();
    Col->Len = Base->Len;
    Col->At = [Base, I](const std::string &J) {
      CVal Row = Base->At(J);
      if (Row.K != CVal::Array)
        throw CodegenError("'transpose' of an array whose elements are not arrays");
      return Row.Arr->At(I);
    };
    return CVal::array(Col);
  };
  return V;
}

std::shared_ptr<const View> reorderStrideView(std::shared_ptr<const View> Base,
                                              const std::string &S) {
  auto V = std::make_shared<View>();
  V->Len = Base->Len;
  std::string Block = divS(Base->Len, S); // n/s elements per chunk
  V->At = [Base, S, Block](const std::string &I) {
    return Base->At(addS(divS(I, Block), mulS(S, par(I) + " % " + par(Block))));
  };
  return V;
}

std::shared_ptr<const View> reorderStrideInverseView(std::shared_ptr<const View> Base,
                                                     const std::string &S) {
  auto V = std::make_shared<View>();
  V->Len = Base->Len;
  std::string Block = divS(Base->Len, S);
  V->At = [Base, S, Block](const std::string &J) {
    return Base->At(addS(mulS(par(J) + " % " + par(S), Block), divS(J, S)));
  };
  return V;
}

ExprPtr peelStoreLayout(Emitter &Em, ExprPtr Root, CVal &Target,
                        const funil::TypeEnv &Env) {
  for (;;) {
    if (Root->isCall("transpose")) {
      Target = mapTarget(Target, [&](std::shared_ptr<const View> T) {
        return transposeView(Em, T);
      });
      Root = Root->Args[0];
    } else if (Root->isCall("scatter")) {
      // element i of the value goes to element f(i) of the target: the
      // target read through reorder(f, .)
      ExprPtr Fn = Root->Args[0];
      Target = mapTarget(Target, [&](std::shared_ptr<const View> T) {
        return Em.reorderView(T, Fn);
      });
      Root = Root->Args[1];
    } else if (Root->isCall("reorderStride")) {
      std::string S = Em.emit(Root->Args[0]).Expr;
      Target = mapTarget(Target, [&](std::shared_ptr<const View> T) {
        return reorderStrideInverseView(T, S);
      });
      Root = Root->Args[1];
    } else if (Root->isCall("asScalar")) {
      funil::TypePtr Ty;
      std::string Err;
      if (!funil::inferType(Root->Args[0], Env, Ty, Err) || !Ty->isArray() ||
          !Ty->Elem->isVector())
        throw CodegenError("'asScalar' of a value that is not an array of vectors");
      unsigned W = Ty->Elem->Lanes;
      Target = mapTarget(Target, [&](std::shared_ptr<const View> T) {
        return vectorTarget(Em, T, W);
      });
      Root = Root->Args[0];
    } else {
      return Root;
    }
  }
}

std::shared_ptr<const View> Emitter::reorderView(std::shared_ptr<const View> Base,
                                                ExprPtr Fn) {
  Scope Saved = scope();
  auto V = std::make_shared<View>();
  V->Len = Base->Len;
  // The index function is applied at the access, in the map's lexical
  // environment, like the element function of map.
  V->At = [this, Base, Fn, Saved](const std::string &I) {
    CVal J = applyIn(Saved, Fn, {CVal::scalar(I, ScalarKind::I64)});
    return Base->At(J.Expr);
  };
  return V;
}

CVal Emitter::emitLayout(const Expr &E) {
  const std::string &N = E.Name;
  const auto &A = E.Args;
  auto ArrayOf = [&](const ExprPtr &X) {
    CVal V = emit(X);
    if (V.K != CVal::Array)
      throw CodegenError("'" + N + "' of a non-array");
    return V.Arr;
  };
  if (N == "transpose")
    return CVal::array(transposeView(*this, ArrayOf(A[0])));
  if (N == "reorderStride") {
    std::string S = emit(A[0]).Expr;
    return CVal::array(reorderStrideView(ArrayOf(A[1]), S));
  }
  if (N == "reorder")
    return CVal::array(reorderView(ArrayOf(A[1]), A[0]));
  if (N == "scatter")
    throw CodegenError("'scatter' is generated only at the root of a store "
                       "program (its outputs written through the index "
                       "function)");
  if (N == "slide") {
    std::string Sz = emit(A[0]).Expr, St = emit(A[1]).Expr;
    auto Base = ArrayOf(A[2]);
    auto V = std::make_shared<View>();
    std::string L = asLong(Base->Len);
    V->Len = "(" + L + " >= " + asLong(Sz) + " ? (" + L + " - " + asLong(Sz) + ") / " +
             asLong(St) + " + 1L : 0L)";
    V->At = [Base, Sz, St](const std::string &K) {
      auto Row = std::make_shared<View>();
      Row->Len = Sz;
      std::string Start = mulS(K, St);
      Row->At = [Base, Start](const std::string &J) { return Base->At(addS(Start, J)); };
      if (Base->Addr)
        Row->Addr = [Base, Start](const std::string &J) { return Base->Addr(addS(Start, J)); };
      return CVal::array(Row);
    };
    return CVal::array(V);
  }
  if (N == "pad" || N == "padClamp") {
    std::string L = emit(A[0]).Expr, R = emit(A[1]).Expr;
    CVal Pad;
    if (N == "pad")
      Pad = settle(emit(A[2]), "pad");
    auto Base = ArrayOf(A.back());
    auto V = std::make_shared<View>();
    V->Len = addS(addS(L, Base->Len), R);
    bool Constant = N == "pad";
    CVal E0 = probe(*this, *Base);
    if (E0.K == CVal::Scalar && E0.Lanes == 1 && Base->VecRead && Base->VecAligned) {
      // A vector of the padded array: when it lies inside a and a's
      // addresses are aligned, one vector read of a (the vector loads of
      // VecRead, the map's function per lane); else lane by lane.
      V->VecAt = [this, Base, L, V0 = V.get()](const std::string &S, unsigned W) {
        CVal E = probe(*this, *V0);
        std::string T = clValueType(E.S, W), Var = fresh("pv");
        std::string J = minusS(S, L);
        line(T + " " + Var + ";");
        open("if (" + J + " >= 0L && " + J + " + " + std::to_string(W) + "L <= " +
             asLong(Base->Len) + " && " + Base->VecAligned(J, W) + ")");
        std::string Lanes;
        for (const CVal &X : Base->VecRead(J, W))
          Lanes += (Lanes.empty() ? "" : ", ") + X.Expr;
        line(Var + " = (" + T + ")(" + Lanes + ");");
        close();
        open("else");
        Lanes.clear();
        for (unsigned K = 0; K < W; ++K)
          Lanes += (K ? ", " : "") + settle(V0->At(addS(S, std::to_string(K))), "pl").Expr;
        line(Var + " = (" + T + ")(" + Lanes + ");");
        close();
        CVal R = CVal::scalar(Var, E.S);
        R.Lanes = W;
        return R;
      };
    }
    V->At = [Base, L, Pad, Constant](const std::string &I) {
      std::string J = minusS(I, L);
      // Clamped into 0..n-1: padClamp's element, and for pad an index that
      // is in bounds whenever the array is not empty.
      std::string Clamped = "max(min(" + J + ", " + asLong(Base->Len) + " - 1L), 0L)";
      CVal X = Base->At(Clamped);
      if (!Constant)
        return X;
      std::string In = "(" + J + " >= 0L && " + J + " < " + asLong(Base->Len) + ")";
      std::function<CVal(const CVal &, const CVal &)> Sel = [&](const CVal &Xv,
                                                               const CVal &Pv) {
        if (Xv.K == CVal::Tuple) {
          CVal T = Xv;
          for (size_t K = 0; K < T.Elems.size(); ++K)
            T.Elems[K] = Sel(Xv.Elems[K], Pv.Elems.at(K));
          return T;
        }
        if (Xv.K != CVal::Scalar)
          throw CodegenError("'pad' of an array of arrays");
        CVal S = CVal::scalar("(" + In + " ? " + par(Xv.Expr) + " : " + par(Pv.Expr) + ")",
                              Xv.S);
        S.Lanes = Xv.Lanes;
        return S;
      };
      return Sel(X, Pad);
    };
    return CVal::array(V);
  }
  if (N == "asVector") {
    unsigned W = static_cast<unsigned>(A[0]->signedValue());
    auto Base = ArrayOf(A[1]);
    CVal E0 = probe(*this, *Base);
    if (E0.K != CVal::Scalar || E0.Lanes != 1)
      throw CodegenError("'asVector' of an array that is not of scalars");
    ScalarKind K = E0.S;
    std::string Ws = std::to_string(W);
    auto V = std::make_shared<View>();
    V->Len = divS(Base->Len, Ws);
    V->At = [Base, W, Ws, K](const std::string &I) {
      std::string Start = mulS(I, Ws);
      CVal R;
      if (Base->Addr) {
        R = CVal::scalar("vload" + Ws + "(0, " + Base->Addr(Start) + ")", K);
      } else if (Base->VecAt) {
        R = Base->VecAt(Start, W);
      } else {
        std::string Lanes;
        for (unsigned L = 0; L < W; ++L) {
          CVal X = Base->At(addS(Start, std::to_string(L)));
          Lanes += (L ? ", " : "") + X.Expr;
        }
        R = CVal::scalar("((" + clValueType(K, W) + ")(" + Lanes + "))", K);
      }
      R.Lanes = W;
      return R;
    };
    return CVal::array(V);
  }
  if (N == "asScalar") {
    auto Base = ArrayOf(A[0]);
    CVal E0 = probe(*this, *Base);
    if (E0.K != CVal::Scalar || E0.Lanes < 2)
      throw CodegenError("'asScalar' of an array that is not of vectors");
    unsigned W = E0.Lanes;
    std::string Ws = std::to_string(W);
    auto V = std::make_shared<View>();
    V->Len = mulS(Base->Len, Ws);
    V->At = [this, Base, W, Ws](const std::string &I) {
      long long Idx;
      if (literalIndex(I, Idx))
        return laneAt(Base->At(std::to_string(Idx / W)), std::to_string(Idx % W));
      return laneAt(Base->At(divS(I, Ws)), par(I) + " % " + Ws);
    };
    return CVal::array(V);
  }
  if (N == "broadcast") {
    unsigned W = static_cast<unsigned>(A[0]->signedValue());
    CVal X = emit(A[1]);
    CVal R = CVal::scalar("((" + clValueType(X.S, W) + ")(" + X.Expr + "))", X.S);
    R.Lanes = W;
    return R;
  }
  if (N == "lanes") {
    CVal Vec = emit(A[0]);
    if (Vec.K != CVal::Scalar || Vec.Lanes < 2)
      throw CodegenError("'lanes' of a value that is not a vector");
    auto V = std::make_shared<View>();
    V->Len = std::to_string(Vec.Lanes);
    V->At = [this, Vec](const std::string &I) { return laneAt(Vec, I); };
    return CVal::array(V);
  }
  throw CodegenError("'" + N + "' is not supported here by the OpenCL generator"
                     " (lower it first)");
}

CVal Emitter::laneAt(const CVal &Vec, const std::string &I) {
  long long Idx;
  if (literalIndex(I, Idx))
    return CVal::scalar(laneOf(Vec.Expr, static_cast<unsigned>(Idx)), Vec.S);
  // A lane chosen at run time: through a pointer to the private vector.
  CVal V = settle(Vec, "vec");
  return CVal::scalar("((const " + std::string(clType(V.S)) + " *)&" + V.Expr + ")[" +
                          par(I) + "]",
                      V.S);
}

CVal Emitter::emitLaneWise(const Expr &E, std::vector<CVal> Args) {
  unsigned W = 1;
  for (const CVal &A : Args) {
    if (A.K != CVal::Scalar)
      throw CodegenError("operand of '" + E.Name + "' is not a scalar or a vector");
    W = std::max(W, A.Lanes);
  }
  auto Vector = [&](std::string X, ScalarKind K) {
    CVal R = CVal::scalar(std::move(X), K);
    R.Lanes = W;
    return R;
  };
  std::string Out, Err;
  if (E.K == Expr::Cast) { // lane by lane: OpenCL has no vector casts
    CVal X = settle(Args[0], "vec");
    std::string L;
    for (unsigned I = 0; I < W; ++I)
      L += (I ? ", " : "") + clCast(E.Name, X.S, E.LitKind, laneOf(X.Expr, I));
    return Vector("((" + clValueType(E.LitKind, W) + ")(" + L + "))", E.LitKind);
  }
  const funil::OpInfo *Op = cachedOp(E.Name);
  if (Op->Class == funil::OpClass::Select) {
    // A scalar condition selects a whole vector (OpenCL C, ?: operator).
    if (Args[0].Lanes != 1 || Args[1].Lanes != W || Args[2].Lanes != W)
      throw CodegenError("'select' of vectors needs a scalar condition");
    return Vector("(" + par(Args[0].Expr) + " ? " + par(Args[1].Expr) + " : " +
                      par(Args[2].Expr) + ")",
                  Args[1].S);
  }
  ScalarKind K = Args[0].S;
  bool Float = Op->Class == funil::OpClass::FloatBinary ||
               Op->Class == funil::OpClass::FloatUnary ||
               Op->Class == funil::OpClass::FloatTernary;
  if (Float) {
    // OpenCL's float built-ins and operators are lane-wise; scalars are
    // broadcast explicitly (pow, fmod and fma take no scalar argument).
    std::vector<std::string> Strs;
    for (const CVal &A : Args)
      Strs.push_back(A.Lanes > 1 ? A.Expr : "((" + clValueType(K, W) + ")(" + A.Expr + "))");
    if (!clScalarOp(E.Name, K, Strs, Out, Err))
      throw CodegenError(Err);
    return Vector(Out, K);
  }
  // Integer operations lane by lane, with the scalar spelling (wrapping
  // arithmetic on unsigned types, as for scalars).
  for (CVal &A : Args)
    if (A.Lanes > 1)
      A = settle(A, "vec");
  std::string L;
  for (unsigned I = 0; I < W; ++I) {
    std::vector<std::string> Strs;
    for (const CVal &A : Args)
      Strs.push_back(A.Lanes > 1 ? laneOf(A.Expr, I) : A.Expr);
    if (!clScalarOp(E.Name, K, Strs, Out, Err))
      throw CodegenError(Err);
    L += (I ? ", " : "") + Out;
  }
  return Vector("((" + clValueType(K, W) + ")(" + L + "))", K);
}

} // namespace idiom::rewrite::codegen
