//===- Expr.h - FunIL expression trees and programs -------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Immutable, shared FunIL expression trees (docs/FunIL.md, "Expressions")
/// and the program form the LLVM pass produces:
///
///   idiom NAME(params) { store outs = expr; }   // map idioms
///   idiom NAME(params) { return expr; }         // reduction idioms
///
/// Trees are immutable so that rewrite rules (rewrite/) can share subtrees
/// between the left and the right side of a rule.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_EXPR_H
#define IDIOM_FUNIL_EXPR_H

#include "idiom/FunIL/Type.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace idiom::funil {

/// A position in FunIL text, 1-based; 0:0 when the node was built by code.
struct SourceLoc {
  unsigned Line = 0;
  unsigned Col = 0;
};

/// A typed name: a program parameter or a lambda parameter.
struct Param {
  std::string Name;
  TypePtr Ty;
};

struct Expr;
/// Expressions are immutable and shared.
using ExprPtr = std::shared_ptr<const Expr>;

/// A FunIL expression node.
struct Expr {
  enum Kind : uint8_t {
    Var,    ///< Name
    Lit,    ///< LitKind with Bits (integers, bool) or F (floats)
    Call,   ///< Name(Args...): a primitive or a scalar operation (Ops.h);
            ///< Attr is the static dimension of mapGlobal(d, ...) & co.
    Cast,   ///< Name.To(Args[0]), e.g. sext.i64(x)
    Lambda, ///< \(Params) => Args[0]
    Tuple,  ///< (Args[0], Args[1], ...)
    Proj    ///< Args[0].Index
  };
  Kind K = Var;
  std::string Name;
  ScalarKind LitKind = ScalarKind::I64; ///< Lit: its type; Cast: target type.
  uint64_t Bits = 0;    ///< Lit (integer/bool): value truncated to the width.
  double F = 0;         ///< Lit (float): the value (exact for f32 too).
  int64_t Attr = -1;    ///< Call: static integer attribute, -1 when none.
  unsigned Index = 0;   ///< Proj: component index, 0-based.
  std::vector<Param> Params;  ///< Lambda only.
  std::vector<ExprPtr> Args;  ///< Operands (see Kind).
  SourceLoc Loc;

  /// Variable reference.
  static ExprPtr var(const std::string &Name, SourceLoc L = {});
  /// Integer or bool literal of type \p K; \p V is truncated to the width.
  static ExprPtr intLit(ScalarKind K, int64_t V, SourceLoc L = {});
  /// Floating literal of type \p K (f32 values are rounded to float).
  static ExprPtr floatLit(ScalarKind K, double V, SourceLoc L = {});
  /// Call of primitive or operation \p Name.
  static ExprPtr call(const std::string &Name, std::vector<ExprPtr> Args,
                      int64_t Attr = -1, SourceLoc L = {});
  /// Cast \p Op (sext, zext, ...) of \p X to \p To.
  static ExprPtr cast(const std::string &Op, ScalarKind To, ExprPtr X,
                      SourceLoc L = {});
  /// Lambda with parameters \p Ps and body \p Body.
  static ExprPtr lambda(std::vector<Param> Ps, ExprPtr Body, SourceLoc L = {});
  /// Tuple of \p Elems.
  static ExprPtr tuple(std::vector<ExprPtr> Elems, SourceLoc L = {});
  /// Component \p I of \p X.
  static ExprPtr proj(ExprPtr X, unsigned I, SourceLoc L = {});

  /// True for a call of \p N.
  bool isCall(const char *N) const { return K == Call && Name == N; }
  /// Lambda body.
  const ExprPtr &body() const { return Args[0]; }
  /// Signed value of an integer literal (sign-extended from its width).
  int64_t signedValue() const;
};

/// A whole idiom: `idiom Name(Params) { store Outs = Body; }` or
/// `idiom Name(Params) { return Body; }`.
struct Program {
  std::string Name;
  std::vector<Param> Params;
  bool IsReturn = false;      ///< return-statement (reduction) form.
  std::vector<ExprPtr> Outs;  ///< store form: the output views.
  ExprPtr Body;
  SourceLoc StmtLoc;

  /// The parameter called \p N, or nullptr.
  const Param *findParam(const std::string &N) const;
};

/// Structural equality of expressions (locations ignored, names compared
/// literally, so alpha-equivalent lambdas are different).
bool sameExpr(const Expr &A, const Expr &B);

} // namespace idiom::funil

#endif // IDIOM_FUNIL_EXPR_H
