//===- StencilFacts.cpp - Structural facts for stencils -------------------===//

#include "idiom/Constraints/ScevInt.h"
#include "idiom/Constraints/StencilFacts.h"
#include "idiom/Constraints/LoopFacts.h"
#include "idiom/Constraints/ValueText.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace idiom {

std::string offsetText(ArrayRef<int64_t> Offset) {
  std::string S = "(";
  for (size_t I = 0; I < Offset.size(); ++I) {
    if (I)
      S += ", ";
    if (Offset[I] > 0)
      S += "+";
    S += std::to_string(Offset[I]);
  }
  return S + ")";
}

//===-- Nests -------------------------------------------------------------===//

const SCEV *StencilNest::scev(Value *V, ScalarEvolution &SE) const {
  const SCEV *S = SE.getSCEV(V);
  if (Repaired.empty())
    return S;
  ValueToSCEVMapTy Map(Repaired.begin(), Repaired.end());
  return SCEVParameterRewriter::rewrite(S, SE, Map);
}

namespace {

using ScevOf = function_ref<const SCEV *(Value *)>;

/// The common SCEV of \p V's incoming values when V is a phi, else V's.
const SCEV *commonScev(Value *V, ScevOf Scev) {
  auto *P = dyn_cast<PHINode>(V);
  if (!P)
    return Scev(V);
  const SCEV *S = nullptr;
  for (Value *In : P->incoming_values()) {
    const SCEV *X = Scev(In);
    if (S && X != S)
      return nullptr;
    S = X;
  }
  return S;
}

/// True when \p V is an affine recurrence of \p L, or a phi all of whose
/// incoming values are the same such recurrence.
bool isRecurrenceOf(Value *V, const Loop *L, ScalarEvolution &SE, ScevOf Scev) {
  if (!SE.isSCEVable(V->getType()))
    return false;
  const SCEV *S = Scev(V);
  if (!isa<SCEVAddRecExpr>(S))
    S = commonScev(V, Scev);
  auto *AR = dyn_cast_or_null<SCEVAddRecExpr>(S);
  return AR && AR->getLoop() == L && AR->isAffine();
}

/// True when \p S is an affine recurrence of \p L with a constant step and
/// a start invariant in \p Outer.
bool isCountedRecurrence(const SCEV *S, const Loop *L, const Loop *Outer,
                         ScalarEvolution &SE) {
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  return AR && AR->getLoop() == L && AR->isAffine() &&
         isa<SCEVConstant>(AR->getStepRecurrence(SE)) &&
         SE.isLoopInvariant(AR->getStart(), Outer);
}

/// The induction phi of \p L: an integer header phi that is an affine
/// recurrence of L with a constant step and a start invariant in \p Outer.
/// When \p Repaired is given, a phi SCEV does not see as a recurrence but
/// whose latch value is (a phi of equal values) the phi plus a constant is
/// recorded there with its recurrence, and returned.
PHINode *countedIV(Loop *L, Loop *Outer, ScalarEvolution &SE, ScevOf Scev,
                   DenseMap<const Value *, const SCEV *> *Repaired) {
  for (PHINode &P : L->getHeader()->phis())
    if (P.getType()->isIntegerTy() && SE.isSCEVable(P.getType()) &&
        isCountedRecurrence(Scev(&P), L, Outer, SE))
      return &P;
  BasicBlock *Pre = L->getLoopPreheader(), *Latch = L->getLoopLatch();
  for (PHINode &P : L->getHeader()->phis()) {
    if (!Repaired || !P.getType()->isIntegerTy() ||
        !SE.isSCEVable(P.getType()) || P.getNumIncomingValues() != 2 ||
        P.getBasicBlockIndex(Pre) < 0 || P.getBasicBlockIndex(Latch) < 0)
      continue;
    const SCEV *Next = commonScev(P.getIncomingValueForBlock(Latch), Scev);
    const SCEV *Start = Scev(P.getIncomingValueForBlock(Pre));
    if (!Next || !SE.isLoopInvariant(Start, Outer) ||
        Next->getType() != P.getType())
      continue;
    auto Step = polynomialConstant(SE.getMinusSCEV(Next, Scev(&P)));
    if (!Step || !*Step)
      continue;
    (*Repaired)[&P] = SE.getAddRecExpr(
        Start, SE.getConstant(P.getType(), *Step, true), L, SCEV::FlagAnyWrap);
    return &P;
  }
  return nullptr;
}

/// countedLoopIV, with SCEVs from \p Scev and repairs recorded in
/// \p Repaired (when not null).
PHINode *countedLoopIVImpl(Loop *L, Loop *Outer, ScalarEvolution &SE,
                           ScevOf Scev,
                           DenseMap<const Value *, const SCEV *> *Repaired,
                           std::string &Why) {
  if (!hasCanonicalShape(L, Why))
    return nullptr;
  BasicBlock *Latch = L->getLoopLatch();
  PHINode *IV = countedIV(L, Outer, SE, Scev, Repaired);
  if (!IV) {
    Why = "loop has no affine induction variable";
    return nullptr;
  }
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (!isa<SCEVCouldNotCompute>(BTC)) {
    if (SE.isLoopInvariant(BTC, Outer))
      return IV;
    Why = "trip count varies with an enclosing loop of the nest (not "
          "rectangular)";
    return nullptr;
  }
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition())
                                        : nullptr;
  for (unsigned K = 0; Cmp && K < 2; ++K) {
    Value *Bound = Cmp->getOperand(K), *Count = Cmp->getOperand(1 - K);
    if (SE.isSCEVable(Bound->getType()) &&
        SE.isLoopInvariant(Scev(Bound), Outer) &&
        isRecurrenceOf(Count, L, SE, Scev))
      return IV;
  }
  Why = "trip count is not computable";
  return nullptr;
}

} // namespace

PHINode *countedLoopIV(Loop *L, Loop *Outer, ScalarEvolution &SE,
                       std::string &Why,
                       DenseMap<const Value *, const SCEV *> *Repaired) {
  auto Scev = [&](Value *V) {
    const SCEV *S = SE.getSCEV(V);
    if (!Repaired || Repaired->empty())
      return S;
    ValueToSCEVMapTy Map(Repaired->begin(), Repaired->end());
    return SCEVParameterRewriter::rewrite(S, SE, Map);
  };
  return countedLoopIVImpl(L, Outer, SE, Scev, Repaired, Why);
}

bool isForwardSeed(const Instruction *I, const Loop *Nest) {
  auto *Ld = dyn_cast<LoadInst>(I);
  if (!Ld || !Ld->isSimple() || Ld->use_empty())
    return false;
  for (const Use &U : Ld->uses()) {
    auto *P = dyn_cast<PHINode>(U.getUser());
    if (!P || !Nest->contains(P))
      return false;
    BasicBlock *BB = P->getParent();
    const Loop *L = Nest;
    while (L && L->getHeader() != BB) {
      const Loop *Next = nullptr;
      for (const Loop *Sub : L->getSubLoops())
        if (Sub->contains(BB))
          Next = Sub;
      L = Next;
    }
    if (!L || P->getIncomingBlock(U) != L->getLoopPreheader())
      return false;
  }
  return true;
}

bool isMemoryWork(const Instruction &I) {
  if (isa<DbgInfoIntrinsic>(I))
    return false;
  return I.mayReadOrWriteMemory() || isa<CallBase>(I);
}

std::optional<StencilNest> analyzeStencilNest(Loop *Outer, ScalarEvolution &SE,
                                              std::string &Why) {
  StencilNest N;
  for (Loop *L = Outer;; L = L->getSubLoops().front()) {
    N.Loops.push_back(L);
    if (L->getSubLoops().empty())
      break;
    if (L->getSubLoops().size() != 1) {
      Why =
          "a loop of the nest has several loops inside it (not a perfect nest)";
      return std::nullopt;
    }
    if (N.Loops.size() == 3) {
      Why = "loop nest is deeper than three";
      return std::nullopt;
    }
  }
  for (Loop *L : N.Loops) {
    PHINode *IV = countedLoopIV(L, Outer, SE, Why, &N.Repaired);
    if (!IV)
      return std::nullopt;
    auto *AR = cast<SCEVAddRecExpr>(N.scev(IV, SE));
    N.IVs.push_back(IV);
    N.IVStarts.push_back(AR->getStart());
    std::optional<int64_t> Step = scevInt64(AR->getStepRecurrence(SE));
    if (!Step) {
      Why = "induction variable step does not fit in 64 bits";
      return std::nullopt;
    }
    N.IVSteps.push_back(*Step);
  }
  Loop *Inner = N.Loops.back();
  for (BasicBlock *BB : Outer->blocks()) {
    if (Inner->contains(BB))
      continue;
    for (Instruction &I : *BB)
      if (isMemoryWork(I) &&
          !(isa<LoadInst>(I) && cast<LoadInst>(I).isSimple())) {
        Why = "the nest has work outside its innermost loop: " +
              valueText(&I);
        return std::nullopt;
      }
  }
  return N;
}

bool isNestInduction(const PHINode *Phi, const StencilNest &N,
                     ScalarEvolution &SE) {
  if (!Phi->getType()->isIntegerTy() || !SE.isSCEVable(Phi->getType()))
    return false;
  for (Loop *L : N.Loops) {
    if (Phi->getParent() != L->getHeader())
      continue;
    auto *AR = dyn_cast<SCEVAddRecExpr>(N.scev(const_cast<PHINode *>(Phi), SE));
    return AR && AR->getLoop() == L && AR->isAffine() &&
           isa<SCEVConstant>(AR->getStepRecurrence(SE));
  }
  return false;
}

//===-- Accesses ----------------------------------------------------------===//

std::optional<StencilAccess> analyzeStencilAccess(Instruction *I,
                                                  const StencilNest &N,
                                                  ScalarEvolution &SE,
                                                  std::string &Why) {
  StencilAccess A;
  A.Inst = I;
  Value *Ptr = nullptr;
  if (auto *Ld = dyn_cast<LoadInst>(I)) {
    if (!Ld->isSimple()) {
      Why = "volatile or atomic load";
      return std::nullopt;
    }
    Ptr = Ld->getPointerOperand();
  } else if (auto *St = dyn_cast<StoreInst>(I)) {
    if (!St->isSimple()) {
      Why = "volatile or atomic store";
      return std::nullopt;
    }
    Ptr = St->getPointerOperand();
    A.IsStore = true;
  } else {
    Why = "not a load or store";
    return std::nullopt;
  }
  Loop *Outer = N.Loops.front();
  const SCEV *S = N.scev(Ptr, SE);
  auto *BaseU = dyn_cast<SCEVUnknown>(SE.getPointerBase(S));
  if (!BaseU) {
    Why = "address has no single base pointer: " + valueText(I);
    return std::nullopt;
  }
  if (auto *BI = dyn_cast<Instruction>(BaseU->getValue());
      BI && Outer->contains(BI)) {
    Why = "base pointer is computed inside the loop: " + valueText(I);
    return std::nullopt;
  }
  A.Base = BaseU->getValue();
  const SCEV *Off = SE.removePointerBase(S);
  A.Strides.assign(N.depth(), nullptr);
  for (int D = N.depth() - 1; D >= 0; --D) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(Off);
    if (AR && AR->getLoop() == N.Loops[D]) {
      if (!AR->isAffine())
        break;
      A.Strides[D] = AR->getStepRecurrence(SE);
      Off = AR->getStart();
    } else {
      A.Strides[D] = SE.getZero(Off->getType());
    }
  }
  bool Affine = SE.isLoopInvariant(Off, Outer);
  for (const SCEV *St : A.Strides)
    Affine &= St && SE.isLoopInvariant(St, Outer);
  if (!Affine) {
    Why = "address is not affine in the nest's induction variables: " +
          valueText(I);
    return std::nullopt;
  }
  A.Offset = Off;
  return A;
}

/// The index of the loop of \p N whose header holds \p BB, or -1.
static int headerLevel(const BasicBlock *BB, const StencilNest &N) {
  for (size_t D = 0; D < N.Loops.size(); ++D)
    if (N.Loops[D]->getHeader() == BB)
      return D;
  return -1;
}

/// analyzeForwardedRead, with a bound on the chain of phis.
static std::optional<StencilAccess>
forwardedRead(PHINode *Phi, const StencilNest &N, ScalarEvolution &SE,
              std::string &Why, unsigned Depth) {
  int M = headerLevel(Phi->getParent(), N);
  Loop *L = M < 0 ? nullptr : N.Loops[M];
  BasicBlock *Pre = L ? L->getLoopPreheader() : nullptr;
  BasicBlock *Latch = L ? L->getLoopLatch() : nullptr;
  if (!Pre || !Latch || Phi->getNumIncomingValues() != 2 ||
      Phi->getBasicBlockIndex(Pre) < 0 || Phi->getBasicBlockIndex(Latch) < 0) {
    Why = "not a header phi of the nest: " + valueText(Phi);
    return std::nullopt;
  }
  if (Depth > 8) {
    Why = "chain of forwarded reads is too long: " + valueText(Phi);
    return std::nullopt;
  }
  // The element read one iteration of L before: a load of L's body (not of
  // a loop inside it), or a forwarded read of the same header.
  Value *Next = Phi->getIncomingValueForBlock(Latch);
  std::optional<StencilAccess> NA;
  if (auto *Ld = dyn_cast<LoadInst>(Next); Ld && L->contains(Ld)) {
    NA = analyzeStencilAccess(Ld, N, SE, Why);
  } else if (auto *P = dyn_cast<PHINode>(Next);
             P && P != Phi && P->getParent() == Phi->getParent()) {
    NA = forwardedRead(P, N, SE, Why, Depth + 1);
  } else {
    bool Stored = llvm::any_of(Next->users(), [&](const User *U) {
      auto *St = dyn_cast<StoreInst>(U);
      return St && St->getValueOperand() == Next && L->contains(St);
    });
    Why = Stored ? "phi carries the value stored in the previous iteration: "
                   "the nest reads an element it wrote (a loop-carried "
                   "dependence, as in a Gauss-Seidel update): "
                 : "phi carries a value computed in the previous iteration "
                   "(a loop-carried dependence): ";
    Why += valueText(Phi);
    return std::nullopt;
  }
  if (!NA)
    return std::nullopt;
  // The seed: a load before L, or a forwarded read of an enclosing loop.
  Value *Seed = Phi->getIncomingValueForBlock(Pre);
  std::optional<StencilAccess> SA;
  std::string SeedWhy;
  if (auto *Ld = dyn_cast<LoadInst>(Seed); Ld && !L->contains(Ld))
    SA = analyzeStencilAccess(Ld, N, SE, SeedWhy);
  else if (auto *P = dyn_cast<PHINode>(Seed);
           P && headerLevel(P->getParent(), N) >= 0 &&
           headerLevel(P->getParent(), N) < M)
    SA = forwardedRead(P, N, SE, SeedWhy, Depth + 1);
  bool Ok = SA && SA->Base == NA->Base &&
            SA->Offset->getType() == NA->Offset->getType();
  for (size_t D = 0; Ok && D < N.depth(); ++D) {
    if (D > (size_t)M) {
      Ok = NA->Strides[D]->isZero() && SA->Strides[D]->isZero();
      continue;
    }
    const SCEV *Want =
        D == (size_t)M ? SE.getZero(NA->Strides[D]->getType()) : NA->Strides[D];
    auto C = polynomialConstant(SE.getMinusSCEV(SA->Strides[D], Want));
    Ok = C && *C == 0;
  }
  const SCEV *Before = SE.getMinusSCEV(NA->Offset, NA->Strides[M]);
  if (Ok) {
    auto C = polynomialConstant(SE.getMinusSCEV(SA->Offset, Before));
    Ok = C && *C == 0;
  }
  if (!Ok) {
    Why = "phi forwards a read but its seed is not the element before the "
          "first one it forwards: " +
          valueText(Phi);
    return std::nullopt;
  }
  NA->Inst = Phi;
  NA->Offset = Before;
  return NA;
}

std::optional<StencilAccess> analyzeForwardedRead(PHINode *Phi,
                                                  const StencilNest &N,
                                                  ScalarEvolution &SE,
                                                  std::string &Why) {
  return forwardedRead(Phi, N, SE, Why, 0);
}

std::optional<AffineAccess> analyzeForwardedAccess(PHINode *Phi,
                                                   const NestInfo &N,
                                                   ScalarEvolution &SE,
                                                   std::string &Why) {
  auto SN = analyzeStencilNest(N.Loops.front(), SE, Why);
  if (!SN || !analyzeForwardedRead(Phi, *SN, SE, Why))
    return std::nullopt;
  int Level = headerLevel(Phi->getParent(), *SN);
  if (Level < 0 || (size_t)Level >= N.depth() ||
      SN->Loops[Level] != N.Loops[Level]) {
    Why = "forwarded read of a loop outside the nest: " + valueText(Phi);
    return std::nullopt;
  }
  // analyzeForwardedRead proved the chain: phis of this header ending in a
  // load of the loop's body, each phi one iteration behind its latch value.
  BasicBlock *Latch = N.Loops[Level]->getLoopLatch();
  Value *V = Phi;
  int64_t Back = 0;
  while (auto *P = dyn_cast<PHINode>(V)) {
    if (P->getParent() != Phi->getParent() || Back > 8) {
      Why = "forwarded read is not a chain ending in a load: " + valueText(Phi);
      return std::nullopt;
    }
    V = P->getIncomingValueForBlock(Latch);
    ++Back;
  }
  auto *Ld = dyn_cast<LoadInst>(V);
  if (!Ld) {
    Why = "forwarded read is not a chain ending in a load: " + valueText(Phi);
    return std::nullopt;
  }
  auto A = analyzeAccess(Ld, N, SE, Why);
  if (!A)
    return std::nullopt;
  const SCEV *Stride = A->Strides[Level];
  A->Offset = SE.getMinusSCEV(
      A->Offset,
      SE.getMulExpr(SE.getConstant(Stride->getType(), Back, true), Stride));
  A->Inst = Phi;
  return A;
}

/// True when \p I only carries a read to forwarded reads: its users are all
/// header phis of the nest's loops.
static bool isCarrier(const Instruction *I, const StencilNest &N) {
  if (I->use_empty())
    return false;
  return llvm::all_of(I->users(), [&](const User *U) {
    auto *P = dyn_cast<PHINode>(U);
    return P && headerLevel(P->getParent(), N) >= 0;
  });
}

bool collectStencilAccesses(const StencilNest &N, ScalarEvolution &SE,
                            SmallVectorImpl<StencilAccess> &Reads,
                            SmallVectorImpl<StencilAccess> &Writes,
                            std::string &Why,
                            SmallVectorImpl<StencilAccess> *Irregular) {
  for (Loop *L : N.Loops)
    for (PHINode &P : L->getHeader()->phis()) {
      if (isNestInduction(&P, N, SE))
        continue;
      auto A = analyzeForwardedRead(&P, N, SE, Why);
      if (!A)
        return false;
      if (!isCarrier(&P, N))
        Reads.push_back(*A);
    }
  for (BasicBlock *BB : N.Loops.front()->blocks())
    for (Instruction &I : *BB) {
      if (!isa<LoadInst>(I) && !isa<StoreInst>(I)) {
        if (I.mayReadOrWriteMemory() && !isa<CallBase>(I)) {
          Why = "unsupported memory operation: " + valueText(&I);
          return false;
        }
        continue;
      }
      if (isa<LoadInst>(I) && isCarrier(&I, N))
        continue;
      auto A = analyzeStencilAccess(&I, N, SE, Why);
      if (!A && Irregular) {
        StencilAccess X;
        X.Inst = &I;
        X.IsStore = isa<StoreInst>(I);
        const SCEV *P = N.scev(getLoadStorePointerOperand(&I), SE);
        if (auto *U = dyn_cast<SCEVUnknown>(SE.getPointerBase(P)))
          X.Base = U->getValue();
        Irregular->push_back(X);
        Why.clear();
        continue;
      }
      if (!A)
        return false;
      (A->IsStore ? Writes : Reads).push_back(*A);
    }
  return true;
}

std::optional<SmallVector<int64_t, 3>>
stencilReadOffset(const StencilAccess &R, ArrayRef<StencilAccess> Reads,
                  ArrayRef<StencilAccess> Writes, ScalarEvolution &SE,
                  std::string &Why) {
  std::string Array = operandText(R.Base);
  const StencilAccess *Ref = nullptr;
  for (const StencilAccess &W : Writes)
    if (sameStrides(W, R, SE)) {
      Ref = &W;
      break;
    }
  bool FromWrite = Ref != nullptr;
  for (const StencilAccess &Q : Reads) {
    if (Q.Base != R.Base)
      continue;
    if (!Ref)
      Ref = &Q;
    if (!sameStrides(Q, R, SE)) {
      Why = Array + " is read with different strides by " +
            valueText(Q.Inst) + " and " + valueText(R.Inst);
      return std::nullopt;
    }
  }
  if (!Ref)
    Ref = &R;
  std::string W;
  auto C = pointOffset(*Ref, R, SE, W);
  if (!C) {
    Why = "read of " + Array + " is not at a constant offset from " +
          (FromWrite ? "the written point" : "its first read") + ": " + W;
    return std::nullopt;
  }
  return C;
}

bool isNeighbourRead(const StencilAccess &R, ArrayRef<StencilAccess> Reads,
                     ScalarEvolution &SE) {
  for (const StencilAccess &Q : Reads) {
    if (Q.Inst == R.Inst || Q.Base != R.Base)
      continue;
    std::string W;
    if (auto C = pointOffset(R, Q, SE, W))
      if (llvm::any_of(*C, [](int64_t X) { return X != 0; }))
        return true;
  }
  return false;
}

bool isJacobiWrite(const StencilAccess &W, ArrayRef<StencilAccess> Reads,
                   ArrayRef<StencilAccess> Writes, const StencilNest &N,
                   ScalarEvolution &SE, std::string &Why,
                   ArrayRef<StencilAccess> Irregular) {
  std::string Array = operandText(W.Base);
  for (size_t D = 0; D < W.Strides.size(); ++D) {
    auto C = polynomialConstant(W.Strides[D]);
    if (C && *C == 0) {
      Why = "the written point of " + Array + " does not move with loop " +
            operandText(N.Loops[D]->getHeader()) +
            ": its iterations overwrite the same elements";
      return false;
    }
  }
  auto Check = [&](const StencilAccess &A) {
    if (A.Inst == W.Inst || A.Base != W.Base)
      return true;
    std::string Ignored;
    auto C = pointOffset(W, A, SE, Ignored);
    if (C && llvm::all_of(*C, [](int64_t X) { return X == 0; }))
      return true;
    if (A.IsStore)
      Why = "output dependence: " + Array + " is written at two points";
    else if (C)
      Why = "loop-carried dependence: " + Array +
            " is written at the nest's point and read at offset " +
            offsetText(*C) + " from it (an in-place, Gauss-Seidel update)";
    else
      Why = "possible loop-carried dependence: " + Array +
            " is written at the nest's point and read elsewhere: " +
            valueText(A.Inst);
    return false;
  };
  for (const StencilAccess &A : Irregular)
    if (!A.Base || A.Base == W.Base) {
      Why = "possible loop-carried dependence: " + Array +
            " is written at the nest's point and also accessed at a point "
            "that is not affine: " +
            valueText(A.Inst);
      return false;
    }
  return llvm::all_of(Reads, Check) && llvm::all_of(Writes, Check);
}

bool isStencilSlice(Value *Root, const StencilNest &N, ScalarEvolution &SE,
                    std::string &Why) {
  SmallVector<Value *, 16> Work{Root};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !N.contains(I) || isa<LoadInst>(I))
      continue;
    if (auto *P = dyn_cast<PHINode>(I)) {
      std::string W;
      if (isNestInduction(P, N, SE) || analyzeForwardedRead(P, N, SE, W))
        continue;
      Why = "value depends on a phi that is neither an induction variable nor "
            "a forwarded read: " +
            valueText(P);
      return false;
    }
    if (!isPureScalarOp(I)) {
      Why = "value computed by an instruction with side effects or "
            "unsupported operation: " +
            valueText(I);
      return false;
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  return true;
}

//===-- Whole stencils ----------------------------------------------------===//

std::optional<StencilInfo> analyzeStencil(Loop *Outer, ScalarEvolution &SE,
                                          std::string &Why) {
  auto N = analyzeStencilNest(Outer, SE, Why);
  if (!N)
    return std::nullopt;
  StencilInfo S;
  S.Nest = *N;
  for (Loop *L : N->Loops)
    for (PHINode &P : L->getHeader()->phis())
      if (!isNestInduction(&P, *N, SE) &&
          !analyzeForwardedRead(&P, *N, SE, Why))
        return std::nullopt;
  for (BasicBlock *BB : Outer->blocks())
    for (Instruction &I : *BB)
      if (isa<CallBase>(I) && !isa<DbgInfoIntrinsic>(I) && !isPureCall(&I)) {
        Why = "call may have side effects: " + valueText(&I);
        return std::nullopt;
      }
  if (!collectStencilAccesses(*N, SE, S.Reads, S.Writes, Why))
    return std::nullopt;
  if (S.Writes.empty()) {
    Why = "loop stores nothing";
    return std::nullopt;
  }
  for (const StencilAccess &W : S.Writes)
    if (!isJacobiWrite(W, S.Reads, S.Writes, *N, SE, Why) ||
        !isStencilSlice(cast<StoreInst>(W.Inst)->getValueOperand(), *N, SE,
                        Why))
      return std::nullopt;
  for (const StencilAccess &R : S.Reads) {
    if (!stencilReadOffset(R, S.Reads, S.Writes, SE, Why))
      return std::nullopt;
    if (isNeighbourRead(R, S.Reads, SE) &&
        !is_contained(S.NeighbourBases, R.Base))
      S.NeighbourBases.push_back(R.Base);
  }
  if (S.NeighbourBases.empty()) {
    Why = "no array is read at more than one point (a map, not a stencil)";
    return std::nullopt;
  }
  for (BasicBlock *BB : Outer->blocks())
    for (Instruction &I : *BB)
      for (User *U : I.users())
        if (!Outer->contains(cast<Instruction>(U))) {
          Why = "a value computed in the loop is used after it";
          return std::nullopt;
        }
  return S;
}

} // namespace idiom
