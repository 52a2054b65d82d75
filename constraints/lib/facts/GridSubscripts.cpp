//===- GridSubscripts.cpp - Subscripts of a row-major grid access ---------===//
//
// Part of Idiom. See GridSubscripts.h.
//
//===----------------------------------------------------------------------===//
#include "idiom/Constraints/GridSubscripts.h"

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

#include <algorithm>

using namespace llvm;

namespace idiom {
namespace {

/// A term Coeff * Factors[0] * Factors[1] * ...: factors are invariant
/// values (unknowns, extensions) or the iteration number of a loop, written
/// as the recurrence {0,+,1}<L>.
struct Term {
  int64_t Coeff;
  SmallVector<const SCEV *, 4> Factors;
};
using Poly = SmallVector<Term, 8>;

constexpr unsigned MaxTerms = 64;
constexpr int64_t MaxCoeff = int64_t(1) << 40;

bool expand(const SCEV *S, ScalarEvolution &SE, Poly &Out, unsigned Depth) {
  if (Depth > 12)
    return false;
  if (auto *C = dyn_cast<SCEVConstant>(S)) {
    if (C->getAPInt().getSignificantBits() > 41)
      return false;
    if (!C->isZero())
      Out.push_back({C->getAPInt().getSExtValue(), {}});
    return true;
  }
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
    for (const SCEV *Op : A->operands())
      if (!expand(Op, SE, Out, Depth + 1))
        return false;
    return Out.size() <= MaxTerms;
  }
  if (auto *M = dyn_cast<SCEVMulExpr>(S)) {
    Poly P{{1, {}}};
    for (const SCEV *Op : M->operands()) {
      Poly Q, R;
      if (!expand(Op, SE, Q, Depth + 1))
        return false;
      for (const Term &X : P)
        for (const Term &Y : Q) {
          if (std::abs(X.Coeff) >=
              MaxCoeff / std::max<int64_t>(1, std::abs(Y.Coeff)))
            return false;
          Term T{X.Coeff * Y.Coeff, X.Factors};
          T.Factors.append(Y.Factors.begin(), Y.Factors.end());
          R.push_back(T);
        }
      if (R.size() > MaxTerms)
        return false;
      P = R;
    }
    Out.append(P.begin(), P.end());
    return Out.size() <= MaxTerms;
  }
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    if (!AR->isAffine())
      return false;
    if (!expand(AR->getStart(), SE, Out, Depth + 1))
      return false;
    Poly Step;
    if (!expand(AR->getStepRecurrence(SE), SE, Step, Depth + 1))
      return false;
    const SCEV *K =
        SE.getAddRecExpr(SE.getZero(S->getType()), SE.getOne(S->getType()),
                         AR->getLoop(), SCEV::FlagAnyWrap);
    for (Term &T : Step) {
      T.Factors.push_back(K);
      Out.push_back(T);
    }
    return Out.size() <= MaxTerms;
  }
  // An invariant value: an unknown, an extension, a division, a min/max.
  Out.push_back({1, {S}});
  return true;
}

} // namespace

std::optional<GridSubscripts> gridSubscripts(const SCEV *Index, uint64_t Scale,
                                             ScalarEvolution &SE) {
  if (!Index || !Index->getType()->isIntegerTy() || Scale == 0 || Scale > 4096)
    return std::nullopt;
  Poly P;
  if (!expand(Index, SE, P, 0))
    return std::nullopt;
  for (Term &T : P) {
    if (T.Coeff % int64_t(Scale))
      return std::nullopt;
    T.Coeff /= int64_t(Scale);
  }
  // Group by the invariant factors (the monomial of the extents); each
  // term keeps at most one iteration number.
  struct Group {
    SmallVector<const SCEV *, 4> Monomial;
    SmallVector<std::pair<int64_t, const SCEV *>, 4> Terms; ///< (c, K or null)
  };
  SmallVector<Group, 4> Groups;
  for (Term &T : P) {
    const SCEV *K = nullptr;
    SmallVector<const SCEV *, 4> M;
    for (const SCEV *F : T.Factors) {
      if (isa<SCEVAddRecExpr>(F)) {
        if (K)
          return std::nullopt; // a product of two iteration numbers
        K = F;
      } else {
        M.push_back(F);
      }
    }
    llvm::sort(M);
    auto It =
        llvm::find_if(Groups, [&](const Group &G) { return G.Monomial == M; });
    if (It == Groups.end()) {
      Groups.push_back({M, {}});
      It = Groups.end() - 1;
    }
    It->Terms.push_back({T.Coeff, K});
  }
  // The chain comes from the terms with an iteration number (the
  // strides); a term without one whose factors are not in the chain is part
  // of the origin (an offset such as NAS MG's level offset ir[k]).
  SmallVector<Group, 4> Chain;
  GridSubscripts G;
  Type *Ty = Index->getType();
  G.Origin = SE.getZero(Ty);
  for (Group &Gr : Groups)
    if (any_of(Gr.Terms, [](auto &T) { return T.second != nullptr; }))
      Chain.push_back(Gr);
  llvm::sort(Chain, [](const Group &A, const Group &B) {
    return A.Monomial.size() < B.Monomial.size();
  });
  if (Chain.empty() || !Chain.front().Monomial.empty())
    Chain.insert(Chain.begin(), Group{}); // subscript 0 in dimension 0
  for (Group &Gr : Groups)
    if (none_of(Gr.Terms, [](auto &T) { return T.second != nullptr; })) {
      auto It = llvm::find_if(
          Chain, [&](const Group &C) { return C.Monomial == Gr.Monomial; });
      if (It != Chain.end()) {
        It->Terms.append(Gr.Terms.begin(), Gr.Terms.end());
        continue;
      }
      for (auto &[C, K] : Gr.Terms) {
        const SCEV *T = SE.getConstant(Ty, C, /*isSigned=*/true);
        for (const SCEV *F : Gr.Monomial)
          T = SE.getMulExpr(T, F);
        G.Origin = SE.getAddExpr(G.Origin, T);
      }
    }
  for (unsigned D = 0; D < Chain.size(); ++D) {
    if (D > 0) {
      // Each monomial is the one before times one more factor.
      const auto &Prev = Chain[D - 1].Monomial, &Cur = Chain[D].Monomial;
      if (Cur.size() != Prev.size() + 1 ||
          !std::includes(Cur.begin(), Cur.end(), Prev.begin(), Prev.end()))
        return std::nullopt;
      SmallVector<const SCEV *, 1> Extra;
      std::set_difference(Cur.begin(), Cur.end(), Prev.begin(), Prev.end(),
                          std::back_inserter(Extra));
      if (Extra.size() != 1)
        return std::nullopt;
      G.Sizes.push_back(Extra.front());
    }
    const SCEV *Sub = SE.getZero(Ty);
    for (auto &[C, K] : Chain[D].Terms) {
      const SCEV *CS = SE.getConstant(Ty, C, /*isSigned=*/true);
      Sub = SE.getAddExpr(Sub, K ? SE.getMulExpr(CS, K) : CS);
    }
    G.Subs.push_back(Sub);
  }
  if (G.Subs.size() < 2)
    return std::nullopt;
  return G;
}

} // namespace idiom
