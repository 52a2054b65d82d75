//===- PartialSync.cpp - A fallback's sync of its own ranges --------------===//

#include "PartialSync.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

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
  LLVMContext &Ctx = M.getContext();
  FunctionCallee Sync = M.getOrInsertFunction(
      "idiom_region_sync_args",
      FunctionType::get(Type::getVoidTy(Ctx),
                        {PtrTy, PtrTy, Type::getInt32Ty(Ctx)}, false));
  if (auto *Fn = dyn_cast<Function>(Sync.getCallee()))
    Fn->setDoesNotThrow();
  B.CreateCall(Sync, {D, Args, NArgs});
  return true;
}

} // namespace idiom
