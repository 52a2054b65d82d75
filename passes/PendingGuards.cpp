//===- PendingGuards.cpp - Calls behind idiom_pending_work ----------------===//

#include "PendingGuards.h"
#include "StartData.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

static cl::opt<bool> PendingGuards(
    "idiom-pending-guards",
    cl::desc("Call idiom_region_sync/load/store and idiom_host_end_site only "
             "while the runtime's idiom_pending_work is nonzero (a load and "
             "a branch in front of each call)"),
    cl::init(true));

namespace idiom {

static constexpr const char *GuardedMD = "idiom.pending.guarded";

unsigned guardPendingCalls(Module &M) {
  if (!PendingGuards)
    return 0;
  SmallVector<CallInst *, 16> Found;
  for (const char *Name :
       {"idiom_region_sync", "idiom_region_sync_args", "idiom_region_load",
        "idiom_region_store", "idiom_host_end_site"}) {
    Function *F = M.getFunction(Name);
    if (!F)
      continue;
    for (User *U : F->users())
      if (auto *CI = dyn_cast<CallInst>(U);
          CI && CI->getCalledOperand() == F && !CI->getMetadata(GuardedMD))
        Found.push_back(CI);
  }
  // Only calls inside a loop, which run once per iteration of it: a call
  // that runs once per call of its function costs what a guard saves, and
  // a guard's branch changes the register allocation of the function (2%
  // more instructions, none slower, in nas-parboil/saxpy.c's main).
  SmallVector<CallInst *, 16> Calls;
  DenseMap<Function *, std::unique_ptr<LoopInfo>> Loops;
  for (CallInst *CI : Found) {
    Function *Fn = CI->getFunction();
    std::unique_ptr<LoopInfo> &LI = Loops[Fn];
    if (!LI) {
      DominatorTree DT(*Fn);
      LI = std::make_unique<LoopInfo>(DT);
    }
    if (LI->getLoopFor(CI->getParent()))
      Calls.push_back(CI);
  }
  if (Calls.empty())
    return 0;
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  GlobalVariable *Word = M.getNamedGlobal("idiom_pending_work");
  if (!Word) {
    // A weak definition right after the module's last host hint word, so
    // that the word the guards read shares a cache line with hint words,
    // which the same iterations read: a host loop that fills L1 exactly
    // lost 8% to one more line per iteration (bench/tiny_host.sh). The
    // runtime's own definition is weak too; the linker keeps the first,
    // a program object's.
    GlobalVariable *After = nullptr;
    for (GlobalVariable &G : M.globals())
      if (G.getName().ends_with(".hint") && G.hasPrivateLinkage())
        After = &G;
    GlobalVariable *Before = nullptr;
    if (After && std::next(After->getIterator()) != M.global_end())
      Before = &*std::next(After->getIterator());
    Word = new GlobalVariable(M, I32, /*isConstant=*/false,
                              GlobalValue::WeakAnyLinkage,
                              ConstantInt::get(I32, 0), "idiom_pending_work",
                              Before);
    Word->setAlignment(Align(4));
    placeInStartData(*Word); // with the hint words (StartData.h)
    // In an executable (PIE or not position-independent) the definition
    // cannot be interposed: the loads address it directly (a load through
    // the GOT kept its address in a register across the loops, one
    // register less for them: 1% more instructions in
    // nas-parboil/adi.c). Code for a shared object goes through the GOT,
    // so that all its references reach the one word the linker keeps.
    if (M.getPIELevel() != PIELevel::Default ||
        M.getPICLevel() == PICLevel::NotPIC)
      Word->setDSOLocal(true);
  }
  // Taken only by programs that use a device or time a host run: the
  // skip is the path to lay out straight.
  MDNode *Unlikely = MDBuilder(Ctx).createBranchWeights(1, 2000);
  for (CallInst *CI : Calls) {
    IRBuilder<> B(CI);
    LoadInst *W = B.CreateAlignedLoad(I32, Word, Align(4), "idiom.pending");
    W->setAtomic(AtomicOrdering::Monotonic);
    Value *Busy = B.CreateICmpNE(W, B.getInt32(0), "idiom.pending.busy");
    Instruction *Then = SplitBlockAndInsertIfThen(Busy, CI, false, Unlikely);
    Then->getParent()->setName("idiom.pending.call");
    Then->getParent()->getSingleSuccessor()->setName("idiom.pending.done");
    CI->moveBefore(Then);
    CI->setMetadata(GuardedMD, MDNode::get(Ctx, {}));
  }
  return Calls.size();
}

} // namespace idiom
