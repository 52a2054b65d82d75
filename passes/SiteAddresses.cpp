//===- SiteAddresses.cpp - Global addresses cut at stitched sites ---------===//

#include "SiteAddresses.h"
#include "DispatchOutline.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool> SiteAddressesOpt(
    "idiom-site-addresses", cl::init(true),
    cl::desc("Name the global variables that the code before a "
             "function's first stitched sites shares with the code after "
             "them through an internal alias there, so the back end does not "
             "keep their addresses live across the sites (SiteAddresses.h)"));

namespace idiom {

/// A global variable whose address an internal alias may stand for
/// (SiteAddresses.h): defined here, bound locally, no comdat, plain, not a
/// mergeable constant (a string literal).
static bool isEligible(const GlobalVariable &GV) {
  GlobalValue::LinkageTypes L = GV.getLinkage();
  StringRef N = GV.getName();
  return !GV.isDeclaration() && GV.isDSOLocal() && !GV.isThreadLocal() &&
         !GV.hasComdat() && GV.getAddressSpace() == 0 &&
         !(GV.isConstant() && GV.hasGlobalUnnamedAddr()) &&
         (L == GlobalValue::ExternalLinkage ||
          L == GlobalValue::InternalLinkage ||
          L == GlobalValue::PrivateLinkage) &&
         !N.starts_with("idiom_") && !N.starts_with("idiom.") &&
         !N.starts_with("llvm.");
}

/// Adds the eligible globals that \p C is, or that its constant expressions
/// name, to \p Out.
static void collectGlobals(const Constant *C,
                           SmallVectorImpl<GlobalVariable *> &Out) {
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    if (isEligible(*GV) && !llvm::is_contained(Out, GV))
      Out.push_back(const_cast<GlobalVariable *>(GV));
    return;
  }
  if (const auto *CE = dyn_cast<ConstantExpr>(C))
    for (const Use &U : CE->operands())
      collectGlobals(cast<Constant>(U.get()), Out);
}

/// \p C with \p From replaced by \p To, inside constant expressions too.
static Constant *remap(Constant *C, GlobalVariable *From, Constant *To) {
  if (C == From)
    return To;
  auto *CE = dyn_cast<ConstantExpr>(C);
  if (!CE)
    return C;
  SmallVector<Constant *, 4> Ops;
  bool Changed = false;
  for (Use &U : CE->operands()) {
    Ops.push_back(remap(cast<Constant>(U.get()), From, To));
    Changed |= Ops.back() != U.get();
  }
  return Changed ? CE->getWithOperands(Ops) : C;
}

/// The starts of \p F's stitched sites outside loops: the immediate
/// dominator of the block of each site's first dispatch call (its host-hint
/// check), in no particular order.
static SmallVector<BasicBlock *, 4> siteStarts(Function &F,
                                               const DominatorTree &DT,
                                               const LoopInfo &LI) {
  SmallVector<BasicBlock *, 4> Starts;
  for (Instruction *I : firstDispatchCalls(F, DT)) {
    DomTreeNode *N = DT.getNode(I->getParent());
    if (!N)
      continue;
    BasicBlock *H = N->getIDom() ? N->getIDom()->getBlock() : N->getBlock();
    if (!LI.getLoopFor(H) && !llvm::is_contained(Starts, H))
      Starts.push_back(H);
  }
  return Starts;
}

/// Renames, in the code of \p F before its first sites, the globals that
/// the code after them uses too (SiteAddresses.h); \p Aliases holds the
/// alias of each global made so far.
static unsigned cutFunction(Function &F,
                            DenseMap<GlobalVariable *, GlobalAlias *> &Aliases) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  SmallVector<BasicBlock *, 4> Starts = siteStarts(F, DT, LI);
  if (Starts.empty())
    return 0;
  auto IsBefore = [&](const BasicBlock *BB) {
    return llvm::none_of(Starts,
                         [&](BasicBlock *H) { return DT.dominates(H, BB); });
  };
  // The instructions that use each eligible global, before the sites and
  // from them on.
  MapVector<GlobalVariable *, SmallVector<Instruction *, 8>> Before;
  SmallPtrSet<GlobalVariable *, 16> After;
  for (BasicBlock &BB : F) {
    if (!DT.isReachableFromEntry(&BB))
      continue;
    bool InBefore = IsBefore(&BB);
    for (Instruction &I : BB) {
      if (I.isEHPad()) // type infos stay as the personality expects them
        continue;
      SmallVector<GlobalVariable *, 2> Gs;
      for (Value *Op : I.operands())
        if (auto *C = dyn_cast<Constant>(Op))
          collectGlobals(C, Gs);
      for (GlobalVariable *G : Gs) {
        if (InBefore)
          Before[G].push_back(&I);
        else
          After.insert(G);
      }
    }
  }
  unsigned N = 0;
  for (auto &[G, Insts] : Before) {
    if (!After.contains(G))
      continue;
    GlobalAlias *&A = Aliases[G];
    if (!A)
      A = GlobalAlias::create(G->getValueType(), G->getAddressSpace(),
                              GlobalValue::InternalLinkage,
                              G->getName() + ".idiom.presite", G,
                              F.getParent());
    for (Instruction *I : Insts)
      for (Use &U : I->operands())
        if (auto *C = dyn_cast<Constant>(U.get()))
          if (Constant *R = remap(C, G, A); R != C) {
            U.set(R);
            ++N;
          }
  }
  return N;
}

unsigned cutSiteAddresses(Module &M) {
  if (!SiteAddressesOpt)
    return 0;
  DenseMap<GlobalVariable *, GlobalAlias *> Aliases;
  unsigned N = 0;
  for (Function &F : M)
    if (!F.isDeclaration())
      N += cutFunction(F, Aliases);
  return N;
}

} // namespace idiom
