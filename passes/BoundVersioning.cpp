//===- BoundVersioning.cpp - Loop bounds read from memory, hoisted --------===//
//
// Part of Idiom. See BoundVersioning.h.
//
//===----------------------------------------------------------------------===//
#include "BoundVersioning.h"
#include "PipelinePlacement.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/SimplifyIndVar.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace idiom {

bool valueRange(const SCEV *S, Loop &L, ScalarEvolution &SE, const SCEV *&Lo,
                const SCEV *&Hi, SmallVectorImpl<Fits> &Need) {
  bool Ptr = S->getType()->isPointerTy();
  auto Min = [&](const SCEV *A, const SCEV *B) {
    return Ptr ? SE.getUMinExpr(A, B) : SE.getSMinExpr(A, B);
  };
  auto Max = [&](const SCEV *A, const SCEV *B) {
    return Ptr ? SE.getUMaxExpr(A, B) : SE.getSMaxExpr(A, B);
  };
  if (SE.isLoopInvariant(S, &L)) {
    Lo = Hi = S;
    return true;
  }
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    Lo = Hi = nullptr;
    for (const SCEV *Op : Add->operands()) {
      const SCEV *OLo, *OHi;
      if (!valueRange(Op, L, SE, OLo, OHi, Need))
        return false;
      Lo = Lo ? SE.getAddExpr(Lo, OLo) : OLo;
      Hi = Hi ? SE.getAddExpr(Hi, OHi) : OHi;
    }
    return true;
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    auto *C = dyn_cast<SCEVConstant>(Mul->getOperand(0));
    if (!C || Mul->getNumOperands() != 2)
      return false;
    const SCEV *XLo, *XHi;
    if (!valueRange(Mul->getOperand(1), L, SE, XLo, XHi, Need))
      return false;
    bool Neg = C->getAPInt().isNegative();
    Lo = SE.getMulExpr(C, Neg ? XHi : XLo);
    Hi = SE.getMulExpr(C, Neg ? XLo : XHi);
    return true;
  }
  if (auto *Ext = dyn_cast<SCEVIntegralCastExpr>(S)) {
    bool Signed = isa<SCEVSignExtendExpr>(Ext);
    if (!Signed && !isa<SCEVZeroExtendExpr>(Ext))
      return false;
    Type *Wide = Ext->getType();
    Type *Narrow = Ext->getOperand()->getType();
    // The narrow value's recurrence, evaluated in the wide type.
    const SCEV *Op = Ext->getOperand();
    const SCEV *WideOp = nullptr;
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(Op)) {
      if (!AR->isAffine())
        return false;
      auto Extend = [&](const SCEV *X) {
        return Signed ? SE.getSignExtendExpr(X, Wide)
                      : SE.getZeroExtendExpr(X, Wide);
      };
      WideOp = SE.getAddRecExpr(Extend(AR->getStart()),
                                Extend(AR->getStepRecurrence(SE)),
                                AR->getLoop(), SCEV::FlagAnyWrap);
    } else {
      return false;
    }
    if (!valueRange(WideOp, L, SE, Lo, Hi, Need))
      return false;
    unsigned Bits = Narrow->getIntegerBitWidth();
    APInt NLo = Signed ? APInt::getSignedMinValue(Bits) : APInt(Bits, 0);
    APInt NHi = Signed ? APInt::getSignedMaxValue(Bits)
                       : APInt::getMaxValue(Bits);
    unsigned WBits = Wide->getIntegerBitWidth();
    Need.push_back(
        {SE.getConstant(Signed ? NLo.sext(WBits) : NLo.zext(WBits)), Lo});
    Need.push_back(
        {Hi, SE.getConstant(Signed ? NHi.sext(WBits) : NHi.zext(WBits))});
    return true;
  }
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!AR || !AR->isAffine() || !L.contains(AR->getLoop()))
    return false;
  const SCEV *Step = AR->getStepRecurrence(SE);
  const SCEV *BTC = SE.getBackedgeTakenCount(AR->getLoop());
  if (!SE.isLoopInvariant(Step, &L) || isa<SCEVCouldNotCompute>(BTC) ||
      !SE.isLoopInvariant(BTC, &L) || !Step->getType()->isIntegerTy())
    return false;
  const SCEV *SLo, *SHi;
  if (!valueRange(AR->getStart(), L, SE, SLo, SHi, Need))
    return false;
  const SCEV *Off =
      SE.getMulExpr(SE.getTruncateOrZeroExtend(BTC, Step->getType()), Step);
  Lo = Min(SLo, SE.getAddExpr(SLo, Off));
  Hi = Max(SHi, SE.getAddExpr(SHi, Off));
  return true;
}


bool rangeChecksExpandable(
    ArrayRef<Fits> Need, ArrayRef<std::pair<AccessRange, AccessRange>> Disjoint,
    Instruction *At, ScalarEvolution &SE) {
  SCEVExpander Exp(SE, At->getModule()->getDataLayout(), "idiom.check");
  auto Safe = [&](const SCEV *S) { return Exp.isSafeToExpandAt(S, At); };
  bool Ok = all_of(Need, [&](const Fits &F) { return Safe(F.Lo) && Safe(F.Hi); });
  for (auto &[X, Y] : Disjoint)
    Ok &= Safe(X.Lo) && Safe(X.Hi) && Safe(Y.Lo) && Safe(Y.Hi);
  return Ok;
}

Value *emitRangeChecks(BasicBlock *Check, ArrayRef<Fits> Need,
                       ArrayRef<std::pair<AccessRange, AccessRange>> Disjoint,
                       ScalarEvolution &SE, StringRef Prefix) {
  Instruction *At = Check->getTerminator();
  std::string Name = Prefix.str();
  SCEVExpander Exp(SE, Check->getModule()->getDataLayout(), Name.c_str());
  IRBuilder<> B(At);
  Value *Ok = B.getTrue();
  auto Expand = [&](const SCEV *S, Type *Ty) {
    Value *V = Exp.expandCodeFor(S, Ty, At);
    B.SetInsertPoint(At);
    return V;
  };
  for (const Fits &F : Need) {
    Type *Ty = F.Lo->getType();
    Ok = B.CreateAnd(Ok, B.CreateICmpSLE(Expand(F.Lo, Ty), Expand(F.Hi, Ty)),
                     Prefix + ".fits");
  }
  Type *PtrTy = PointerType::getUnqual(Check->getContext());
  for (auto &[X, Y] : Disjoint) {
    Value *XLo = Expand(X.Lo, PtrTy), *XHi = Expand(X.Hi, PtrTy);
    Value *YLo = Expand(Y.Lo, PtrTy), *YHi = Expand(Y.Hi, PtrTy);
    Value *XEnd = B.CreateGEP(B.getInt8Ty(), XHi, B.getInt64(X.Size));
    Value *YEnd = B.CreateGEP(B.getInt8Ty(), YHi, B.getInt64(Y.Size));
    Ok = B.CreateAnd(Ok, B.CreateOr(B.CreateICmpULE(XEnd, YLo),
                                    B.CreateICmpULE(YEnd, XLo)),
                     Prefix + ".disjoint");
  }
  return Ok;
}

Loop *copyNestBehindCheck(Loop &L, LoopInfo &LI, DominatorTree &DT,
                          StringRef Suffix, BasicBlock *&PH) {
  BasicBlock *Check = L.getLoopPreheader();
  BasicBlock *Exit = L.getExitBlock();
  PH = SplitBlock(Check, Check->getTerminator(), &DT, &LI, nullptr,
                  L.getHeader()->getName() + Suffix + ".ph");
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> Blocks;
  Loop *Orig = cloneLoopWithPreheader(PH, Check, &L, VMap, Suffix + ".orig",
                                      &LI, &DT, Blocks);
  remapInstructionsInBlocks(Blocks, VMap);
  for (PHINode &Phi : Exit->phis()) {
    unsigned N = Phi.getNumIncomingValues();
    for (unsigned K = 0; K < N; ++K) {
      BasicBlock *From = Phi.getIncomingBlock(K);
      if (!L.contains(From))
        continue;
      Value *V = Phi.getIncomingValue(K);
      auto It = VMap.find(V);
      Phi.addIncoming(It != VMap.end() ? static_cast<Value *>(It->second) : V,
                      cast<BasicBlock>(VMap[From]));
    }
  }
  DT.changeImmediateDominator(Exit, Check);
  // Each version its own exit block (in LCSSA form): stitching places the
  // code after a fallback loop in its exit block.
  std::string ExitName = (Suffix + ".exit").str();
  SplitBlockPredecessors(Exit, {L.getLoopLatch()}, ExitName.c_str(), &DT, &LI,
                         nullptr, /*PreserveLCSSA=*/true);
  return Orig;
}

namespace {

/// Loop metadata of a copy kept after a failed versioning: never versioned
/// again, still offered to the idioms (which then name the reason).
constexpr const char *TriedMD = "idiom.bound.tried";

/// Loops of L's nest: L and its subloops, or none when the nest is deeper
/// than two.
SmallVector<Loop *, 4> nestLoops(Loop &L) {
  SmallVector<Loop *, 4> Out{&L};
  for (Loop *S : L.getSubLoops()) {
    if (!S->getSubLoops().empty())
      return {};
    Out.push_back(S);
  }
  return Out;
}

/// One value read from memory at a nest-invariant address: the loads of it
/// in the nest, and the phis that carry it from iteration to iteration
/// (GVN's partial redundancy elimination turns a bound reloaded in every
/// iteration into a phi of the value read before the loop and the value
/// read in the latch). With no store of the nest writing it, all of them
/// are the value read once before the nest, provided the values that enter
/// the phis from outside (Entries) equal it too: checked at run time.
struct Bound {
  Value *Ptr = nullptr;
  LoadInst *Proto = nullptr; ///< a load of it (type, alignment)
  SmallVector<LoadInst *, 2> Loads;
  SmallVector<PHINode *, 2> Phis;
  SmallVector<Value *, 2> Entries;
};

/// Adds P and the phis it reaches to a bound (of address B.Ptr, set by the
/// first load); false when an incoming value is anything but such a phi, a
/// load of that address in L, or a value from outside L.
bool addPhi(PHINode *P, Loop &L, Bound &B, SmallPtrSetImpl<PHINode *> &Seen) {
  if (!Seen.insert(P).second)
    return true;
  B.Phis.push_back(P);
  for (Value *V : P->incoming_values()) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I)) {
      if (!is_contained(B.Entries, V))
        B.Entries.push_back(V);
    } else if (auto *Q = dyn_cast<PHINode>(I)) {
      if (!addPhi(Q, L, B, Seen))
        return false;
    } else if (auto *Ld = dyn_cast<LoadInst>(I)) {
      if (!Ld->isSimple() || (B.Ptr && Ld->getPointerOperand() != B.Ptr) ||
          (B.Proto && Ld->getType() != B.Proto->getType()))
        return false;
      B.Ptr = Ld->getPointerOperand();
      B.Proto = Ld;
      if (!is_contained(B.Loads, Ld))
        B.Loads.push_back(Ld);
    } else {
      return false;
    }
  }
  return true;
}

/// The values of L's nest read from nest-invariant addresses that an exit
/// condition with no computable trip count, or the address of a memory
/// access, depends on through instructions of the nest that do not touch
/// memory. False when such an exit condition depends on anything else in
/// memory. A bound is taken only when it can be read before the nest: a
/// load of it runs in every iteration that reaches L's latch, or comes from
/// before the loop, or its address is known to be dereferenceable.
bool findBounds(Loop &L, ArrayRef<Loop *> Nest, ScalarEvolution &SE,
                DominatorTree &DT, SmallVectorImpl<Bound> &Out) {
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  Instruction *At = L.getLoopPreheader()->getTerminator();
  SmallPtrSet<Value *, 16> Seen;
  auto Readable = [&](const Bound &B) {
    for (LoadInst *Ld : B.Loads)
      if (DT.dominates(Ld->getParent(), L.getLoopLatch()))
        return true;
    for (Value *V : B.Entries)
      if (auto *Ld = dyn_cast<LoadInst>(V))
        if (Ld->getPointerOperand() == B.Ptr)
          return true;
    return isDereferenceableAndAlignedPointer(B.Ptr, B.Proto->getType(),
                                              B.Proto->getAlign(), DL, At,
                                              nullptr, &DT);
  };
  // Adds the bound of a load or phi I; false when I is not one.
  auto Take = [&](Instruction *I) {
    Bound B;
    if (auto *Ld = dyn_cast<LoadInst>(I)) {
      if (!Ld->isSimple())
        return false;
      B.Ptr = Ld->getPointerOperand();
      B.Proto = Ld;
      B.Loads.push_back(Ld);
    } else {
      SmallPtrSet<PHINode *, 4> Phis;
      if (!addPhi(cast<PHINode>(I), L, B, Phis) || !B.Ptr)
        return false;
    }
    if (!B.Proto->getType()->isIntOrPtrTy() || !L.isLoopInvariant(B.Ptr))
      return false;
    for (Bound &Old : Out) // one bound per address
      if (Old.Ptr == B.Ptr && Old.Proto->getType() == B.Proto->getType()) {
        for (LoadInst *Ld : B.Loads)
          if (!is_contained(Old.Loads, Ld))
            Old.Loads.push_back(Ld);
        for (PHINode *P : B.Phis)
          if (!is_contained(Old.Phis, P))
            Old.Phis.push_back(P);
        for (Value *V : B.Entries)
          if (!is_contained(Old.Entries, V))
            Old.Entries.push_back(V);
        return true;
      }
    Out.push_back(std::move(B));
    return true;
  };
  // Walks back from Root; Strict: every load on the way must be a bound.
  auto Walk = [&](Value *Root, bool Strict) {
    SmallVector<Value *, 8> Work{Root};
    while (!Work.empty()) {
      auto *I = dyn_cast<Instruction>(Work.pop_back_val());
      if (!I || !L.contains(I) || !Seen.insert(I).second)
        continue;
      if (isa<LoadInst>(I)) {
        if (!Take(I) && Strict)
          return false;
        continue;
      }
      if (isa<PHINode>(I)) {
        Take(I); // else an induction variable: SCEV's business
        continue;
      }
      if (I->mayReadOrWriteMemory() || Seen.size() > 64) {
        if (Strict)
          return false;
        continue;
      }
      for (Value *Op : I->operands())
        Work.push_back(Op);
    }
    return true;
  };
  bool Missing = false;
  for (Loop *K : Nest) {
    if (!isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(K)))
      continue;
    Missing = true;
    BasicBlock *Exiting = K->getExitingBlock();
    auto *BI = Exiting ? dyn_cast<BranchInst>(Exiting->getTerminator())
                       : nullptr;
    if (!BI || !BI->isConditional() || !Walk(BI->getCondition(), true))
      return false;
  }
  size_t ForTrips = Out.size();
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (Value *P = getLoadStorePointerOperand(&I))
        Walk(P, false);
  for (const Bound &B : Out) // (groups of one address are merged by now)
    if (!Readable(B))
      return false;
  // Worth a copy when a trip count or an address needs what is read.
  return (Missing && ForTrips) || Out.size() > ForTrips;
}

/// The stores of L's nest; false when the nest has another instruction
/// that may write memory (a call, an atomic) or a store that is not simple.
bool collectStores(Loop &L, SmallVectorImpl<StoreInst *> &Out) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *St = dyn_cast<StoreInst>(&I)) {
        if (!St->isSimple())
          return false;
        Out.push_back(St);
      } else if (I.mayWriteToMemory()) {
        return false;
      }
    }
  return true;
}

/// The run-time condition, at the terminator of Check: no store of L's
/// nest writes a byte of a hoisted bound, and the values entering a bound's
/// phis equal the value read once. Null when a range is unknown.
Value *boundCheck(Loop &L, ArrayRef<StoreInst *> Stores, ArrayRef<Bound> Bounds,
                  ArrayRef<LoadInst *> Hoisted, ScalarEvolution &SE,
                  BasicBlock *Check) {
  const DataLayout &DL = Check->getModule()->getDataLayout();
  Instruction *At = Check->getTerminator();
  SCEVExpander Exp(SE, DL, "idiom.bound");
  IRBuilder<> B(At);
  Value *Ok = B.getTrue();
  for (size_t K = 0; K < Bounds.size(); ++K)
    for (Value *V : Bounds[K].Entries)
      Ok = B.CreateAnd(Ok, B.CreateICmpEQ(V, Hoisted[K]), "idiom.bound.same");
  for (StoreInst *St : Stores) {
    const SCEV *Lo, *Hi;
    const SCEV *Addr = SE.getSCEV(St->getPointerOperand());
    SmallVector<Fits, 4> Need;
    if (!valueRange(Addr, L, SE, Lo, Hi, Need) ||
        !Exp.isSafeToExpandAt(Lo, At) || !Exp.isSafeToExpandAt(Hi, At))
      return nullptr;
    for (const Fits &F : Need) { // F.Lo <= F.Hi, signed
      if (!Exp.isSafeToExpandAt(F.Lo, At) || !Exp.isSafeToExpandAt(F.Hi, At))
        return nullptr;
      Type *Ty = F.Lo->getType();
      Value *A = Exp.expandCodeFor(F.Lo, Ty, At);
      Value *Z = Exp.expandCodeFor(F.Hi, Ty, At);
      B.SetInsertPoint(At);
      Ok = B.CreateAnd(Ok, B.CreateICmpSLE(A, Z), "idiom.bound.fits");
    }
    Type *PtrTy = St->getPointerOperandType();
    Value *LoV = Exp.expandCodeFor(Lo, PtrTy, At);
    Value *HiV = Exp.expandCodeFor(Hi, PtrTy, At);
    B.SetInsertPoint(At);
    uint64_t Size =
        DL.getTypeStoreSize(St->getValueOperand()->getType()).getFixedValue();
    Value *HiEnd = B.CreateGEP(B.getInt8Ty(), HiV, B.getInt64(Size));
    for (LoadInst *Ld : Hoisted) {
      Value *P = Ld->getPointerOperand(); // the bound's address
      uint64_t BSize = DL.getTypeStoreSize(Ld->getType()).getFixedValue();
      Value *PEnd = B.CreateGEP(B.getInt8Ty(), P, B.getInt64(BSize));
      Value *Before = B.CreateICmpULE(PEnd, LoV);
      Value *After = B.CreateICmpULE(HiEnd, P);
      Ok = B.CreateAnd(Ok, B.CreateOr(Before, After), "idiom.bound.ok");
    }
  }
  return Ok;
}

/// Widens the narrow integer induction variables of L's nest that are
/// sign- or zero-extended (as IndVarSimplify does; it ran before the bounds
/// were known), so that addresses become recurrences of the wide type.
void widenInductions(Loop &L, LoopInfo &LI, DominatorTree &DT,
                     ScalarEvolution &SE) {
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  SmallVector<Loop *, 4> Nest = nestLoops(L);
  for (Loop *K : Nest) {
    SmallVector<PHINode *, 4> Phis;
    for (PHINode &P : K->getHeader()->phis())
      Phis.push_back(&P);
    for (PHINode *P : Phis) {
      auto *Ty = dyn_cast<IntegerType>(P->getType());
      if (!Ty || Ty->getBitWidth() >= 64 ||
          !isa<SCEVAddRecExpr>(SE.getSCEV(P)))
        continue;
      WideIVInfo WI;
      WI.NarrowIV = P;
      for (User *U : P->users())
        if (isa<SExtInst>(U) || isa<ZExtInst>(U)) {
          WI.WidestNativeType = U->getType();
          WI.IsSigned = isa<SExtInst>(U);
          break;
        }
      // Extended further down the use chain (i * n + j): sign-extend.
      if (!WI.WidestNativeType) {
        WI.WidestNativeType = Type::getInt64Ty(P->getContext());
        WI.IsSigned = true;
      }
      SCEVExpander Rewriter(SE, DL, "idiom.wide");
      SmallVector<WeakTrackingVH, 8> Dead;
      unsigned Elim = 0, Widened = 0;
      createWideIV(WI, &LI, &SE, Rewriter, &DT, Dead, Elim, Widened,
                   /*HasGuards=*/false, /*UsePostIncrementRanges=*/true);
      RecursivelyDeleteTriviallyDeadInstructionsPermissive(Dead);
    }
  }
  for (Loop *K : Nest) // narrow IVs left with only their own increment
    DeleteDeadPHIs(K->getHeader());
}

/// Versions nest L (see the header). Returns the conditional branch that
/// picks the hoisted loop, or null; sets Changed when the IR changed.
BranchInst *versionNest(Loop &L, LoopInfo &LI, DominatorTree &DT,
                        ScalarEvolution &SE, bool &Changed) {
  if (!L.isLoopSimplifyForm() || !L.isLCSSAForm(DT) || !L.getExitBlock() ||
      L.getExitingBlock() != L.getLoopLatch() || isFallbackLoop(L) ||
      findStringMetadataForLoop(&L, TriedMD))
    return nullptr;
  SmallVector<Loop *, 4> Nest = nestLoops(L);
  SmallVector<Bound, 4> Bounds;
  SmallVector<StoreInst *, 8> Stores;
  if (Nest.empty() || !findBounds(L, Nest, SE, DT, Bounds) ||
      !collectStores(L, Stores))
    return nullptr;
  // A store address that depends on another value of the nest read from
  // memory (a scatter through an index) has no range: no copy.
  SmallPtrSet<const Value *, 8> Known;
  for (const Bound &Bd : Bounds) {
    Known.insert(Bd.Loads.begin(), Bd.Loads.end());
    Known.insert(Bd.Phis.begin(), Bd.Phis.end());
  }
  for (StoreInst *St : Stores)
    if (SCEVExprContains(SE.getSCEV(St->getPointerOperand()),
                         [&](const SCEV *X) {
                           auto *U = dyn_cast<SCEVUnknown>(X);
                           auto *I = U ? dyn_cast<Instruction>(U->getValue())
                                       : nullptr;
                           return I && L.contains(I) && !Known.count(I);
                         }))
      return nullptr;

  // Check block (the old preheader), a new preheader, and an unchanged copy
  // of the nest reached when the check fails.
  Changed = true;
  BasicBlock *Check = L.getLoopPreheader();
  BasicBlock *PH = nullptr;
  Loop *Orig = copyNestBehindCheck(L, LI, DT, ".bound", PH);

  // The bounds, read once in the check block; their loads and phis in the
  // nest go.
  SmallVector<LoadInst *, 4> Hoisted;
  for (Bound &Bd : Bounds) {
    auto *H = cast<LoadInst>(Bd.Proto->clone());
    H->insertBefore(Check->getTerminator());
    H->setName(Bd.Proto->getName() + ".bound");
    Hoisted.push_back(H);
    for (PHINode *P : Bd.Phis)
      SE.forgetValue(P);
    for (LoadInst *Ld : Bd.Loads)
      SE.forgetValue(Ld);
    for (PHINode *P : Bd.Phis)
      P->replaceAllUsesWith(H);
    for (LoadInst *Ld : Bd.Loads)
      Ld->replaceAllUsesWith(H);
    for (PHINode *P : Bd.Phis)
      P->eraseFromParent();
    for (LoadInst *Ld : Bd.Loads)
      Ld->eraseFromParent();
  }
  // What the bounds made invariant leaves the nest (as LICM would have),
  // so that guards of inner loops no longer look as if they varied.
  bool Hoist = false;
  SmallVector<Instruction *, 32> Insts;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (!isa<PHINode>(I) && !I.isTerminator())
        Insts.push_back(&I);
  for (Instruction *I : Insts)
    L.makeLoopInvariant(I, Hoist, PH->getTerminator(), nullptr, &SE);
  SE.forgetLoop(&L);
  widenInductions(L, LI, DT, SE);
  Value *Ok = boundCheck(L, Stores, Bounds, Hoisted, SE, Check);
  if (Ok) {
    markFallbackLoop(*Orig);
  } else { // ranges unknown: the copy always runs, the nest is dead code
    markFallbackLoop(L);
    addStringMetadataToLoop(Orig, TriedMD);
  }
  IRBuilder<> B(Check->getTerminator());
  BranchInst *Br = B.CreateCondBr(Ok ? Ok : B.getFalse(), PH,
                                  Orig->getLoopPreheader());
  Check->getTerminator()->eraseFromParent();
  return Ok ? Br : nullptr;
}

void visit(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
           SmallVectorImpl<BoundVersion> &Out, bool &Changed) {
  bool Here = false;
  BranchInst *Br = versionNest(L, LI, DT, SE, Here);
  Changed |= Here;
  if (Br)
    Out.push_back({&L, Br});
  if (Here)
    return;
  SmallVector<Loop *, 4> Subs(L.getSubLoops().begin(), L.getSubLoops().end());
  for (Loop *S : Subs)
    if (!isFallbackLoop(*S))
      visit(*S, LI, DT, SE, Out, Changed);
}

} // namespace

SmallVector<BoundVersion, 4> versionLoopBounds(LoopInfo &LI, DominatorTree &DT,
                                               ScalarEvolution &SE,
                                               bool &Changed) {
  SmallVector<BoundVersion, 4> Out;
  SmallVector<Loop *, 8> Top(LI.begin(), LI.end());
  for (Loop *L : Top)
    if (!isFallbackLoop(*L))
      visit(*L, LI, DT, SE, Out, Changed);
  return Out;
}

void dropBoundVersion(const BoundVersion &V) {
  V.Check->setCondition(ConstantInt::getFalse(V.Check->getContext()));
  markFallbackLoop(*V.Nest);
}

} // namespace idiom
