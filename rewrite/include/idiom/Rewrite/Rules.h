//===- Rules.h - the rule families ------------------------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rule families (one source file each, under rewrite/lib/rules/):
///
///  - algorithmic (seeds/004 figure 6): map fusion, split-join, map-reduce
///    fusion, join.split cancellation, split/strided over map, reduce
///    splitting (partial reduction), tuple projection.
///  - lowering (seeds/004 figure 7): map -> mapGlobal (1-D, nested 2-D),
///    map -> mapSeq and reduce -> reduceSeq inside a work-item, and the
///    two-stage work-group reduction (the derivation of seeds/004 figure 10
///    with a local-memory tree, as a macro rule).
///
/// docs/Rewrite.md lists every rule with its left and right side.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_RULES_H
#define IDIOM_REWRITE_RULES_H

#include "idiom/Rewrite/Rule.h"

#include <cstdint>
#include <vector>

namespace idiom::rewrite {

/// The algorithmic family (rules/algorithmic.cpp).
const std::vector<Rule> &algorithmicRules();
/// The lowering family (rules/lowering.cpp).
const std::vector<Rule> &loweringRules();
/// Every registered rule, algorithmic first.
const std::vector<Rule> &allRules();
/// The registered rule called \p Name, or nullptr.
const Rule *findRule(const std::string &Name);

/// split-join with chunk \p N (figure 6c):
///   map(f, a) -> join(map(\r => map(f, r), split(N, a))).
/// The registered "split-join" uses N = 4. Requires N to divide the length
/// (checked when the length is a constant, assumed otherwise).
Rule splitJoinRule(int64_t N);

/// Reduction splitting with chunk \p N (figure 6d, reducePart then
/// reducePart 1 -> reduce):
///   reduce(f, z, a) -> reduce(f, z, map(\c => reduce(f, z, c), split(N, a))).
/// The registered "reduce-split" uses N = 4.
Rule reduceSplitRule(int64_t N);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_RULES_H
