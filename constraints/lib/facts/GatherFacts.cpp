//===- GatherFacts.cpp - Loads through an index array ---------------------===//

#include "idiom/Constraints/GatherFacts.h"
#include "idiom/Constraints/HistogramFacts.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"

#include <tuple>

using namespace llvm;

namespace idiom {

/// A field of a struct array read as a gather, `x[idx].im` (issue 13):
/// `getelementptr %S, Base, Index, f...` (constant fields) or, as -O2 writes
/// a field at a constant offset, `getelementptr i8, (getelementptr %S, Base,
/// Index), C`. Returns the GEP over %S and Index, with Scale and Offset the
/// struct's size and the field's offset in elements of \p Elem; nulls when
/// the address is not such a field or the sizes are not whole elements.
static std::pair<GetElementPtrInst *, Value *>
structFieldGather(GetElementPtrInst *GEP, Type *Elem, int64_t &Scale,
                  int64_t &Offset) {
  const DataLayout &DL = GEP->getModule()->getDataLayout();
  uint64_t Bytes = 0;
  if (GEP->getSourceElementType()->isIntegerTy(8) && GEP->getNumIndices() == 1) {
    auto *C = dyn_cast<ConstantInt>(GEP->getOperand(1));
    GEP = dyn_cast<GetElementPtrInst>(GEP->getPointerOperand());
    if (!C || C->isNegative() || !GEP)
      return {nullptr, nullptr};
    Bytes = C->getZExtValue();
  }
  auto *ST = dyn_cast<StructType>(GEP->getSourceElementType());
  if (!ST || !ST->isSized())
    return {nullptr, nullptr};
  // The field's offset inside element 0 (a zero for the array index).
  SmallVector<Value *, 4> Idx{ConstantInt::get(Type::getInt64Ty(GEP->getContext()), 0)};
  for (auto It = GEP->idx_begin() + 1; It != GEP->idx_end(); ++It) {
    if (!isa<ConstantInt>(*It))
      return {nullptr, nullptr};
    Idx.push_back(*It);
  }
  Bytes += DL.getIndexedOffsetInType(ST, Idx);
  uint64_t Size = DL.getTypeAllocSize(ST), E = DL.getTypeAllocSize(Elem);
  if (E == 0 || Size % E || Bytes % E || Bytes + E > Size ||
      Size / E > (uint64_t(1) << 20))
    return {nullptr, nullptr};
  Scale = Size / E;
  Offset = Bytes / E;
  return {GEP, GEP->getOperand(1)};
}

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
  int64_t Scale = 1, Offset = 0;
  if (!Index && GEP)
    std::tie(GEP, Index) = structFieldGather(GEP, Ld->getType(), Scale, Offset);
  if (!Index || !Index->getType()->isIntegerTy()) {
    Why = "address is neither affine nor base[index] of the loaded type "
          "(or a field of a struct array whose size and field offset are "
          "whole elements)";
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
  G.Scale = Scale;
  G.Offset = Offset;
  return G;
}

} // namespace idiom
