//===- TypeCheck.cpp - FunIL type checker ---------------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/TypeCheck.h"

#include "idiom/FunIL/Ops.h"

#include <stdexcept>
#include <unordered_map>

namespace idiom::funil {

const Param *TypeEnv::lookup(const std::string &Name) const {
  for (auto It = Vars.rbegin(); It != Vars.rend(); ++It)
    if (It->Name == Name)
      return &*It;
  return nullptr;
}

SizePtr sizeOfExpr(const Expr &E) {
  if (E.K == Expr::Var)
    return Size::var(E.Name);
  if (E.K == Expr::Lit && isInteger(E.LitKind))
    return Size::constant(E.signedValue());
  return Size::unknown();
}

namespace {

struct TypeError : std::runtime_error {
  SourceLoc Loc;
  TypeError(SourceLoc L, const std::string &M) : std::runtime_error(M), Loc(L) {}
};

/// The primitives with a typing rule of their own, so that callType
/// dispatches on an enumerator instead of comparing the name with each.
enum class Prim : uint8_t {
  view, iota, zip, map, mapSeq, mapGlobal, mapWorkgroup, mapLocal, reduce, reduceSeq, reduceIndexed, reduceIndexedAtomic, split, join, at, strided, blocks, halves, iterate, apply, toGlobal, toLocal, toPrivate, transpose, reorder, scatter, reorderStride, slide, pad, padClamp, asVector, broadcast, lanes, asScalar,
  Other
};

/// The Prim of table entry \p Op (a hash of the entry's address; the
/// table's entries are unique per name).
Prim primOf(const OpInfo *Op) {
  static const std::unordered_map<const OpInfo *, Prim> Index = [] {
    std::unordered_map<const OpInfo *, Prim> M;
    const std::pair<const char *, Prim> Names[] = {
        {"view", Prim::view},
        {"iota", Prim::iota},
        {"zip", Prim::zip},
        {"map", Prim::map},
        {"mapSeq", Prim::mapSeq},
        {"mapGlobal", Prim::mapGlobal},
        {"mapWorkgroup", Prim::mapWorkgroup},
        {"mapLocal", Prim::mapLocal},
        {"reduce", Prim::reduce},
        {"reduceSeq", Prim::reduceSeq},
        {"reduceIndexed", Prim::reduceIndexed},
        {"reduceIndexedAtomic", Prim::reduceIndexedAtomic},
        {"split", Prim::split},
        {"join", Prim::join},
        {"at", Prim::at},
        {"strided", Prim::strided},
        {"blocks", Prim::blocks},
        {"halves", Prim::halves},
        {"iterate", Prim::iterate},
        {"apply", Prim::apply},
        {"toGlobal", Prim::toGlobal},
        {"toLocal", Prim::toLocal},
        {"toPrivate", Prim::toPrivate},
        {"transpose", Prim::transpose},
        {"reorder", Prim::reorder},
        {"scatter", Prim::scatter},
        {"reorderStride", Prim::reorderStride},
        {"slide", Prim::slide},
        {"pad", Prim::pad},
        {"padClamp", Prim::padClamp},
        {"asVector", Prim::asVector},
        {"broadcast", Prim::broadcast},
        {"lanes", Prim::lanes},
        {"asScalar", Prim::asScalar},
};
    for (const auto &[N, P] : Names)
      if (const OpInfo *I = lookupOp(N))
        M.emplace(I, P);
    return M;
  }();
  auto It = Index.find(Op);
  return It == Index.end() ? Prim::Other : It->second;
}

class Checker {
public:
  /// Checks in \p Outer (not copied: it must outlive the checker).
  explicit Checker(const TypeEnv &Outer) : Outer(Outer) {}
  TypePtr infer(const ExprPtr &E);
  TypePtr apply(const ExprPtr &Fn, const std::vector<TypePtr> &ArgTys,
                const Expr &Site);

private:
  [[noreturn]] static void fail(const Expr &E, const std::string &M) {
    throw TypeError(E.Loc, M);
  }
  static std::string str(const TypePtr &T) { return "'" + printType(*T) + "'"; }
  TypePtr scalarOperand(const Expr &Site, const ExprPtr &A);
  void expectI64(const Expr &Site, const ExprPtr &A, const char *What);
  TypePtr arrayOperand(const Expr &Site, const ExprPtr &A);
  TypePtr callType(const Expr &E);
  TypePtr scalarOpType(const Expr &E, OpClass C);
  TypePtr layoutType(const Expr &E, Prim Pr);
  const Param *lookup(const std::string &Name) const {
    if (const Param *P = Env.lookup(Name))
      return P;
    return Outer.lookup(Name);
  }
  const TypeEnv &Outer;
  TypeEnv Env; ///< the lambda parameters bound inside, innermost last
};

TypePtr Checker::scalarOperand(const Expr &Site, const ExprPtr &A) {
  TypePtr T = infer(A);
  if (!T->isScalar() && !T->isVector())
    fail(*A, "operand of '" + Site.Name + "' must be a scalar, found " + str(T));
  return T;
}

void Checker::expectI64(const Expr &Site, const ExprPtr &A, const char *What) {
  TypePtr T = infer(A);
  if (!T->isScalar(ScalarKind::I64))
    fail(*A, std::string(What) + " of '" + Site.Name + "' must be i64, found " +
                 str(T));
}

TypePtr Checker::arrayOperand(const Expr &Site, const ExprPtr &A) {
  TypePtr T = infer(A);
  if (!T->isArray())
    fail(*A, "'" + Site.Name + "' expects an array, found " + str(T));
  return T;
}

TypePtr Checker::apply(const ExprPtr &Fn, const std::vector<TypePtr> &ArgTys,
                       const Expr &Site) {
  if (Fn->K != Expr::Lambda)
    fail(*Fn, "'" + Site.Name + "' expects a lambda here");
  if (Fn->Params.size() != ArgTys.size())
    fail(*Fn, "the lambda given to '" + Site.Name + "' must take " +
                  std::to_string(ArgTys.size()) + " parameter(s)");
  for (size_t I = 0; I < ArgTys.size(); ++I)
    if (!compatibleType(*Fn->Params[I].Ty, *ArgTys[I]))
      fail(*Fn, "parameter '" + Fn->Params[I].Name + "' has type " +
                    str(Fn->Params[I].Ty) + " but '" + Site.Name +
                    "' passes " + str(ArgTys[I]));
  for (const Param &P : Fn->Params)
    Env.push(P.Name, P.Ty);
  TypePtr R = infer(Fn->body());
  for (size_t I = 0; I < Fn->Params.size(); ++I)
    Env.pop();
  return R;
}

TypePtr Checker::scalarOpType(const Expr &E, OpClass C) {
  if (C == OpClass::Select) {
    TypePtr Cond = infer(E.Args[0]);
    if (!Cond->isScalar(ScalarKind::Bool))
      fail(*E.Args[0], "condition of 'select' must be bool, found " + str(Cond));
    TypePtr A = infer(E.Args[1]), B = infer(E.Args[2]);
    if (!compatibleType(*A, *B))
      fail(E, "'select' arms differ: " + str(A) + " and " + str(B));
    return A;
  }
  std::vector<TypePtr> Ts;
  for (const ExprPtr &A : E.Args)
    Ts.push_back(scalarOperand(E, A));
  // Lane-wise on vectors: scalar operands are broadcast (OpenCL C 6.3).
  TypePtr Vec;
  for (const TypePtr &T : Ts) {
    if (T->S != Ts[0]->S || (T->isVector() && Vec && Vec->Lanes != T->Lanes))
      fail(E, "operands of '" + E.Name + "' must have equal types, found " +
                  str(Ts[0]) + " and " + str(T));
    if (T->isVector())
      Vec = T;
  }
  if (Vec && (C == OpClass::IntCompare || C == OpClass::FloatCompare ||
              C == OpClass::Not))
    fail(E, "'" + E.Name + "' is not lane-wise: it does not apply to " + str(Vec));
  if (Vec)
    Ts[0] = Vec;
  ScalarKind K = Ts[0]->S;
  bool Ok = false;
  switch (C) {
  case OpClass::IntBinary:
  case OpClass::IntUnary:
    Ok = isInteger(K);
    break;
  case OpClass::LogicBinary:
  case OpClass::IntCompare:
    Ok = isInteger(K) || K == ScalarKind::Bool;
    break;
  case OpClass::FloatBinary:
  case OpClass::FloatUnary:
  case OpClass::FloatTernary:
  case OpClass::FloatCompare:
    Ok = isFloat(K);
    break;
  case OpClass::Not:
    Ok = K == ScalarKind::Bool;
    break;
  default:
    break;
  }
  if (!Ok)
    fail(E, "'" + E.Name + "' does not apply to " + str(Ts[0]));
  if (C == OpClass::IntCompare || C == OpClass::FloatCompare)
    return Type::scalar(ScalarKind::Bool);
  return Ts[0];
}

TypePtr Checker::callType(const Expr &E) {
  const OpInfo *Op = lookupOp(E.Name);
  if (!Op)
    fail(E, "unknown function '" + E.Name + "'");
  if (E.Args.size() < Op->MinArgs || E.Args.size() > Op->MaxArgs)
    fail(E, "wrong number of arguments to '" + E.Name + "'");
  if (Op->HasDim && (E.Attr < 0 || E.Attr > 2))
    fail(E, "'" + E.Name + "' needs a dimension 0..2");
  if (Op->Class == OpClass::HwQuery)
    return Type::scalar(ScalarKind::I64);
  if (Op->Class != OpClass::Primitive)
    return scalarOpType(E, Op->Class);
  Prim Pr = primOf(Op);

  const std::string &N = E.Name;
  const auto &A = E.Args;
  if (Pr == Prim::view) {
    TypePtr B = infer(A[0]);
    if (!B->isBuffer())
      fail(*A[0], "first argument of 'view' must be a buffer, found " + str(B));
    if (A.size() != 4 && A.size() != 6 && A.size() != 8)
      fail(E, "'view' takes 4, 6 or 8 arguments");
    for (size_t I = 1; I < A.size(); ++I)
      expectI64(E, A[I], I % 2 == 1 && I > 1 ? "length" : "offset/stride");
    // One array level per (stride, length) pair, the first outermost.
    TypePtr T = B->Elem;
    for (size_t I = A.size() - 1; I >= 3; I -= 2)
      T = Type::array(T, sizeOfExpr(*A[I]));
    return T;
  }
  if (Pr == Prim::iota) {
    expectI64(E, A[0], "length");
    return Type::array(Type::scalar(ScalarKind::I64), sizeOfExpr(*A[0]));
  }
  if (Pr == Prim::zip) {
    std::vector<TypePtr> Elems;
    SizePtr Len;
    for (const ExprPtr &X : A) {
      TypePtr T = arrayOperand(E, X);
      if (Len && !compatibleSize(*Len, *T->Len))
        fail(*X, "'zip' of arrays of different lengths " + printSize(*Len) +
                     " and " + printSize(*T->Len));
      if (!Len)
        Len = T->Len;
      Elems.push_back(T->Elem);
    }
    return Type::array(Type::tuple(std::move(Elems)), Len);
  }
  if (Pr == Prim::map || Pr == Prim::mapSeq || Pr == Prim::mapGlobal || Pr == Prim::mapWorkgroup ||
      Pr == Prim::mapLocal) {
    TypePtr In = arrayOperand(E, A[1]);
    TypePtr Out = apply(A[0], {In->Elem}, E);
    return Type::array(Out, In->Len);
  }
  if (Pr == Prim::reduce || Pr == Prim::reduceSeq) {
    TypePtr In = arrayOperand(E, A[2]);
    TypePtr Init = infer(A[1]);
    if (Pr == Prim::reduce && !compatibleType(*Init, *In->Elem))
      fail(*A[1], "'reduce' initial value has type " + str(Init) +
                      " but the elements have type " + str(In->Elem));
    TypePtr R = apply(A[0], {Init, In->Elem}, E);
    if (!compatibleType(*R, *Init))
      fail(*A[0], "the operator of '" + N + "' returns " + str(R) +
                      " but the accumulator has type " + str(Init));
    return Init;
  }
  if (Pr == Prim::reduceIndexed || Pr == Prim::reduceIndexedAtomic) {
    // (op, init: [T]_m, f: A -> (i64, T), a: [A]_n) or (op, init, pairs):
    // pairs an array, possibly of arrays, of (i64, T); result [T]_m.
    TypePtr Init = arrayOperand(E, A[1]);
    TypePtr Pair = Pr == Prim::reduceIndexed ? apply(A[2], {arrayOperand(E, A[3])->Elem}, E)
                                        : arrayOperand(E, A[2]);
    while (Pair->isArray())
      Pair = Pair->Elem;
    if (!Pair->isTuple() || Pair->Elems.size() != 2 ||
        !Pair->Elems[0]->isScalar(ScalarKind::I64) ||
        !compatibleType(*Pair->Elems[1], *Init->Elem))
      fail(E, "'" + N + "' needs (i64, " + printType(*Init->Elem) +
                  ") pairs of bin index and value, found " + str(Pair));
    TypePtr R = apply(A[0], {Init->Elem, Init->Elem}, E);
    if (!compatibleType(*R, *Init->Elem))
      fail(*A[0], "the operator of '" + N + "' returns " + str(R) +
                      " but the bins have type " + str(Init->Elem));
    return Init;
  }
  if (Pr == Prim::split) {
    expectI64(E, A[0], "chunk length");
    TypePtr In = arrayOperand(E, A[1]);
    SizePtr Chunk = sizeOfExpr(*A[0]);
    if (Chunk->K == Size::Const && Chunk->Value <= 0)
      fail(*A[0], "'split' needs a positive chunk length");
    return Type::array(Type::array(In->Elem, Chunk), Size::div(In->Len, Chunk));
  }
  if (Pr == Prim::join) {
    TypePtr In = arrayOperand(E, A[0]);
    if (!In->Elem->isArray())
      fail(E, "'join' expects an array of arrays, found " + str(In));
    return Type::array(In->Elem->Elem, Size::mul(In->Len, In->Elem->Len));
  }
  if (Pr == Prim::at) {
    TypePtr In = arrayOperand(E, A[0]);
    expectI64(E, A[1], "index");
    return In->Elem;
  }
  if (Pr == Prim::strided || Pr == Prim::blocks) {
    expectI64(E, A[0], Pr == Prim::strided ? "stride" : "row count");
    TypePtr In = arrayOperand(E, A[1]);
    return Type::array(Type::array(In->Elem, Size::unknown()), sizeOfExpr(*A[0]));
  }
  if (Pr == Prim::halves) {
    TypePtr In = arrayOperand(E, A[0]);
    return Type::array(Type::array(In->Elem, Size::constant(2)),
                       Size::div(In->Len, Size::constant(2)));
  }
  if (Pr == Prim::iterate) {
    expectI64(E, A[0], "count");
    TypePtr In = infer(A[2]);
    TypePtr Out = apply(A[1], {In}, E);
    // Over an array the length may change (halves); over a scalar or a
    // tuple (a loop's state, e.g. a search interval) the type is kept.
    if (In->isArray()) {
      if (!Out->isArray() || !compatibleType(*Out->Elem, *In->Elem))
        fail(*A[1], "the function of 'iterate' must map " + str(In) +
                        " to an array of the same elements, found " + str(Out));
    } else if (!compatibleType(*Out, *In)) {
      fail(*A[1], "the function of 'iterate' must map " + str(In) + " to " + str(In) +
                      ", found " + str(Out));
    }
    return Out;
  }
  if (Pr == Prim::apply) // apply(f, x) = f(x): a let binding
    return apply(A[0], {infer(A[1])}, E);
  if (Pr == Prim::toGlobal || Pr == Prim::toLocal || Pr == Prim::toPrivate)
    return infer(A[0]);
  if (TypePtr T = layoutType(E, Pr))
    return T;
  fail(E, "no typing rule for '" + N + "'");
}

/// Typing of the data-layout primitives (docs/FunIL.md, "Primitives"):
/// transpose, reorder, reorderStride, slide, pad, padClamp, asVector,
/// asScalar; nullptr for other names. Sizes that need `+` or `-` (windows
/// of slide, the length of pad) are constants when every operand is one,
/// `?` otherwise.
TypePtr Checker::layoutType(const Expr &E, Prim Pr) {
  const std::string &N = E.Name;
  const auto &A = E.Args;
  auto PositiveLit = [&](const ExprPtr &X, const char *What) {
    expectI64(E, X, What);
    SizePtr S = sizeOfExpr(*X);
    if (S->K == Size::Const && S->Value <= 0)
      fail(*X, "'" + N + "' needs a positive " + What);
    return S;
  };
  auto NonNegative = [&](const ExprPtr &X, const char *What) {
    expectI64(E, X, What);
    SizePtr S = sizeOfExpr(*X);
    if (S->K == Size::Const && S->Value < 0)
      fail(*X, "'" + N + "' needs a non-negative " + What);
    return S;
  };
  if (Pr == Prim::transpose) {
    TypePtr In = arrayOperand(E, A[0]);
    if (!In->Elem->isArray())
      fail(E, "'transpose' expects an array of arrays, found " + str(In));
    return Type::array(Type::array(In->Elem->Elem, In->Len), In->Elem->Len);
  }
  if (Pr == Prim::reorder || Pr == Prim::scatter) {
    TypePtr In = arrayOperand(E, A[1]);
    TypePtr R = apply(A[0], {Type::scalar(ScalarKind::I64)}, E);
    if (!R->isScalar(ScalarKind::I64))
      fail(*A[0], "the index function of '" + E.Name + "' must return i64, found " +
                      str(R));
    return In;
  }
  if (Pr == Prim::reorderStride) {
    PositiveLit(A[0], "stride");
    return arrayOperand(E, A[1]);
  }
  if (Pr == Prim::slide) {
    SizePtr Sz = PositiveLit(A[0], "window size");
    SizePtr St = PositiveLit(A[1], "step");
    TypePtr In = arrayOperand(E, A[2]);
    SizePtr Count = Size::unknown();
    const Size &L = *In->Len;
    if (L.K == Size::Const && Sz->K == Size::Const && St->K == Size::Const)
      Count = Size::constant(L.Value >= Sz->Value ? (L.Value - Sz->Value) / St->Value + 1 : 0);
    return Type::array(Type::array(In->Elem, Sz), Count);
  }
  if (Pr == Prim::pad || Pr == Prim::padClamp) {
    SizePtr L = NonNegative(A[0], "left padding");
    SizePtr R = NonNegative(A[1], "right padding");
    TypePtr In = arrayOperand(E, A.back());
    if (Pr == Prim::pad) {
      TypePtr V = infer(A[2]);
      if (!compatibleType(*V, *In->Elem))
        fail(*A[2], "the padding value has type " + str(V) +
                        " but the elements have type " + str(In->Elem));
    }
    SizePtr Len = Size::unknown();
    if (L->K == Size::Const && R->K == Size::Const) {
      if (L->Value == 0 && R->Value == 0)
        Len = In->Len;
      else if (In->Len->K == Size::Const)
        Len = Size::constant(In->Len->Value + L->Value + R->Value);
    }
    return Type::array(In->Elem, Len);
  }
  if (Pr == Prim::asVector) {
    if (A[0]->K != Expr::Lit || !isInteger(A[0]->LitKind) ||
        !isVectorLanes(A[0]->signedValue()))
      fail(*A[0], "the width of 'asVector' must be a literal 2, 4, 8 or 16");
    expectI64(E, A[0], "width");
    TypePtr In = arrayOperand(E, A[1]);
    if (!In->Elem->isScalar() || In->Elem->isScalar(ScalarKind::Bool))
      fail(E, "'asVector' expects an array of non-bool scalars, found " + str(In));
    int64_t W = A[0]->signedValue();
    if (In->Len->K == Size::Const && In->Len->Value % W)
      fail(E, "'asVector' width " + std::to_string(W) + " does not divide " +
                  printSize(*In->Len));
    return Type::array(Type::vector(In->Elem->S, static_cast<unsigned>(W)),
                       Size::div(In->Len, Size::constant(W)));
  }
  if (Pr == Prim::broadcast) {
    if (A[0]->K != Expr::Lit || !isInteger(A[0]->LitKind) ||
        !isVectorLanes(A[0]->signedValue()))
      fail(*A[0], "the width of 'broadcast' must be a literal 2, 4, 8 or 16");
    expectI64(E, A[0], "width");
    TypePtr X = infer(A[1]);
    if (!X->isScalar() || X->isScalar(ScalarKind::Bool))
      fail(*A[1], "'broadcast' expects a non-bool scalar, found " + str(X));
    return Type::vector(X->S, static_cast<unsigned>(A[0]->signedValue()));
  }
  if (Pr == Prim::lanes) {
    TypePtr V = infer(A[0]);
    if (!V->isVector())
      fail(*A[0], "'lanes' expects a vector, found " + str(V));
    return Type::array(Type::scalar(V->S), Size::constant(V->Lanes));
  }
  if (Pr == Prim::asScalar) {
    TypePtr In = arrayOperand(E, A[0]);
    if (!In->Elem->isVector())
      fail(E, "'asScalar' expects an array of vectors, found " + str(In));
    return Type::array(Type::scalar(In->Elem->S),
                       Size::mul(In->Len, Size::constant(In->Elem->Lanes)));
  }
  return nullptr;
}

TypePtr Checker::infer(const ExprPtr &EP) {
  const Expr &E = *EP;
  switch (E.K) {
  case Expr::Var: {
    const Param *P = lookup(E.Name);
    if (!P)
      fail(E, "unknown variable '" + E.Name + "'");
    return P->Ty;
  }
  case Expr::Lit:
    return Type::scalar(E.LitKind);
  case Expr::Call:
    return callType(E);
  case Expr::Cast: {
    TypePtr From = infer(E.Args[0]);
    if (!From->isScalar() && !From->isVector())
      fail(E, "cannot cast a value of type " + str(From));
    std::string Why;
    if (!checkCast(E.Name, From->S, E.LitKind, Why))
      fail(E, Why);
    if (From->isVector()) { // lane-wise
      if (E.LitKind == ScalarKind::Bool)
        fail(E, "a vector cannot be cast to bool lanes");
      return Type::vector(E.LitKind, From->Lanes);
    }
    return Type::scalar(E.LitKind);
  }
  case Expr::Lambda:
    fail(E, "a lambda is only allowed as the argument of a primitive");
  case Expr::Tuple: {
    std::vector<TypePtr> Ts;
    for (const ExprPtr &A : E.Args)
      Ts.push_back(infer(A));
    return Type::tuple(std::move(Ts));
  }
  case Expr::Proj: {
    TypePtr T = infer(E.Args[0]);
    if (!T->isTuple())
      fail(E, "'." + std::to_string(E.Index) + "' applied to non-tuple " + str(T));
    if (E.Index >= T->Elems.size())
      fail(E, "tuple index " + std::to_string(E.Index) + " out of range for " +
                  str(T));
    return T->Elems[E.Index];
  }
  }
  fail(E, "unknown expression");
}

std::string formatError(const TypeError &E) {
  return std::to_string(E.Loc.Line) + ":" + std::to_string(E.Loc.Col) + ": " +
         E.what();
}

bool isScalarOrTupleOfScalars(const Type &T) {
  if (T.isScalar())
    return true;
  if (!T.isTuple())
    return false;
  for (const TypePtr &E : T.Elems)
    if (!isScalarOrTupleOfScalars(*E))
      return false;
  return true;
}

/// Checks that body elements of type \p Body can be stored through outputs
/// \p Outs (all of the same array shape).
bool storable(const TypePtr &Body, const std::vector<TypePtr> &Outs) {
  if (Outs.size() == 1 && !Outs[0]->isArray())
    return compatibleType(*Body, *Outs[0]);
  bool AllArrays = true;
  for (const TypePtr &O : Outs)
    AllArrays = AllArrays && O->isArray();
  if (AllArrays && Body->isArray()) {
    std::vector<TypePtr> Elems;
    for (const TypePtr &O : Outs) {
      if (!compatibleSize(*O->Len, *Body->Len))
        return false;
      Elems.push_back(O->Elem);
    }
    return storable(Body->Elem, Elems);
  }
  if (Body->isTuple() && Body->Elems.size() == Outs.size()) {
    for (size_t I = 0; I < Outs.size(); ++I)
      if (!compatibleType(*Body->Elems[I], *Outs[I]))
        return false;
    return true;
  }
  return false;
}

} // namespace

bool inferType(const ExprPtr &E, const TypeEnv &Env, TypePtr &Out,
               std::string &Err) {
  try {
    Checker C(Env);
    Out = C.infer(E);
    return true;
  } catch (const TypeError &TE) {
    Err = formatError(TE);
  } catch (const std::exception &X) {
    Err = std::string("0:0: internal error: ") + X.what();
  }
  return false;
}

bool inferApply(const ExprPtr &Fn, const std::vector<TypePtr> &ArgTys,
                const TypeEnv &Env, TypePtr &Out, std::string &Err) {
  try {
    Checker C(Env);
    Out = C.apply(Fn, ArgTys, *Fn);
    return true;
  } catch (const TypeError &TE) {
    Err = formatError(TE);
  } catch (const std::exception &X) {
    Err = std::string("0:0: internal error: ") + X.what();
  }
  return false;
}

bool typeCheckProgram(const Program &P, std::string &Err, TypePtr *BodyTy) {
  TypeEnv Env;
  for (const Param &Pa : P.Params) {
    if (Env.lookup(Pa.Name)) {
      Err = "1:1: duplicate parameter '" + Pa.Name + "'";
      return false;
    }
    bool Ok = Pa.Ty->isScalar() ||
              (Pa.Ty->isBuffer() && Pa.Ty->Elem->isScalar() &&
               !Pa.Ty->Elem->isScalar(ScalarKind::Bool));
    if (!Ok) {
      Err = "1:1: parameter '" + Pa.Name + "' must be a scalar or a buffer of "
            "non-bool scalars, found '" + printType(*Pa.Ty) + "'";
      return false;
    }
    Env.push(Pa.Name, Pa.Ty);
  }
  if (!P.Body) {
    Err = "1:1: program has no body";
    return false;
  }
  TypePtr T;
  if (!inferType(P.Body, Env, T, Err))
    return false;
  std::string Where = std::to_string(P.StmtLoc.Line) + ":" +
                      std::to_string(P.StmtLoc.Col) + ": ";
  if (P.IsReturn) {
    if (!isScalarOrTupleOfScalars(*T)) {
      Err = Where + "a reduction must return a scalar or a tuple of scalars, "
                    "found '" + printType(*T) + "'";
      return false;
    }
  } else {
    std::vector<TypePtr> Outs;
    for (const ExprPtr &O : P.Outs) {
      if (!O->isCall("view")) {
        Err = std::to_string(O->Loc.Line) + ":" + std::to_string(O->Loc.Col) +
              ": an output must be a view of a buffer";
        return false;
      }
      TypePtr OT;
      if (!inferType(O, Env, OT, Err))
        return false;
      Outs.push_back(OT);
    }
    if (!T->isArray() || !storable(T, Outs)) {
      std::string OS;
      for (const TypePtr &O : Outs)
        OS += (OS.empty() ? "'" : ", '") + printType(*O) + "'";
      Err = Where + "cannot store a value of type '" + printType(*T) +
            "' through " + OS;
      return false;
    }
  }
  if (BodyTy)
    *BodyTy = T;
  return true;
}

} // namespace idiom::funil
