//===- DispatchOutline.cpp - Layout of stitched dispatch paths ------------===//

#include "DispatchOutline.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

using namespace llvm;

namespace {
/// How a stitched site's dispatch path is laid out (DispatchOutline.h).
enum class DispatchLayout { Inline, Unlikely, Outline };
} // namespace

static cl::opt<DispatchLayout> Layout(
    "idiom-dispatch-layout",
    cl::desc("Where each stitched site's dispatch path (argument fill, "
             "checks, idiom_run, result combine, decline bookkeeping) goes "
             "(DispatchOutline.h)"),
    cl::values(clEnumValN(DispatchLayout::Inline, "inline",
                          "in place, as stitched"),
               clEnumValN(DispatchLayout::Unlikely, "unlikely",
                          "in place, its entry branch weighted unlikely and "
                          "its runtime calls cold"),
               clEnumValN(DispatchLayout::Outline, "outline",
                          "in an internal noinline cold function of its own")),
    cl::init(DispatchLayout::Inline));

namespace idiom {

static constexpr const char *DispatchAttr = "idiom-dispatch";
/// On a site's first dispatch call once its path is weighted (unlikely).
static constexpr const char *DoneMD = "idiom.dispatch.weighted";

bool isDispatchCall(const Instruction &I) {
  const auto *CI = dyn_cast<CallInst>(&I);
  const Function *Fn = CI ? CI->getCalledFunction() : nullptr;
  if (!Fn)
    return false;
  StringRef N = Fn->getName();
  return N == "idiom_run" || N == "idiom_run_csr" || N == "idiom_run_pair" ||
         N == "idiom_work_hint";
}

/// Where the dispatch path of the site whose first runtime call is \p First
/// begins: the first instruction of its block when that block is a branch
/// target of its own (the stitched call block, whose argument fill comes
/// before the call), else \p First.
static Instruction *dispatchStart(Instruction *First) {
  BasicBlock *BB = First->getParent();
  BasicBlock *Pred = BB->getSinglePredecessor();
  if (Pred && !BB->isEntryBlock() && Pred->getTerminator()->getNumSuccessors() > 1)
    return &*BB->getFirstNonPHIOrDbgOrAlloca();
  return First;
}

/// The blocks dominated by \p Entry, Entry first; empty when they hold a
/// cycle, a return or an exception-handling terminator (never a stitched
/// dispatch path: the loop's and the function's blocks are reached without
/// it).
static SmallVector<BasicBlock *, 8> dominatedRegion(BasicBlock *Entry,
                                                    DominatorTree &DT) {
  SmallVector<BasicBlock *, 8> Region;
  SmallVector<DomTreeNode *, 8> Work{DT.getNode(Entry)};
  while (!Work.empty()) {
    DomTreeNode *N = Work.pop_back_val();
    Region.push_back(N->getBlock());
    for (DomTreeNode *C : N->children())
      Work.push_back(C);
  }
  for (BasicBlock *BB : Region) {
    const Instruction *T = BB->getTerminator();
    if (!isa<BranchInst>(T) && !isa<SwitchInst>(T))
      return {};
    for (BasicBlock *S : successors(BB))
      if (DT.dominates(S, BB)) // a back edge
        return {};
  }
  return Region;
}

/// Weights the branch into the dispatch path \p Region (Entry first) as
/// unlikely and marks its runtime calls cold; true when it found the branch.
static bool markUnlikely(ArrayRef<BasicBlock *> Region) {
  BasicBlock *Entry = Region.front();
  BasicBlock *Pred = Entry->getSinglePredecessor();
  auto *Br = Pred ? dyn_cast<BranchInst>(Pred->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional())
    return false;
  MDBuilder MDB(Entry->getContext());
  Br->setMetadata(LLVMContext::MD_prof, Br->getSuccessor(0) == Entry
                                            ? MDB.createUnlikelyBranchWeights()
                                            : MDB.createLikelyBranchWeights());
  for (BasicBlock *BB : Region)
    for (Instruction &I : *BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Fn = CI->getCalledFunction();
            Fn && Fn->getName().starts_with("idiom_"))
          CI->addFnAttr(Attribute::Cold);
  return true;
}

/// Outlines the dispatch path that starts at \p First, or with
/// -idiom-dispatch-layout=unlikely weights it; true on success.
static bool outlineOne(Instruction *First) {
  Function &F = *First->getFunction();
  Instruction *Start = dispatchStart(First);
  BasicBlock *Entry = Start->getParent();
  if (Start != &*Entry->getFirstNonPHIOrDbgOrAlloca() || Entry->isEntryBlock())
    Entry = Entry->splitBasicBlock(Start, "idiom.dispatch");
  DominatorTree DT(F);
  SmallVector<BasicBlock *, 8> Region = dominatedRegion(Entry, DT);
  if (Region.empty())
    return false;
  if (Layout == DispatchLayout::Unlikely)
    return markUnlikely(Region);
  CodeExtractor CE(Region, &DT, /*AggregateArgs=*/false, nullptr, nullptr,
                   nullptr, /*AllowVarArgs=*/false, /*AllowAlloca=*/true,
                   nullptr, "idiom.dispatch");
  if (!CE.isEligible())
    return false;
  // The argument, size and result arrays that only the path uses (the
  // stitched code allocates them in the entry block) go with it: moved to
  // its entry here, to the new function's entry block after.
  SmallPtrSet<BasicBlock *, 8> InRegion(Region.begin(), Region.end());
  SmallVector<AllocaInst *, 4> Moved;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I);
        AI && AI->isStaticAlloca() && llvm::all_of(AI->users(), [&](User *U) {
          auto *UI = dyn_cast<Instruction>(U);
          return UI && InRegion.contains(UI->getParent());
        }))
      Moved.push_back(AI);
  for (AllocaInst *AI : Moved)
    AI->moveBefore(&*Entry->getFirstInsertionPt());
  CodeExtractorAnalysisCache CEAC(F);
  Function *Out = CE.extractCodeRegion(CEAC);
  if (!Out) {
    for (AllocaInst *AI : Moved)
      AI->moveBefore(&*F.getEntryBlock().getFirstInsertionPt());
    return false;
  }
  // The path runs at most once per call (no cycle in it): its arrays are
  // static allocas of the new function.
  for (AllocaInst *AI : Moved)
    AI->moveBefore(&*Out->getEntryBlock().getFirstInsertionPt());
  Out->addFnAttr(Attribute::NoInline);
  Out->addFnAttr(Attribute::Cold);
  Out->addFnAttr(DispatchAttr);
  return true;
}

SmallVector<Instruction *, 8> firstDispatchCalls(Function &F,
                                                 const DominatorTree &DT) {
  SmallVector<Instruction *, 8> Seeds, Firsts;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (isDispatchCall(I)) {
        Seeds.push_back(&I);
        break;
      }
  for (Instruction *I : Seeds)
    if (llvm::none_of(Seeds, [&](Instruction *J) {
          return J != I && DT.dominates(J->getParent(), I->getParent());
        }))
      Firsts.push_back(I);
  return Firsts;
}

unsigned outlineDispatch(Module &M) {
  if (Layout == DispatchLayout::Inline)
    return 0;
  // The first dispatch call of each site, per function: a site's later
  // calls are in the blocks its first one dominates, outlined with it.
  std::vector<WeakTrackingVH> Firsts;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(DispatchAttr))
      continue;
    DominatorTree DT(F);
    for (Instruction *I : firstDispatchCalls(F, DT))
      Firsts.push_back(I);
  }
  unsigned N = 0;
  for (WeakTrackingVH &V : Firsts) {
    auto *I = dyn_cast_or_null<Instruction>(static_cast<Value *>(V));
    // Gone or moved: an earlier site's region held it (a check's block
    // dominates its idiom's).
    if (!I || I->getFunction()->hasFnAttribute(DispatchAttr) ||
        I->getMetadata(DoneMD))
      continue;
    if (Layout == DispatchLayout::Unlikely)
      I->setMetadata(DoneMD, MDNode::get(M.getContext(), {}));
    N += outlineOne(I);
  }
  return N;
}

} // namespace idiom
