//===- StencilOffsets.cpp - Offsets between points of a stencil -----------===//
//
// Offsets and strides are SCEVs in bytes. SCEV does not distribute products
// over sums ((j + ny*k) * nx stays a product), so they are compared as
// polynomials over their SCEV leaves, with products distributed.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/StencilFacts.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace llvm;

namespace idiom {

namespace {

/// A polynomial over opaque SCEV leaves (unknowns, casts, recurrences...)
/// with 64-bit coefficients; a monomial is a sorted list of leaves. Only
/// equality is used, so the pointer order of leaves does not leak out.
using Monomial = SmallVector<const SCEV *, 3>;
using Poly = std::map<Monomial, int64_t>;

constexpr size_t MaxPolyTerms = 64;
constexpr size_t MaxPolyDegree = 6;

bool addTerm(Poly &P, const Monomial &M, int64_t C) {
  if (!C)
    return true;
  int64_t &Slot = P[M];
  if (__builtin_add_overflow(Slot, C, &Slot))
    return false;
  if (!Slot)
    P.erase(M);
  return P.size() <= MaxPolyTerms;
}

std::optional<Poly> multiply(const Poly &A, const Poly &B) {
  Poly Out;
  for (const auto &[MA, CA] : A)
    for (const auto &[MB, CB] : B) {
      Monomial M(MA);
      M.append(MB.begin(), MB.end());
      if (M.size() > MaxPolyDegree)
        return std::nullopt;
      llvm::sort(M, std::less<const SCEV *>());
      int64_t C;
      if (__builtin_mul_overflow(CA, CB, &C) || !addTerm(Out, M, C))
        return std::nullopt;
    }
  return Out;
}

std::optional<Poly> toPoly(const SCEV *S, unsigned Depth = 0) {
  Poly P;
  if (Depth > 12)
    return std::nullopt;
  if (auto *C = dyn_cast<SCEVConstant>(S)) {
    if (C->getAPInt().getSignificantBits() > 64)
      return std::nullopt;
    if (!addTerm(P, {}, C->getAPInt().getSExtValue()))
      return std::nullopt;
    return P;
  }
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
    for (const SCEV *Op : A->operands()) {
      auto Q = toPoly(Op, Depth + 1);
      if (!Q)
        return std::nullopt;
      for (const auto &[M, C] : *Q)
        if (!addTerm(P, M, C))
          return std::nullopt;
    }
    return P;
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    P[{}] = 1;
    for (const SCEV *Op : Mul->operands()) {
      auto Q = toPoly(Op, Depth + 1);
      if (!Q)
        return std::nullopt;
      auto R = multiply(P, *Q);
      if (!R)
        return std::nullopt;
      P = std::move(*R);
    }
    return P;
  }
  P[{S}] = 1;
  return P;
}

/// A - K * B.
std::optional<Poly> subtractMultiple(const Poly &A, int64_t K, const Poly &B) {
  Poly Out = A;
  for (const auto &[M, C] : B) {
    int64_t KC;
    if (__builtin_mul_overflow(K, C, &KC) || KC == INT64_MIN ||
        !addTerm(Out, M, -KC))
      return std::nullopt;
  }
  return Out;
}

/// Searches c (one entry per stride) with Rest = sum c_d * Strides[d] and
/// exactly \p Budget = sum |c_d|, each |c_d| <= MaxStencilRadius.
bool searchOffset(ArrayRef<Poly> Strides, size_t D, int64_t Budget,
                  const Poly &Rest, SmallVectorImpl<int64_t> &C) {
  if (D == Strides.size())
    return Budget == 0 && Rest.empty();
  if (Strides[D].empty()) { // a zero stride: that loop does not move it
    C[D] = 0;
    return searchOffset(Strides, D + 1, Budget, Rest, C);
  }
  // The last moving dimension must spend the whole budget.
  bool Last = llvm::all_of(Strides.drop_front(D + 1),
                           [](const Poly &P) { return P.empty(); });
  int64_t Lim = std::min(Budget, MaxStencilRadius);
  for (int64_t Mag = Last ? Budget : 0; Mag <= Lim; ++Mag)
    for (int64_t Sign : {-1, 1}) {
      if (Mag == 0 && Sign == 1)
        continue;
      int64_t K = Sign * Mag;
      auto Next = subtractMultiple(Rest, K, Strides[D]);
      C[D] = K;
      if (Next && searchOffset(Strides, D + 1, Budget - Mag, *Next, C))
        return true;
    }
  return false;
}

} // namespace

std::optional<int64_t> polynomialConstant(const SCEV *S) {
  auto P = toPoly(S);
  if (!P)
    return std::nullopt;
  if (P->empty())
    return 0;
  if (P->size() == 1 && P->begin()->first.empty())
    return P->begin()->second;
  return std::nullopt;
}

bool sameStrides(const StencilAccess &A, const StencilAccess &B,
                 ScalarEvolution &SE) {
  if (A.Strides.size() != B.Strides.size())
    return false;
  for (size_t D = 0; D < A.Strides.size(); ++D) {
    if (A.Strides[D] == B.Strides[D])
      continue;
    if (A.Strides[D]->getType() != B.Strides[D]->getType())
      return false;
    auto C = polynomialConstant(SE.getMinusSCEV(A.Strides[D], B.Strides[D]));
    if (!C || *C != 0)
      return false;
  }
  return true;
}

std::optional<SmallVector<int64_t, 3>> pointOffset(const StencilAccess &From,
                                                   const StencilAccess &To,
                                                   ScalarEvolution &SE,
                                                   std::string &Why) {
  if (!sameStrides(From, To, SE) ||
      From.Offset->getType() != To.Offset->getType()) {
    Why = "the two accesses move with different strides";
    return std::nullopt;
  }
  const SCEV *Diff = SE.getMinusSCEV(To.Offset, From.Offset);
  auto Rest = toPoly(Diff);
  SmallVector<Poly, 3> Strides;
  for (const SCEV *St : From.Strides) {
    auto P = toPoly(St);
    if (!P) {
      Rest.reset();
      break;
    }
    Strides.push_back(std::move(*P));
  }
  SmallVector<int64_t, 3> C(Strides.size(), 0);
  if (Rest) {
    int64_t MaxBudget = MaxStencilRadius * (int64_t)Strides.size();
    for (int64_t Budget = 0; Budget <= MaxBudget; ++Budget)
      if (searchOffset(Strides, 0, Budget, *Rest, C))
        return C;
  }
  std::string D;
  raw_string_ostream OS(D);
  Diff->print(OS);
  Why = "the addresses differ by " + D +
        " bytes, which is not a whole number "
        "of points within " +
        std::to_string(MaxStencilRadius) + " per dimension";
  return std::nullopt;
}

} // namespace idiom
