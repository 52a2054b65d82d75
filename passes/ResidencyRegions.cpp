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
//     identified object an idiom buffer pointer may be based on, or a
//     global that no pointer can reach (UnescapedGlobals.h), even when a
//     buffer is a pointer the plugin cannot identify; a load may also read
//     constant memory or any object that no idiom of the loop writes;
//   - a call that accesses no memory, does not unwind and may return (pure
//     intrinsics such as llvm.fabs or llvm.smax, functions declared
//     memory(none) nounwind), a debug, lifetime or assume intrinsic, or a
//     runtime entry point that touches only the runtime's state
//     (idiom_note_fallback, idiom_host_begin/end/hint of the cost model);
//   - a memcpy, memmove or memset that may touch an idiom buffer: it becomes
//     a call to idiom_region_memmove or idiom_region_memset, which copies or
//     fills on the device when the region holds both ranges there, and
//     otherwise brings the ranges back to the host first (the copy of a
//     Jacobi time loop, which LoopIdiomRecognize turns into a memcpy);
//   - a call to a library function that touches memory only through its
//     pointer arguments (printf, clock_gettime, the runtime's queries:
//     knownHostCall, RegionSummaries.h), whose pointer arguments are checked
//     as loads or stores;
//   - a load or store that may touch an idiom buffer, in the loop's own body
//     or in a host loop one level down whose range scalar evolution gives:
//     routed through idiom_region_load/store (RegionHostAccess.h);
//   - a direct call to a function of the module, decided through its
//     summary (resolveRegion, RegionSummaries.h), now or, when the callee
//     has not been visited yet, at OptimizerLast (a pending region, whose
//     inner loops are then tried at once as its fallbacks: the regions they
//     get when it fails there);
//   - inside such a fallback, the enclosing region's routed copies;
//   - anything else that neither reads nor writes memory, except
//     `unreachable`.
// After the loops, the function's own summary is recorded for the regions
// of its callers.
// The fallback nests are exempt: idiom_region_sync, placed at their
// preheader, empties the device copies before they run; or
// idiom_region_sync_args, which syncs only the copies of the call's own
// ranges where the nest touches nothing else, or of the nest's own ranges
// where SCEV bounds them (PartialSync.h). So are the blocks
// of a site's host hint (StitchedCall::HintBlocks), which only touch the
// hint word and lead to the fallback's preheader. The loop's exits
// must be dedicated (LoopSimplify form) and reached by br or switch.
//
//===----------------------------------------------------------------------===//

#include "ResidencyRegions.h"
#include "OffloadRemarks.h"
#include "PartialSync.h"
#include "PipelinePlacement.h"
#include "RegionHostAccess.h"
#include "RegionSummaries.h"
#include "UnescapedGlobals.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

static cl::opt<bool> Residency(
    "idiom-residency", cl::init(true),
    cl::desc("Place residency regions (idiom_region_begin/end) around loops "
             "whose bodies only run offloaded idioms (default on)"));

namespace idiom {
namespace {

/// An alloca whose address is only loaded from, stored to (never stored as
/// a value), copied to or from, or passed as idiom_run's args, sizes or
/// results array: no idiom buffer can lie in it.
bool isScratchAlloca(const AllocaInst *AI) {
  return usedOnlyAsAddress(*AI, [](const Use &U) {
    if (auto *II = dyn_cast<IntrinsicInst>(U.getUser()))
      if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
        return true;
    auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !CB->isArgOperand(&U))
      return false;
    // idiom_run(desc, args, nargs, sizes, results) reads args and sizes
    // and writes results during the call only; idiom_run_csr reads its
    // idiom_csr too.
    unsigned No = CB->getArgOperandNo(&U);
    StringRef Callee = calleeName(*CB);
    bool Csr = Callee == "idiom_run_csr";
    // idiom_region_sync_args(desc, args, nargs) reads args.
    if (Callee == "idiom_region_sync_args")
      return No == 1;
    return (Callee == "idiom_run" || Csr) &&
           (No == 1 || No == 3 || No == 4 || (Csr && No == 5));
  });
}

/// An intrinsic that only marks the code (debug info, lifetimes, assumptions,
/// alias scopes) or returns its pointer argument unchanged for alias
/// analysis' sake (`llvm.launder.invariant.group`, which SharedBases.h puts
/// in front of a nest whose two grids of one array were checked disjoint;
/// getUnderlyingObjects looks through it, so the accesses through its
/// result are checked against the region's buffers as any other): it
/// accesses no memory a region holds.
bool isMarkerIntrinsic(const IntrinsicInst &II) {
  return isa<DbgInfoIntrinsic>(II) || II.isLifetimeStartOrEnd() ||
         II.getIntrinsicID() == Intrinsic::assume ||
         II.getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl ||
         II.getIntrinsicID() == Intrinsic::launder_invariant_group ||
         II.getIntrinsicID() == Intrinsic::strip_invariant_group;
}

/// A runtime entry point that reads only its descriptor and the runtime's
/// own state, never the program's memory (idiomrt.h); idiom_host_hint
/// writes only the site's hint word, which no idiom buffer holds;
/// idiom_work_hint only the calling thread's state.
bool isRuntimeBookkeeping(StringRef Name) {
  return Name == "idiom_region_sync" || Name == "idiom_region_sync_args" ||
         Name == "idiom_note_fallback" ||
         Name == "idiom_host_begin" || Name == "idiom_host_end" ||
         Name == "idiom_host_end_site" ||
         Name == "idiom_host_hint" || Name == "idiom_work_hint";
}

/// The runtime's region-aware copies, fills and host accesses
/// (idiom_region_memmove/memset/load/store, idiomrt.h): right in any region,
/// whatever the table holds. A loop meets them when an enclosing loop's
/// pending region routed its copies before the loop was tried as that
/// region's fallback (visit).
bool isRoutedAccessCall(StringRef Name) {
  return Name == "idiom_region_memmove" || Name == "idiom_region_memset" ||
         Name == "idiom_region_load" || Name == "idiom_region_store";
}

/// Metadata on the copy that routeThroughRuntime leaves inline, on the path
/// taken while no thread has a region open.
constexpr const char *InlineCopyMD = "idiom.region.inline";

/// True for the check routeThroughRuntime puts before a routed group: an
/// atomic load of the runtime's count of open regions, which no idiom
/// buffer holds.
bool isRegionsOpenCheck(const LoadInst &LD) {
  auto *G = dyn_cast<GlobalVariable>(LD.getPointerOperand());
  return G && G->getName() == "idiom_regions_open" && !LD.isVolatile();
}

/// True for a copy or fill left inline by routeThroughRuntime: it runs only
/// when no region is open on any thread, so never inside a region (the
/// thread that opened the region counted it before the check, which reads
/// the count on that thread).
bool isInlineCopy(const MemIntrinsic &MI) {
  return MI.getMetadata(InlineCopyMD) != nullptr;
}

/// Why a call to \p Name (empty: through a pointer) keeps a region out, as
/// a verb phrase ("calls printf, which ...").
std::string unknownCall(StringRef Name) {
  if (Name == "idiom_run" || Name == "idiom_run_csr")
    return "has an idiom call that this pass did not stitch";
  return "calls " +
         (Name.empty() ? std::string("a function through a pointer")
                       : Name.str()) +
         ", which may access an idiom's buffer";
}

/// The preheader of the fallback nest that a decline of \p SC runs: its
/// fallback block, or the end of a chain of unconditional branches from it
/// (the unchanged copy that a distributed loop's or a row-temporaries
/// nest's decline runs, RowTemporaries.h, which its check may enter too);
/// its loop in \p Nest. Null when no fallback loop follows.
BasicBlock *fallbackPreheader(const StitchedCall &SC, LoopInfo &LI,
                              Loop *&Nest) {
  BasicBlock *B = SC.Fallback;
  for (unsigned Steps = 0; B && Steps < 4; ++Steps) {
    BasicBlock *S = B->getSingleSuccessor();
    if (!S)
      return nullptr;
    Loop *FL = LI.getLoopFor(S);
    if (FL && FL->getHeader() == S) {
      Nest = FL;
      return FL->getLoopPreheader() == B && isFallbackLoop(*FL) ? B : nullptr;
    }
    if (FL != LI.getLoopFor(B))
      return nullptr;
    B = S;
  }
  return nullptr;
}

/// Everything the check of one loop needs.
class RegionCheck {
public:
  RegionCheck(Loop &L, LoopInfo &LI,
              const std::vector<const StitchedCall *> &Calls,
              const TargetLibraryInfo *TLI, ScalarEvolution *SE,
              const DominatorTree &DT)
      : L(L), LI(LI), Calls(Calls), TLI(TLI), SE(SE), DT(DT) {}

  /// True when \p L can be a region; otherwise \p Why says why not.
  bool check(std::string &Why);

  /// The memory intrinsics of the loop that may touch an idiom buffer: run
  /// through the runtime once the region is placed.
  const SmallVector<MemIntrinsic *, 4> &copies() const { return Copies; }

  /// The host loads and stores that may touch an idiom buffer: routed
  /// through the runtime once the region is placed (RegionHostAccess.h).
  const SmallVector<HostAccessRoute, 4> &hostAccesses() const {
    return Routes;
  }

  /// The loop's idiom buffers, host accesses and calls to functions of the
  /// module, for resolveRegion (RegionSummaries.h).
  const RegionFacts &facts() const { return Facts; }

private:
  Loop &L;
  LoopInfo &LI;
  const std::vector<const StitchedCall *> &Calls;
  const TargetLibraryInfo *TLI;
  ScalarEvolution *SE;
  const DominatorTree &DT; // of the function as it is now (visit)
  RegionFacts Facts;
  DenseMap<const Value *, unsigned> LocalIds;
  SmallPtrSet<const BasicBlock *, 32> Exempt;
  SmallPtrSet<const Value *, 8> Idioms;
  SmallPtrSet<const Value *, 8> AllObjs, WrittenObjs;
  bool AllKnown = true, WrittenKnown = true;
  bool CallsModule = false; // the loop calls functions of the module
  SmallVector<MemIntrinsic *, 4> Copies;
  /// Loads and stores that accessOK refused, with its reason.
  SmallVector<std::pair<Instruction *, std::string>, 4> HostAccesses;
  SmallVector<HostAccessRoute, 4> Routes;

  bool routeHostAccesses(std::string &Why);
  bool accessOK(const Value *Ptr, bool IsStore, std::string &Why);
  bool instructionOK(const Instruction &I, std::string &Why);
  RegionObj objectOf(const Value *O);
  void record(std::vector<ObjUse> &To, const Value *Ptr, bool Write);
};

RegionObj RegionCheck::objectOf(const Value *O) {
  RegionObj R;
  if (!isIdentifiedObject(O))
    return R; // Unknown: also an interposable alias, which may be any global
  if (auto *G = dyn_cast<GlobalValue>(O)) {
    R.Kind = RegionObj::Global;
    R.G = G;
  } else {
    R.Kind = RegionObj::Local;
    R.N = LocalIds.try_emplace(O, LocalIds.size()).first->second;
  }
  return R;
}

void RegionCheck::record(std::vector<ObjUse> &To, const Value *Ptr,
                         bool Write) {
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs);
  for (const Value *O : Objs)
    To.push_back({objectOf(O), Write});
}

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
  // No pointer reaches a global whose address is never taken, so a buffer
  // the plugin cannot identify is not in it (UnescapedGlobals.h).
  if ((IsStore ? !AllKnown : !WrittenKnown) &&
      !all_of(Objs, isUnescapedGlobal)) {
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
  // Kept for the idioms of the functions the loop calls.
  for (const Value *O : Objs)
    Facts.Accesses.push_back({objectOf(O), IsStore});
  return true;
}

bool RegionCheck::instructionOK(const Instruction &I, std::string &Why) {
  if (isa<UnreachableInst>(I)) {
    Why = "the loop body has an unreachable exit (after a call that does not "
          "return, or undefined behaviour)";
    return false;
  }
  if (auto *LD = dyn_cast<LoadInst>(&I)) {
    if (isRegionsOpenCheck(*LD))
      return true;
    if (!LD->isSimple()) {
      Why = "the loop has a volatile or atomic load";
      return false;
    }
    std::string Refused;
    if (!accessOK(LD->getPointerOperand(), false, Refused))
      HostAccesses.push_back({const_cast<LoadInst *>(LD), Refused});
    return true;
  }
  if (auto *ST = dyn_cast<StoreInst>(&I)) {
    if (!ST->isSimple()) {
      Why = "the loop has a volatile or atomic store";
      return false;
    }
    std::string Refused;
    if (!accessOK(ST->getPointerOperand(), true, Refused))
      HostAccesses.push_back({const_cast<StoreInst *>(ST), Refused});
    return true;
  }
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (Idioms.count(CB))
      return true;
    if (!isa<CallInst>(CB) || CB->isInlineAsm()) {
      Why = "the loop has an invoke, callbr or inline assembly";
      return false;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
      if (isMarkerIntrinsic(*II))
        return true;
      if (auto *MI = dyn_cast<MemIntrinsic>(II)) {
        if (isInlineCopy(*MI))
          return true;
        if (MI->isVolatile()) {
          Why = "the loop has a volatile memory intrinsic";
          return false;
        }
        auto *MT = dyn_cast<MemTransferInst>(MI);
        bool Routable =
            isa<MemCpyInst>(MI) || isa<MemMoveInst>(MI) || isa<MemSetInst>(MI);
        // The buffers of the callees are not known yet: every copy goes
        // through the runtime, which is right whatever the table holds.
        if (Routable && CallsModule) {
          Copies.push_back(const_cast<MemIntrinsic *>(MI));
          return true;
        }
        std::string Ignored;
        if (accessOK(MI->getRawDest(), true, Ignored) &&
            (!MT || accessOK(MT->getRawSource(), false, Ignored)))
          return true;
        // May touch an idiom buffer: the runtime copies (placeRegion).
        if (Routable) {
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
    if (isRuntimeBookkeeping(Name) || isRoutedAccessCall(Name))
      return true;
    // A library or runtime query function that touches memory only through
    // its pointer arguments: those are checked as the loop's own accesses.
    std::vector<std::pair<const Value *, bool>> Ptrs;
    if (knownHostCall(*CB, TLI, Ptrs)) {
      for (auto &[P, Write] : Ptrs)
        if (!accessOK(P, Write, Why)) {
          Why += " (an argument of " + Name.str() + ")";
          return false;
        }
      return true;
    }
    // A function of the module: its summary decides (resolveRegion).
    if (Function *Callee = regionCallee(*CB)) {
      CalleeFacts C;
      C.Callee = Callee;
      for (const Use &A : CB->args()) {
        C.Args.emplace_back();
        if (!A->getType()->isPointerTy())
          continue;
        SmallVector<const Value *, 4> Objs;
        getUnderlyingObjects(A, Objs);
        for (const Value *O : Objs)
          C.Args.back().push_back(objectOf(O));
      }
      Facts.Calls.push_back(std::move(C));
      return true;
    }
    Why = "the loop " + unknownCall(Name);
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
    Loop *FL = nullptr;
    if (!SC->Fallback || !fallbackPreheader(*SC, LI, FL)) {
      Why = "an idiom's fallback loop is not where stitching left it";
      return false;
    }
    for (BasicBlock *BB : FL->blocks())
      Exempt.insert(BB);
    Exempt.insert(SC->HintBlocks.begin(), SC->HintBlocks.end());
    for (auto &[V, Written] : SC->Buffers) {
      if (!V) {
        Why = "an idiom's buffer pointer was deleted";
        return false;
      }
      record(Facts.Buffers, V, Written);
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
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I); CB && !Exempt.count(BB))
        CallsModule |= regionCallee(*CB) != nullptr;
  for (BasicBlock *BB : L.blocks()) {
    // A block no path reaches never runs (the nest that a declined
    // distributed part no longer enters, RowTemporaries.h).
    if (Exempt.count(BB) || !DT.isReachableFromEntry(BB))
      continue;
    for (Instruction &I : *BB)
      if (!instructionOK(I, Why))
        return false;
  }
  return routeHostAccesses(Why);
}

/// Plans the routing of the loads and stores that may touch an idiom
/// buffer (RegionHostAccess.h); false, with the access's reason and why it
/// cannot be routed, when one cannot.
bool RegionCheck::routeHostAccesses(std::string &Why) {
  SmallPtrSet<const Instruction *, 4> Routed;
  for (MemIntrinsic *MI : Copies)
    Routed.insert(MI);
  auto TouchesDevice = [&](const Instruction &J) {
    auto *CB = dyn_cast<CallBase>(&J);
    return Exempt.count(J.getParent()) || Routed.count(&J) ||
           (CB && (Idioms.count(CB) || regionCallee(*CB)));
  };
  // A CSR SpMV's runtime call checks its row pointers and column indices
  // on the host and memoises the check for the region (csr.c): host stores
  // stay out of its regions.
  bool Csr = any_of(Idioms, [](const Value *V) {
    return calleeName(*cast<CallBase>(V)) == "idiom_run_csr";
  });
  for (auto &[I, Refused] : HostAccesses) {
    if (Csr && isa<StoreInst>(I)) {
      Why = Refused + ", in a loop with a CSR SpMV";
      return false;
    }
    HostAccessRoute R;
    std::string Where;
    if (!planHostAccess(*I, L, LI, SE, TouchesDevice, R, Where)) {
      Why = Refused + ", in " + Where;
      return false;
    }
    Routes.push_back(R);
  }
  return true;
}

/// Routes the memcpy/memmove/memset intrinsics of \p Group (consecutive in
/// one block, see groupCopies) through the runtime's region-aware copy
/// (idiom_region_memmove(ptr, ptr, i64) or idiom_region_memset(ptr, i32,
/// i64), idiomrt.h), which has their semantics whether or not the ranges
/// are on the device, while some thread is inside a region
/// (`idiom_regions_open`, read with a relaxed atomic load); with none open
/// the intrinsics run as they were, inline (a struct copy in an FFT stage
/// loop routed unconditionally made nas-parboil/fft.c 0.61x). One load and
/// branch for the group: a swap of two structs through a temporary is
/// three copies, and a check each cost nas-parboil/fft.c's bit reversal 2%
/// more instructions with every site on the host (bench/host_overhead.sh).
/// \p LI is kept up to date.
void routeThroughRuntime(ArrayRef<MemIntrinsic *> Group, LoopInfo &LI) {
  MemIntrinsic *First = Group.front();
  Module &M = *First->getModule();
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx), *Void = Type::getVoidTy(Ctx);
  GlobalVariable *Open = M.getNamedGlobal("idiom_regions_open");
  if (!Open)
    Open = new GlobalVariable(M, I32, /*isConstant=*/false,
                              GlobalValue::ExternalLinkage, nullptr,
                              "idiom_regions_open");
  IRBuilder<> G(First);
  LoadInst *N = G.CreateAlignedLoad(I32, Open, Align(4), "idiom.regions");
  N->setAtomic(AtomicOrdering::Monotonic);
  Instruction *InlineT = nullptr, *RoutedT = nullptr;
  SplitBlockAndInsertIfThenElse(G.CreateICmpEQ(N, G.getInt32(0)), First,
                                &InlineT, &RoutedT, nullptr, nullptr, &LI);
  for (MemIntrinsic *Orig : Group) {
    Orig->moveBefore(InlineT);
    Orig->setMetadata(InlineCopyMD, MDNode::get(Ctx, {}));
    auto *MI = cast<MemIntrinsic>(Orig->clone());
    MI->insertBefore(RoutedT);
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
}

/// Splits the routed copies \p Copies into groups that one check of
/// `idiom_regions_open` covers: copies of one block with nothing between
/// them but instructions without side effects that can run before the
/// group's first copy (address arithmetic, which is moved there). Nothing
/// between them can synchronize with another thread (no call, atomic or
/// fence), so a region another thread opens between two copies of a group
/// races with the program's own accesses, as it would between a check and
/// its copy.
std::vector<SmallVector<MemIntrinsic *, 4>>
groupCopies(ArrayRef<MemIntrinsic *> Copies) {
  SmallPtrSet<MemIntrinsic *, 8> Routed(Copies.begin(), Copies.end());
  SmallPtrSet<MemIntrinsic *, 8> Done;
  std::vector<SmallVector<MemIntrinsic *, 4>> Groups;
  for (MemIntrinsic *First : Copies) {
    if (!Done.insert(First).second)
      continue;
    SmallVector<MemIntrinsic *, 4> G{First};
    SmallVector<Instruction *, 8> Movable;
    for (Instruction *I = First->getNextNode(); I && !I->isTerminator();
         I = I->getNextNode()) {
      auto *MI = dyn_cast<MemIntrinsic>(I);
      if (MI && Routed.count(MI) && !Done.count(MI)) {
        for (Instruction *Mv : Movable)
          Mv->moveBefore(First);
        Movable.clear();
        G.push_back(MI);
        Done.insert(MI);
        continue;
      }
      // A side-effect-free instruction whose operands are there before the
      // group (or are moved there with it) may run before it. An operand
      // of another block dominates the whole block (SSA; I is no phi).
      bool Ok = !I->mayHaveSideEffects() && !I->mayReadFromMemory() &&
                !isa<PHINode>(I) && isSafeToSpeculativelyExecute(I);
      for (Value *Op : I->operands())
        if (auto *OI = dyn_cast<Instruction>(Op))
          Ok &= OI->getParent() != I->getParent() || OI->comesBefore(First) ||
                llvm::is_contained(Movable, OI);
      if (!Ok)
        break;
      Movable.push_back(I);
    }
    Groups.push_back(std::move(G));
  }
  return Groups;
}

/// Declares the runtime's region entry point \p Name (void(void), nounwind).
FunctionCallee declareRegionCall(Module &M, StringRef Name) {
  FunctionType *FT = FunctionType::get(Type::getVoidTy(M.getContext()), false);
  FunctionCallee C = M.getOrInsertFunction(Name, FT);
  if (auto *F = dyn_cast<Function>(C.getCallee()))
    F->setDoesNotThrow();
  return C;
}

/// Inserts the sync of \p SC's fallback nest at the start of its preheader
/// (fallbackPreheader) unless \p Synced has it already:
/// idiom_region_sync_args with the call's own arguments where the nest
/// touches only their ranges, else with the nest's own ranges where SCEV
/// bounds them (with \p SE, whose dominator tree \p DT is brought up to
/// date first; PartialSync.h), else idiom_region_sync.
void syncBefore(const StitchedCall &SC, LoopInfo &LI,
                SmallPtrSetImpl<BasicBlock *> &Synced, ScalarEvolution *SE,
                DominatorTree *DT) {
  Loop *FL = nullptr;
  BasicBlock *Fallback = SC.Fallback ? fallbackPreheader(SC, LI, FL) : nullptr;
  if (!Fallback || !Synced.insert(Fallback).second)
    return;
  if (Fallback == SC.Fallback && FL && emitSyncArgs(SC, *FL))
    return;
  if (FL && SE && DT && Fallback == FL->getLoopPreheader()) {
    DT->recalculate(*Fallback->getParent());
    if (emitSyncOwnRanges(SC, *FL, *SE))
      return;
  }
  IRBuilder<> B(Fallback, Fallback->getFirstInsertionPt());
  B.CreateCall(declareRegionCall(*Fallback->getModule(), "idiom_region_sync"));
}

/// Inserts the runtime calls of a region around \p L; with \p Facts, a
/// pending region (RegionSummaries.h) that finalizePendingRegions decides,
/// a fallback of the pending region \p Parent when that is not 0, whose
/// remark then says \p Counts. Returns the pending region's Id (0 for a
/// region placed now).
unsigned placeRegion(Loop &L, LoopInfo &LI,
                     const std::vector<const StitchedCall *> &Calls,
                     SmallPtrSetImpl<BasicBlock *> &Synced,
                     ScalarEvolution *SE, DominatorTree *DT,
                     const RegionFacts *Facts = nullptr, unsigned Parent = 0,
                     const RegionCounts *Counts = nullptr) {
  BasicBlock *PH = L.getLoopPreheader();
  Module &M = *PH->getModule();
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  unsigned Id = 0;
  if (Facts) {
    Id = insertPendingBegin(PH->getTerminator(), *Facts, L.getStartLoc(),
                            Parent, Counts);
    for (BasicBlock *E : Exits)
      insertPendingEnd(&*E->getFirstInsertionPt(), Id);
  } else {
    IRBuilder<> B(PH->getTerminator());
    B.CreateCall(declareRegionCall(M, "idiom_region_begin"));
    for (BasicBlock *E : Exits) {
      B.SetInsertPoint(E, E->getFirstInsertionPt());
      B.CreateCall(declareRegionCall(M, "idiom_region_end"));
    }
  }
  for (const StitchedCall *SC : Calls)
    syncBefore(*SC, LI, Synced, SE, DT);
  return Id;
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

/// True when \p L calls a function of the module whose summary has idiom
/// buffers or calls or, unless \p KnownOnly, one not summarised yet.
bool callsIdiomFunctions(const Loop &L, bool KnownOnly) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *F = regionCallee(*CB)) {
          if (!hasSummary(*F)) {
            if (KnownOnly)
              continue;
            return true;
          }
          if (mayRunIdioms(*F))
            return true;
        }
  return false;
}

struct VisitContext {
  Function &F;
  LoopInfo &LI;
  const std::vector<StitchedCall> &All;
  RemarkSink &Remarks;
  const TargetLibraryInfo *TLI;
  ScalarEvolution *SE;
  DominatorTree &DT;
  SmallPtrSet<BasicBlock *, 8> Synced;
  /// The pending region whose fallbacks are being placed (0: none): the
  /// regions placed now wait for its decision (insertPendingBegin).
  unsigned Parent = 0;
};

unsigned visit(Loop &L, VisitContext &Ctx) {
  if (isFallbackLoop(L))
    return 0;
  std::vector<const StitchedCall *> Calls = callsIn(L, Ctx.All);
  if (Calls.empty() && !callsIdiomFunctions(L, /*KnownOnly=*/false))
    return 0;
  std::string Why;
  RegionCheck RC(L, Ctx.LI, Calls, Ctx.TLI, Ctx.SE, Ctx.DT);
  bool Ok = RC.check(Why), Pending = false, HasIdioms = !Calls.empty();
  const RegionFacts &Facts = RC.facts();
  std::vector<Function *> Reached;
  if (Ok && !Facts.Calls.empty()) {
    // Calls to functions of the module: decided now when every callee has
    // been visited, else at OptimizerLast (finalizePendingRegions).
    Pending = !allSummarized(Facts);
    if (!Pending)
      Ok = resolveRegion(Facts, HasIdioms, Why, &Reached) && HasIdioms;
  }
  // A fallback of an enclosing pending region waits for its decision.
  bool Fallback = Ctx.Parent != 0;
  if (Ok) {
    RegionCounts Counts;
    Counts.Idioms = Calls.size();
    Counts.Callees = Facts.Calls.size();
    Counts.HostAccesses = RC.hostAccesses().size();
    unsigned Id = placeRegion(L, Ctx.LI, Calls, Ctx.Synced, Ctx.SE, &Ctx.DT,
                              Pending || Fallback ? &Facts : nullptr,
                              Ctx.Parent, Fallback ? &Counts : nullptr);
    routeHostAccesses(RC.hostAccesses(), Ctx.SE);
    for (ArrayRef<MemIntrinsic *> G : groupCopies(RC.copies()))
      routeThroughRuntime(G, Ctx.LI);
    if (Pending)
      for (const CalleeFacts &C : Facts.Calls)
        Reached.push_back(C.Callee);
    markRegionCallees(Reached, /*Final=*/!Pending && !Fallback);
    if (!Pending && !Fallback)
      Ctx.Remarks.emit([&] {
        OptimizationRemark R(RemarkPass, "ResidencyRegion", L.getStartLoc(),
                             L.getHeader());
        describeRegion(R, Counts);
        return R;
      });
    unsigned N = 1;
    if (Pending) {
      // When this region fails at OptimizerLast, the loops inside it get
      // the regions they would have had had it not been tried: they are
      // placed now as its fallbacks, on the IR with its copies routed.
      Ctx.DT.recalculate(Ctx.F);
      if (Ctx.SE)
        Ctx.SE->forgetAllLoops();
      unsigned Saved = Ctx.Parent;
      Ctx.Parent = Id;
      for (Loop *Sub : L.getSubLoops())
        N += visit(*Sub, Ctx);
      Ctx.Parent = Saved;
    }
    return N;
  }
  // A fallback's missed remark would contradict the enclosing region when
  // that one forms; finalizePendingRegions reports pending fallbacks.
  if (!Fallback && (HasIdioms || callsIdiomFunctions(L, /*KnownOnly=*/true)))
    Ctx.Remarks.emit([&] {
      return OptimizationRemarkMissed(RemarkPass, "NoResidencyRegion",
                                      L.getStartLoc(), L.getHeader())
             << "no residency region: " << ore::NV("Reason", Why);
    });
  unsigned N = 0;
  for (Loop *Sub : L.getSubLoops())
    N += visit(*Sub, Ctx);
  return N;
}

/// True for an object in a function's frame: an alloca, or the copy of a
/// byval argument.
bool inFrame(const Value *O) {
  auto *A = dyn_cast<Argument>(O);
  return isa<AllocaInst>(O) || (A && A->hasPassPointeeByValueCopyAttr());
}

/// Maps an underlying object of \p F to a summary object; false when it is
/// of no known allocation. Objects that no caller's buffer can be (\p F's
/// frame, constant globals, the runtime's strings) set \p Skip.

bool summaryObject(const Value *O, RegionObj &R, bool &Skip) {
  Skip = inFrame(O);
  if (Skip)
    return true;
  if (auto *A = dyn_cast<Argument>(O)) {
    R.Kind = RegionObj::Arg;
    R.N = A->getArgNo();
    return true;
  }
  if (auto *G = dyn_cast<GlobalValue>(O)) {
    if (!isIdentifiedObject(O))
      return false; // an interposable alias: possibly any global
    if (neverABuffer(O)) {
      Skip = true;
      return true;
    }
    R.Kind = RegionObj::Global;
    R.G = G;
    return true;
  }
  Skip = neverABuffer(O);
  return Skip;
}

/// Builds \p F's summary (RegionSummaries.h) into \p S; false, with \p Why,
/// when \p F cannot run inside a caller's region.
bool summarize(Function &F, LoopInfo &LI, const std::vector<StitchedCall> &All,
               const TargetLibraryInfo *TLI, RegionFacts &S, std::string &Why) {
  if (!F.hasExactDefinition() || F.isInterposable()) {
    Why = "may be replaced by another definition";
    return false;
  }
  SmallPtrSet<const BasicBlock *, 32> Exempt;
  SmallPtrSet<const Value *, 8> Idioms;
  for (const StitchedCall &SC : All) {
    Idioms.insert(SC.Call);
    if (SC.CheckCall)
      Idioms.insert(SC.CheckCall);
    Loop *FL = nullptr;
    if (!SC.Call || !SC.Fallback || !fallbackPreheader(SC, LI, FL)) {
      Why = "has an idiom whose fallback is not where stitching left it";
      return false;
    }
    for (BasicBlock *BB : FL->blocks())
      Exempt.insert(BB);
    Exempt.insert(SC.HintBlocks.begin(), SC.HintBlocks.end());
    for (auto &[V, Written] : SC.Buffers) {
      SmallVector<const Value *, 4> Objs;
      if (V)
        getUnderlyingObjects(V, Objs);
      for (const Value *O : Objs) {
        RegionObj R;
        bool Skip;
        if (!summaryObject(O, R, Skip) || inFrame(O)) {
          Why = inFrame(O) ? "runs an idiom on a local array"
                                   : "runs an idiom on memory that is not an "
                                     "argument or a global";
          return false;
        }
        if (!Skip) // else a constant global: never written
          S.Buffers.push_back({R, Written});
      }
      if (!V) {
        Why = "has an idiom whose buffer was deleted";
        return false;
      }
    }
  }
  auto Access = [&](const Value *Ptr, bool Write) {
    SmallVector<const Value *, 4> Objs;
    getUnderlyingObjects(Ptr, Objs);
    for (const Value *O : Objs) {
      RegionObj R;
      bool Skip;
      if (!summaryObject(O, R, Skip)) {
        Why = std::string(Write ? "stores to" : "loads from") +
              " memory through a pointer the plugin cannot follow";
        return false;
      }
      if (!Skip)
        S.Accesses.push_back({R, Write});
    }
    return true;
  };
  // A block no path reaches never runs (the nest that a declined
  // row-temporaries or distributed part no longer enters), as in
  // RegionCheck::check; the CFG has changed since the dominator tree was
  // built, so the walk is fresh.
  SmallPtrSet<const BasicBlock *, 32> Reachable;
  for (BasicBlock *BB : depth_first(&F.getEntryBlock()))
    Reachable.insert(BB);
  for (BasicBlock &BB : F) {
    if (Exempt.count(&BB) || !Reachable.count(&BB))
      continue;
    for (Instruction &I : BB) {
      if (isa<UnreachableInst>(I) || I.isEHPad() || isa<ResumeInst>(I)) {
        Why = "may not return normally";
        return false;
      }
      if (auto *LD = dyn_cast<LoadInst>(&I)) {
        if (isRegionsOpenCheck(*LD))
          continue;
        if (!LD->isSimple() || !Access(LD->getPointerOperand(), false))
          return Why.empty() ? (Why = "has a volatile or atomic load", false)
                             : false;
        continue;
      }
      if (auto *ST = dyn_cast<StoreInst>(&I)) {
        if (!ST->isSimple() || !Access(ST->getPointerOperand(), true))
          return Why.empty() ? (Why = "has a volatile or atomic store", false)
                             : false;
        continue;
      }
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB) {
        if (I.mayReadOrWriteMemory()) {
          Why = std::string("has a ") + I.getOpcodeName() +
                " instruction, which accesses memory";
          return false;
        }
        continue;
      }
      if (Idioms.count(CB))
        continue;
      if (!isa<CallInst>(CB) || CB->isInlineAsm()) {
        Why = "has an invoke, callbr or inline assembly";
        return false;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
        if (isMarkerIntrinsic(*II))
          continue;
        if (auto *MI = dyn_cast<MemIntrinsic>(II)) {
          if (isInlineCopy(*MI))
            continue; // inside a caller's region the routed copy runs
          auto *MT = dyn_cast<MemTransferInst>(MI);
          if (MI->isVolatile()) {
            Why = "has a volatile memory intrinsic";
            return false;
          }
          if (!Access(MI->getRawDest(), true) ||
              (MT && !Access(MT->getRawSource(), false)))
            return false;
          continue;
        }
      }
      if (CB->doesNotAccessMemory() && CB->doesNotThrow() &&
          !CB->doesNotReturn())
        continue;
      StringRef Name = calleeName(*CB);
      // The runtime's region entry points work on the table (idiomrt.h).
      if (isRuntimeBookkeeping(Name) || isRoutedAccessCall(Name) ||
          Name == "idiom_region_begin" || Name == "idiom_region_end")
        continue;
      std::vector<std::pair<const Value *, bool>> Ptrs;
      if (knownHostCall(*CB, TLI, Ptrs)) {
        for (auto &[P, Write] : Ptrs)
          if (!Access(P, Write))
            return false;
        continue;
      }
      // A function of the module: followed through its own summary when a
      // region is resolved.
      if (Function *Callee = regionCallee(*CB)) {
        CalleeFacts C;
        C.Callee = Callee;
        for (const Use &A : CB->args()) {
          C.Args.emplace_back();
          SmallVector<const Value *, 4> Objs;
          if (A->getType()->isPointerTy())
            getUnderlyingObjects(A, Objs);
          for (const Value *O : Objs) {
            RegionObj R;
            bool Skip;
            if (inFrame(O))
              R.Kind = RegionObj::Frame;
            else if (summaryObject(O, R, Skip) && Skip)
              continue;
            C.Args.back().push_back(R); // Unknown when not mapped
          }
        }
        S.Calls.push_back(std::move(C));
        continue;
      }
      Why = unknownCall(Name);
      return false;
    }
  }
  return true;
}

} // namespace

bool hasResidencyRegions(const Function &F) {
  if (isRegionCallee(F) || hasPendingRegions(F))
    return true;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (calleeName(*CB) == "idiom_region_begin")
          return true;
  return false;
}

unsigned formResidencyRegions(Function &F, LoopInfo &LI,
                              const std::vector<StitchedCall> &Calls,
                              RemarkSink &Remarks,
                              const TargetLibraryInfo *TLI) {
  if (!Residency)
    return 0;
  // Scalar evolution of the function as stitching left it, for the ranges
  // of inner host loops (RegionHostAccess.h).
  DominatorTree DT(F);
  AssumptionCache AC(F);
  std::unique_ptr<ScalarEvolution> SE;
  if (TLI)
    SE = std::make_unique<ScalarEvolution>(
        F, const_cast<TargetLibraryInfo &>(*TLI), AC, DT, LI);
  VisitContext Ctx{F, LI, Calls, Remarks, TLI, SE.get(), DT, {}};
  unsigned N = 0;
  for (Loop *L : LI.getTopLevelLoops())
    N += visit(*L, Ctx);
  // The summary that regions of F's callers use.
  RegionFacts S;
  std::string Why;
  if (!summarize(F, LI, Calls, TLI, S, Why)) {
    setSummary(F, nullptr, Why);
    return N;
  }
  setSummary(F, &S, "");
  // Inside a caller's region the fallback nests need the host memory
  // current, as inside F's own regions.
  for (const StitchedCall &SC : Calls)
    syncBefore(SC, LI, Ctx.Synced, Ctx.SE, &Ctx.DT);
  return N;
}

} // namespace idiom
