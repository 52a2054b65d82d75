//===- UpdateEvaluation.h - Histogram update laws without Z3 ----*- C++ -*-===//
//
// proveUpdateOperator (HistogramFacts.h) asks, for each candidate operator
// (+) in a fixed order, whether
//
//     forall b, x:  C(x)  =>  F(b, x) == b (+) F(e, x)
//
// holds (lib/z3/HistogramZ3.cpp). Two cheaper procedures decide some of these
// questions completely, with the answer Z3 gives (without a timeout), so that
// no Z3 context is made for them:
//
//  - *Structural identity*: F is `b op t` (or `t op b`; `b - t` for add) with
//    t independent of b, no guard reads b, and op is the first candidate
//    tried. Then F(e, x) = e op t = t by op's identity, and the obligation
//    is `b op t == b op t`: proven. (Z3's simplifier folds the same formula
//    to false.)
//  - *Exhaustive evaluation*: every free variable of the obligation (b and
//    the leaves of F and the guards) is an integer and together they have at
//    most MaxEvaluationBits bits. F and the guards are evaluated with LLVM's
//    constant folder (llvm::ConstantFoldInstOperands) at every assignment;
//    each candidate is checked at every point. Enumeration is a proof on a
//    finite domain, and a failing point a counterexample.
//
// Both mirror the translation of HistogramZ3.cpp: the same values are leaves
// and the same instructions are expanded, with the same bit-vector semantics
// (wrapping arithmetic; a fold to poison, such as a division by zero or an
// over-wide shift where Z3 defines a value, gives up). Anything else (floating
// point, wider domains, instructions they do not model) is left to Z3.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_UPDATEEVALUATION_H
#define IDIOM_CONSTRAINTS_UPDATEEVALUATION_H

#include "idiom/Constraints/HistogramFacts.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>

namespace idiom {

/// The most bits of free variables that exhaustive evaluation enumerates
/// (2^16 assignments).
constexpr unsigned MaxEvaluationBits = 16;

/// The bit-vector candidates for (+) in the order they are tried before the
/// hint (updateOperatorHint) moves its own to the front: add, uadd.sat, or,
/// and, xor, mul, smax, smin, umax, umin.
llvm::ArrayRef<UpdateOperator> bitVectorUpdateOperators();

/// The identity of bit-vector candidate \p K on \p Width bits (0 for add,
/// uadd.sat, or, xor, umax; 1 for mul; all ones for and, umin; the signed
/// minimum for smax and maximum for smin).
llvm::APInt updateOperatorIdentity(UpdateOperator K, unsigned Width);

/// \p A (+) \p B for bit-vector candidate \p K (operands of one width).
llvm::APInt applyUpdateOperator(UpdateOperator K, const llvm::APInt &A,
                                const llvm::APInt &B);

/// The operator suggested by the first instruction of \p U that reads b
/// (e.g. Add for an add or sub, SMax for llvm.smax); its candidates are
/// tried first.
std::optional<ReductionOp> updateOperatorHint(const BinUpdateInfo &U);

/// The reason given when no candidate satisfies the obligation; \p HasDepGuard
/// says a guard reads b, \p BitVector that the elements are integers, \p Tried
/// lists the candidates' names in the order tried.
std::string updateRefusal(const BinUpdateInfo &U, bool HasDepGuard,
                          bool BitVector, const std::string &Tried);

/// Which procedure decided decideUpdateWithoutZ3's question.
enum class UpdateDecider { StructuralIdentity, ExhaustiveEvaluation };

/// Decides what proveUpdateOperator's Z3 path decides for \p U, by
/// structural identity or exhaustive evaluation (see the file comment):
/// Proven with the operator in \p Op, or Refuted with \p Why worded as the
/// Z3 path words it; \p By says which procedure decided. Nothing when
/// neither applies (Z3 must decide). Does not prove the candidate's laws
/// (HistogramLaws.h does, once, in a unit test).
std::optional<Proof> decideUpdateWithoutZ3(const BinUpdateInfo &U,
                                           UpdateOperator &Op,
                                           std::string &Why,
                                           UpdateDecider *By = nullptr);

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_UPDATEEVALUATION_H
