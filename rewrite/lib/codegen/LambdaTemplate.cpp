//===- LambdaTemplate.cpp - a scalar lambda's text with holes -------------===//
//
// Part of Idiom. See LambdaTemplate.h.
//
//===----------------------------------------------------------------------===//

#include "LambdaTemplate.h"

#include "OpCache.h"

namespace idiom::rewrite::codegen {

using funil::Expr;

namespace {

/// Marker leaf I: an identifier no argument, binding or spelling contains
/// (bindings are checked; spellings are fixed text, types and numbers).
const char Marker[] = "__idiom_hole_";
constexpr size_t MarkerLen = sizeof(Marker) - 1;

std::string markerOf(unsigned I) { return Marker + std::to_string(I) + "_"; }

bool isOneLaneScalar(const CVal &V) { return V.K == CVal::Scalar && V.Lanes == 1; }

/// Appends the one-lane scalar leaves of \p V to \p Out; false when V has
/// another leaf.
bool scalarLeaves(const CVal &V, std::vector<const CVal *> &Out) {
  if (V.K == CVal::Tuple) {
    for (const CVal &E : V.Elems)
      if (!scalarLeaves(E, Out))
        return false;
    return true;
  }
  if (!isOneLaneScalar(V))
    return false;
  Out.push_back(&V);
  return true;
}

/// The checks of the file comment over the body of a lambda.
struct Purity {
  const Emitter &Em;
  const ExprPtr &Fn;
  const std::vector<CVal> &Args;

  /// The value variable \p Name has in the body (innermost wins, as in
  /// apply: later parameters, then the emitter's bindings); \p Param tells
  /// which.
  const CVal *valueOf(const std::string &Name, bool &Param) const {
    Param = true;
    for (size_t I = Fn->Params.size(); I-- > 0;)
      if (Fn->Params[I].Name == Name)
        return &Args[I];
    Param = false;
    return Em.find(Name);
  }

  /// A value whose text is copied into the result: a one-lane scalar, with
  /// no marker in its text unless it is (part of) a parameter.
  static bool usable(const CVal *V, bool Param) {
    return V && isOneLaneScalar(*V) &&
           (Param || V->Expr.find(Marker) == std::string::npos);
  }

  bool pure(const Expr &E) const {
    switch (E.K) {
    case Expr::Lit:
      return true;
    case Expr::Var: {
      bool Param;
      const CVal *V = valueOf(E.Name, Param);
      return usable(V, Param);
    }
    case Expr::Proj: {
      if (E.Args[0]->K != Expr::Var)
        return false;
      bool Param;
      const CVal *T = valueOf(E.Args[0]->Name, Param);
      return T && T->K == CVal::Tuple && E.Index < T->Elems.size() &&
             usable(&T->Elems[E.Index], Param);
    }
    case Expr::Cast:
      return pure(*E.Args[0]);
    case Expr::Call: {
      const funil::OpInfo *Op = cachedOp(E.Name);
      if (!Op || Op->Class == funil::OpClass::Primitive)
        return false;
      for (const ExprPtr &A : E.Args)
        if (!pure(*A))
          return false;
      return true;
    }
    case Expr::Tuple:
    case Expr::Lambda:
      return false;
    }
    return false;
  }
};

/// \p Shapes with leaf I's text replaced by markerOf(I).
CVal withMarkers(const CVal &V, unsigned &Next) {
  if (V.K == CVal::Tuple) {
    CVal T;
    T.K = CVal::Tuple;
    for (const CVal &E : V.Elems)
      T.Elems.push_back(withMarkers(E, Next));
    return T;
  }
  return CVal::scalar(markerOf(Next++), V.S);
}

} // namespace

bool LambdaTemplate::prepare(Emitter &Em, const ExprPtr &Fn,
                             const std::vector<CVal> &Shapes) {
  Ready = false;
  if (Fn->K != Expr::Lambda || Fn->Params.size() != Shapes.size())
    return false;
  std::vector<const CVal *> Leaves;
  for (const CVal &S : Shapes)
    if (!scalarLeaves(S, Leaves))
      return false;
  std::vector<CVal> Args;
  unsigned Next = 0;
  for (const CVal &S : Shapes)
    Args.push_back(withMarkers(S, Next));
  if (!Purity{Em, Fn, Args}.pure(*Fn->body()))
    return false;
  size_t Lines0 = Em.Lines.size();
  CVal R = Em.apply(Fn, Args);
  if (Em.Lines.size() != Lines0 || !isOneLaneScalar(R))
    throw CodegenError("internal error: a pure lambda emitted statements");
  // Split the text at the markers.
  Kinds.clear();
  for (const CVal *L : Leaves)
    Kinds.push_back(L->S);
  Pieces.assign(1, "");
  Holes.clear();
  const std::string &T = R.Expr;
  for (size_t P = 0; P < T.size();) {
    size_t M = T.find(Marker, P);
    if (M == std::string::npos) {
      Pieces.back().append(T, P, std::string::npos);
      break;
    }
    Pieces.back().append(T, P, M - P);
    size_t D = M + MarkerLen, E = D;
    while (E < T.size() && T[E] >= '0' && T[E] <= '9')
      ++E;
    unsigned I = static_cast<unsigned>(std::stoul(T.substr(D, E - D)));
    if (E >= T.size() || T[E] != '_' || I >= Kinds.size())
      throw CodegenError("internal error: a malformed lambda template");
    Holes.push_back(I);
    Pieces.emplace_back();
    P = E + 1;
  }
  FixedSize = 0;
  for (const std::string &P : Pieces)
    FixedSize += P.size();
  Result = R.S;
  Ready = true;
  return true;
}

bool LambdaTemplate::instantiate(std::initializer_list<TemplateLeaf> Leaves,
                                 std::string &Out) const {
  if (!Ready || Leaves.size() != Kinds.size())
    return false;
  size_t Size = FixedSize, I = 0;
  for (const TemplateLeaf &L : Leaves) {
    if (L.S != Kinds[I++] || !isIdentOrNumber(L.Expr))
      return false;
  }
  const TemplateLeaf *Ls = Leaves.begin();
  for (unsigned H : Holes)
    Size += Ls[H].Expr.size();
  Out.reserve(Out.size() + Size);
  Out += Pieces[0];
  for (size_t K = 0; K < Holes.size(); ++K)
    Out.append(Ls[Holes[K]].Expr).append(Pieces[K + 1]);
  return true;
}

} // namespace idiom::rewrite::codegen
