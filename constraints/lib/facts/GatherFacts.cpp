//===- GatherFacts.cpp - Loads through an index array ---------------------===//

#include "idiom/Constraints/GatherFacts.h"
#include "idiom/Constraints/HistogramFacts.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace idiom {

std::optional<GatherInfo> analyzeGather(LoadInst *Ld, const NestInfo &N, ScalarEvolution &SE,
                                        std::string &Why) {
  if (N.depth() != 1) {
    Why = "gathers are lifted from single loops only";
    return std::nullopt;
  }
  if (!Ld->isSimple()) {
    Why = "volatile or atomic load";
    return std::nullopt;
  }
  // base[index] on a pointer, or on a global array: `getelementptr [N x T],
  // @g, 0, index`.
  auto *GEP = dyn_cast<GetElementPtrInst>(Ld->getPointerOperand());
  Value *Index = nullptr;
  if (GEP && GEP->getNumIndices() == 1 && GEP->getSourceElementType() == Ld->getType())
    Index = GEP->getOperand(1);
  if (GEP && GEP->getNumIndices() == 2)
    if (auto *AT = dyn_cast<ArrayType>(GEP->getSourceElementType());
        AT && AT->getElementType() == Ld->getType())
      if (auto *Z = dyn_cast<ConstantInt>(GEP->getOperand(1)); Z && Z->isZero())
        Index = GEP->getOperand(2);
  if (!Index || !Index->getType()->isIntegerTy()) {
    Why = "address is neither affine nor base[index] of the loaded type";
    return std::nullopt;
  }
  Value *Base = GEP->getPointerOperand();
  if (auto *BI = dyn_cast<Instruction>(Base); BI && N.contains(BI)) {
    Why = "gather base pointer is computed in the loop";
    return std::nullopt;
  }
  if (!isInputLoad(Ld, N, SE, Why))
    return std::nullopt;
  // The index: pure scalar operations over induction variables, invariants
  // and affine loads (one level of indirection: x[idx[i]], not x[idx[idx[i]]]).
  unsigned AffineLoads = 0;
  SmallVector<Value *, 16> Work{Index};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !N.contains(I) || !Seen.insert(I).second)
      continue;
    if (auto *P = dyn_cast<PHINode>(I)) {
      if (!isNestIV(P, N)) {
        Why = "gather index depends on a phi that is not an induction variable";
        return std::nullopt;
      }
      continue;
    }
    if (isa<LoadInst>(I)) {
      std::string W;
      if (!analyzeAccess(I, N, SE, W)) {
        Why = "gather index reads an array at a computed position (two levels "
              "of indirection)";
        return std::nullopt;
      }
      ++AffineLoads;
      continue;
    }
    if (I->mayReadOrWriteMemory() || isa<CallBase>(I)) {
      Why = "gather index is not computed by pure scalar operations";
      return std::nullopt;
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  if (!AffineLoads) {
    Why = "gather index reads no array";
    return std::nullopt;
  }
  GatherInfo G;
  G.Load = Ld;
  G.Base = Base;
  G.ElemTy = Ld->getType();
  G.Index = Index;
  return G;
}

} // namespace idiom
