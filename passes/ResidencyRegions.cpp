//===- ResidencyRegions.cpp - Idiom buffers on the device across a loop --===//
//
// A loop qualifies when every instruction of its body, outside the fallback
// nests of its stitched idioms, is one of:
//   - a stitched idiom_run call (an idiom's, or its errno check's, which
//     reads only buffers of that idiom);
//   - a load from, or store to, memory that is provably none of the region's
//     idiom buffers: a scratch alloca (its address is used only by loads,
//     stores, memcpy/memset and as idiom_run's args/sizes/results, never
//     stored, so no idiom buffer lies in it), or an identified object
//     (global, alloca, malloc'd block, noalias argument) different from every
//     identified object an idiom buffer pointer may be based on; a load may
//     also read constant memory or any object that no idiom of the loop
//     writes;
//   - a call that accesses no memory, does not unwind and may return (pure
//     intrinsics such as llvm.fabs or llvm.smax, functions declared
//     memory(none) nounwind), a debug, lifetime or assume intrinsic, or a
//     runtime entry point that touches only the runtime's state
//     (idiom_note_fallback, idiom_host_begin/end of the cost model);
//   - a memcpy, memmove or memset that may touch an idiom buffer: it becomes
//     a call to idiom_region_memmove or idiom_region_memset, which copies or
//     fills on the device when the region holds both ranges there, and
//     otherwise brings the ranges back to the host first (the copy of a
//     Jacobi time loop, which LoopIdiomRecognize turns into a memcpy);
//   - anything else that neither reads nor writes memory, except
//     `unreachable`.
// The fallback nests are exempt: idiom_region_sync, placed at their
// preheader, empties the device copies before they run. The loop's exits
// must be dedicated (LoopSimplify form) and reached by br or switch.
//
//===----------------------------------------------------------------------===//

#include "ResidencyRegions.h"
#include "OffloadRemarks.h"
#include "PipelinePlacement.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool> Residency(
    "idiom-residency", cl::init(true),
    cl::desc("Place residency regions (idiom_region_begin/end) around loops "
             "whose bodies only run offloaded idioms (default on)"));

namespace idiom {
namespace {

StringRef calleeName(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction())
    return F->getName();
  return "";
}

/// An alloca whose address is only loaded from, stored to (never stored as
/// a value), copied to or from, or passed as idiom_run's args, sizes or
/// results array: no idiom buffer can lie in it.
bool isScratchAlloca(const AllocaInst *AI) {
  SmallVector<const Value *, 8> Work{AI};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *Us = U.getUser();
      if (auto *LI = dyn_cast<LoadInst>(Us)) {
        if (!LI->isSimple())
          return false;
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(Us)) {
        if (U.getOperandNo() != SI->getPointerOperandIndex() || !SI->isSimple())
          return false;
        continue;
      }
      if (auto *GEP = dyn_cast<GetElementPtrInst>(Us)) {
        Work.push_back(GEP);
        continue;
      }
      if (auto *MI = dyn_cast<MemIntrinsic>(Us)) {
        if (MI->isVolatile())
          return false;
        if (U.getOperandNo() == 0 ||
            (isa<MemTransferInst>(MI) && U.getOperandNo() == 1))
          continue;
        return false;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(Us))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      if (auto *CB = dyn_cast<CallBase>(Us)) {
        unsigned No = CB->isArgOperand(&U) ? CB->getArgOperandNo(&U) : ~0u;
        // idiom_run(desc, args, nargs, sizes, results) reads args and sizes
        // and writes results during the call only; idiom_run_csr reads its
        // idiom_csr too.
        StringRef Callee = calleeName(*CB);
        bool Csr = Callee == "idiom_run_csr";
        if ((Callee == "idiom_run" || Csr) &&
            (No == 1 || No == 3 || No == 4 || (Csr && No == 5)))
          continue;
      }
      return false;
    }
  }
  return true;
}

/// Everything the check of one loop needs.
class RegionCheck {
public:
  RegionCheck(Loop &L, LoopInfo &LI,
              const std::vector<const StitchedCall *> &Calls)
      : L(L), LI(LI), Calls(Calls) {}

  /// True when \p L can be a region; otherwise \p Why says why not.
  bool check(std::string &Why);

  /// The memory intrinsics of the loop that may touch an idiom buffer: run
  /// through the runtime once the region is placed.
  const SmallVector<MemIntrinsic *, 4> &copies() const { return Copies; }

private:
  Loop &L;
  LoopInfo &LI;
  const std::vector<const StitchedCall *> &Calls;
  SmallPtrSet<const BasicBlock *, 32> Exempt;
  SmallPtrSet<const Value *, 8> Idioms;
  SmallPtrSet<const Value *, 8> AllObjs, WrittenObjs;
  bool AllKnown = true, WrittenKnown = true;
  SmallVector<MemIntrinsic *, 4> Copies;

  bool accessOK(const Value *Ptr, bool IsStore, std::string &Why);
  bool instructionOK(const Instruction &I, std::string &Why);
};

bool RegionCheck::accessOK(const Value *Ptr, bool IsStore, std::string &Why) {
  if (auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr)))
    if (isScratchAlloca(AI))
      return true;
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs);
  if (!IsStore && all_of(Objs, [](const Value *O) {
        auto *G = dyn_cast<GlobalVariable>(O);
        return G && G->isConstant();
      }))
    return true;
  const char *What = IsStore ? "stores to" : "loads from";
  for (const Value *O : Objs)
    if (!isIdentifiedObject(O)) {
      Why = std::string("the loop ") + What +
            " memory through a pointer that may point into an idiom's buffer";
      return false;
    }
  if (IsStore ? !AllKnown : !WrittenKnown) {
    Why = std::string("the loop ") + What +
          " memory and an idiom's buffer is not a known object";
    return false;
  }
  for (const Value *O : Objs)
    if ((IsStore ? AllObjs : WrittenObjs).count(O)) {
      Why = std::string("the loop ") + What + " an idiom's buffer (" +
            (O->hasName() ? O->getName().str() : std::string("unnamed")) +
            ") outside the idiom";
      return false;
    }
  return true;
}

bool RegionCheck::instructionOK(const Instruction &I, std::string &Why) {
  if (isa<UnreachableInst>(I)) {
    Why = "the loop body has an unreachable exit (after a call that does not "
          "return, or undefined behaviour)";
    return false;
  }
  if (auto *LD = dyn_cast<LoadInst>(&I)) {
    if (!LD->isSimple()) {
      Why = "the loop has a volatile or atomic load";
      return false;
    }
    return accessOK(LD->getPointerOperand(), false, Why);
  }
  if (auto *ST = dyn_cast<StoreInst>(&I)) {
    if (!ST->isSimple()) {
      Why = "the loop has a volatile or atomic store";
      return false;
    }
    return accessOK(ST->getPointerOperand(), true, Why);
  }
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (Idioms.count(CB))
      return true;
    if (!isa<CallInst>(CB) || CB->isInlineAsm()) {
      Why = "the loop has an invoke, callbr or inline assembly";
      return false;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
      if (isa<DbgInfoIntrinsic>(II) || II->isLifetimeStartOrEnd() ||
          II->getIntrinsicID() == Intrinsic::assume ||
          II->getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl)
        return true;
      if (auto *MI = dyn_cast<MemIntrinsic>(II)) {
        if (MI->isVolatile()) {
          Why = "the loop has a volatile memory intrinsic";
          return false;
        }
        auto *MT = dyn_cast<MemTransferInst>(MI);
        std::string Ignored;
        if (accessOK(MI->getRawDest(), true, Ignored) &&
            (!MT || accessOK(MT->getRawSource(), false, Ignored)))
          return true;
        // May touch an idiom buffer: the runtime copies (placeRegion).
        if (isa<MemCpyInst>(MI) || isa<MemMoveInst>(MI) || isa<MemSetInst>(MI)) {
          Copies.push_back(const_cast<MemIntrinsic *>(MI));
          return true;
        }
        return accessOK(MI->getRawDest(), true, Why) &&
               (!MT || accessOK(MT->getRawSource(), false, Why));
      }
    }
    if (CB->doesNotAccessMemory() && CB->doesNotThrow() && !CB->doesNotReturn())
      return true;
    StringRef Name = calleeName(*CB);
    // Runtime entry points that read only their descriptor and the
    // runtime's own state, never the program's memory (idiomrt.h).
    if (Name == "idiom_region_sync" || Name == "idiom_note_fallback" ||
        Name == "idiom_host_begin" || Name == "idiom_host_end")
      return true;
    Why = "the loop calls " +
          (Name.empty() ? std::string("a function through a pointer")
                        : Name.str()) +
          ", which may access an idiom's buffer";
    if (Name == "idiom_run" || Name == "idiom_run_csr")
      Why = "the loop has an idiom call that this pass did not stitch";
    return false;
  }
  if (I.mayReadOrWriteMemory()) {
    Why = std::string("the loop has a ") + I.getOpcodeName() +
          " instruction, which accesses memory";
    return false;
  }
  return true;
}

bool RegionCheck::check(std::string &Why) {
  if (isFallbackLoop(L)) {
    Why = "the loop is an idiom's fallback";
    return false;
  }
  if (!L.getLoopPreheader()) {
    Why = "the loop has no preheader";
    return false;
  }
  if (!L.hasDedicatedExits()) {
    Why = "an exit block of the loop is also reached from outside it";
    return false;
  }
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> ExitEdges;
  L.getExitEdges(ExitEdges);
  for (auto &[From, To] : ExitEdges) {
    if (!isa<BranchInst>(From->getTerminator()) &&
        !isa<SwitchInst>(From->getTerminator())) {
      Why = "the loop is left through an edge that is not a branch";
      return false;
    }
    if (To->isEHPad()) {
      Why = "the loop is left by unwinding";
      return false;
    }
  }
  for (const StitchedCall *SC : Calls) {
    Idioms.insert(SC->Call);
    // The errno check only reads buffers of the idiom (Stitching.h).
    if (SC->CheckCall)
      Idioms.insert(SC->CheckCall);
    BasicBlock *Head = SC->Fallback->getSingleSuccessor();
    Loop *FL = Head ? LI.getLoopFor(Head) : nullptr;
    if (!FL || FL->getLoopPreheader() != SC->Fallback || !isFallbackLoop(*FL)) {
      Why = "an idiom's fallback loop is not where stitching left it";
      return false;
    }
    for (BasicBlock *BB : FL->blocks())
      Exempt.insert(BB);
    for (auto &[V, Written] : SC->Buffers) {
      if (!V) {
        Why = "an idiom's buffer pointer was deleted";
        return false;
      }
      SmallVector<const Value *, 4> Objs;
      getUnderlyingObjects(V, Objs);
      for (const Value *O : Objs) {
        bool Known = isIdentifiedObject(O);
        AllKnown &= Known;
        AllObjs.insert(O);
        if (Written) {
          WrittenKnown &= Known;
          WrittenObjs.insert(O);
        }
      }
    }
  }
  for (BasicBlock *BB : L.blocks()) {
    if (Exempt.count(BB))
      continue;
    for (Instruction &I : *BB)
      if (!instructionOK(I, Why))
        return false;
  }
  return true;
}

/// Replaces memcpy/memmove/memset \p MI by the runtime's region-aware copy
/// (idiom_region_memmove(ptr, ptr, i64) or idiom_region_memset(ptr, i32,
/// i64), idiomrt.h), which has its semantics whether or not the ranges are
/// on the device.
void routeThroughRuntime(MemIntrinsic *MI) {
  Module &M = *MI->getModule();
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx), *Void = Type::getVoidTy(Ctx);
  IRBuilder<> B(MI);
  Value *Len = B.CreateZExtOrTrunc(MI->getLength(), I64);
  CallInst *Call;
  if (auto *MS = dyn_cast<MemSetInst>(MI)) {
    FunctionCallee F = M.getOrInsertFunction(
        "idiom_region_memset", FunctionType::get(Void, {Ptr, I32, I64}, false));
    Call = B.CreateCall(F, {MS->getRawDest(),
                            B.CreateZExt(MS->getValue(), I32), Len});
  } else {
    auto *MT = cast<MemTransferInst>(MI);
    FunctionCallee F = M.getOrInsertFunction(
        "idiom_region_memmove",
        FunctionType::get(Void, {Ptr, Ptr, I64}, false));
    Call = B.CreateCall(F, {MT->getRawDest(), MT->getRawSource(), Len});
  }
  if (auto *F = Call->getCalledFunction())
    F->setDoesNotThrow();
  Call->setDebugLoc(MI->getDebugLoc());
  MI->eraseFromParent();
}

/// Inserts the runtime calls of a region around \p L.
void placeRegion(Loop &L, const std::vector<const StitchedCall *> &Calls) {
  BasicBlock *PH = L.getLoopPreheader();
  Module &M = *PH->getModule();
  LLVMContext &Ctx = M.getContext();
  FunctionType *FT = FunctionType::get(Type::getVoidTy(Ctx), false);
  auto Declare = [&](StringRef Name) {
    FunctionCallee C = M.getOrInsertFunction(Name, FT);
    if (auto *F = dyn_cast<Function>(C.getCallee()))
      F->setDoesNotThrow();
    return C;
  };
  FunctionCallee Begin = Declare("idiom_region_begin");
  FunctionCallee End = Declare("idiom_region_end");
  FunctionCallee Sync = Declare("idiom_region_sync");
  IRBuilder<> B(PH->getTerminator());
  B.CreateCall(Begin);
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  for (BasicBlock *E : Exits) {
    B.SetInsertPoint(E, E->getFirstInsertionPt());
    B.CreateCall(End);
  }
  for (const StitchedCall *SC : Calls) {
    B.SetInsertPoint(SC->Fallback, SC->Fallback->getFirstInsertionPt());
    B.CreateCall(Sync);
  }
}

/// The stitched calls inside \p L.
std::vector<const StitchedCall *>
callsIn(const Loop &L, const std::vector<StitchedCall> &All) {
  std::vector<const StitchedCall *> In;
  for (const StitchedCall &SC : All)
    if (SC.Call && L.contains(SC.Call->getParent()))
      In.push_back(&SC);
  return In;
}

unsigned visit(Loop &L, LoopInfo &LI, const std::vector<StitchedCall> &All,
               RemarkSink &Remarks) {
  if (isFallbackLoop(L))
    return 0;
  std::vector<const StitchedCall *> Calls = callsIn(L, All);
  if (Calls.empty())
    return 0;
  std::string Why;
  RegionCheck RC(L, LI, Calls);
  if (RC.check(Why)) {
    placeRegion(L, Calls);
    for (MemIntrinsic *MI : RC.copies())
      routeThroughRuntime(MI);
    Remarks.emit([&] {
      return OptimizationRemark(RemarkPass, "ResidencyRegion", L.getStartLoc(),
                                L.getHeader())
             << "residency region: the buffers of "
             << ore::NV("Idioms", unsigned(Calls.size()))
             << " offloaded idiom(s) stay on the device across the loop's "
                "iterations (copied back at its exits)";
    });
    return 1;
  }
  Remarks.emit([&] {
    return OptimizationRemarkMissed(RemarkPass, "NoResidencyRegion",
                                    L.getStartLoc(), L.getHeader())
           << "no residency region: " << ore::NV("Reason", Why);
  });
  unsigned N = 0;
  for (Loop *Sub : L.getSubLoops())
    N += visit(*Sub, LI, All, Remarks);
  return N;
}

} // namespace

bool hasResidencyRegions(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (calleeName(*CB) == "idiom_region_begin")
          return true;
  return false;
}

unsigned formResidencyRegions(Function &F, LoopInfo &LI,
                              const std::vector<StitchedCall> &Calls,
                              RemarkSink &Remarks) {
  if (!Residency || Calls.empty())
    return 0;
  unsigned N = 0;
  for (Loop *L : LI.getTopLevelLoops())
    N += visit(*L, LI, Calls, Remarks);
  (void)F;
  return N;
}

} // namespace idiom
