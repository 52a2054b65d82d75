//===- SharedBases.cpp - One array, two grids: run-time disjointness -----===//
//
// Part of Idiom. See SharedBases.h.
//
//===----------------------------------------------------------------------===//
#include "SharedBases.h"
#include "PipelinePlacement.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace idiom {
namespace {

/// The pointer the address \p Ptr is computed from by getelementptrs of
/// \p L: the first value of the chain defined outside \p L; null when the
/// chain meets another instruction of \p L (a pointer phi).
Value *rootOf(Value *Ptr, Loop &L) {
  while (auto *I = dyn_cast<Instruction>(Ptr)) {
    if (!L.contains(I))
      return I;
    auto *G = dyn_cast<GetElementPtrInst>(I);
    if (!G)
      return nullptr;
    Ptr = G->getPointerOperand();
  }
  return Ptr;
}

/// True when every use inside \p L of \p Root, followed through the
/// getelementptrs of \p L, is the address of a load or a store: the
/// accesses findSharedBases checks are all those a rebased root reaches.
bool onlyAddresses(Value *Root, Loop &L) {
  SmallVector<Value *, 8> Work{Root};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I || !L.contains(I))
        continue;
      if (auto *G = dyn_cast<GetElementPtrInst>(I);
          G && G->getPointerOperand() == V) {
        Work.push_back(G);
        continue;
      }
      if (getLoadStorePointerOperand(I) != V ||
          (isa<StoreInst>(I) && cast<StoreInst>(I)->getValueOperand() == V))
        return false;
    }
  }
  return true;
}

struct Access {
  Instruction *I;
  Value *Ptr, *Root;
  Type *Ty;
};

} // namespace

bool findSharedBases(Loop &L, ScalarEvolution &SE, SmallVectorImpl<Fits> &Need,
                     SmallVectorImpl<std::pair<AccessRange, AccessRange>> &Disjoint,
                     SmallVectorImpl<Value *> &Roots, std::string &Why) {
  SmallVector<Access, 16> Accesses;
  SmallPtrSet<const SCEV *, 4> Unrooted; ///< bases of accesses without a root
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      Value *Ptr = getLoadStorePointerOperand(&I);
      if (!Ptr)
        continue;
      Type *Ty = isa<LoadInst>(I) ? I.getType()
                                  : cast<StoreInst>(I).getValueOperand()->getType();
      if (Value *Root = rootOf(Ptr, L))
        Accesses.push_back({&I, Ptr, Root, Ty});
      else
        Unrooted.insert(SE.getPointerBase(SE.getSCEV(Ptr)));
    }
  // The values the nest's trip counts are made of: a distance between two
  // roots that uses one of them (`x` and `x + s` over j < 2 * s) is related
  // to the iteration space, and the dependence test decides it.
  SmallPtrSet<const SCEV *, 8> InBounds;
  SmallVector<Loop *, 4> Nest{&L};
  for (unsigned K = 0; K < Nest.size(); ++K) {
    Nest.append(Nest[K]->begin(), Nest[K]->end());
    const SCEV *BTC = SE.getBackedgeTakenCount(Nest[K]);
    if (isa<SCEVCouldNotCompute>(BTC)) // not a SCEV the visitors know
      continue;
    SCEVExprContains(BTC, [&](const SCEV *X) {
      if (isa<SCEVUnknown>(X))
        InBounds.insert(X);
      return false; // visit every operand
    });
  }
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  auto Range = [&](const Access &A, AccessRange &Out) {
    Out.Size = DL.getTypeStoreSize(A.Ty).getFixedValue();
    return valueRange(SE.getSCEV(A.Ptr), L, SE, Out.Lo, Out.Hi, Need);
  };
  for (const Access &St : Accesses) {
    if (!isa<StoreInst>(St.I))
      continue;
    const SCEV *RS = SE.getSCEV(St.Root);
    const SCEV *Base = SE.getPointerBase(RS);
    bool Split = false;
    AccessRange SR;
    for (const Access &O : Accesses) {
      if (O.Root == St.Root)
        continue;
      const SCEV *RO = SE.getSCEV(O.Root);
      if (SE.getPointerBase(RO) != Base)
        continue;
      const SCEV *Dist = SE.getMinusSCEV(RS, RO);
      if (isa<SCEVCouldNotCompute>(Dist) || isa<SCEVConstant>(Dist) ||
          SCEVExprContains(Dist, [&](const SCEV *X) {
            return InBounds.count(X) != 0;
          }))
        continue; // the dependence test decides a constant or related one
      AccessRange OR;
      if ((!Split && !Range(St, SR)) || !Range(O, OR)) {
        Why = "the ranges of two grids in one array (a store and another "
              "access at a distance unknown at compile time) are unknown "
              "(no run-time overlap check)";
        return false;
      }
      Split = true;
      Disjoint.push_back({OR, SR});
    }
    if (Split && !is_contained(Roots, St.Root)) {
      if (!onlyAddresses(St.Root, L) || Unrooted.count(Base)) {
        Why = "a grid that shares its array with another one is reached "
              "other than by addresses of loads and stores (no run-time "
              "overlap check)";
        return false;
      }
      Roots.push_back(St.Root);
    }
  }
  return true;
}

void splitSharedBases(Loop &L, ArrayRef<Value *> Roots, Instruction *At,
                      ScalarEvolution &SE) {
  IRBuilder<> B(At);
  for (Value *Root : Roots) {
    Value *Copy = B.CreateLaunderInvariantGroup(Root);
    Copy->setName("idiom.grid");
    Root->replaceUsesWithIf(Copy, [&](Use &U) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      return I && L.contains(I);
    });
  }
  SE.forgetLoop(&L);
}

namespace {

/// The depth of the deepest loop in \p L's nest, \p L counting 1.
unsigned nestDepth(const Loop &L) {
  unsigned D = 0;
  for (const Loop *S : L.getSubLoops())
    D = std::max(D, nestDepth(*S));
  return D + 1;
}

/// Versions the outermost loop \p L (see versionSharedBases). Inner loops
/// are not searched: a root computed in an enclosing loop (a row pointer,
/// `x + j`, and `x + j + s` in an FFT stage) would split accesses that the
/// dependence test proves independent over the whole nest, losing the
/// outer dimension.
void versionNest(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
                 SmallVectorImpl<BoundVersion> &Out, bool &Changed) {
  if (isFallbackLoop(L))
    return;
  SmallVector<Fits, 8> Need;
  SmallVector<std::pair<AccessRange, AccessRange>, 8> Disjoint;
  SmallVector<Value *, 2> Roots;
  std::string Why;
  BasicBlock *Check = L.getLoopPreheader();
  if (nestDepth(L) > 3 || !Check ||
      !L.isLoopSimplifyForm() || !L.isLCSSAForm(DT) || !L.getExitBlock() ||
      !findSharedBases(L, SE, Need, Disjoint, Roots, Why) || Roots.empty() ||
      !rangeChecksExpandable(Need, Disjoint, Check->getTerminator(), SE))
    return;
  Changed = true;
  Value *Ok = emitRangeChecks(Check, Need, Disjoint, SE, "idiom.grids");
  BasicBlock *PH = nullptr;
  Loop *Orig = copyNestBehindCheck(L, LI, DT, ".grids", PH);
  splitSharedBases(L, Roots, PH->getTerminator(), SE);
  markFallbackLoop(*Orig);
  Instruction *Old = Check->getTerminator(); // `br PH`, from the split
  BranchInst *Br =
      IRBuilder<>(Old).CreateCondBr(Ok, PH, Orig->getLoopPreheader());
  Old->eraseFromParent();
  Out.push_back({&L, Br});
}

} // namespace

SmallVector<BoundVersion, 4> versionSharedBases(LoopInfo &LI,
                                                DominatorTree &DT,
                                                ScalarEvolution &SE,
                                                bool &Changed) {
  SmallVector<BoundVersion, 4> Out;
  SmallVector<Loop *, 8> Top(LI.begin(), LI.end());
  for (Loop *L : Top)
    versionNest(*L, LI, DT, SE, Out, Changed);
  return Out;
}

} // namespace idiom
