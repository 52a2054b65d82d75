//===- SharedBases.cpp - One array, two grids: run-time disjointness -----===//
//
// Part of Idiom. See SharedBases.h.
//
//===----------------------------------------------------------------------===//
#include "SharedBases.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
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
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      Value *Ptr = getLoadStorePointerOperand(&I);
      if (!Ptr)
        continue;
      Type *Ty = isa<LoadInst>(I) ? I.getType()
                                  : cast<StoreInst>(I).getValueOperand()->getType();
      if (Value *Root = rootOf(Ptr, L))
        Accesses.push_back({&I, Ptr, Root, Ty});
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
      if (isa<SCEVCouldNotCompute>(Dist) || isa<SCEVConstant>(Dist))
        continue; // the dependence test decides a constant distance
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
    if (Split && !is_contained(Roots, St.Root))
      Roots.push_back(St.Root);
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

} // namespace idiom
