//===- ExprUtil.h - variables, substitution, beta reduction -----*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Utilities on expression trees used by rewrite rules: free variables,
/// capture-avoiding substitution, beta reduction of a lambda applied to
/// arguments, and the local simplification (e0, e1, ...).k -> ek that keeps
/// fused lambdas readable.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_EXPRUTIL_H
#define IDIOM_FUNIL_EXPRUTIL_H

#include "idiom/FunIL/Expr.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace idiom::funil {

/// Adds the free variables of \p E to \p Out.
void freeVars(const Expr &E, std::set<std::string> &Out);

/// All names bound or used anywhere in \p E (for fresh-name generation).
void allNames(const Expr &E, std::set<std::string> &Out);

/// A name starting with \p Base that is not in \p Avoid; adds it to Avoid.
/// The first of Base, Base_1, Base_2, ... not in Avoid.
std::string freshName(const std::string &Base, std::set<std::string> &Avoid);

/// freshName, resuming the suffix search after \p From (updated to the
/// suffix returned): for callers whose Avoid only grows, so the suffixes up
/// to From stay taken and need not be probed again.
std::string freshName(const std::string &Base, std::set<std::string> &Avoid,
                      unsigned &From);

/// Replaces free occurrences of the variables in \p S, renaming lambda
/// parameters that would capture a free variable of a replacement.
ExprPtr substitute(const ExprPtr &E, const std::map<std::string, ExprPtr> &S);

/// Beta reduction: the body of lambda \p Fn with its parameters replaced by
/// \p Args, then simplified with simplifyProjections.
ExprPtr betaApply(const ExprPtr &Fn, const std::vector<ExprPtr> &Args);

/// Rewrites every (e0, e1, ...).k into ek, bottom-up.
ExprPtr simplifyProjections(const ExprPtr &E);

/// Rebuilds \p E with operands \p Args (same kind, name, attributes).
ExprPtr withArgs(const Expr &E, std::vector<ExprPtr> Args);

/// \p E with every occurrence of the node \p Old (the same object, not an
/// equal one) replaced by \p New; the unchanged parts are shared.
ExprPtr replaceSubterm(const ExprPtr &E, const ExprPtr &Old, const ExprPtr &New);

/// Appends to \p Out the outermost subterms of \p E (E included) for which
/// \p Pred holds, not looking inside lambdas or inside a match.
void findOutsideLambdas(const ExprPtr &E, const std::function<bool(const ExprPtr &)> &Pred,
                        std::vector<ExprPtr> &Out);

} // namespace idiom::funil

#endif // IDIOM_FUNIL_EXPRUTIL_H
