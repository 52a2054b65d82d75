//===- SiteAddresses.cpp - Global addresses cut at stitched sites ---------===//

#include "SiteAddresses.h"
#include "DispatchOutline.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
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
    cl::desc("Give each stitched site outside loops its own alias of the "
             "global variables that the code after it shares with the code "
             "before it, so the back end does not keep their addresses live "
             "across the site (SiteAddresses.h)"));

namespace idiom {

/// A global variable whose address an internal alias may stand for
/// (SiteAddresses.h): defined here, bound locally, no comdat, plain.
static bool isEligible(const GlobalVariable &GV) {
  GlobalValue::LinkageTypes L = GV.getLinkage();
  StringRef N = GV.getName();
  return !GV.isDeclaration() && GV.isDSOLocal() && !GV.isThreadLocal() &&
         !GV.hasComdat() && GV.getAddressSpace() == 0 &&
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

/// The blocks where a site's aliases apply: the start (immediate dominator
/// of the site's first dispatch call's block, the host-hint check) of each
/// site of \p F outside loops, in no particular order.
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

/// Cuts the shared global addresses of \p F at its sites (SiteAddresses.h);
/// \p Aliases holds the alias of each (global, start) pair made so far.
static unsigned cutFunction(
    Function &F,
    DenseMap<std::pair<GlobalVariable *, BasicBlock *>, GlobalAlias *> &Aliases) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  SmallVector<BasicBlock *, 4> Starts = siteStarts(F, DT, LI);
  if (Starts.empty())
    return 0;
  // Each reachable block's innermost start: the one the others that
  // dominate it also dominate.
  DenseMap<BasicBlock *, BasicBlock *> SiteOf;
  for (BasicBlock &BB : F) {
    if (!DT.isReachableFromEntry(&BB))
      continue;
    BasicBlock *Best = nullptr;
    for (BasicBlock *H : Starts)
      if (DT.dominates(H, &BB) && (!Best || DT.dominates(Best, H)))
        Best = H;
    if (Best)
      SiteOf[&BB] = Best;
  }
  // The users of each eligible global, in instruction order.
  MapVector<GlobalVariable *, SmallVector<Instruction *, 8>> Users;
  for (BasicBlock &BB : F) {
    if (!DT.isReachableFromEntry(&BB))
      continue;
    for (Instruction &I : BB) {
      SmallVector<GlobalVariable *, 2> Gs;
      for (Value *Op : I.operands())
        if (auto *C = dyn_cast<Constant>(Op))
          collectGlobals(C, Gs);
      for (GlobalVariable *G : Gs)
        Users[G].push_back(&I);
    }
  }
  unsigned N = 0;
  for (auto &[G, Insts] : Users) {
    for (Instruction *I : Insts) {
      BasicBlock *H = SiteOf.lookup(I->getParent());
      if (!H)
        continue;
      // Only an address the code before the site uses too is cut.
      if (llvm::none_of(Insts, [&](Instruction *J) {
            return !DT.dominates(H, J->getParent());
          }))
        continue;
      GlobalAlias *&A = Aliases[{G, H}];
      if (!A)
        A = GlobalAlias::create(G->getValueType(), G->getAddressSpace(),
                                GlobalValue::InternalLinkage,
                                G->getName() + ".idiom.site", G, F.getParent());
      for (Use &U : I->operands())
        if (auto *C = dyn_cast<Constant>(U.get()))
          if (Constant *R = remap(C, G, A); R != C) {
            U.set(R);
            ++N;
          }
    }
  }
  return N;
}

unsigned cutSiteAddresses(Module &M) {
  if (!SiteAddressesOpt)
    return 0;
  DenseMap<std::pair<GlobalVariable *, BasicBlock *>, GlobalAlias *> Aliases;
  unsigned N = 0;
  for (Function &F : M)
    if (!F.isDeclaration())
      N += cutFunction(F, Aliases);
  return N;
}

} // namespace idiom
