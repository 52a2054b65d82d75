//===- Z3Checks.cpp - Semantic atoms decided with Z3 ----------------------===//

#include "idiom/Constraints/Z3Checks.h"
#include "GridDependence.h"
#include "NegatedLaw.h"
#include "ScevTranslator.h"
#include "idiom/Constraints/CompileCache.h"
#include "idiom/Constraints/OperatorLaws.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/ValueText.h"
#include "idiom/Constraints/Z3Budget.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <z3++.h>

using namespace llvm;

namespace idiom {

using z3detail::ScevTranslator;

/// setStructuralShortcuts: false sends every query to Z3 (tests).
static bool StructuralShortcuts = true;

void setStructuralShortcuts(bool On) { StructuralShortcuts = On; }
bool structuralShortcuts() { return StructuralShortcuts; }

namespace {

/// Translates the scalar operator of a reduction into Z3 terms.
class OpTranslator {
public:
  OpTranslator(z3::context &C, Type *Ty) : C(C), Ty(Ty) {}

  z3::sort sort() const {
    return Ty->isIntegerTy() ? C.bv_sort(Ty->getIntegerBitWidth())
                             : C.real_sort();
  }
  z3::expr fresh(const char *Name) { return C.constant(Name, sort()); }

  /// f(A, B): \p Link evaluated with \p Acc := A and \p Elem := B.
  std::optional<z3::expr> apply(Instruction *Link, Value *Acc, Value *Elem,
                                const z3::expr &A, const z3::expr &B) {
    Memo.clear();
    // A multiply-add link accumulates the product: acc + (x*y) = A + B.
    if (auto *II = dyn_cast<IntrinsicInst>(Link))
      if (II->getIntrinsicID() == Intrinsic::fmuladd ||
          II->getIntrinsicID() == Intrinsic::fma)
        return A + B;
    Memo.insert_or_assign(Acc, A);
    Memo.insert_or_assign(Elem, B);
    return tr(Link);
  }

  std::optional<z3::expr> constant(Constant *K) {
    if (auto *CI = dyn_cast<ConstantInt>(K))
      return C.bv_val(toString(CI->getValue(), 10, /*Signed=*/false).c_str(),
                      CI->getBitWidth());
    if (auto *CF = dyn_cast<ConstantFP>(K)) {
      if (!CF->getValueAPF().isFinite())
        return std::nullopt;
      return C.real_val(std::to_string(CF->getValueAPF().convertToDouble()).c_str());
    }
    return std::nullopt;
  }

private:
  std::optional<z3::expr> tr(Value *V) {
    auto It = Memo.find(V);
    if (It != Memo.end())
      return It->second;
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return std::nullopt;
    auto Op = [&](unsigned K) { return tr(I->getOperand(K)); };
    std::optional<z3::expr> R;
    if (isa<BinaryOperator>(I)) {
      auto A = Op(0), B = Op(1);
      if (!A || !B)
        return std::nullopt;
      switch (I->getOpcode()) {
      case Instruction::Add: case Instruction::FAdd: R = *A + *B; break;
      case Instruction::Sub: case Instruction::FSub: R = *A - *B; break;
      case Instruction::Mul: case Instruction::FMul: R = *A * *B; break;
      case Instruction::And: R = *A & *B; break;
      case Instruction::Or: R = *A | *B; break;
      case Instruction::Xor: R = *A ^ *B; break;
      case Instruction::SDiv: case Instruction::FDiv: R = *A / *B; break;
      case Instruction::UDiv: R = z3::udiv(*A, *B); break;
      case Instruction::SRem: R = z3::srem(*A, *B); break;
      case Instruction::URem: R = z3::urem(*A, *B); break;
      case Instruction::Shl: R = z3::shl(*A, *B); break;
      case Instruction::LShr: R = z3::lshr(*A, *B); break;
      case Instruction::AShr: R = z3::ashr(*A, *B); break;
      default: return std::nullopt;
      }
    } else if (auto *Cmp = dyn_cast<CmpInst>(I)) {
      auto A = Op(0), B = Op(1);
      if (!A || !B)
        return std::nullopt;
      switch (Cmp->getPredicate()) {
      case CmpInst::ICMP_EQ: case CmpInst::FCMP_OEQ: case CmpInst::FCMP_UEQ: R = *A == *B; break;
      case CmpInst::ICMP_NE: case CmpInst::FCMP_ONE: case CmpInst::FCMP_UNE: R = *A != *B; break;
      case CmpInst::ICMP_SLT: R = z3::slt(*A, *B); break;
      case CmpInst::ICMP_SLE: R = z3::sle(*A, *B); break;
      case CmpInst::ICMP_SGT: R = z3::sgt(*A, *B); break;
      case CmpInst::ICMP_SGE: R = z3::sge(*A, *B); break;
      case CmpInst::ICMP_ULT: R = z3::ult(*A, *B); break;
      case CmpInst::ICMP_ULE: R = z3::ule(*A, *B); break;
      case CmpInst::ICMP_UGT: R = z3::ugt(*A, *B); break;
      case CmpInst::ICMP_UGE: R = z3::uge(*A, *B); break;
      case CmpInst::FCMP_OLT: case CmpInst::FCMP_ULT: R = *A < *B; break;
      case CmpInst::FCMP_OLE: case CmpInst::FCMP_ULE: R = *A <= *B; break;
      case CmpInst::FCMP_OGT: case CmpInst::FCMP_UGT: R = *A > *B; break;
      case CmpInst::FCMP_OGE: case CmpInst::FCMP_UGE: R = *A >= *B; break;
      default: return std::nullopt;
      }
    } else if (isa<SelectInst>(I)) {
      auto Cd = Op(0), T = Op(1), F = Op(2);
      if (!Cd || !T || !F)
        return std::nullopt;
      R = z3::ite(*Cd, *T, *F);
    } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
      auto A = Op(0), B = Op(1);
      if (!A || !B)
        return std::nullopt;
      switch (II->getIntrinsicID()) {
      case Intrinsic::smin: R = z3::ite(z3::slt(*A, *B), *A, *B); break;
      case Intrinsic::smax: R = z3::ite(z3::sgt(*A, *B), *A, *B); break;
      case Intrinsic::umin: R = z3::ite(z3::ult(*A, *B), *A, *B); break;
      case Intrinsic::umax: R = z3::ite(z3::ugt(*A, *B), *A, *B); break;
      case Intrinsic::minnum: R = z3::ite(*A < *B, *A, *B); break;
      case Intrinsic::maxnum: R = z3::ite(*A > *B, *A, *B); break;
      default: return std::nullopt;
      }
    } else {
      return std::nullopt;
    }
    Memo.insert_or_assign(V, *R);
    return R;
  }

  z3::context &C;
  Type *Ty;
  MapVector<Value *, z3::expr> Memo;
};

/// One Z3 context per thread: creating a context costs far more than a
/// query, and every query makes its own solver and fresh constants.
z3::context &sharedContext() { return sharedZ3Context(); }

void setTimeout(z3::context &C, z3::solver &S, unsigned Ms) {
  applyZ3Limits(C, S, Ms);
}

/// The law memo on disk (CompileCache.h, kind "laws"): "proven" or
/// "refuted" for a negated law's SMT-LIB text.
std::optional<Proof> readLaw(const std::string &Key) {
  std::optional<std::string> V = readCompileCache("laws", Key);
  if (V && *V == "proven")
    return Proof::Proven;
  if (V && *V == "refuted")
    return Proof::Refuted;
  return std::nullopt;
}

void writeLaw(const std::string &Key, Proof P) {
  writeCompileCache("laws", Key, P == Proof::Proven ? "proven" : "refuted");
}

/// True when every subterm of \p E is a bit-vector or a Boolean (and no
/// quantifier occurs).
bool pureBitVector(const z3::expr &E) {
  std::vector<z3::expr> Work{E};
  std::set<unsigned> Seen;
  while (!Work.empty()) {
    z3::expr X = Work.back();
    Work.pop_back();
    if (!Seen.insert(X.id()).second)
      continue;
    z3::sort S = X.get_sort();
    if (!S.is_bv() && !S.is_bool())
      return false;
    if (X.is_quantifier() || X.is_var())
      return false;
    if (X.is_app())
      for (unsigned I = 0; I < X.num_args(); ++I)
        Work.push_back(X.arg(I));
  }
  return true;
}

} // namespace

Proof decideNegatedLaw(z3::solver &S) {
  switch (checkWithinLimits(S)) {
  case Z3Outcome::Unsat: return Proof::Proven;
  case Z3Outcome::Sat: return Proof::Refuted;
  default: return Proof::Unknown;
  }
}

Proof decideLaw(z3::context &C, const z3::expr &Negated, unsigned TimeoutMs,
                bool FreshSolver) {
  static std::mutex Lock;
  static std::map<std::string, Proof> Known;
  TimeScope T("z3 law: total");
  std::string Key = Negated.to_string();
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Known.find(Key);
    if (It != Known.end()) {
      TimeReport::count("z3 law: process memo hit");
      return It->second;
    }
  }
  // Laws whose two sides are equal terms up to Z3's rewriting (say, p + q
  // and q + p) fold to false: unsatisfiable without a solver.
  if (StructuralShortcuts && Negated.simplify().is_false()) {
    TimeReport::count("z3 law: simplified to false");
    std::lock_guard<std::mutex> G(Lock);
    Known.emplace(Key, Proof::Proven);
    return Proof::Proven;
  }
  if (std::optional<Proof> Disk = readLaw(Key)) {
    TimeReport::count("z3 law: disk memo hit");
    std::lock_guard<std::mutex> G(Lock);
    Known.emplace(Key, *Disk);
    return *Disk;
  }
  Proof P;
  if (FreshSolver) {
    TimeScope TS("z3 law: fresh solver");
    // For a formula over bit-vectors only, the solver for QF_BV is what the
    // default solver would choose after probing the formula, at a tenth of
    // its set-up cost; anything else gets the default solver.
    z3::solver S = pureBitVector(Negated) ? z3::solver(C, "QF_BV") : z3::solver(C);
    setTimeout(C, S, TimeoutMs);
    S.add(Negated);
    P = decideNegatedLaw(S);
  } else {
    // One incremental solver per thread: creating a solver costs more than
    // deciding most laws. Each law is checked inside push/pop. Setting
    // parameters resets part of the solver (about 1 ms): only when the
    // timeout changes.
    TimeScope TS("z3 law: solver");
    static thread_local z3::solver S(C);
    static thread_local std::optional<std::pair<unsigned, unsigned>> Set;
    std::pair<unsigned, unsigned> Limits{TimeoutMs, z3ResourceLimit()};
    if (Set != Limits) {
      setTimeout(C, S, TimeoutMs);
      Set = Limits;
    }
    S.push();
    S.add(Negated);
    P = decideNegatedLaw(S);
    S.pop();
  }
  if (P != Proof::Unknown) {
    writeLaw(Key, P);
    std::lock_guard<std::mutex> G(Lock);
    Known.emplace(Key, P);
  }
  return P;
}

static Proof assocComm(const ReductionInfo &R, unsigned TimeoutMs,
                       std::string &Why) {
  try {
    z3::context &C = sharedContext();
    OpTranslator T(C, R.Phi->getType());
    Value *Elem = R.Operands.front();
    z3::expr A = T.fresh("a"), B = T.fresh("b"), D = T.fresh("c");
    auto F = [&](const z3::expr &X, const z3::expr &Y) {
      return T.apply(R.FirstLink, R.Phi, Elem, X, Y);
    };
    auto AB = F(A, B), BA = F(B, A);
    if (!AB || !BA) {
      Why = "operator cannot be translated for the SMT solver";
      return Proof::Unknown;
    }
    Proof P = decideLaw(C, *AB != *BA, TimeoutMs);
    if (P != Proof::Proven) {
      Why = P == Proof::Refuted ? "operator is not commutative"
                                : "commutativity not proven (" + z3UnknownText() + ")";
      return P;
    }
    auto L = F(*AB, D);
    auto BD = F(B, D);
    auto Rr = BD ? F(A, *BD) : std::nullopt;
    if (!L || !Rr) {
      Why = "operator cannot be translated for the SMT solver";
      return Proof::Unknown;
    }
    P = decideLaw(C, *L != *Rr, TimeoutMs);
    if (P != Proof::Proven)
      Why = P == Proof::Refuted ? "operator is not associative"
                                : "associativity not proven (" + z3UnknownText() + ")";
    return P;
  } catch (const z3::exception &E) {
    Why = std::string("Z3 error: ") + E.msg();
    return Proof::Unknown;
  }
}

static Proof identity(const ReductionInfo &R, unsigned TimeoutMs,
                      std::string &Why) {
  if (R.Op == ReductionOp::FMin || R.Op == ReductionOp::FMax)
    return Proof::Proven; // +/-inf by definition; not a real number
  if (R.Op == ReductionOp::Other) {
    Why = "operator has no known identity";
    return Proof::Unknown;
  }
  try {
    z3::context &C = sharedContext();
    Type *Ty = R.Phi->getType();
    OpTranslator T(C, Ty);
    Constant *Id = reductionIdentity(R.Op, Ty);
    std::optional<z3::expr> IdE;
    if (R.Op == ReductionOp::FAdd)
      IdE = C.real_val(0);
    else
      IdE = T.constant(Id);
    if (!IdE) {
      Why = "identity cannot be translated for the SMT solver";
      return Proof::Unknown;
    }
    z3::expr B = T.fresh("b");
    auto F = T.apply(R.FirstLink, R.Phi, R.Operands.front(), *IdE, B);
    if (!F) {
      Why = "operator cannot be translated for the SMT solver";
      return Proof::Unknown;
    }
    Proof P = decideLaw(C, *F != B, TimeoutMs);
    if (P != Proof::Proven)
      Why = P == Proof::Refuted ? "identity value is not an identity of the operator"
                                : "identity not proven (" + z3UnknownText() + ")";
    return P;
  } catch (const z3::exception &E) {
    Why = std::string("Z3 error: ") + E.msg();
    return Proof::Unknown;
  }
}

namespace {


/// True when \p A may execute after \p B within one iteration.
bool mayFollow(const Instruction *A, const Instruction *B) {
  if (A->getParent() == B->getParent())
    return B->comesBefore(A);
  return true;
}

} // namespace

/// True when ScalarEvolution proves \p Big >= \p Small (times \p Factor
/// when given) as integers, under the loop guards of one loop of \p N, with
/// Big and the product non-negative and the product below 2^63, so that the
/// i64 difference does not wrap. The steps of a 3-D grid: rows at least a
/// row apart (a stride n, n - 2 points) and planes at least rows times the
/// rows of a plane apart (n*n >= n * (n - 2)).
static bool provenAtLeast(const SCEV *Big, const SCEV *Small, const SCEV *Factor,
                          const NestInfo &N) {
  ScalarEvolution &SE = *N.SE;
  if (!Big || !Small || Big->getType() != Small->getType() ||
      (Factor && Factor->getType() != Big->getType()))
    return false;
  for (Loop *L : N.Loops) {
    const SCEV *GBig = SE.applyLoopGuards(Big, L);
    const SCEV *GSmall = SE.applyLoopGuards(Small, L);
    if (!SE.isKnownNonNegative(GBig) || !SE.isKnownNonNegative(GSmall))
      continue;
    const SCEV *Prod = Small, *GProd = GSmall;
    if (Factor) {
      const SCEV *GFactor = SE.applyLoopGuards(Factor, L);
      if (!SE.isKnownNonNegative(GFactor))
        continue;
      bool Overflow = false;
      APInt Max = SE.getSignedRangeMax(GSmall).smul_ov(SE.getSignedRangeMax(GFactor),
                                                        Overflow);
      if (Overflow || Max.isNegative())
        continue;
      Prod = SE.getMulExpr(Small, Factor);
      GProd = SE.getMulExpr(GSmall, GFactor);
    }
    if (SE.isKnownNonNegative(SE.applyLoopGuards(SE.getMinusSCEV(Big, Prod), L)) ||
        SE.isKnownNonNegative(SE.getMinusSCEV(GBig, GProd)))
      return true;
  }
  return false;
}

/// True when \p A and \p B provably meet only within one iteration: the same
/// offset and strides, and an address that is injective over the nest (1-D:
/// a non-zero constant stride; 2-D: rows that cannot overlap, either a unit
/// stride in one loop and the other loop's stride equal to that loop's trip
/// count (a row-major or column-major index i + n*j with i in [0, n): a
/// mixed-radix number, the delinearisation argument) or, for a unit inner
/// stride, at least it under the loop guards (rows of an interior), or constant inner
/// strides and trip count with |s0| >= |s1| * n1); 3-D: a unit stride in
/// one loop, in another a row stride at least that loop's trip count, in the
/// third a plane stride at least the row stride times the row loop's trip
/// count (provenAtLeast), in any loop order. Deeper nests: false.
static bool sameInjectiveAddress(const AffineAccess &A, const AffineAccess &B,
                                 const NestInfo &N) {
  if (A.Offset != B.Offset || A.Strides != B.Strides)
    return false;
  auto Const = [](const SCEV *S) -> std::optional<int64_t> {
    if (auto *C = dyn_cast_or_null<SCEVConstant>(S))
      if (C->getAPInt().getSignificantBits() <= 63)
        return C->getAPInt().getSExtValue();
    return std::nullopt;
  };
  auto S1 = Const(A.Strides.back());
  if (N.depth() == 1)
    return S1 && *S1 != 0;
  if (N.depth() == 3 && N.SE) {
    // A 3-D grid in any loop order (`for i, for j, for k: a[k][j][i]`
    // too): some loop U walks the unit stride, a loop R the rows and a loop
    // P the planes.
    static const unsigned Orders[6][3] = {{2, 1, 0}, {0, 1, 2}, {1, 2, 0},
                                          {2, 0, 1}, {0, 2, 1}, {1, 0, 2}};
    for (const auto &O : Orders) {
      unsigned U = O[0], R = O[1], P = O[2];
      auto SU = Const(A.Strides[U]);
      if (SU && *SU == 1 && provenAtLeast(A.Strides[R], N.TripCounts[U], nullptr, N) &&
          provenAtLeast(A.Strides[P], A.Strides[R], N.TripCounts[R], N))
        return true;
    }
    return false; // Z3 decides
  }
  if (N.depth() != 2) // deeper nests: Z3 decides
    return false;
  auto S0 = Const(A.Strides[0]);
  // A unit stride in one loop and, in the other, that loop's trip count.
  if ((S1 && std::abs(*S1) == 1 && A.Strides[0] == N.TripCounts[1]) ||
      (S0 && std::abs(*S0) == 1 && A.Strides[1] == N.TripCounts[0]))
    return true;
  // ... or at least that trip count, as ScalarEvolution proves it under the
  // nest's loop guards (the interior of a row: stride n, n - 2 points).
  if (N.SE && S1 && *S1 == 1) {
    ScalarEvolution &SE = *N.SE;
    const SCEV *St = A.Strides[0], *Tc = N.TripCounts[1];
    if (St->getType() == Tc->getType()) {
      // The trip count is non-negative; with a non-negative stride the
      // difference cannot wrap, so a non-negative difference is St >= Tc.
      for (Loop *L : {N.Loops.front(), N.Loops.back()}) {
        const SCEV *GSt = SE.applyLoopGuards(St, L);
        if (!SE.isKnownNonNegative(GSt))
          continue;
        if (SE.isKnownNonNegative(SE.applyLoopGuards(SE.getMinusSCEV(St, Tc), L)) ||
            SE.isKnownNonNegative(SE.getMinusSCEV(GSt, SE.applyLoopGuards(Tc, L))))
          return true;
      }
    }
  }
  if (!S1 || *S1 == 0)
    return false;
  auto N1 = Const(N.TripCounts[1]);
  return S0 && N1 && *N1 > 0 && *N1 < (int64_t(1) << 31) &&
         std::abs(*S0) >= std::abs(*S1) * *N1;
}

/// The two dependence questions of noLoopCarriedDependence for a pair of
/// accesses whose offsets and strides are constants, of which the strides are
/// equal, decided by arithmetic: \p Across, two different iterations k != k'
/// of the nest with a + s.k == b + s.k'; \p Within, one iteration k with
/// a + s.k == b + s.k (that is, a == b). With D = b - a, Across asks for a
/// non-zero difference vector d, |d_i| < n_i, with s.d == D. The inner loops'
/// trip counts must be constants (their differences are enumerated, at most
/// MaxCombos vectors); the outermost one may be symbolic when the answer does
/// not depend on it (d_0 = (D - inner part) / s_0 is 0, or no integer). Any
/// other pair returns false and Z3 decides. The same questions, over the same
/// integers, as the Z3 queries.
static bool constantStridePair(const AffineAccess &St, const AffineAccess &Other,
                               const NestInfo &N, bool &Across, bool &Within) {
  if (!StructuralShortcuts || N.depth() == 0)
    return false;
  // Small constants only, so that no product below overflows.
  auto Small = [](const SCEV *S) -> std::optional<int64_t> {
    auto *C = dyn_cast_or_null<SCEVConstant>(S);
    if (!C || C->getAPInt().getSignificantBits() > 32)
      return std::nullopt;
    return C->getAPInt().getSExtValue();
  };
  unsigned Depth = N.depth();
  if (St.Strides.size() != Depth || Other.Strides.size() != Depth ||
      N.TripCounts.size() != Depth)
    return false;
  auto A = Small(St.Offset), B = Small(Other.Offset);
  if (!A || !B)
    return false;
  std::vector<int64_t> S(Depth), T(Depth, -1); // T[0] == -1: symbolic
  const int64_t MaxCombos = 1 << 16;
  int64_t Combos = 1;
  for (unsigned D = 0; D < Depth; ++D) {
    auto Si = Small(St.Strides[D]), Oi = Small(Other.Strides[D]);
    if (!Si || !Oi || *Si != *Oi)
      return false;
    S[D] = *Si;
    auto Ti = Small(N.TripCounts[D]);
    if (Ti && *Ti < 0)
      return false;
    if (Ti)
      T[D] = *Ti;
    else if (D != 0)
      return false;
    if (D != 0) {
      Combos *= 2 * std::max<int64_t>(T[D], 1) - 1;
      if (Combos > MaxCombos)
        return false;
    }
  }
  int64_t Dist = *B - *A;
  bool Runs = true; // some iteration exists: every constant trip count >= 1
  for (int64_t Ti : T)
    Runs &= Ti != 0;
  Within = Dist == 0 && Runs;
  Across = false;
  if (!Runs)
    return true;
  // Enumerate the inner difference vectors d_1..d_{depth-1}.
  std::vector<int64_t> Dv(Depth, 0);
  for (unsigned D = 1; D < Depth; ++D)
    Dv[D] = -(T[D] - 1);
  while (true) {
    int64_t Rest = Dist;
    bool InnerZero = true;
    for (unsigned D = 1; D < Depth; ++D) {
      Rest -= S[D] * Dv[D];
      InnerZero &= Dv[D] == 0;
    }
    // s_0 * d_0 == Rest, with (d_0, inner) != 0 and |d_0| < n_0.
    if (S[0] == 0) {
      if (Rest == 0) {
        if (!InnerZero)
          return Across = true, true;
        if (T[0] < 0)
          return false; // needs n_0 >= 2
        if (T[0] >= 2)
          return Across = true, true;
      }
    } else if (Rest % S[0] == 0) {
      int64_t D0 = Rest / S[0];
      if (D0 == 0) {
        if (!InnerZero)
          return Across = true, true;
      } else {
        if (T[0] < 0)
          return false; // depends on n_0
        if (std::abs(D0) <= T[0] - 1)
          return Across = true, true;
      }
    }
    // Next inner vector (odometer).
    unsigned D = 1;
    for (; D < Depth; ++D) {
      if (Dv[D] < T[D] - 1) {
        ++Dv[D];
        break;
      }
      Dv[D] = -(T[D] - 1);
    }
    if (D == Depth)
      break;
  }
  return true;
}

/// A solver for the small linear dependence questions: the plain SMT
/// kernel, under the query limits. Z3 4.8's default solver spends about
/// 20 ms setting up its preprocessing for a query this small (0.6 ms
/// here), which made GSL's vector/oper.c, 74 such queries, 2.3x its plain
/// time.
static z3::solver linearSolver(z3::context &C, unsigned TimeoutMs) {
  z3::solver S(C, z3::solver::simple());
  setTimeout(C, S, TimeoutMs);
  return S;
}

/// The dependence question of a one-loop nest for two accesses with the same
/// offset and the same (symbolic) stride s, such as `m[i*(nc+1)]` stored, or
/// loaded and stored back: two iterations k != k' touch one element iff
/// s.(k - k') == 0, that is iff s == 0 and the loop runs at least twice. Z3 is
/// asked that linear question instead of the product form, whose non-linear
/// search can outlast any limit (GSL's poly/zsolve.c: 2 s per query).
/// \returns Proven (no such pair of iterations), Refuted, or Unknown; nullopt
/// when the accesses do not have this shape.
static std::optional<Proof> sameAddressOneLoop(const AffineAccess &St,
                                               const AffineAccess &Other,
                                               const NestInfo &N,
                                               unsigned TimeoutMs) {
  if (!StructuralShortcuts || N.depth() != 1 || St.Offset != Other.Offset ||
      St.Strides != Other.Strides)
    return std::nullopt;
  TimeScope TS("z3 dependence: same address");
  z3::context &C = sharedContext();
  z3::solver S = linearSolver(C, TimeoutMs);
  ScevTranslator T(C, S, &N);
  auto Stride = T.tr(St.Strides[0]), Trips = T.tr(N.TripCounts[0]);
  if (!Stride || !Trips)
    return std::nullopt; // the general query says why
  S.add(*Stride == 0 && *Trips >= 2);
  return decideNegatedLaw(S);
}

/// The byte offset of a field access inside its struct, with the struct's
/// name and size ("byte 8 of 16-byte struct.dcomplex"): `getelementptr
/// %struct.T, p, i, f...` with constant field indices, or, as -O2 writes a
/// field at a constant offset, `getelementptr i8, (getelementptr %struct.T,
/// p, i), C`; "" for any other address.
static std::string structFieldText(const Instruction *I) {
  auto *G = dyn_cast_or_null<GetElementPtrInst>(getLoadStorePointerOperand(I));
  const DataLayout &DL = I->getModule()->getDataLayout();
  uint64_t Off = 0;
  if (G && G->getSourceElementType()->isIntegerTy(8) && G->getNumIndices() == 1) {
    auto *C = dyn_cast<ConstantInt>(*G->idx_begin());
    if (!C || C->isNegative())
      return "";
    Off = C->getZExtValue();
    G = dyn_cast<GetElementPtrInst>(G->getPointerOperand());
  }
  if (!G || !isa<StructType>(G->getSourceElementType()))
    return "";
  auto *ST = cast<StructType>(G->getSourceElementType());
  // The offset inside element 0: a zero in place of the array index.
  SmallVector<Value *, 4> Idx{ConstantInt::get(Type::getInt64Ty(I->getContext()), 0)};
  for (auto It = G->idx_begin() + 1; It != G->idx_end(); ++It) {
    if (!isa<ConstantInt>(*It))
      return "";
    Idx.push_back(*It);
  }
  Off += DL.getIndexedOffsetInType(ST, ArrayRef<Value *>(Idx));
  uint64_t Size = DL.getTypeAllocSize(ST);
  if (Size == 0)
    return "";
  Off %= Size; // x[i + 1].im: byte 24 from x[i], the field at byte 8
  std::string Name = ST->hasName() ? ST->getName().str() : "an unnamed struct";
  return "byte " + std::to_string(Off) + " of " + std::to_string(Size) +
         "-byte " + Name;
}

/// Why two accesses \p St (a store) and \p Other of one array depend on
/// each other across iterations: an output dependence (two stores) or a
/// store and a load, with their struct fields where they are field
/// accesses (issue 13: "remarks: struct offsets, output dependence").
static std::string dependenceText(const AffineAccess &St,
                                  const AffineAccess &Other) {
  std::string S = "loop-carried dependence between a store and another "
                  "access of the same array (";
  S += Other.IsStore ? "output dependence: two stores" : "a store and a load";
  std::string FS = structFieldText(St.Inst), FO = structFieldText(Other.Inst);
  if (!FS.empty() && !FO.empty())
    S += FS == FO ? ", both at " + FS : ", at " + FS + " and " + FO;
  return S + ")";
}

/// " (double and i64, at byte 0 of 24-byte struct.T and byte 16 of 24-byte
/// struct.T)" for two
/// accesses of one array with different element types: a struct whose
/// other fields the loop also touches; the struct part only for field
/// accesses.
static std::string elementTypesText(const AffineAccess &A,
                                    const AffineAccess &B) {
  auto TypeText = [](Type *T) {
    std::string S;
    raw_string_ostream OS(S);
    T->print(OS);
    return OS.str();
  };
  std::string S = " (" + TypeText(A.ElemTy) + " and " + TypeText(B.ElemTy);
  std::string FA = structFieldText(A.Inst), FB = structFieldText(B.Inst);
  if (!FA.empty() && !FB.empty())
    S += ", at " + FA + " and " + FB;
  return S + ")";
}

/// The dependence questions of a two-loop nest for two accesses with the
/// same strides (s0 outer, s1 inner) whose outer stride may be symbolic, as
/// in an FFT stage over blocks of 2s, `x[j + k]` and `x[j + k + s]` with j
/// += 2s and k in [0, s): the product s0.(a - a') makes the general query
/// non-linear, and Z3 gives up on it. Asked instead, all linear when s0 and
/// s1 are: (1) within one outer iteration, b != b' with s1.b + o == s1.b' +
/// o' (a dependence: Refuted); (2) across outer iterations a != a', whether
/// some |o' - o + s1.(b' - b)| >= |s0| (if not, |s0.(a - a')| >= |s0| is
/// larger than what the inner loop and the offsets can reach: no
/// dependence), and if some does, (3) whether neighbouring outer iterations
/// a' = a +- 1 meet (a dependence); \p Within, for a load after the store in
/// one iteration, o == o' for some b. \returns the answer across
/// iterations, or nullopt when the shape does not fit or none of (1)-(3)
/// decides it (the general query does).
static std::optional<Proof> rowsWithinOuterStrideImpl(const AffineAccess &St,
                                                      const AffineAccess &Other,
                                                      const NestInfo &N,
                                                      unsigned TimeoutMs,
                                                      Proof &Within) {
  if (!StructuralShortcuts || N.depth() != 2 || St.Strides != Other.Strides ||
      isa<SCEVConstant>(St.Strides[0]))
    return std::nullopt;
  TimeScope TS("z3 dependence: rows within the outer stride");
  z3::context &C = sharedContext();
  z3::solver S = linearSolver(C, TimeoutMs);
  ScevTranslator T(C, S, &N);
  auto S0 = T.tr(St.Strides[0]), S1 = T.tr(St.Strides[1]);
  auto OS = T.tr(St.Offset), OO = T.tr(Other.Offset);
  auto T1 = T.tr(N.TripCounts[1]);
  if (!S0 || !S1 || !OS || !OO || !T1)
    return std::nullopt;
  z3::expr B = C.int_const("b"), B2 = C.int_const("bb");
  S.add(B >= 0 && B < *T1 && B2 >= 0 && B2 < *T1);
  S.push();
  S.add(B != B2 && *S1 * B + *OS == *S1 * B2 + *OO);
  Proof Same = decideNegatedLaw(S);
  S.pop();
  if (Same == Proof::Refuted)
    return Proof::Refuted;
  if (Same == Proof::Unknown)
    return std::nullopt;
  S.push();
  z3::expr Reach = *OO - *OS + *S1 * (B2 - B);
  z3::expr Abs0 = z3::ite(*S0 >= 0, *S0, -*S0);
  S.add(Reach >= Abs0 || -Reach >= Abs0);
  Proof Apart = decideNegatedLaw(S);
  S.pop();
  if (Apart != Proof::Proven) {
    // (3) Neighbouring outer iterations a' = a +- 1 (blocks of s with pairs
    // s apart), when the outer loop runs twice: a dependence the general
    // query, non-linear, may not find within its limits.
    auto T0 = T.tr(N.TripCounts[0]);
    if (!T0)
      return std::nullopt;
    S.add(*T0 >= 2);
    S.add(*S1 * B + *OS == *S0 + *S1 * B2 + *OO ||
          *S1 * B + *OS == *S1 * B2 + *OO - *S0);
    if (decideNegatedLaw(S) == Proof::Refuted)
      return Proof::Refuted;
    return std::nullopt;
  }
  Within = Proof::Proven;
  if (!Other.IsStore && mayFollow(Other.Inst, St.Inst)) {
    S.add(B == B2 && *OS == *OO);
    Within = decideNegatedLaw(S);
  }
  return Proof::Proven;
}

static std::optional<Proof> rowsWithinOuterStride(const AffineAccess &St,
                                                  const AffineAccess &Other,
                                                  const NestInfo &N,
                                                  unsigned TimeoutMs,
                                                  Proof &Within) {
  try {
    return rowsWithinOuterStrideImpl(St, Other, N, TimeoutMs, Within);
  } catch (const z3::exception &) {
    return std::nullopt; // the general query says why
  }
}

/// True when \p A and \p N have the shape the dependence test reads: one
/// non-null stride per loop of the nest, a non-null offset and trip counts.
static bool wellFormed(const AffineAccess &A, const NestInfo &N) {
  if (N.depth() == 0 || N.TripCounts.size() != N.depth() || !A.Offset ||
      A.Strides.size() != N.depth())
    return false;
  for (unsigned D = 0; D < N.depth(); ++D)
    if (!A.Strides[D] || !N.TripCounts[D])
      return false;
  return true;
}

/// The pair (St, Other) over grid subscripts assumed in extent
/// (gridDependence with Assume): true when it is independent under run-time
/// conditions, which are then added to \p Assumed (null: none may be).
static bool independentAssumingExtents(const AffineAccess &St,
                                       const AffineAccess &Other,
                                       ArrayRef<AffineAccess> Accesses,
                                       const NestInfo &N, unsigned TimeoutMs,
                                       SmallVectorImpl<const SCEV *> *Assumed) {
  if (!Assumed)
    return false;
  Proof In = Proof::Proven;
  SmallVector<const SCEV *, 8> Conds;
  SmallVector<const AffineAccess *, 8> Hints;
  for (const AffineAccess &A : Accesses)
    if (A.Base == St.Base && &A != &St && &A != &Other)
      Hints.push_back(&A);
  auto P = gridDependence(St, Other, N, TimeoutMs, In, &Conds, Hints);
  if (!P || *P != Proof::Proven ||
      (!Other.IsStore && mayFollow(Other.Inst, St.Inst) && In != Proof::Proven))
    return false;
  for (const SCEV *C : Conds)
    if (!N.SE->isKnownNonNegative(C) && !is_contained(*Assumed, C))
      Assumed->push_back(C);
  TimeReport::count("dependence: grid subscripts assumed in extent");
  return true;
}

static Proof noLoopCarriedDependence(ArrayRef<AffineAccess> Accesses,
                                     const NestInfo &N, unsigned TimeoutMs,
                                     std::string &Why,
                                     SmallVectorImpl<const SCEV *> *Assumed) {
  for (const AffineAccess &A : Accesses)
    if (!wellFormed(A, N)) {
      Why = "internal error: an access does not fit its loop nest";
      return Proof::Unknown;
    }
  for (const AffineAccess &St : Accesses) {
    if (!St.IsStore)
      continue;
    for (const AffineAccess &Other : Accesses) {
      if (Other.Base != St.Base)
        continue;
      // Two stores: the question is symmetric (swap the iterations), so
      // each unordered pair is asked once.
      if (Other.IsStore && &Other < &St)
        continue;
      if (Other.ElemTy != St.ElemTy) {
        Why = "one array is accessed with two element types" +
              elementTypesText(St, Other);
        return Proof::Unknown;
      }
      if (sameInjectiveAddress(St, Other, N) &&
          (Other.IsStore || !mayFollow(Other.Inst, St.Inst))) {
        TimeReport::count("dependence: injective address");
        continue;
      }
      bool Across, Within;
      if (constantStridePair(St, Other, N, Across, Within)) {
        TimeReport::count("dependence: constant strides");
        if (Across) {
          Why = dependenceText(St, Other);
          return Proof::Refuted;
        }
        if (!Other.IsStore && mayFollow(Other.Inst, St.Inst) && Within) {
          Why = "a load reads an element stored earlier in the same iteration";
          return Proof::Refuted;
        }
        continue;
      }
      if (auto P = sameAddressOneLoop(St, Other, N, TimeoutMs)) {
        if (*P == Proof::Refuted) {
          Why = dependenceText(St, Other);
          return Proof::Refuted;
        }
        if (*P == Proof::Unknown) {
          Why = "absence of loop-carried dependence not proven (" +
                z3UnknownText() + ")";
          return Proof::Unknown;
        }
        // One iteration: a load after the store reads the stored element.
        if (!Other.IsStore && mayFollow(Other.Inst, St.Inst)) {
          Why = "a load reads an element stored earlier in the same iteration";
          return Proof::Refuted;
        }
        continue;
      }
      Proof InRow = Proof::Proven;
      if (auto P = rowsWithinOuterStride(St, Other, N, TimeoutMs, InRow)) {
        TimeReport::count("dependence: rows within the outer stride");
        // Rows that meet for some extents only (a row shorter than the
        // loop's reach) are apart under the run-time extent conditions.
        if ((*P == Proof::Refuted || InRow != Proof::Proven) &&
            independentAssumingExtents(St, Other, Accesses, N, TimeoutMs, Assumed))
          continue;
        if (*P == Proof::Refuted) {
          Why = dependenceText(St, Other);
          return Proof::Refuted;
        }
        if (InRow != Proof::Proven) {
          Why = "a load reads an element stored earlier in the same iteration";
          return InRow == Proof::Refuted ? Proof::Refuted : Proof::Unknown;
        }
        continue;
      }
      Proof InGrid = Proof::Proven;
      if (auto P = gridDependence(St, Other, N, TimeoutMs, InGrid)) {
        TimeReport::count("dependence: grid subscripts");
        if (*P == Proof::Refuted) {
          Why = dependenceText(St, Other);
          return Proof::Refuted;
        }
        if (!Other.IsStore && mayFollow(Other.Inst, St.Inst) &&
            InGrid != Proof::Proven) {
          Why = "a load reads an element stored earlier in the same iteration";
          return InGrid == Proof::Refuted ? Proof::Refuted : Proof::Unknown;
        }
        continue;
      }
      try {
        TimeScope TS("z3 dependence: solver");
        z3::context &C = sharedContext();
        z3::solver S(C);
        setTimeout(C, S, TimeoutMs);
        ScevTranslator T(C, S, &N);
        z3::expr_vector K(C), K2(C);
        z3::expr Differ = C.bool_val(false);
        z3::expr AddrS = C.int_val(0), AddrO = C.int_val(0), AddrO1 = C.int_val(0);
        auto OffS = T.tr(St.Offset), OffO = T.tr(Other.Offset);
        if ((!OffS || !OffO) &&
            independentAssumingExtents(St, Other, Accesses, N, TimeoutMs, Assumed))
          continue;
        if (!OffS || !OffO) {
          Why = "address offset cannot be translated for the SMT solver";
          return Proof::Unknown;
        }
        AddrS = *OffS;
        AddrO = *OffO;
        AddrO1 = *OffO;
        for (unsigned D = 0; D < N.depth(); ++D) {
          std::string KN = "k" + std::to_string(D), K2N = "kk" + std::to_string(D);
          z3::expr Kd = C.int_const(KN.c_str()), K2d = C.int_const(K2N.c_str());
          auto TC = T.tr(N.TripCounts[D]);
          auto SS = T.tr(St.Strides[D]), SO = T.tr(Other.Strides[D]);
          if (!TC || !SS || !SO) {
            Why = "trip count or stride cannot be translated for the SMT solver";
            return Proof::Unknown;
          }
          S.add(Kd >= 0 && Kd < *TC && K2d >= 0 && K2d < *TC);
          Differ = Differ || Kd != K2d;
          AddrS = AddrS + *SS * Kd;
          AddrO = AddrO + *SO * K2d;
          AddrO1 = AddrO1 + *SO * Kd;
        }
        // Across iterations: two different iterations touch one element.
        S.push();
        S.add(Differ && AddrS == AddrO);
        Proof P = decideNegatedLaw(S);
        S.pop();
        if (P != Proof::Proven &&
            independentAssumingExtents(St, Other, Accesses, N, TimeoutMs, Assumed))
          continue;
        if (P != Proof::Proven) {
          Why = P == Proof::Refuted
                    ? dependenceText(St, Other)
                    : "absence of loop-carried dependence not proven (" +
                          z3UnknownText() + ")";
          return P == Proof::Refuted ? Proof::Refuted : Proof::Unknown;
        }
        // Within one iteration: a load after the store reads its element.
        if (!Other.IsStore && mayFollow(Other.Inst, St.Inst)) {
          S.add(AddrS == AddrO1);
          P = decideNegatedLaw(S);
          if (P != Proof::Proven &&
              independentAssumingExtents(St, Other, Accesses, N, TimeoutMs, Assumed))
            continue;
          if (P != Proof::Proven) {
            Why = "a load reads an element stored earlier in the same iteration";
            return P == Proof::Refuted ? Proof::Refuted : Proof::Unknown;
          }
        }
      } catch (const z3::exception &E) {
        Why = std::string("Z3 error: ") + E.msg();
        return Proof::Unknown;
      }
    }
  }
  return Proof::Proven;
}

const std::pair<Proof, std::string> *
ProofCache::lookup(Query Q, const void *Key) const {
  auto It = Results.find({int(Q), Key});
  return It == Results.end() ? nullptr : &It->second;
}

void ProofCache::store(Query Q, const void *Key, Proof P, const std::string &Why) {
  Results[{int(Q), Key}] = {P, Why};
}

void ProofCache::storeAssumed(const void *Key, ArrayRef<const SCEV *> Conds) {
  Assumed[Key].assign(Conds.begin(), Conds.end());
}

SmallVector<const SCEV *, 4> ProofCache::assumed(const void *Key) const {
  auto It = Assumed.find(Key);
  if (It == Assumed.end())
    return {};
  return SmallVector<const SCEV *, 4>(It->second.begin(), It->second.end());
}

/// Runs \p Compute unless \p Cache knows the answer for (Q, Key).
template <typename Fn>
static Proof cached(ProofCache *Cache, ProofCache::Query Q, const void *Key,
                    std::string &Why, Fn Compute) {
  if (Cache)
    if (const auto *Hit = Cache->lookup(Q, Key)) {
      Why = Hit->second;
      return Hit->first;
    }
  Proof P = Compute();
  if (Cache)
    Cache->store(Q, Key, P, Why);
  return P;
}

Proof proveAssocComm(const ReductionInfo &R, unsigned TimeoutMs,
                     std::string &Why, ProofCache *Cache) {
  return cached(Cache, ProofCache::Query::AssocComm, R.Phi, Why, [&] {
    // A textbook operator is associative and commutative (OperatorLaws.h).
    if (StructuralShortcuts && !R.Operands.empty() &&
        textbookOperator(R.FirstLink, R.Phi, R.Operands.front())) {
      TimeReport::count("laws: textbook operator");
      return Proof::Proven;
    }
    return assocComm(R, TimeoutMs, Why);
  });
}

Proof proveIdentity(const ReductionInfo &R, unsigned TimeoutMs,
                    std::string &Why, ProofCache *Cache) {
  return cached(Cache, ProofCache::Query::Identity, R.Phi, Why, [&] {
    // reductionIdentity(Op) is the identity of the textbook operator Op.
    if (StructuralShortcuts && !R.Operands.empty() &&
        textbookOperator(R.FirstLink, R.Phi, R.Operands.front()) == R.Op) {
      TimeReport::count("laws: textbook operator");
      return Proof::Proven;
    }
    return identity(R, TimeoutMs, Why);
  });
}

Proof proveNoLoopCarriedDependence(ArrayRef<AffineAccess> Accesses,
                                   const NestInfo &N, ScalarEvolution &,
                                   unsigned TimeoutMs, std::string &Why,
                                   ProofCache *Cache,
                                   SmallVectorImpl<const SCEV *> *Assumed) {
  // The conditions go with the cached answer: the spec's atom asks first,
  // the match builder (which keeps them) second.
  SmallVector<const SCEV *, 4> Conds;
  Proof P = cached(Cache, ProofCache::Query::NoLoopCarriedDependence,
                   N.Loops.front(), Why, [&] {
                     Proof R = noLoopCarriedDependence(Accesses, N, TimeoutMs,
                                                       Why, &Conds);
                     if (R != Proof::Proven)
                       Conds.clear();
                     if (Cache)
                       Cache->storeAssumed(N.Loops.front(), Conds);
                     return R;
                   });
  if (Cache)
    Conds = Cache->assumed(N.Loops.front());
  if (Assumed)
    Assumed->append(Conds.begin(), Conds.end());
  return P;
}

z3::context &sharedZ3Context() {
  // Created on first use, so a compile that needs no Z3 query pays nothing;
  // never destroyed, since destroying one at exit costs about 1 ms and the
  // thread-local solvers made from it may outlive it. (A thread that ends
  // leaves its context behind; clang runs the plugin on one thread.)
  static thread_local z3::context *C = [] {
    TimeScope T("z3 context creation");
    return new z3::context();
  }();
  return *C;
}

} // namespace idiom
