//===- PartialSync.cpp - A fallback's sync of its own ranges --------------===//

#include "PartialSync.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace idiom {
namespace {

/// Adds the underlying objects of \p P to \p Objs; false when it has none.
bool addObjects(const Value *P, SmallPtrSetImpl<const Value *> &Objs) {
  if (!P)
    return false;
  SmallVector<const Value *, 4> Found;
  getUnderlyingObjects(P, Found);
  Objs.insert(Found.begin(), Found.end());
  return !Found.empty();
}

/// True when every underlying object of \p P is in \p Objs.
bool basedOn(const Value *P, const SmallPtrSetImpl<const Value *> &Objs) {
  SmallVector<const Value *, 4> Found;
  getUnderlyingObjects(P, Found);
  return !Found.empty() &&
         llvm::all_of(Found, [&](const Value *O) { return Objs.count(O); });
}

/// An intrinsic that only marks the code, or any call that neither reads
/// nor writes memory.
bool harmlessCall(const CallBase &CB) {
  if (auto *II = dyn_cast<IntrinsicInst>(&CB))
    if (isa<DbgInfoIntrinsic>(II) || II->isLifetimeStartOrEnd() ||
        II->getIntrinsicID() == Intrinsic::assume ||
        II->getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl)
      return true;
  return CB.doesNotAccessMemory();
}

/// Declares idiom_region_sync_args (runtime/include/idiomrt.h).
FunctionCallee declareSyncArgs(Module &M) {
  LLVMContext &Ctx = M.getContext();
  auto *PtrTy = PointerType::getUnqual(Ctx);
  FunctionCallee Sync = M.getOrInsertFunction(
      "idiom_region_sync_args",
      FunctionType::get(Type::getVoidTy(Ctx),
                        {PtrTy, PtrTy, Type::getInt32Ty(Ctx)}, false));
  if (auto *Fn = dyn_cast<Function>(Sync.getCallee()))
    Fn->setDoesNotThrow();
  return Sync;
}

/// The values an address takes over one run of a loop nest, as a closed
/// interval of 128-bit integers [Lo, Hi] (SCEVs invariant in the nest) that
/// holds, for every access, a number congruent to its 64-bit address
/// modulo 2^64. Each term (an invariant leaf, or a loop's span
/// max-backedge-taken-count * step) is proven below 2^101 in magnitude and
/// a hull sums at most MaxTerms of them, so nothing wraps in 128 bits; a
/// hull inside [0, 2^64) then holds the addresses themselves.
class NestRanges {
public:
  NestRanges(ScalarEvolution &SE, const Loop &L)
      : SE(SE), L(L), I64(Type::getInt64Ty(L.getHeader()->getContext())),
        I128(Type::getInt128Ty(L.getHeader()->getContext())) {}

  /// [Lo, Hi] of the address \p S over the nest; false when not known.
  bool address(const SCEV *S, const SCEV *&Lo, const SCEV *&Hi) {
    Terms = 0;
    return range(S, Lo, Hi);
  }

  /// The backedge-taken counts the ranges assume non-negative (signed):
  /// where one is not, the ranges are not known.
  ArrayRef<const SCEV *> counts() const { return Counts.getArrayRef(); }

private:
  /// [Lo, Hi] of \p S, a part of an address, over the nest.
  bool range(const SCEV *S, const SCEV *&Lo, const SCEV *&Hi) {
    if (++Terms > MaxTerms)
      return false;
    if (SE.isLoopInvariant(S, &L)) {
      Lo = Hi = widen(S);
      return Lo != nullptr;
    }
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
      const Loop *AL = AR->getLoop();
      const SCEV *Step = AR->getStepRecurrence(SE);
      const SCEV *BTC = SE.getSymbolicMaxBackedgeTakenCount(AL);
      const SCEV *SLo, *SHi;
      if (!AR->isAffine() || !L.contains(AL) ||
          isa<SCEVCouldNotCompute>(BTC) || !SE.isLoopInvariant(BTC, &L) ||
          !SE.isLoopInvariant(Step, &L) || !small(BTC, Step) ||
          !range(AR->getStart(), SLo, SHi))
        return false;
      // Iteration k (0 <= k <= BTC) is at start + k * step; BTC is
      // non-negative as a signed number (checked at run time), so its sign
      // extension is its value.
      Counts.insert(BTC);
      const SCEV *Span =
          SE.getMulExpr(SE.getSignExtendExpr(BTC, I128), widen(Step));
      const SCEV *Zero = SE.getZero(I128);
      Lo = SE.getAddExpr(SLo, SE.getSMinExpr(Zero, Span));
      Hi = SE.getAddExpr(SHi, SE.getSMaxExpr(Zero, Span));
      return true;
    }
    if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
      SmallVector<const SCEV *, 4> Los, His;
      for (const SCEV *Op : Add->operands()) {
        const SCEV *OLo, *OHi;
        if (!range(Op, OLo, OHi))
          return false;
        Los.push_back(OLo);
        His.push_back(OHi);
      }
      Lo = SE.getAddExpr(Los);
      Hi = SE.getAddExpr(His);
      return true;
    }
    return false;
  }

  /// \p S (invariant) as a 128-bit integer congruent to it modulo 2^64:
  /// a pointer zero-extended, an integer sign-extended.
  const SCEV *widen(const SCEV *S) {
    if (S->getType()->isPointerTy()) {
      const SCEV *I = SE.getPtrToIntExpr(S, I64);
      return isa<SCEVCouldNotCompute>(I) ? nullptr
                                         : SE.getZeroExtendExpr(I, I128);
    }
    if (!S->getType()->isIntegerTy() ||
        S->getType()->getIntegerBitWidth() > 64)
      return nullptr;
    return SE.getSignExtendExpr(S, I128);
  }

  /// True when |BTC * Step| < 2^101 for every value SCEV allows them,
  /// with BTC non-negative as a signed number (checked at run time:
  /// counts()).
  bool small(const SCEV *BTC, const SCEV *Step) {
    if (BTC->getType()->getIntegerBitWidth() > 64 ||
        Step->getType()->getIntegerBitWidth() > 64)
      return false;
    APInt Max = SE.getSignedRangeMax(BTC);
    if (Max.isNegative())
      return false;
    unsigned CountBits = Max.getActiveBits();
    ConstantRange R = SE.getSignedRange(Step);
    unsigned StepBits = std::max(R.getSignedMin().getSignificantBits(),
                                 R.getSignedMax().getSignificantBits());
    return CountBits + StepBits <= 101;
  }

  static constexpr unsigned MaxTerms = 64;
  ScalarEvolution &SE;
  const Loop &L;
  Type *I64, *I128;
  unsigned Terms = 0;
  SmallSetVector<const SCEV *, 8> Counts;
};

/// One range passed to the runtime: the hull of the loads, or of the
/// stores, based on one pointer base.
struct OwnRange {
  const SCEV *Lo = nullptr, *Hi = nullptr; ///< i128; Hi one past the end
  bool Written = false;
};

/// True when every underlying object of \p P is an alloca whose address is
/// not captured (\p Local caches the answers).
bool onlyLocal(const Value *P, DenseMap<const Value *, bool> &Local) {
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(P, Objs);
  return !Objs.empty() && llvm::all_of(Objs, [&](const Value *O) {
    auto [It, New] = Local.try_emplace(O, false);
    if (New)
      It->second = isa<AllocaInst>(O) &&
                   !PointerMayBeCaptured(O, /*ReturnCaptures=*/true,
                                         /*StoreCaptures=*/true);
    return It->second;
  });
}

/// The hulls of \p Nest's accesses to memory other than local arrays, one
/// per pointer base; false when one is not known (nestTouchesOnlyArgs's
/// rules for calls and other instructions).
bool nestRanges(const Loop &Nest, ScalarEvolution &SE,
                SmallVectorImpl<OwnRange> &Out,
                SmallVectorImpl<const SCEV *> &Counts) {
  const DataLayout &DL = Nest.getHeader()->getModule()->getDataLayout();
  DenseMap<const Value *, bool> Local;
  DenseMap<std::pair<const SCEV *, unsigned>, size_t> ByBase;
  NestRanges NR(SE, Nest);
  auto Done = make_scope_exit(
      [&] { Counts.assign(NR.counts().begin(), NR.counts().end()); });
  for (const BasicBlock *BB : Nest.blocks())
    for (const Instruction &I : *BB) {
      const Value *Ptr = nullptr;
      Type *Ty = nullptr;
      bool Store = false;
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        if (!LI->isSimple())
          return false;
        Ptr = LI->getPointerOperand();
        Ty = LI->getType();
      } else if (auto *St = dyn_cast<StoreInst>(&I)) {
        if (!St->isSimple())
          return false;
        Ptr = St->getPointerOperand();
        Ty = St->getValueOperand()->getType();
        Store = true;
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (!harmlessCall(*CB))
          return false;
        continue;
      } else if (I.mayReadOrWriteMemory()) {
        return false;
      } else {
        continue;
      }
      if (onlyLocal(Ptr, Local))
        continue;
      const SCEV *S = SE.getSCEV(const_cast<Value *>(Ptr));
      const SCEV *Lo, *Hi;
      TypeSize Size = DL.getTypeStoreSize(Ty);
      if (Size.isScalable() || !NR.address(S, Lo, Hi))
        return false;
      Hi = SE.getAddExpr(Hi, SE.getConstant(Hi->getType(), Size.getFixedValue()));
      auto [It, New] =
          ByBase.try_emplace({SE.getPointerBase(S), Store ? 1u : 0u}, Out.size());
      if (New) {
        if (Out.size() == 32)
          return false; // a sync longer than the nest is worth
        Out.push_back({Lo, Hi, Store});
        continue;
      }
      OwnRange &R = Out[It->second];
      R.Lo = SE.getSMinExpr(R.Lo, Lo);
      R.Hi = SE.getSMaxExpr(R.Hi, Hi);
    }
  return true;
}

} // namespace

bool nestTouchesOnlyArgs(const StitchedCall &SC, const Loop &Nest) {
  SmallPtrSet<const Value *, 8> Read, Written;
  for (const auto &[V, W] : SC.Buffers) {
    if (!addObjects(V, Read))
      return false;
    if (W && !addObjects(V, Written))
      return false;
  }
  for (const BasicBlock *BB : Nest.blocks())
    for (const Instruction &I : *BB) {
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        if (!LI->isSimple() || !basedOn(LI->getPointerOperand(), Read))
          return false;
        continue;
      }
      if (auto *St = dyn_cast<StoreInst>(&I)) {
        if (!St->isSimple() || !basedOn(St->getPointerOperand(), Written))
          return false;
        continue;
      }
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (!harmlessCall(*CB))
          return false;
        continue;
      }
      if (I.mayReadOrWriteMemory())
        return false; // atomics, fences, va_arg
    }
  return true;
}

bool emitSyncArgs(const StitchedCall &SC, Loop &Nest) {
  CallInst *Run = SC.Call;
  BasicBlock *PH = Nest.getLoopPreheader();
  if (!SC.SyncArgs || !Run || !PH || PH != SC.Fallback ||
      !Run->getCalledFunction() ||
      Run->getCalledFunction()->getName() != "idiom_run" ||
      Run->arg_size() != 5 || SC.ArgsValidFrom.empty() ||
      !nestTouchesOnlyArgs(SC, Nest))
    return false;
  Value *Desc = Run->getArgOperand(0), *ArgArr = Run->getArgOperand(1),
        *NArgs = Run->getArgOperand(2);
  Function &F = *PH->getParent();
  Module &M = *F.getParent();
  const DataLayout &DL = M.getDataLayout();
  // The skip block of the host hint reaches the loop without the call's
  // block, which fills an alloca'd array: it fills the array too.
  BasicBlock *Skip = SC.ArgsValidFrom.front();
  SmallVector<Value *, 8> Fields;
  auto *A = dyn_cast<AllocaInst>(ArgArr);
  if (A) {
    auto *ArrTy = dyn_cast<ArrayType>(A->getAllocatedType());
    if (!SC.ArgTemplate || !ArrTy ||
        SC.ArgTemplate->getValueType() != ArrTy ||
        !llvm::is_contained(predecessors(PH), Skip))
      return false;
    DominatorTree DT(F);
    Instruction *At = Skip->getTerminator();
    for (const StitchedCall::ArgField &AF : SC.ArgFields) {
      Value *V = AF.V;
      if (!V)
        return false;
      auto *I = dyn_cast<Instruction>(V);
      if (I && !DT.dominates(I, At)) {
        // A scalar widened in the call's block (Stitching.cpp): widened
        // again here, from an operand available here.
        auto *C = dyn_cast<CastInst>(I);
        auto *Op = C ? dyn_cast<Instruction>(C->getOperand(0)) : nullptr;
        if (!C || (Op && !DT.dominates(Op, At)))
          return false;
      }
      Fields.push_back(V);
    }
    IRBuilder<> B(At);
    B.CreateMemCpy(A, A->getAlign(), SC.ArgTemplate,
                   SC.ArgTemplate->getAlign().valueOrOne(),
                   DL.getTypeAllocSize(ArrTy));
    auto *ArgTy = cast<StructType>(ArrTy->getElementType());
    for (size_t K = 0; K < SC.ArgFields.size(); ++K) {
      Value *V = Fields[K];
      if (auto *I = dyn_cast<Instruction>(V); I && !DT.dominates(I, At)) {
        Instruction *Copy = I->clone();
        Copy->insertBefore(At);
        V = Copy;
      }
      Value *Slot = B.CreateConstGEP2_32(ArrTy, A, 0, SC.ArgFields[K].Arg);
      B.CreateStore(V, B.CreateStructGEP(ArgTy, Slot, SC.ArgFields[K].Field));
    }
  }
  // Null (a full sync) from the edges where the ranges are not the loop's.
  SmallPtrSet<BasicBlock *, 8> Valid(SC.ArgsValidFrom.begin(),
                                     SC.ArgsValidFrom.end());
  auto *PtrTy = cast<PointerType>(ArgArr->getType());
  // The descriptor too: where the call's edges fold away (constant
  // guards), the phis fold to null and keep no kernel source alive.
  Value *Args = ArgArr, *D = Desc;
  if (!llvm::all_of(predecessors(PH),
                    [&](BasicBlock *P) { return Valid.count(P); })) {
    auto Phi = [&](Value *V, const char *Name) {
      PHINode *P = PHINode::Create(PtrTy, 4, Name);
      P->insertBefore(PH->begin());
      for (BasicBlock *Pred : predecessors(PH))
        P->addIncoming(Valid.count(Pred) ? V
                                         : ConstantPointerNull::get(PtrTy),
                       Pred);
      return P;
    };
    D = Phi(Desc, "idiom.sync.desc");
    Args = Phi(ArgArr, "idiom.sync.args");
  }
  IRBuilder<> B(PH, PH->getFirstInsertionPt());
  B.CreateCall(declareSyncArgs(M), {D, Args, NArgs});
  return true;
}

bool emitSyncOwnRanges(const StitchedCall &SC, Loop &Nest,
                       ScalarEvolution &SE) {
  BasicBlock *PH = Nest.getLoopPreheader();
  if (!PH || !isa<BranchInst>(PH->getTerminator()))
    return false;
  SmallVector<OwnRange, 8> Ranges;
  SmallVector<const SCEV *, 8> Counts;
  if (!nestRanges(Nest, SE, Ranges, Counts))
    return false;
  Function &F = *PH->getParent();
  Module &M = *F.getParent();
  const DataLayout &DL = M.getDataLayout();
  Instruction *At = PH->getTerminator();
  SCEVExpander Exp(SE, DL, "idiom.own");
  for (const OwnRange &R : Ranges)
    if (!Exp.isSafeToExpandAt(R.Lo, At) || !Exp.isSafeToExpandAt(R.Hi, At))
      return false;
  for (const SCEV *C : Counts)
    if (!Exp.isSafeToExpandAt(C, At))
      return false;
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx),
       *I128 = Type::getInt128Ty(Ctx);
  auto *PtrTy = PointerType::getUnqual(Ctx);
  // The site's descriptor where it is a constant (so it is there on every
  // path into the nest): its declined runs then sync only their own
  // ranges, the rest is synced here.
  Value *Desc = ConstantPointerNull::get(PtrTy);
  if (SC.Call && SC.Call->arg_size() >= 1 &&
      isa<Constant>(SC.Call->getArgOperand(0)))
    Desc = SC.Call->getArgOperand(0);
  StructType *ArgTy = StructType::get(Ctx, {I32, I32, PtrTy, I64, I64});
  ArrayType *ArrTy =
      ArrayType::get(ArgTy, Ranges.empty() ? 1 : Ranges.size());
  AllocaInst *Arr =
      new AllocaInst(ArrTy, DL.getAllocaAddrSpace(), "idiom.own.ranges",
                     F.getEntryBlock().getFirstInsertionPt());
  Arr->setAlignment(DL.getABITypeAlign(ArgTy));
  IRBuilder<> B(At);
  Value *Top = ConstantInt::get(I128, APInt::getOneBitSet(128, 64));
  for (size_t K = 0; K < Ranges.size(); ++K) {
    const OwnRange &R = Ranges[K];
    Value *Lo = Exp.expandCodeFor(R.Lo, I128, At);
    Value *Hi = Exp.expandCodeFor(R.Hi, I128, At);
    B.SetInsertPoint(At);
    // Inside [0, 2^64): the addresses themselves; else null (a full sync).
    Value *Fits = B.CreateAnd(
        B.CreateAnd(B.CreateICmpSGE(Lo, ConstantInt::get(I128, 0)),
                    B.CreateICmpSLE(Hi, Top)),
        B.CreateICmpSLE(Lo, Hi), "idiom.own.fits");
    Value *P = B.CreateSelect(Fits, B.CreateIntToPtr(B.CreateTrunc(Lo, I64), PtrTy),
                              ConstantPointerNull::get(PtrTy));
    Value *Bytes = B.CreateTrunc(B.CreateSub(Hi, Lo), I64);
    Value *Slot = B.CreateConstGEP2_32(ArrTy, Arr, 0, K);
    unsigned Kind = R.Written ? 2 : 0; // IDIOM_ARG_BUF_INOUT, _IN
    B.CreateStore(ConstantInt::get(I32, Kind), B.CreateStructGEP(ArgTy, Slot, 0));
    B.CreateStore(ConstantInt::get(I32, 0), B.CreateStructGEP(ArgTy, Slot, 1));
    B.CreateStore(P, B.CreateStructGEP(ArgTy, Slot, 2));
    B.CreateStore(Bytes, B.CreateStructGEP(ArgTy, Slot, 3));
  }
  // A negative backedge-taken count (a loop not entered, or one SCEV's
  // bound does not describe): the ranges are not known, a full sync.
  B.SetInsertPoint(At);
  Value *CountsOK = B.getTrue();
  for (const SCEV *C : Counts) {
    Value *V = Exp.expandCodeFor(C, C->getType(), At);
    B.SetInsertPoint(At);
    CountsOK = B.CreateAnd(
        CountsOK, B.CreateICmpSGE(V, ConstantInt::get(C->getType(), 0)));
  }
  Value *Args = B.CreateSelect(CountsOK, Arr, ConstantPointerNull::get(PtrTy),
                               "idiom.own.args");
  B.CreateCall(declareSyncArgs(M),
               {Desc, Args, ConstantInt::get(I32, Ranges.size())});
  return true;
}

} // namespace idiom
