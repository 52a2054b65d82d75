//===- DefaultStrategies.h - the strategies the generator uses --*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Named strategies built from the rule families:
///
///  - "map": fuse maps, lower the outer map (or a nest of two) onto
///    mapGlobal, then everything inside a work-item to mapSeq/reduceSeq,
///    fusing reduceSeq . mapSeq.
///  - "reduce": compensate a floating-point sum (rule `compensate`), fuse
///    maps, lower the reduce at the root with the two-stage
///    macro rule, then push maps through the split/strided views into the
///    work-group function and fuse them into the per-work-item reduceSeq
///    (the derivation of seeds/004 figure 10).
///  - "default": "reduce" for return programs, "map" for store programs.
///  - "none": no rewriting.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_DEFAULTSTRATEGIES_H
#define IDIOM_REWRITE_DEFAULTSTRATEGIES_H

#include "idiom/Rewrite/Strategy.h"

#include <string>
#include <vector>

namespace idiom::rewrite {

/// normalize(map-fusion | proj-tuple): the first step of both defaults.
Strategy fusionStrategy();
/// try(compensate) at the root: a plain f32/f64 fadd reduction becomes a
/// Neumaier-compensated one, `apply(fin, reduce(...))` (rules/compensation.cpp).
/// Every lowering of a reduction (default and variants) starts with it.
Strategy compensationStrategy();
/// \p S applied to the reduction of a reduction program's body: to x when
/// the body is `apply(f, x)` (a compensated sum; the result is
/// `apply(f, S(x))`), else to the body.
Strategy atReduction(Strategy S);
/// The reduction of a reduction program's body \p Body: x of `apply(f, x)`,
/// else Body itself.
const ExprPtr &reductionOf(const ExprPtr &Body);
/// normalize(map-to-mapGlobal-3d | map-to-mapGlobal-2d | map-to-mapGlobal).
Strategy mapToGlobalStrategy();
/// Everything inside a work-item becomes sequential and fused:
/// normalize(split-map | strided-map | map-fusion | map-to-mapSeq |
/// reduce-to-reduceSeq | map-reduce-fusion | proj-tuple).
Strategy sequentialiseStrategy();
/// The default strategy for map idioms (store programs).
Strategy mapStrategy();
/// The default strategy for reduction idioms (return programs).
Strategy reduceStrategy();
/// The names strategyByName accepts.
std::vector<std::string> strategyNames();
/// The strategy called \p Name for program \p P ("default" depends on P's
/// statement kind); sets \p Err and returns an empty strategy when unknown.
Strategy strategyByName(const std::string &Name, const funil::Program &P,
                        std::string &Err);
/// Rewrites \p P with the default strategy of its statement kind.
bool lowerProgram(funil::Program &P, std::string &Err,
                  std::vector<std::string> *Trace = nullptr);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_DEFAULTSTRATEGIES_H
