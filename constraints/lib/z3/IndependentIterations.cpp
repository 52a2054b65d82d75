//===- IndependentIterations.cpp - The IndependentIterations atom ---------===//
//
// proveIndependentIterations (Z3Checks.h): whether two different
// iterations of a loop can touch one byte with at least one store, over the
// loop's own recurrences and the phis it chooses between
// (docs/ConstraintLanguage.md, "IndependentIterations").
//
//===----------------------------------------------------------------------===//

#include "ScevTranslator.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/ValueText.h"
#include "idiom/Constraints/Z3Budget.h"
#include "idiom/Constraints/Z3Checks.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include <map>
#include <optional>
#include <string>

using namespace llvm;

namespace idiom {

using z3detail::ScevTranslator;

namespace {

/// One load or store of proveIndependentIterations: its byte offset from the
/// pointer base and its size.
struct IterAccess {
  Instruction *I;
  const SCEV *Base, *Offset;
  uint64_t Bytes;
};

/// "the store at f.c:12:7" or, without a debug location, "the store `...`".
std::string iterAccessText(const Instruction *I) {
  std::string S = isa<StoreInst>(I) ? "the store" : "the load";
  if (const DebugLoc &DL = I->getDebugLoc())
    return S + " at " + DL->getFilename().str() + ":" +
           std::to_string(DL.getLine()) + ":" + std::to_string(DL.getCol());
  return S + " `" + valueText(I) + "`";
}

/// The dependence questions of proveIndependentIterations over one loop.
class IterationDependence {
public:
  /// With \p AntiOnly, only flow and output dependences are asked for
  /// (proveOnlyAntiDependences), and a pair of accesses with the same
  /// address, invariant in L, is skipped (an in-place accumulator).
  IterationDependence(Loop *L, ScalarEvolution &SE, unsigned TimeoutMs,
                      bool AntiOnly = false)
      : L(L), SE(SE), C(sharedZ3Context()), S(C), T(C, S), AntiOnly(AntiOnly) {
    applyZ3Limits(C, S, TimeoutMs);
    T.Recurrence = [this](const SCEVAddRecExpr *AR, unsigned Depth) {
      return recurrence(AR, Depth);
    };
    T.Unknown = [this](const SCEVUnknown *U, unsigned Depth) {
      return choice(U, Depth);
    };
  }

  Proof run(std::string &Why);

private:
  std::optional<z3::expr> recurrence(const SCEVAddRecExpr *AR, unsigned Depth);
  std::optional<z3::expr> choice(const SCEVUnknown *U, unsigned Depth);
  bool collect(std::string &Why);
  bool translatable(const SCEV *X, unsigned Depth = 0) const;
  bool isChoice(const SCEVUnknown *U, unsigned Depth) const;
  bool bounds(std::string &Why);
  Proof pair(const IterAccess &A, const IterAccess &B, std::string &Why);
  z3::expr second(const z3::expr &E) {
    return z3::expr(E).substitute(First, Second);
  }

  Loop *L;
  ScalarEvolution &SE;
  z3::context &C;
  z3::solver S;
  ScevTranslator T;
  bool AntiOnly;
  /// The iteration numbers of L and of the loops inside it, in the first
  /// and the second of the two iterations of L compared (First[k] and
  /// Second[k] belong to IvLoops[k]); recurrences of enclosing loops are
  /// one iteration number shared by both (Outer). A null loop is the value
  /// of a phi (choice) whose constraint is in Choices.
  SmallVector<const Loop *, 4> IvLoops;
  std::vector<z3::expr> Choices;
  bool ChoiceFailed = false;
  z3::expr_vector First{C}, Second{C};
  MapVector<const Loop *, z3::expr> Outer;
  SmallVector<IterAccess, 8> Accesses;
};

std::optional<z3::expr>
IterationDependence::recurrence(const SCEVAddRecExpr *AR, unsigned Depth) {
  if (!AR->isAffine())
    return std::nullopt;
  const Loop *X = AR->getLoop();
  std::optional<z3::expr> Iv;
  if (X == L || L->contains(X)) {
    auto It = llvm::find(IvLoops, X);
    if (It == IvLoops.end()) {
      std::string N = "it" + std::to_string(IvLoops.size());
      IvLoops.push_back(X);
      First.push_back(C.int_const((N + "a").c_str()));
      Second.push_back(C.int_const((N + "b").c_str()));
      It = IvLoops.end() - 1;
    }
    Iv = First[(int)(It - IvLoops.begin())];
  } else if (X->contains(L)) {
    auto It = Outer.find(X);
    if (It == Outer.end()) {
      z3::expr V = C.int_const(("out" + std::to_string(Outer.size())).c_str());
      S.add(V >= 0);
      It = Outer.try_emplace(X, V).first;
      // An iteration that runs is numbered at most the loop's backedge-taken
      // count, as the loops inside L are (bounds()): a loop around L whose
      // count is n - 1 runs no iteration when n = 0 (PolyBench trmm's loop j
      // around k, with B[k][j] and B[i][j] apart only when n > 0).
      const SCEV *BTC = SE.getBackedgeTakenCount(X);
      if (!isa<SCEVCouldNotCompute>(BTC) && translatable(BTC))
        if (std::optional<z3::expr> N = T.tr(BTC, Depth + 1))
          S.add(V <= *N);
    }
    Iv = It->second;
  } else {
    return std::nullopt;
  }
  auto Start = T.tr(AR->getStart(), Depth + 1);
  auto Step = T.tr(AR->getStepRecurrence(SE), Depth + 1);
  if (!Start || !Step)
    return std::nullopt;
  return *Start + *Step * *Iv;
}

/// The value of a phi of L outside the loop headers, one of its incoming
/// values of the same iteration (GVN merges `0` on the path of j == 0 with
/// `j * n` on the others): a fresh number per iteration compared, equal to
/// one of them (an over-approximation: Proven stays sound).
std::optional<z3::expr> IterationDependence::choice(const SCEVUnknown *U,
                                                    unsigned Depth) {
  if (!isChoice(U, 0))
    return std::nullopt;
  auto *Phi = cast<PHINode>(U->getValue());
  std::string N = "ph" + std::to_string(IvLoops.size());
  z3::expr V = C.int_const((N + "a").c_str());
  IvLoops.push_back(nullptr);
  First.push_back(V);
  Second.push_back(C.int_const((N + "b").c_str()));
  z3::expr Any = C.bool_val(false);
  for (Value *In : Phi->incoming_values()) {
    auto X = T.tr(SE.getSCEV(In), Depth + 1);
    if (!X) {
      ChoiceFailed = true;
      return V;
    }
    Any = Any || V == *X;
  }
  Choices.push_back(Any);
  return V;
}

/// \p U is a phi of L, outside the loop headers, whose incoming values are
/// translatable: choice() can translate it.
bool IterationDependence::isChoice(const SCEVUnknown *U, unsigned Depth) const {
  auto *Phi = dyn_cast<PHINode>(U->getValue());
  if (!Phi || Depth > 2 || !L->contains(Phi) || Phi->getNumIncomingValues() > 4 ||
      !Phi->getType()->isIntegerTy())
    return false;
  for (const Loop *Y : L->getLoopsInPreorder())
    if (Y->getHeader() == Phi->getParent())
      return false;
  for (Value *In : Phi->incoming_values())
    if (!translatable(SE.getSCEV(In), Depth + 1))
      return false;
  return true;
}

/// \p X is a function of the iteration numbers and of values that do not
/// change while L runs: every unknown is invariant in L or a choice, and
/// quotients and minima or maxima (whose translation names a fresh symbol,
/// which the second iteration would share) are invariant in L.
bool IterationDependence::translatable(const SCEV *X, unsigned Depth) const {
  return !SCEVExprContains(X, [&](const SCEV *Y) {
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(Y))
      return !AR->isAffine();
    if (auto *U = dyn_cast<SCEVUnknown>(Y))
      return !SE.isLoopInvariant(Y, L) && !isChoice(U, Depth);
    if (isa<SCEVUDivExpr>(Y) || isa<SCEVMinMaxExpr>(Y))
      return !SE.isLoopInvariant(Y, L);
    return false;
  });
}

std::string loopText(const Loop *L);

/// The loads and stores of L and of its inner loops; false with \p Why for
/// any other memory access (a call that may touch memory, an atomic).
bool IterationDependence::collect(std::string &Why) {
  const DataLayout &DL = L->getHeader()->getModule()->getDataLayout();
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      Value *Ptr = nullptr;
      Type *Ty = nullptr;
      if ((isa<LoadInst>(I) && !cast<LoadInst>(I).isSimple()) ||
          (isa<StoreInst>(I) && !cast<StoreInst>(I).isSimple())) {
        Why = "the loop has a volatile or atomic access: " + valueText(&I);
        return false;
      }
      if (auto *Ld = dyn_cast<LoadInst>(&I)) {
        Ptr = Ld->getPointerOperand();
        Ty = Ld->getType();
      } else if (auto *St = dyn_cast<StoreInst>(&I)) {
        Ptr = St->getPointerOperand();
        Ty = St->getValueOperand()->getType();
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (CB->mayReadOrWriteMemory()) {
          Why = "a call in the loop may read or write memory: " + valueText(&I);
          return false;
        }
        continue;
      } else {
        if (I.mayReadOrWriteMemory()) {
          Why = "the loop has a memory operation that is not a simple load or "
                "store: " + valueText(&I);
          return false;
        }
        continue;
      }
      if (isa<ScalableVectorType>(Ty)) {
        Why = "the loop accesses a scalable vector: " + valueText(&I);
        return false;
      }
      const SCEV *P = SE.getSCEV(Ptr);
      const SCEV *Base = SE.getPointerBase(P);
      const SCEV *Off = SE.removePointerBase(P);
      if (!isa<SCEVUnknown>(Base) || !SE.isLoopInvariant(Base, L) ||
          !translatable(Off)) {
        Why = "the address of " + iterAccessText(&I) +
              " is not affine in the induction variables of the loop and the "
              "loops inside it";
        // At -O2 jump threading may send the last iteration of an outer
        // loop straight out of an inner one (rows that run down to 0 around
        // `for (k = 0; k < i; k++)`, whose zero-trip test `i == 0` is also
        // the outer loop's exit test): its induction variable is then no
        // recurrence that SCEV sees.
        for (const Loop *X : L->getLoopsInPreorder())
          if (!X->getExitingBlock()) {
            Why += " (" + loopText(X) +
                   " has several exits: at -O2, jump threading may route an "
                   "outer loop's last iteration out of it, as for rows that "
                   "run down to 0 around `for (k = 0; k < i; k++)`)";
            break;
          }
        return false;
      }
      Accesses.push_back({&I, Base, Off, DL.getTypeStoreSize(Ty)});
    }
  return true;
}

/// Every iteration number counts from 0 to its loop's backedge-taken count
/// (an inner loop's may depend on the enclosing iteration numbers: a
/// triangular nest); false with \p Why when one is not computable.
bool IterationDependence::bounds(std::string &Why) {
  // Translating a count may add the iteration number of another loop.
  for (size_t K = 0; K < IvLoops.size(); ++K) {
    const Loop *X = IvLoops[K];
    if (!X)
      continue; // a choice
    const SCEV *BTC = SE.getBackedgeTakenCount(X);
    std::optional<z3::expr> N;
    if (!isa<SCEVCouldNotCompute>(BTC) && translatable(BTC))
      N = T.tr(BTC);
    if (!N) {
      DebugLoc DL = X->getStartLoc();
      Why = "the trip count of the loop" +
            (DL ? " at line " + std::to_string(DL.getLine()) : std::string()) +
            " is not an affine function of the enclosing iteration numbers";
      return false;
    }
    S.add(First[(int)K] >= 0 && First[(int)K] <= *N);
  }
  // The second iteration's bounds, once every number is known.
  if (ChoiceFailed) {
    Why = "an address merges values that cannot be translated for the SMT "
          "solver";
    return false;
  }
  for (const z3::expr &X : Choices) {
    S.add(X);
    S.add(second(X));
  }
  for (size_t K = 0; K < IvLoops.size(); ++K) {
    if (!IvLoops[K])
      continue;
    const SCEV *BTC = SE.getBackedgeTakenCount(IvLoops[K]);
    z3::expr N = *T.tr(BTC);
    S.add(Second[(int)K] >= 0 && Second[(int)K] <= second(N));
  }
  return true;
}

/// Whether \p A in one iteration of L and \p B in another touch a common
/// byte; Refuted with a witness in \p Why.
Proof IterationDependence::pair(const IterAccess &A, const IterAccess &B,
                                std::string &Why) {
  auto OA = T.tr(A.Offset), OB = T.tr(B.Offset);
  if (!OA || !OB) {
    Why = "the address of " + iterAccessText(OA ? B.I : A.I) +
          " cannot be translated for the SMT solver";
    return Proof::Unknown;
  }
  size_t Li = llvm::find(IvLoops, L) - IvLoops.begin();
  z3::expr OB2 = second(*OB);
  S.push();
  S.add(First[(int)Li] != Second[(int)Li]);
  // Anti dependences allowed: the earlier of the two accesses is a store
  // (a load after a store: flow; two stores: output).
  bool AS = isa<StoreInst>(A.I), BS = isa<StoreInst>(B.I);
  if (AntiOnly && AS != BS)
    S.add(AS ? First[(int)Li] < Second[(int)Li]
             : Second[(int)Li] < First[(int)Li]);
  S.add(*OA < OB2 + C.int_val((int64_t)B.Bytes));
  S.add(OB2 < *OA + C.int_val((int64_t)A.Bytes));
  Z3Outcome R = checkWithinLimits(S);
  if (R == Z3Outcome::Unknown) {
    S.pop();
    Why = "absence of loop-carried dependence between " + iterAccessText(A.I) +
          " and " + iterAccessText(B.I) + " not proven (" +
          lastZ3UnknownReason() + ")";
    return Proof::Unknown;
  }
  if (R == Z3Outcome::Unsat) {
    S.pop();
    return Proof::Proven;
  }
  z3::model M = S.get_model();
  // A small witness reads better: the first iterations, where they meet.
  S.push();
  for (int K = 0; K < (int)IvLoops.size(); ++K)
    if (IvLoops[K])
      S.add(First[K] <= 16 && Second[K] <= 16);
  for (auto &[X, V] : Outer)
    S.add(V <= 16);
  if (checkWithinLimits(S) == Z3Outcome::Sat)
    M = S.get_model();
  S.pop();
  auto Num = [&](const z3::expr &E) {
    int64_t V = 0;
    z3::expr X = M.eval(E, true);
    return X.is_numeral_i64(V) ? std::to_string(V) : std::string("?");
  };
  int64_t IA = 0, IB = 0;
  M.eval(First[(int)Li], true).is_numeral_i64(IA);
  M.eval(Second[(int)Li], true).is_numeral_i64(IB);
  // The inner iteration numbers of each access in its iteration.
  auto Inner = [&](const IterAccess &X, const z3::expr_vector &Ivs) {
    std::string Out;
    for (size_t K = 0; K < IvLoops.size(); ++K)
      if (IvLoops[K] && IvLoops[K] != L && IvLoops[K]->contains(X.I))
        Out += (Out.empty() ? "" : ", ") + Num(Ivs[(int)K]);
    return Out;
  };
  std::string InA = Inner(A, First), InB = Inner(B, Second);
  S.pop();
  bool AFirst = IA < IB;
  const IterAccess &E = AFirst ? A : B, &Lt = AFirst ? B : A;
  std::string InE = AFirst ? InA : InB, InL = AFirst ? InB : InA;
  bool ES = isa<StoreInst>(E.I), LS = isa<StoreInst>(Lt.I);
  const char *Kind = ES && LS ? "output" : ES ? "flow" : "anti";
  auto At = [](const std::string &In) {
    return In.empty() ? std::string() : " (inner iteration " + In + ")";
  };
  Why = "loop-carried " + std::string(Kind) + " dependence: " +
        iterAccessText(Lt.I) + " in iteration " +
        std::to_string(std::max(IA, IB)) + At(InL) + " " +
        (LS ? "writes" : "reads") + " an element that " + iterAccessText(E.I) +
        " " + (ES ? "wrote" : "read") + " in iteration " +
        std::to_string(std::min(IA, IB)) + At(InE) +
        ", so the iterations must run in order";
  return Proof::Refuted;
}

Proof IterationDependence::run(std::string &Why) {
  if (!L->getLoopPreheader() || !collect(Why))
    return Proof::Unknown;
  // Translate every address first: the iteration numbers they use get
  // their bounds below.
  for (const IterAccess &A : Accesses)
    if (!T.tr(A.Offset)) {
      Why = "the address of " + iterAccessText(A.I) +
            " cannot be translated for the SMT solver";
      return Proof::Unknown;
    }
  // L's own iteration number, also where no address uses it.
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(BTC) || !BTC->getType()->isIntegerTy() ||
      !T.tr(SE.getAddRecExpr(SE.getZero(BTC->getType()),
                             SE.getOne(BTC->getType()), L,
                             SCEV::FlagAnyWrap))) {
    Why = "the trip count of the loop is not computable";
    return Proof::Unknown;
  }
  if (!bounds(Why))
    return Proof::Unknown;
  for (size_t X = 0; X < Accesses.size(); ++X)
    for (size_t Y = X; Y < Accesses.size(); ++Y) {
      const IterAccess &A = Accesses[X], &B = Accesses[Y];
      if (A.Base != B.Base ||
          (!isa<StoreInst>(A.I) && !isa<StoreInst>(B.I)))
        continue;
      // The in-place accumulator (`C[i][j] += ...` in the loop k): one
      // address in every iteration, read and written by each.
      if (AntiOnly && A.Offset == B.Offset && A.Bytes == B.Bytes &&
          SE.isLoopInvariant(A.Offset, L))
        continue;
      Proof P = pair(A, B, Why);
      if (P != Proof::Proven)
        return P;
    }
  return Proof::Proven;
}

/// "the loop at f.c:12" or "the loop" without a debug location.
std::string loopText(const Loop *L) {
  if (DebugLoc DL = L->getStartLoc())
    return "the loop at " + DL->getFilename().str() + ":" +
           std::to_string(DL.getLine());
  return "the loop";
}

} // namespace

Proof proveOnlyAntiDependences(Loop *L, ScalarEvolution &SE,
                               unsigned TimeoutMs, std::string &Why) {
  TimeScope TS("z3 dependence: only anti dependences");
  try {
    for (Loop *X : L->getLoopsInPreorder()) {
      IterationDependence D(X, SE, TimeoutMs, /*AntiOnly=*/true);
      std::string W;
      Proof P = D.run(W);
      if (P != Proof::Proven) {
        Why = X == L ? W : "in " + loopText(X) + " inside it: " + W;
        return P;
      }
    }
    return Proof::Proven;
  } catch (const z3::exception &E) {
    Why = std::string("Z3 error: ") + E.msg();
    return Proof::Unknown;
  }
}

Proof proveIndependentIterations(Loop *L, ScalarEvolution &SE,
                                 unsigned TimeoutMs, std::string &Why) {
  TimeScope TS("z3 dependence: independent iterations");
  try {
    IterationDependence D(L, SE, TimeoutMs);
    return D.run(Why);
  } catch (const z3::exception &E) {
    Why = std::string("Z3 error: ") + E.msg();
    return Proof::Unknown;
  }
}

} // namespace idiom
