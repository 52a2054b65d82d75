//===- SearchLifting.h - Lift a bisection search into FunIL -----*- C++ -*-===//
//
// A bisection search in a loop body (BisectionFacts.h: Parboil tpacf's bin
// search) becomes FunIL's iterate over the interval (docs/FunIL.md):
//
//   iterate(add(ilog2(smax(sub(HI0, LO0), 1:i64)), 1:i64),
//           \(qK: (T, T)) => select(CONTINUE(qK), (LO', HI'), qK),
//           (LO0, HI0)).P
//
// with the boundary read a[mid] as `at(view(bN, 0, 1, COUNT), sub(mid,
// FIRST))`. The step lemma (proved with Z3 before lifting) bounds the loop
// by that count, and once the interval is closed the step is the identity,
// so the result is the loop's. The boundaries' buffer is a[LO0+1 ..
// HI0-1], the elements any midpoint may read; the stitched code runs the
// kernel only when LO0 and HI0 lie in [0, 2^(W-2)] (the lemma's premise),
// else the original loop. Translation validation proves CONTINUE, LO', HI',
// the initial interval, the count and the read equal to the loop's
// (TranslationValidation.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_LIFT_SEARCHLIFTING_H
#define IDIOM_PASSES_LIFT_SEARCHLIFTING_H

#include "idiom/Constraints/BisectionFacts.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class SCEV;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace idiom {

/// The elements of the boundaries that search \p B may read, [Lo, Hi) as
/// i64 SCEVs (LO0 + 1 and max(HI0, LO0 + 1)), and the i64 SCEVs that must
/// be >= 0 at run time for the step lemma to apply (appended to \p
/// NonNegative).
void searchRange(const BisectionInfo &B, llvm::ScalarEvolution &SE, const llvm::SCEV *&Lo,
                 const llvm::SCEV *&Hi, llvm::SmallVectorImpl<const llvm::SCEV *> &NonNegative);

/// The name of search \p K's lambda parameter (translation validation finds
/// the search by it).
std::string searchParamName(unsigned K);

/// The FunIL text of search \p K (\p B), through \p Expr (a value as FunIL)
/// and \p Subst (a value as FunIL with the given values replaced by texts);
/// \p Buf, \p First and \p Count name the boundaries' buffer, its first
/// element and its length. Empty when a part has no FunIL text.
std::string searchText(
    const BisectionInfo &B, unsigned K, const std::string &Buf, const std::string &First,
    const std::string &Count, const std::function<std::string(llvm::Value *)> &Expr,
    const std::function<std::string(const std::vector<std::pair<llvm::Value *, std::string>> &,
                                    llvm::Value *)> &Subst);

/// The count text of an interval whose initial bounds are \p Lo0 and \p
/// Hi0 (FunIL of width \p W): floor(log2(max(hi - lo, 1))) + 1 in i64.
std::string searchCountText(const std::string &Lo0, const std::string &Hi0, unsigned W);

} // namespace idiom

#endif // IDIOM_PASSES_LIFT_SEARCHLIFTING_H
