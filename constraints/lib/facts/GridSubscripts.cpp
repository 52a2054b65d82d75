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

/// Where expand reads a sign extension as a zero extension (GridAssume).
struct SignRewrite {
  llvm::SmallVectorImpl<const SCEV *> *Conds = nullptr;
};

bool expand(const SCEV *S, ScalarEvolution &SE, Poly &Out, unsigned Depth,
            SignRewrite *SR = nullptr);

/// `sext(x + c)` (x invariant, c a constant, x of at most 32 bits) as
/// `zext(x) + c`, the form of a VLA's extents: equal when x >= 0 and x + c
/// does not overflow, conditions proven by ScalarEvolution or, with
/// SR->Conds, added to it (SCEVs that must be non-negative).
bool expandSignExtension(const SCEVSignExtendExpr *E, ScalarEvolution &SE,
                         Poly &Out, unsigned Depth, SignRewrite *SR) {
  const SCEV *X = E->getOperand();
  int64_t C = 0;
  if (auto *A = dyn_cast<SCEVAddExpr>(X))
    if (A->getNumOperands() == 2 && isa<SCEVConstant>(A->getOperand(0))) {
      C = cast<SCEVConstant>(A->getOperand(0))->getAPInt().getSExtValue();
      X = A->getOperand(1);
    }
  unsigned Bits = X->getType()->getIntegerBitWidth();
  if (!isa<SCEVUnknown>(X) || Bits > 32 || std::abs(C) > (1 << 20))
    return false;
  Type *Ty = E->getType();
  const SCEV *SX = SE.getSignExtendExpr(X, Ty);
  SmallVector<const SCEV *, 2> Conds{SX};
  if (C > 0)
    Conds.push_back(SE.getMinusSCEV(
        SE.getConstant(Ty, (int64_t(1) << (Bits - 1)) - 1 - C, true), SX));
  if (!all_of(Conds, [&](const SCEV *V) { return SE.isKnownNonNegative(V); })) {
    if (!SR || !SR->Conds)
      return false;
    SR->Conds->append(Conds.begin(), Conds.end());
  }
  if (C)
    Out.push_back({C, {}});
  Out.push_back({1, {SE.getZeroExtendExpr(X, Ty)}});
  return true;
}

bool expand(const SCEV *S, ScalarEvolution &SE, Poly &Out, unsigned Depth,
            SignRewrite *SR) {
  if (Depth > 12)
    return false;
  if (auto *E = dyn_cast<SCEVSignExtendExpr>(S))
    if (SR && expandSignExtension(E, SE, Out, Depth, SR))
      return Out.size() <= MaxTerms;
  if (auto *C = dyn_cast<SCEVConstant>(S)) {
    if (C->getAPInt().getSignificantBits() > 41)
      return false;
    if (!C->isZero())
      Out.push_back({C->getAPInt().getSExtValue(), {}});
    return true;
  }
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
    for (const SCEV *Op : A->operands())
      if (!expand(Op, SE, Out, Depth + 1, SR))
        return false;
    return Out.size() <= MaxTerms;
  }
  if (auto *M = dyn_cast<SCEVMulExpr>(S)) {
    Poly P{{1, {}}};
    for (const SCEV *Op : M->operands()) {
      Poly Q, R;
      if (!expand(Op, SE, Q, Depth + 1, SR))
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
    if (!expand(AR->getStart(), SE, Out, Depth + 1, SR))
      return false;
    Poly Step;
    if (!expand(AR->getStepRecurrence(SE), SE, Step, Depth + 1, SR))
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
                                             ScalarEvolution &SE,
                                             const GridAssume *Assume) {
  if (!Index || !Index->getType()->isIntegerTy() || Scale == 0 || Scale > 4096)
    return std::nullopt;
  Poly P;
  SignRewrite SR{Assume ? Assume->Conds : nullptr};
  if (!expand(Index, SE, P, 0, Assume ? &SR : nullptr))
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
  // A dimension whose subscript has no iteration number (`u[i3][0][i1]`)
  // leaves a gap in the chain: filled from Assume->Like's extents.
  if (Assume)
    for (unsigned D = 1; D < Chain.size(); ++D) {
      const auto &Prev = Chain[D - 1].Monomial;
      if (Chain[D].Monomial.size() < Prev.size() + 2)
        continue;
      for (const Group &Gr : Groups) {
        const auto &M = Gr.Monomial;
        if (M.size() == Prev.size() + 1 &&
            std::includes(M.begin(), M.end(), Prev.begin(), Prev.end()) &&
            std::includes(Chain[D].Monomial.begin(), Chain[D].Monomial.end(),
                          M.begin(), M.end()) &&
            none_of(Gr.Terms, [](auto &T) { return T.second != nullptr; })) {
          Chain.insert(Chain.begin() + D, Group{M, {}});
          break;
        }
      }
    }
  if (Assume && Assume->Like) {
    SmallVector<const SCEV *, 4> M;
    for (const SCEV *Sz : Assume->Like->Sizes) {
      M.push_back(Sz);
      llvm::sort(M);
      auto Pos = llvm::find_if(Chain, [&](const Group &C) {
        return C.Monomial.size() >= M.size();
      });
      if (Pos != Chain.end() && Pos->Monomial != M &&
          Pos->Monomial.size() > M.size() &&
          std::includes(Pos->Monomial.begin(), Pos->Monomial.end(), M.begin(),
                        M.end()))
        Chain.insert(Pos, Group{M, {}});
    }
  }
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
