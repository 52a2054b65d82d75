//===- SizeHelpers.h - symbolic sizes in rule side conditions -*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Facts about symbolic array sizes (funil/Type.h) that side conditions of
/// the layout, coalescing and vectorisation rules need, and the i64
/// expression that computes a size at run time.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_LIB_SIZEHELPERS_H
#define IDIOM_REWRITE_LIB_SIZEHELPERS_H

#include "idiom/FunIL/Expr.h"
#include "idiom/FunIL/Type.h"

namespace idiom::rewrite::detail {

/// True when \p S is a multiple of \p K > 0 for every value of its size
/// variables: a constant multiple, or a product with such a factor.
inline bool provablyMultiple(const funil::Size &S, int64_t K) {
  if (K == 1)
    return true;
  if (S.K == funil::Size::Const)
    return S.Value % K == 0;
  if (S.K == funil::Size::Mul)
    return provablyMultiple(*S.L, K) || provablyMultiple(*S.R, K);
  return false;
}

/// True when \p S is a positive constant.
inline bool provablyPositive(const funil::Size &S) {
  return S.K == funil::Size::Const && S.Value > 0;
}

/// An i64 expression computing \p S (size variables are i64 parameters in
/// scope), or nullptr for `?`.
inline funil::ExprPtr sizeToExpr(const funil::Size &S) {
  using funil::Expr;
  switch (S.K) {
  case funil::Size::Const:
    return Expr::intLit(funil::ScalarKind::I64, S.Value);
  case funil::Size::Var:
    return Expr::var(S.Name);
  case funil::Size::Mul:
  case funil::Size::Div: {
    funil::ExprPtr L = sizeToExpr(*S.L), R = sizeToExpr(*S.R);
    if (!L || !R)
      return nullptr;
    return Expr::call(S.K == funil::Size::Mul ? "mul" : "sdiv", {L, R});
  }
  case funil::Size::Unknown:
    break;
  }
  return nullptr;
}

} // namespace idiom::rewrite::detail

#endif // IDIOM_REWRITE_LIB_SIZEHELPERS_H
