//===- Strategy.h - rewriting strategies ------------------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Strategies decide where and in which order rules apply; they are kept
/// apart from the rules (DESIGN section 5). A strategy maps an expression
/// to its rewritten form, or to nullptr when it fails. Traversals keep the
/// RuleContext up to date: entering the function of mapGlobal, mapWorkgroup
/// or mapLocal changes the level, entering any lambda binds its parameters.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_STRATEGY_H
#define IDIOM_REWRITE_STRATEGY_H

#include "idiom/Rewrite/Rule.h"

#include <functional>
#include <string>
#include <vector>

namespace idiom::rewrite {

/// A strategy: the rewritten expression, or nullptr on failure.
using Strategy = std::function<ExprPtr(const ExprPtr &, RuleContext &)>;

/// Applies \p R at the root.
Strategy ruleStrategy(const Rule &R);
/// Always succeeds, changes nothing.
Strategy identity();
/// \p S, or the unchanged expression when S fails (never fails).
Strategy tryStrategy(Strategy S);
/// Each of \p Ss in turn; fails when one fails.
Strategy sequence(std::vector<Strategy> Ss);
/// The first of \p Ss that succeeds; fails when all fail.
Strategy choice(std::vector<Strategy> Ss);
/// \p S until it fails, at most \p MaxSteps times (never fails).
Strategy repeat(Strategy S, unsigned MaxSteps = 10000);
/// \p S at the first position, in pre-order (outermost, leftmost first),
/// where it succeeds; fails when it succeeds nowhere.
Strategy oncePosition(Strategy S);
/// \p S once at every position, pre-order, descending into the result;
/// succeeds when S succeeded somewhere.
Strategy allPositions(Strategy S);
/// repeat(oncePosition(S)): rewrite to a normal form with respect to S.
/// Each step skips the subtrees left of the previous step's position, where
/// S failed in the previous step: so S must fail or succeed as a function of
/// the node, the level and the environment (as rules do), not of the names
/// in use or of how often it was called.
Strategy normalize(Strategy S, unsigned MaxSteps = 10000);
/// choice of ruleStrategy(*R) for R in \p Rs, in order, without a
/// std::function per rule: a rule whose Roots exclude the node's op is
/// skipped without calling its Match. The rules must outlive the strategy.
Strategy ruleChoice(std::vector<const Rule *> Rs);
/// The choice of the rules named in \p Names; sets \p Err and returns an
/// empty strategy when a name is unknown.
Strategy rulesChoice(const std::vector<std::string> &Names, std::string &Err);

/// The level inside the function argument of primitive \p Prim called at
/// level \p Outer.
Level innerLevel(const std::string &Prim, Level Outer);

/// The context rewriteProgram starts from for \p P: level Host, the
/// parameters bound, every name of P (parameters, body, outputs) in Names.
RuleContext programContext(const funil::Program &P);

/// rewriteProgram with its context given: applies \p S to \p From in
/// \p Ctx (programContext(P), or what an earlier strategy on P left it
/// as); on success P.Body becomes the result, otherwise P is unchanged.
/// Then type checks P (errors as rewriteProgram).
bool rewriteProgramFrom(funil::Program &P, const ExprPtr &From, const Strategy &S,
                        RuleContext &Ctx, std::string &Err);

/// Applies \p S to the body of \p P (outputs are left alone) in a context
/// that binds the parameters, then type checks the result. A strategy that
/// fails leaves P unchanged and is not an error. Applied rule names go to
/// \p Trace when given. Returns false with \p Err when the result does not
/// type check (a bug in a rule).
bool rewriteProgram(funil::Program &P, const Strategy &S, std::string &Err,
                    std::vector<std::string> *Trace = nullptr);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_STRATEGY_H
