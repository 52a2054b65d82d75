//===- ScevTranslator.h - SCEV expressions as Z3 integers -------*- C++ -*-===//
//
// Private to constraints/lib/z3: shared by the dependence atoms of
// Z3Checks.cpp and IndependentIterations.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef IDIOM_CONSTRAINTS_Z3_SCEVTRANSLATOR_H
#define IDIOM_CONSTRAINTS_Z3_SCEVTRANSLATOR_H

#include "idiom/Constraints/LoopFacts.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/ConstantRange.h"
#include <functional>
#include <map>
#include <optional>
#include <z3++.h>

namespace idiom {
namespace z3detail {

// The LLVM names the translator uses (no `using namespace` in a header).
using llvm::APInt;
using llvm::cast;
using llvm::ConstantRange;
using llvm::dyn_cast;
using llvm::isa;
using llvm::SCEV;
using llvm::SCEVAddExpr;
using llvm::SCEVAddRecExpr;
using llvm::SCEVConstant;
using llvm::SCEVCouldNotCompute;
using llvm::SCEVMinMaxExpr;
using llvm::SCEVMulExpr;
using llvm::SCEVSignExtendExpr;
using llvm::SCEVUDivExpr;
using llvm::SCEVUnknown;
using llvm::SCEVZeroExtendExpr;
using llvm::toString;
using llvm::Type;

/// Translates loop-invariant SCEVs into Z3 integers. Unknown values become
/// integer constants bounded by their type's signed range, or, given the
/// nest, by the range the loop guards of its outermost and innermost loops
/// imply (ScalarEvolution::applyLoopGuards: `n > 2` before `for (i = 1; i <
/// n - 1; ...)`), which holds whenever the innermost body runs; a
/// recurrence of an enclosing loop is such a symbol too. Anything else
/// (null, could-not-compute, pointer-typed or non-integer expressions,
/// truncations, unsigned min/max, recurrences of the nest's loops,
/// ptrtoint, unknowns whose value was deleted, expressions deeper than
/// MaxDepth) is not translated: the caller answers "not proven".
class ScevTranslator {
public:
  ScevTranslator(z3::context &C, z3::solver &S, const NestInfo *N = nullptr)
      : C(C), S(S), N(N) {}

  /// When set, translates every add-recurrence instead of the rules below
  /// (proveIndependentIterations: recurrences of the loops of a nest that is
  /// not a NestInfo); nullopt: not translated.
  std::function<std::optional<z3::expr>(const SCEVAddRecExpr *, unsigned)>
      Recurrence;
  /// When set, tried first on every unknown; nullopt: the rule below.
  std::function<std::optional<z3::expr>(const SCEVUnknown *, unsigned)>
      Unknown;

  std::optional<z3::expr> tr(const SCEV *X, unsigned Depth = 0) {
    if (!X || isa<SCEVCouldNotCompute>(X) || Depth > MaxDepth)
      return std::nullopt;
    // An unknown whose value was deleted has no type to ask for.
    if (auto *U = dyn_cast<SCEVUnknown>(X); U && !U->getValue())
      return std::nullopt;
    Type *Ty = X->getType();
    if (!Ty || !Ty->isIntegerTy())
      return std::nullopt;
    auto It = Memo.find(X);
    if (It != Memo.end())
      return It->second;
    std::optional<z3::expr> R;
    if (auto *K = dyn_cast<SCEVConstant>(X)) {
      R = C.int_val(toString(K->getAPInt(), 10, /*Signed=*/true).c_str());
    } else if (auto *AR = dyn_cast<SCEVAddRecExpr>(X); AR && Recurrence) {
      R = Recurrence(AR, Depth);
    } else if (isa<SCEVUnknown>(X) && Unknown &&
               (R = Unknown(cast<SCEVUnknown>(X), Depth))) {
      // translated by the hook
    } else if (isa<SCEVUnknown>(X) ||
               (isa<SCEVAddRecExpr>(X) && N && N->SE &&
                N->SE->isLoopInvariant(X, N->Loops.front()))) {
      // A recurrence of an enclosing loop is one fixed value while the
      // nest runs (a plane's offset): a symbol like an unknown.
      std::string Name = "v" + std::to_string(Memo.size());
      z3::expr V = C.int_const(Name.c_str());
      unsigned W = Ty->getIntegerBitWidth();
      APInt Lo = APInt::getSignedMinValue(W), Hi = APInt::getSignedMaxValue(W);
      if (N && N->SE && !N->Loops.empty()) {
        // Every question asked here is about iterations of the innermost
        // body, which run only where the guards of every loop of the nest
        // hold (the inner loop's own guard may sit inside the outer loop).
        ConstantRange G = N->SE->getSignedRange(
            N->SE->applyLoopGuards(X, N->Loops.front()));
        if (N->Loops.size() > 1)
          G = G.intersectWith(
              N->SE->getSignedRange(N->SE->applyLoopGuards(X, N->Loops.back())),
              ConstantRange::Signed);
        if (!G.isFullSet() && !G.isEmptySet() && G.getBitWidth() == W) {
          Lo = G.getSignedMin();
          Hi = G.getSignedMax();
        }
      }
      S.add(V >= C.int_val(toString(Lo, 10, true).c_str()));
      S.add(V <= C.int_val(toString(Hi, 10, true).c_str()));
      R = V;
    } else if (auto *Z = dyn_cast<SCEVZeroExtendExpr>(X)) {
      const SCEV *Op = Z->getOperand();
      if (!Op->getType()->isIntegerTy())
        return std::nullopt;
      auto O = tr(Op, Depth + 1);
      if (!O)
        return std::nullopt;
      // O is in the operand's signed range; its unsigned value adds 2^W
      // to the negative ones.
      unsigned W = Op->getType()->getIntegerBitWidth();
      z3::expr Mod = C.int_val(toString(APInt::getOneBitSet(W + 1, W), 10, false).c_str());
      R = z3::ite(*O >= 0, *O, *O + Mod);
    } else if (auto *Sx = dyn_cast<SCEVSignExtendExpr>(X)) {
      if (!Sx->getOperand()->getType()->isIntegerTy())
        return std::nullopt;
      R = tr(Sx->getOperand(), Depth + 1);
    } else if (auto *A = dyn_cast<SCEVAddExpr>(X)) {
      R = C.int_val(0);
      for (const SCEV *Op : A->operands()) {
        auto O = tr(Op, Depth + 1);
        if (!O)
          return std::nullopt;
        R = *R + *O;
      }
    } else if (auto *M = dyn_cast<SCEVMulExpr>(X)) {
      R = C.int_val(1);
      for (const SCEV *Op : M->operands()) {
        auto O = tr(Op, Depth + 1);
        if (!O)
          return std::nullopt;
        R = *R * *O;
      }
    } else if (auto *D = dyn_cast<SCEVUDivExpr>(X)) {
      // A trip count with a symbolic step, ((n smax 2s) - 1) /u 2s of an
      // FFT stage's blocks: a fresh quotient q of the unsigned operands,
      // b.q <= a < b.(q + 1) when b > 0 (unconstrained for b = 0).
      auto A = tr(D->getLHS(), Depth + 1), B = tr(D->getRHS(), Depth + 1);
      if (!A || !B)
        return std::nullopt;
      unsigned W = Ty->getIntegerBitWidth();
      z3::expr Mod = C.int_val(toString(APInt::getOneBitSet(W + 1, W), 10, false).c_str());
      z3::expr Half = C.int_val(toString(APInt::getOneBitSet(W + 1, W - 1), 10, false).c_str());
      z3::expr UA = z3::ite(*A >= 0, *A, *A + Mod), UB = z3::ite(*B >= 0, *B, *B + Mod);
      std::string Name = "q" + std::to_string(Memo.size());
      z3::expr Q = C.int_const(Name.c_str());
      S.add(Q >= 0 && Q < Mod);
      S.add(z3::implies(UB > 0, UB * Q <= UA && UA < UB * (Q + 1)));
      R = z3::ite(Q >= Half, Q - Mod, Q); // its signed value, as every term
    } else if (auto *MM = dyn_cast<SCEVMinMaxExpr>(X)) {
      if (MM->getSCEVType() != llvm::scSMaxExpr && MM->getSCEVType() != llvm::scSMinExpr)
        return std::nullopt;
      bool IsMax = MM->getSCEVType() == llvm::scSMaxExpr;
      for (const SCEV *Op : MM->operands()) {
        auto O = tr(Op, Depth + 1);
        if (!O)
          return std::nullopt;
        R = !R ? *O : z3::ite(IsMax ? *O > *R : *O < *R, *O, *R);
      }
    }
    if (!R)
      return std::nullopt;
    Memo.insert_or_assign(X, *R);
    return R;
  }

private:
  /// Deeper expressions are not translated (no unbounded recursion).
  static constexpr unsigned MaxDepth = 64;
  z3::context &C;
  z3::solver &S;
  const NestInfo *N; ///< for loop-guard ranges; may be null
  llvm::MapVector<const SCEV *, z3::expr> Memo;
};

} // namespace z3detail
} // namespace idiom

#endif // IDIOM_CONSTRAINTS_Z3_SCEVTRANSLATOR_H
