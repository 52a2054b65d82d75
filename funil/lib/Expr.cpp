//===- Expr.cpp - FunIL expression trees ----------------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Expr.h"

#include <cmath>

namespace idiom::funil {

static uint64_t truncBits(ScalarKind K, uint64_t V) {
  unsigned B = scalarBits(K);
  if (B >= 64)
    return V;
  return V & ((uint64_t(1) << B) - 1);
}

ExprPtr Expr::var(const std::string &Name, SourceLoc L) {
  auto E = std::make_shared<Expr>();
  E->K = Var;
  E->Name = Name;
  E->Loc = L;
  return E;
}

ExprPtr Expr::intLit(ScalarKind K, int64_t V, SourceLoc L) {
  auto E = std::make_shared<Expr>();
  E->K = Lit;
  E->LitKind = K;
  E->Bits = truncBits(K, static_cast<uint64_t>(V));
  E->Loc = L;
  return E;
}

ExprPtr Expr::floatLit(ScalarKind K, double V, SourceLoc L) {
  auto E = std::make_shared<Expr>();
  E->K = Lit;
  E->LitKind = K;
  E->F = K == ScalarKind::F32 ? static_cast<double>(static_cast<float>(V)) : V;
  E->Loc = L;
  return E;
}

ExprPtr Expr::call(const std::string &Name, std::vector<ExprPtr> Args,
                   int64_t Attr, SourceLoc L) {
  auto E = std::make_shared<Expr>();
  E->K = Call;
  E->Name = Name;
  E->Args = std::move(Args);
  E->Attr = Attr;
  E->Loc = L;
  return E;
}

ExprPtr Expr::cast(const std::string &Op, ScalarKind To, ExprPtr X,
                   SourceLoc L) {
  auto E = std::make_shared<Expr>();
  E->K = Cast;
  E->Name = Op;
  E->LitKind = To;
  E->Args.push_back(std::move(X));
  E->Loc = L;
  return E;
}

ExprPtr Expr::lambda(std::vector<Param> Ps, ExprPtr Body, SourceLoc L) {
  auto E = std::make_shared<Expr>();
  E->K = Lambda;
  E->Params = std::move(Ps);
  E->Args.push_back(std::move(Body));
  E->Loc = L;
  return E;
}

ExprPtr Expr::tuple(std::vector<ExprPtr> Elems, SourceLoc L) {
  auto E = std::make_shared<Expr>();
  E->K = Tuple;
  E->Args = std::move(Elems);
  E->Loc = L;
  return E;
}

ExprPtr Expr::proj(ExprPtr X, unsigned I, SourceLoc L) {
  auto E = std::make_shared<Expr>();
  E->K = Proj;
  E->Index = I;
  E->Args.push_back(std::move(X));
  E->Loc = L;
  return E;
}

int64_t Expr::signedValue() const {
  unsigned B = scalarBits(LitKind);
  if (B >= 64)
    return static_cast<int64_t>(Bits);
  uint64_t Sign = uint64_t(1) << (B - 1);
  return static_cast<int64_t>((Bits ^ Sign) - Sign);
}

const Param *Program::findParam(const std::string &N) const {
  for (const Param &P : Params)
    if (P.Name == N)
      return &P;
  return nullptr;
}

bool sameExpr(const Expr &A, const Expr &B) {
  if (A.K != B.K || A.Name != B.Name || A.Args.size() != B.Args.size())
    return false;
  switch (A.K) {
  case Expr::Lit:
    if (A.LitKind != B.LitKind)
      return false;
    if (isFloat(A.LitKind)) {
      // Compare bit patterns so that NaN equals NaN and -0 differs from 0.
      if (A.F != A.F || B.F != B.F)
        return A.F != A.F && B.F != B.F;
      return A.F == B.F && std::signbit(A.F) == std::signbit(B.F);
    }
    return A.Bits == B.Bits;
  case Expr::Call:
    if (A.Attr != B.Attr)
      return false;
    break;
  case Expr::Cast:
    if (A.LitKind != B.LitKind)
      return false;
    break;
  case Expr::Proj:
    if (A.Index != B.Index)
      return false;
    break;
  case Expr::Lambda:
    if (A.Params.size() != B.Params.size())
      return false;
    for (size_t I = 0; I < A.Params.size(); ++I)
      if (A.Params[I].Name != B.Params[I].Name ||
          !sameType(*A.Params[I].Ty, *B.Params[I].Ty))
        return false;
    break;
  default:
    break;
  }
  for (size_t I = 0; I < A.Args.size(); ++I)
    if (!sameExpr(*A.Args[I], *B.Args[I]))
      return false;
  return true;
}

} // namespace idiom::funil
