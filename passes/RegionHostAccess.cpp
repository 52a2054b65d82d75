//===- RegionHostAccess.cpp - Host loads/stores of idiom buffers ---------===//
//
// Routes a residency region's host loads and stores that may touch an
// idiom's buffer through idiom_region_load / idiom_region_store
// (RegionHostAccess.h).
//
//===----------------------------------------------------------------------===//

#include "RegionHostAccess.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace idiom {
namespace {

Value *pointerOf(Instruction &I) {
  if (auto *LD = dyn_cast<LoadInst>(&I))
    return LD->getPointerOperand();
  return cast<StoreInst>(&I)->getPointerOperand();
}

uint64_t accessBytes(const Instruction &I) {
  Type *T = isa<LoadInst>(I)
                ? I.getType()
                : cast<StoreInst>(&I)->getValueOperand()->getType();
  return I.getModule()->getDataLayout().getTypeStoreSize(T).getFixedValue();
}

/// void NAME(ptr p, i64 size, i64 stride, i64 count), nounwind (idiomrt.h).
FunctionCallee accessEntry(Module &M, bool Store) {
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  FunctionCallee C = M.getOrInsertFunction(
      Store ? "idiom_region_store" : "idiom_region_load",
      FunctionType::get(Type::getVoidTy(Ctx),
                        {PointerType::getUnqual(Ctx), I64, I64, I64}, false));
  if (auto *F = dyn_cast<Function>(C.getCallee()))
    F->setDoesNotThrow();
  return C;
}

void emitAccess(IRBuilder<> &B, bool Store, Value *P, uint64_t Size,
                Value *Stride, Value *Count, Instruction &At) {
  CallInst *CI = B.CreateCall(accessEntry(*At.getModule(), Store),
                              {P, B.getInt64(Size), Stride, Count});
  CI->setDebugLoc(At.getDebugLoc());
}

} // namespace

bool planHostAccess(Instruction &I, Loop &Region, LoopInfo &LI,
                    ScalarEvolution *SE,
                    function_ref<bool(const Instruction &)> TouchesDevice,
                    HostAccessRoute &R, std::string &Why) {
  R = HostAccessRoute();
  R.I = &I;
  R.Store = isa<StoreInst>(I);
  R.AL = LI.getLoopFor(I.getParent());
  if (R.AL == &Region)
    return true;
  Loop *AL = R.AL;
  if (!SE) {
    Why = "an inner loop (no scalar evolution to compute its range)";
    return false;
  }
  // One routed range per iteration of the region's loop (a bounded number
  // of runtime calls per iteration): a nest of host loops would route once
  // per iteration of its outer loops, a blocking copy each.
  if (AL->getParentLoop() != &Region) {
    Why = "a nest of host loops (ranges are routed one loop deep)";
    return false;
  }
  if (!AL->getLoopPreheader() || !AL->hasDedicatedExits()) {
    Why = "an inner loop without a preheader or dedicated exits";
    return false;
  }
  SmallVector<BasicBlock *, 4> Exits;
  AL->getUniqueExitBlocks(Exits);
  for (BasicBlock *E : Exits)
    if (!Region.contains(E)) {
      Why = "an inner loop that also leaves the region's loop";
      return false;
    }
  for (BasicBlock *BB : AL->blocks())
    for (Instruction &J : *BB)
      if (TouchesDevice(J)) {
        Why = "an inner loop that also runs device work or a fallback";
        return false;
      }
  const SCEV *S = SE->getSCEV(pointerOf(I));
  Type *I64 = Type::getInt64Ty(I.getContext());
  if (SE->isLoopInvariant(S, AL)) {
    R.Start = S;
    R.Step = SE->getZero(I64);
    R.Count = SE->getOne(I64);
  } else {
    auto *AR = dyn_cast<SCEVAddRecExpr>(S);
    const SCEV *BTC = SE->getBackedgeTakenCount(AL);
    if (!AR || AR->getLoop() != AL || !AR->isAffine() ||
        isa<SCEVCouldNotCompute>(BTC) ||
        SE->getTypeSizeInBits(BTC->getType()) > 64 ||
        SE->getTypeSizeInBits(AR->getStepRecurrence(*SE)->getType()) > 64) {
      Why = "an inner loop whose address range scalar evolution cannot "
            "compute";
      return false;
    }
    R.Start = AR->getStart();
    R.Step = SE->getTruncateOrSignExtend(AR->getStepRecurrence(*SE), I64);
    R.Count = SE->getAddExpr(SE->getTruncateOrZeroExtend(BTC, I64),
                             SE->getOne(I64));
  }
  SCEVExpander X(*SE, I.getModule()->getDataLayout(), "idiom.host");
  const Instruction *At = AL->getLoopPreheader()->getTerminator();
  if (!X.isSafeToExpandAt(R.Start, At) || !X.isSafeToExpandAt(R.Step, At) ||
      !X.isSafeToExpandAt(R.Count, At)) {
    Why = "an inner loop whose address range cannot be computed before it";
    return false;
  }
  return true;
}

void routeHostAccesses(ArrayRef<HostAccessRoute> Routes, ScalarEvolution *SE) {
  for (const HostAccessRoute &R : Routes) {
    Instruction &I = *R.I;
    uint64_t Size = accessBytes(I);
    if (!R.Count) {
      // In the region loop's own body: around the access itself.
      IRBuilder<> B(&I);
      if (R.Store)
        B.SetInsertPoint(I.getNextNode());
      emitAccess(B, R.Store, pointerOf(I), Size, B.getInt64(0), B.getInt64(1),
                 I);
      continue;
    }
    // An inner host loop: the range before it; a store's also after it,
    // written through (the load before makes the bytes of the range the
    // loop does not write current, so writing them through is harmless).
    SCEVExpander X(*SE, I.getModule()->getDataLayout(), "idiom.host");
    Instruction *At = R.AL->getLoopPreheader()->getTerminator();
    Type *Ptr = pointerOf(I)->getType();
    Type *I64 = Type::getInt64Ty(I.getContext());
    Value *P = X.expandCodeFor(R.Start, Ptr, At);
    Value *Step = X.expandCodeFor(R.Step, I64, At);
    Value *Count = X.expandCodeFor(R.Count, I64, At);
    IRBuilder<> B(At);
    emitAccess(B, false, P, Size, Step, Count, I);
    if (!R.Store)
      continue;
    SmallVector<BasicBlock *, 4> Exits;
    R.AL->getUniqueExitBlocks(Exits);
    for (BasicBlock *E : Exits) {
      B.SetInsertPoint(E, E->getFirstInsertionPt());
      emitAccess(B, true, P, Size, Step, Count, I);
    }
  }
}

} // namespace idiom
