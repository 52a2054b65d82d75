//===- RowProducts.cpp - A per-row product through a temporary, batched ---===//
//
// Part of Idiom. See RowProducts.h.
//
//===----------------------------------------------------------------------===//
#include "RowProducts.h"
#include "PipelinePlacement.h"

#include "idiom/Constraints/LoopFacts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace idiom {
namespace {

/// A value of the row loops that the fill loop uses, affine in the row
/// loops: Start + r*DR + q*DQ (r, q counted from 0; DR zero without an
/// outer row loop).
struct RowValue {
  Value *V;
  const SCEV *Start, *DQ, *DR;
  /// DR = Q*DQ: the clone uses Start + i*DQ. Otherwise (the row loops'
  /// induction variables indexing `A[r][q][s]`) the clone uses Start, and
  /// every user is an address that flattens (Anchors).
  bool Flat = true;
};

/// A byte range [Lo, Hi + Size) over the nest.
struct Range {
  const SCEV *Lo, *Hi;
  uint64_t Size;
};

/// A batchable nest and what the expansion needs.
struct ProductNest {
  Loop *Root = nullptr, *Outer = nullptr, *Row = nullptr, *Fill = nullptr,
       *Inner = nullptr;
  const SCEV *RowCount = nullptr, *OuterCount = nullptr, *FillCount = nullptr;
  SmallVector<StoreInst *, 2> TempStores; ///< the temporary's element
  SmallVector<GetElementPtrInst *, 2> TempGEPs; ///< its addresses
  /// The copy of the temporary's row: a memcpy, or a loop (CopyLoop) of
  /// one load (CopyLoad) and one store of it (CopyStore).
  MemTransferInst *Copy = nullptr;
  Loop *CopyLoop = nullptr;
  LoadInst *CopyLoad = nullptr;
  StoreInst *CopyStore = nullptr;
  const SCEV *CopySrc = nullptr, *CopyDst = nullptr, *CopyLen = nullptr;
  Value *DstPtr = nullptr; ///< a pointer into the destination
  MaybeAlign DstAlign, SrcAlign;
  /// Invariant branch conditions that must hold (the value with which the
  /// row takes the path through the fill loop and the copy).
  SmallVector<std::pair<Value *, bool>, 4> Guards;
  const SCEV *TempStart = nullptr; ///< the row's first byte in the temporary
  const SCEV *RowBytes = nullptr;  ///< i64
  RowValue Dst;                    ///< the copy's destination row
  SmallVector<RowValue, 8> Values; ///< rewritten for the clone
  /// Addresses of the fill loop that flatten although a row value they use
  /// does not: the clone computes them at the first row, plus i*DQ.
  SmallVector<RowValue, 4> Anchors;
  SmallVector<LoadInst *, 8> Loads;
  SmallVector<Fits, 8> Need;
  SmallVector<std::pair<Range, Range>, 8> Disjoint;
};

/// The only memory operation of L's blocks outside \p Except, or null with
/// \p Many set when there are several (or one that is not a plain access).
Instruction *onlyMemoryOp(Loop *L, Loop *Except, bool &Many) {
  Instruction *One = nullptr;
  for (BasicBlock *BB : L->blocks())
    if (!Except || !Except->contains(BB))
      for (Instruction &I : *BB) {
        if (!I.mayReadOrWriteMemory() || isa<DbgInfoIntrinsic>(I) ||
            I.isLifetimeStartOrEnd())
          continue;
        if (One)
          Many = true;
        One = &I;
      }
  return One;
}

class RowProductAnalysis {
public:
  RowProductAnalysis(ProductNest &N, DominatorTree &DT, ScalarEvolution &SE)
      : N(N), DT(DT), SE(SE) {}

  /// Fills N for the row loop N.Row. False with Why empty when the nest
  /// does not have the shape, with Why set when a condition fails.
  bool run(std::string &Why);

private:
  bool shape();
  bool copy(std::string &Why);
  bool straightRow(Loop *L, ArrayRef<Loop *> Expect,
                   SmallPtrSetImpl<BasicBlock *> &Seen);
  bool forms(std::string &Why);
  bool fillBody(std::string &Why);
  bool rowValue(Value *V, RowValue &Out);
  bool rowSplit(Value *V, const SCEV *S, RowValue &Out);
  bool anchors(Instruction *V);
  bool rows(std::string &Why);
  bool reads(std::string &Why);
  bool range(Value *Ptr, Type *Ty, Range &Out);
  bool equal(const SCEV *A, const SCEV *B);

  ProductNest &N;
  DominatorTree &DT;
  ScalarEvolution &SE;
};

bool RowProductAnalysis::shape() {
  Loop *Q = N.Row;
  for (Loop *S : Q->getSubLoops()) {
    if (S->getSubLoops().size() == 1 && !N.Fill)
      N.Fill = S;
    else if (S->getSubLoops().empty() && !N.CopyLoop)
      N.CopyLoop = S;
    else
      return false;
  }
  if (!N.Fill)
    return false;
  N.Inner = N.Fill->getSubLoops().front();
  if (!N.Inner->getSubLoops().empty())
    return false;
  // Outside the fill loop and the copy loop, only a memcpy, and that only
  // without a copy loop.
  bool Many = false;
  Instruction *Other = nullptr;
  for (BasicBlock *BB : Q->blocks())
    if (!N.Fill->contains(BB) && (!N.CopyLoop || !N.CopyLoop->contains(BB)))
      for (Instruction &I : *BB)
        if (I.mayReadOrWriteMemory() && !isa<DbgInfoIntrinsic>(I) &&
            !I.isLifetimeStartOrEnd()) {
          Many |= Other != nullptr;
          Other = &I;
        }
  N.Copy = dyn_cast_or_null<MemTransferInst>(Other);
  if (Many || (N.CopyLoop ? Other != nullptr : !N.Copy))
    return false;
  // A copy loop after the fill loop whose store writes what its load read
  // (else not this shape: a GEMM's `C[i][j] *= beta` prologue, say).
  if (N.CopyLoop) {
    if (!DT.dominates(N.Fill->getHeader(), N.CopyLoop->getHeader()))
      return false;
    unsigned Loads = 0, Stores = 0;
    StoreInst *St = nullptr;
    for (BasicBlock *BB : N.CopyLoop->blocks())
      for (Instruction &I : *BB) {
        Loads += isa<LoadInst>(I);
        if (auto *S = dyn_cast<StoreInst>(&I)) {
          ++Stores;
          St = S;
        }
      }
    if (Loads != 1 || Stores != 1 || !isa<LoadInst>(St->getValueOperand()))
      return false;
  }
  // The outer row loop belongs to the nest when it does nothing else.
  N.Root = Q;
  if (Loop *R = Q->getParentLoop(); R && R->getSubLoops().size() == 1) {
    bool RMany = false;
    if (!onlyMemoryOp(R, Q, RMany) && !RMany) {
      N.Outer = R;
      N.Root = R;
    }
  }
  return true;
}

bool RowProductAnalysis::copy(std::string &Why) {
  Type *I64 = Type::getInt64Ty(N.Row->getHeader()->getContext());
  if (N.Copy) {
    if (N.Copy->isVolatile()) {
      Why = "the copy of the temporary is volatile";
      return false;
    }
    N.CopySrc = SE.getSCEV(N.Copy->getRawSource());
    N.CopyDst = SE.getSCEV(N.Copy->getRawDest());
    N.CopyLen = SE.getNoopOrZeroExtend(SE.getSCEV(N.Copy->getLength()), I64);
    N.DstPtr = N.Copy->getRawDest();
    N.DstAlign = N.Copy->getDestAlign();
    N.SrcAlign = N.Copy->getSourceAlign();
    return true;
  }
  // A copy loop: one load, one store of the loaded value, consecutive
  // elements of both.
  Loop *C = N.CopyLoop;
  Why = "the copy loop does more than copy consecutive elements of the "
        "temporary";
  bool Many = false;
  for (BasicBlock *BB : C->blocks())
    for (Instruction &I : *BB) {
      if (auto *Ld = dyn_cast<LoadInst>(&I)) {
        Many |= N.CopyLoad != nullptr;
        N.CopyLoad = Ld;
      } else if (auto *St = dyn_cast<StoreInst>(&I)) {
        Many |= N.CopyStore != nullptr;
        N.CopyStore = St;
      } else if (I.mayHaveSideEffects() || I.mayReadFromMemory()) {
        return false;
      }
    }
  if (Many || !N.CopyLoad || !N.CopyStore || !N.CopyLoad->isSimple() ||
      !N.CopyStore->isSimple() || N.CopyStore->getValueOperand() != N.CopyLoad)
    return false;
  const DataLayout &DL = C->getHeader()->getModule()->getDataLayout();
  uint64_t Elem =
      DL.getTypeStoreSize(N.CopyLoad->getType()).getFixedValue();
  auto Start = [&](Value *Ptr) -> const SCEV * {
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ptr));
    auto *Step = AR ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
                    : nullptr;
    if (!AR || AR->getLoop() != C || !AR->isAffine() || !Step ||
        Step->getAPInt() != Elem)
      return nullptr;
    return AR->getStart();
  };
  std::string TWhy;
  const SCEV *Count = canonicalTripCount(C, SE, TWhy);
  N.CopySrc = Start(N.CopyLoad->getPointerOperand());
  N.CopyDst = Start(N.CopyStore->getPointerOperand());
  if (!Count || !N.CopySrc || !N.CopyDst)
    return false;
  N.CopyLen = SE.getMulExpr(Count, SE.getConstant(I64, Elem));
  N.DstPtr = N.CopyStore->getPointerOperand();
  N.DstAlign = commonAlignment(N.CopyStore->getAlign(), Elem);
  N.SrcAlign = commonAlignment(N.CopyLoad->getAlign(), Elem);
  Why.clear();
  return true;
}

/// Follows L's body from its header to its latch, through the loops of
/// \p Expect in that order (from each one's preheader to its exit block):
/// unconditional branches, and branches on a condition computed before the
/// nest that lead to the next expected loop (recorded in N.Guards: the run-
/// time check requires that direction). False for any other path.
bool RowProductAnalysis::straightRow(Loop *L, ArrayRef<Loop *> Expect,
                                     SmallPtrSetImpl<BasicBlock *> &Seen) {
  BasicBlock *BB = L->getHeader();
  unsigned Next = 0;
  while (Seen.insert(BB).second) {
    if (Next < Expect.size() && BB == Expect[Next]->getLoopPreheader()) {
      BB = Expect[Next++]->getExitBlock();
      continue;
    }
    if (BB == L->getLoopLatch())
      return Next == Expect.size();
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br)
      return false;
    if (Br->isUnconditional()) {
      BB = Br->getSuccessor(0);
      continue;
    }
    if (Next == Expect.size())
      return false;
    BasicBlock *Want = Expect[Next]->getLoopPreheader();
    auto *CI = dyn_cast<Instruction>(Br->getCondition());
    if ((Br->getSuccessor(0) != Want && Br->getSuccessor(1) != Want) ||
        Br->getSuccessor(0) == Br->getSuccessor(1) ||
        (CI && N.Root->contains(CI)))
      return false;
    N.Guards.push_back({Br->getCondition(), Br->getSuccessor(0) == Want});
    BB = Want;
  }
  return false;
}

bool RowProductAnalysis::forms(std::string &Why) {
  SmallVector<Loop *, 5> All{N.Root, N.Row, N.Fill, N.Inner};
  if (N.CopyLoop)
    All.push_back(N.CopyLoop);
  for (Loop *L : All)
    if (!L->isLoopSimplifyForm() || !L->getExitBlock() ||
        L->getExitingBlock() != L->getLoopLatch()) {
      Why = "a loop of the nest is not in loop-simplify form with a single "
            "exit";
      return false;
    }
  if (!N.Root->isLCSSAForm(DT)) {
    Why = "the nest is not in LCSSA form";
    return false;
  }
  std::string TWhy;
  N.RowCount = canonicalTripCount(N.Row, SE, TWhy);
  N.FillCount = canonicalTripCount(N.Fill, SE, TWhy);
  if (N.Outer)
    N.OuterCount = canonicalTripCount(N.Outer, SE, TWhy);
  if (!N.RowCount || !N.FillCount || (N.Outer && !N.OuterCount) ||
      !SE.isLoopInvariant(N.RowCount, N.Root) ||
      !SE.isLoopInvariant(N.FillCount, N.Root)) {
    Why = "a row loop or the fill loop has no trip count invariant in the "
          "nest";
    return false;
  }
  // Every row runs the fill loop, then the copy (under conditions checked
  // at run time).
  SmallPtrSet<BasicBlock *, 16> RowBlocks, OuterBlocks;
  SmallVector<Loop *, 2> Expect{N.Fill};
  if (N.CopyLoop)
    Expect.push_back(N.CopyLoop);
  bool Straight = straightRow(N.Row, Expect, RowBlocks) &&
                  (!N.Outer || straightRow(N.Outer, {N.Row}, OuterBlocks));
  if (Straight && N.Copy)
    Straight = RowBlocks.count(N.Copy->getParent()) &&
               DT.dominates(N.Fill->getExitBlock(), N.Copy->getParent());
  if (!Straight) {
    Why = "the fill loop and the copy of the temporary do not both run, in "
          "that order, for every row";
    return false;
  }
  // No value of the nest is used after it, none of the fill loop after it.
  for (BasicBlock *BB : N.Root->blocks())
    for (Instruction &I : *BB)
      for (User *U : I.users()) {
        auto *UI = cast<Instruction>(U);
        if (!N.Root->contains(UI) ||
            (N.Fill->contains(&I) && !N.Fill->contains(UI))) {
          Why = "a value computed in the nest is used after the loop that "
                "computes it";
          return false;
        }
      }
  return copy(Why);
}

bool RowProductAnalysis::fillBody(std::string &Why) {
  // The stores: the temporary's element p, before, in or after the inner
  // loop (`sum[p] = 0; for s: sum[p] += ...;` where -O2 could not keep the
  // sum in a register, or one store of the sum after the inner loop).
  SmallVector<LoadInst *, 8> All;
  for (BasicBlock *BB : N.Fill->blocks())
    for (Instruction &I : *BB) {
      if (auto *St = dyn_cast<StoreInst>(&I)) {
        if (!St->isSimple()) {
          Why = "the fill loop has a volatile or atomic store";
          return false;
        }
        N.TempStores.push_back(St);
        continue;
      }
      if (auto *Ld = dyn_cast<LoadInst>(&I)) {
        if (!Ld->isSimple()) {
          Why = "the fill loop has a volatile or atomic load";
          return false;
        }
        All.push_back(Ld);
        continue;
      }
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      if (isa<CallBase>(I) ? !isPureCall(&I) : I.mayHaveSideEffects()) {
        Why = "the fill loop has an instruction with side effects (" +
              std::string(I.getOpcodeName()) + ")";
        return false;
      }
    }
  if (N.TempStores.empty())
    return false;
  // Every store writes element p of the row: consecutive elements from the
  // same first element in every row, through a GEP on that element.
  const DataLayout &DL = N.Fill->getHeader()->getModule()->getDataLayout();
  StoreInst *St0 = N.TempStores.front();
  Type *ElemTy = St0->getValueOperand()->getType();
  uint64_t Elem = DL.getTypeStoreSize(ElemTy).getFixedValue();
  const SCEV *Addr = SE.getSCEV(St0->getPointerOperand());
  auto *AR = dyn_cast<SCEVAddRecExpr>(Addr);
  auto *Step = AR ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE)) : nullptr;
  if (!AR || AR->getLoop() != N.Fill || !AR->isAffine() || !Step ||
      Step->getAPInt() != Elem || !SE.isLoopInvariant(AR->getStart(), N.Root)) {
    Why = "the temporary is not written at consecutive elements from the "
          "same first element in every row";
    return false;
  }
  N.TempStart = AR->getStart();
  auto TempGEP = [&](Value *Ptr) {
    auto *G = dyn_cast<GetElementPtrInst>(Ptr);
    if (!G || !N.Fill->contains(G) ||
        !N.Root->isLoopInvariant(G->getPointerOperand()) ||
        SE.getSCEV(G->getPointerOperand()) != N.TempStart)
      return false;
    if (!is_contained(N.TempGEPs, G))
      N.TempGEPs.push_back(G);
    return true;
  };
  bool EveryIteration = false;
  for (StoreInst *St : N.TempStores) {
    if (SE.getSCEV(St->getPointerOperand()) != Addr ||
        St->getValueOperand()->getType() != ElemTy ||
        !TempGEP(St->getPointerOperand())) {
      Why = "the fill loop writes memory other than the temporary's element";
      return false;
    }
    EveryIteration |= DT.dominates(St->getParent(), N.Fill->getLoopLatch());
  }
  if (!EveryIteration) {
    Why = "the fill loop does not store the temporary's element on every "
          "iteration";
    return false;
  }
  // The loads of that element read what a store of this iteration wrote.
  for (LoadInst *Ld : All) {
    if (SE.getSCEV(Ld->getPointerOperand()) != Addr) {
      N.Loads.push_back(Ld);
      continue;
    }
    if (!TempGEP(Ld->getPointerOperand()) ||
        none_of(N.TempStores,
                [&](StoreInst *St) { return DT.dominates(St, Ld); })) {
      Why = "the fill loop reads the temporary's element before it writes "
            "it in the row";
      return false;
    }
  }
  if (N.CopySrc != N.TempStart) {
    Why = "the copy does not read the temporary's row from its first "
          "element";
    return false;
  }
  Type *I64 = Type::getInt64Ty(ElemTy->getContext());
  N.RowBytes = SE.getMulExpr(N.FillCount, SE.getConstant(I64, Elem));
  const SCEV *Len = N.CopyLen;
  if (!SE.isLoopInvariant(Len, N.Root)) {
    Why = "the copy's length varies in the nest";
    return false;
  }
  if (!equal(Len, N.RowBytes)) {
    Why = "the copy's length is not the length of the temporary's row";
    return false;
  }
  return true;
}

/// Records the run-time condition A == B unless it is proven; false when
/// it is known not to hold.
bool RowProductAnalysis::equal(const SCEV *A, const SCEV *B) {
  if (A == B || SE.isKnownPredicate(ICmpInst::ICMP_EQ, A, B))
    return true;
  if (SE.isKnownPredicate(ICmpInst::ICMP_NE, A, B))
    return false;
  N.Need.push_back({A, B});
  N.Need.push_back({B, A});
  return true;
}

bool RowProductAnalysis::rowValue(Value *V, RowValue &Out) {
  return rowSplit(V, SE.getSCEV(V), Out);
}

bool RowProductAnalysis::rowSplit(Value *V, const SCEV *S, RowValue &Out) {
  Type *STy = S->getType();
  Type *ITy = STy->isPointerTy()
                  ? SE.getEffectiveSCEVType(STy)
                  : STy;
  if (!ITy->isIntegerTy(64))
    return false;
  Out = {V, S, SE.getZero(ITy), SE.getZero(ITy)};
  // An address of the fill loop: its recurrences in the fill and inner
  // loops first (steps invariant in the nest).
  while (auto *AR = dyn_cast<SCEVAddRecExpr>(Out.Start)) {
    if (!N.Fill->contains(AR->getLoop()))
      break;
    if (!AR->isAffine() || !SE.isLoopInvariant(AR->getStepRecurrence(SE), N.Root))
      return false;
    Out.Start = AR->getStart();
  }
  auto Peel = [&](Loop *L, const SCEV *&D) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(Out.Start);
    if (!AR || AR->getLoop() != L)
      return true;
    if (!AR->isAffine() || !SE.isLoopInvariant(AR->getStepRecurrence(SE), N.Root))
      return false;
    D = AR->getStepRecurrence(SE);
    Out.Start = AR->getStart();
    return true;
  };
  if (!Peel(N.Row, Out.DQ) || (N.Outer && !Peel(N.Outer, Out.DR)))
    return false;
  return SE.isLoopInvariant(Out.Start, N.Root);
}

/// True when every user of \p V in the fill loop is an address that
/// flattens (recorded in N.Anchors).
bool RowProductAnalysis::anchors(Instruction *V) {
  for (User *U : V->users()) {
    auto *G = dyn_cast<GetElementPtrInst>(U);
    if (!N.Fill->contains(cast<Instruction>(U)) ||
        any_of(N.Anchors, [&](const RowValue &A) { return A.V == U; }))
      continue;
    RowValue RV;
    if (!G || !rowValue(G, RV) ||
        !equal(RV.DR, SE.getMulExpr(N.RowCount, RV.DQ)))
      return false;
    N.Anchors.push_back(RV);
  }
  return true;
}

bool RowProductAnalysis::rows(std::string &Why) {
  // The values of the row loops that the fill loop uses, flattened.
  SmallPtrSet<Value *, 16> Seen;
  for (BasicBlock *BB : N.Fill->blocks())
    for (Instruction &I : *BB)
      for (Value *Op : I.operands()) {
        auto *OI = dyn_cast<Instruction>(Op);
        if (!OI || !N.Root->contains(OI) || N.Fill->contains(OI) ||
            !Seen.insert(OI).second)
          continue;
        RowValue RV;
        if (!rowValue(OI, RV)) {
          Why = "the fill loop uses a value of the row loops that is not "
                "affine in them";
          return false;
        }
        RV.Flat = !N.Outer || equal(RV.DR, SE.getMulExpr(N.RowCount, RV.DQ));
        if (!RV.Flat && !anchors(OI)) {
          Why = "the fill loop uses a value that varies with the row loops "
                "otherwise than with the flattened row (its step in the outer "
                "row loop is not the inner row loop's count times its step "
                "there)";
          return false;
        }
        N.Values.push_back(RV);
      }
  if (!rowSplit(N.DstPtr, N.CopyDst, N.Dst)) {
    Why = "the copy's destination is not affine in the row loops";
    return false;
  }
  return true;
}

bool RowProductAnalysis::range(Value *Ptr, Type *Ty, Range &Out) {
  const DataLayout &DL = N.Root->getHeader()->getModule()->getDataLayout();
  Out.Size = DL.getTypeStoreSize(Ty).getFixedValue();
  return valueRange(SE.getSCEV(Ptr), *N.Root, SE, Out.Lo, Out.Hi, N.Need);
}

/// True when the objects of two pointers are distinct identified objects.
bool distinctObjects(const Value *A, const Value *B) {
  const Value *OA = getUnderlyingObject(A), *OB = getUnderlyingObject(B);
  return OA != OB && isIdentifiedObject(OA) && isIdentifiedObject(OB);
}

bool RowProductAnalysis::reads(std::string &Why) {
  Type *I64 = Type::getInt64Ty(N.Root->getHeader()->getContext());
  // The destination rows: every byte the copies write, and the temporary.
  Range DstR;
  if (!valueRange(N.CopyDst, *N.Root, SE, DstR.Lo,
                  DstR.Hi, N.Need)) {
    Why = "the range of the destination rows is unknown (no run-time "
          "overlap check)";
    return false;
  }
  // Sized by the row: [Lo, Hi + RowBytes), as a range of 1-byte accesses
  // whose last one is at Hi + RowBytes - 1.
  DstR.Hi = SE.getAddExpr(
      DstR.Hi, SE.getMinusSCEV(N.RowBytes, SE.getConstant(I64, 1)));
  DstR.Size = 1;
  Range TempR{N.TempStart,
              SE.getAddExpr(N.TempStart,
                            SE.getMinusSCEV(N.RowBytes,
                                            SE.getConstant(I64, 1))),
              1};
  Value *TempPtr = N.TempGEPs.front()->getPointerOperand();
  Value *DstPtr = N.DstPtr;
  if (!distinctObjects(TempPtr, DstPtr))
    N.Disjoint.push_back({TempR, DstR});
  // The rows of the destination are disjoint and increase in (r, q) order:
  // dQ >= RowBytes and dR >= (Q - 1) dQ + RowBytes; needed only when a
  // read lies in its own row.
  bool OwnRows = false;
  // The load's range checked apart from Other at run time.
  auto Apart = [&](LoadInst *Ld, const Range &Other, const char *What) {
    Range LR;
    if (range(Ld->getPointerOperand(), Ld->getType(), LR)) {
      N.Disjoint.push_back({LR, Other});
      return true;
    }
    Why = std::string("the range that the fill loop reads is unknown (no "
                      "run-time overlap check with ") + What + ")";
    return false;
  };
  for (LoadInst *Ld : N.Loads) {
    Value *P = Ld->getPointerOperand();
    if (!distinctObjects(P, TempPtr) && !Apart(Ld, TempR, "the temporary"))
      return false;
    if (distinctObjects(P, DstPtr))
      continue;
    // Its own row: the offset from the row's destination does not depend on
    // the row, and is never negative.
    const SCEV *Off = SE.getMinusSCEV(SE.getSCEV(P), N.CopyDst);
    bool Own = !isa<SCEVCouldNotCompute>(Off) &&
               !SCEVExprContains(Off, [&](const SCEV *X) {
                 auto *AR = dyn_cast<SCEVAddRecExpr>(X);
                 return AR && (AR->getLoop() == N.Row ||
                               AR->getLoop() == N.Outer);
               });
    const SCEV *OLo = nullptr, *OHi = nullptr;
    if (Own && valueRange(Off, *N.Fill, SE, OLo, OHi, N.Need)) {
      if (SE.isKnownNegative(OLo)) {
        Why = "the fill loop reads before its own row of the copies' "
              "destination (a row that an earlier row's copy wrote)";
        return false;
      }
      if (!SE.isKnownNonNegative(OLo))
        N.Need.push_back({SE.getZero(OLo->getType()), OLo});
      OwnRows = true;
      continue;
    }
    if (!Apart(Ld, DstR, "the rows it writes"))
      return false;
  }
  if (OwnRows) {
    if (SE.isKnownPredicate(ICmpInst::ICMP_SLT, N.Dst.DQ, N.RowBytes)) {
      Why = "the rows that the copies write overlap (a row reads what an "
            "earlier row wrote)";
      return false;
    }
    if (!SE.isKnownPredicate(ICmpInst::ICMP_SGE, N.Dst.DQ, N.RowBytes))
      N.Need.push_back({N.RowBytes, N.Dst.DQ});
    if (N.Outer) {
      const SCEV *Span = SE.getAddExpr(
          SE.getMulExpr(SE.getMinusSCEV(N.RowCount, SE.getConstant(I64, 1)),
                        N.Dst.DQ),
          N.RowBytes);
      if (!SE.isKnownPredicate(ICmpInst::ICMP_SGE, N.Dst.DR, Span))
        N.Need.push_back({Span, N.Dst.DR});
    }
  }
  return true;
}

bool RowProductAnalysis::run(std::string &Why) {
  if (!shape() || isFallbackLoop(*N.Root) || isFallbackLoop(*N.Row))
    return false;
  if (!forms(Why) || !fillBody(Why) || !rows(Why) || !reads(Why))
    return false;
  SCEVExpander Exp(SE, N.Root->getHeader()->getModule()->getDataLayout(),
                   "idiom.rowprod");
  Instruction *At = N.Root->getLoopPreheader()->getTerminator();
  auto Safe = [&](const SCEV *S) { return Exp.isSafeToExpandAt(S, At); };
  bool Ok = Safe(N.RowCount) && Safe(N.RowBytes) && Safe(N.Dst.Start) &&
            Safe(N.Dst.DQ) && Safe(N.Dst.DR) && Safe(N.TempStart) &&
            (!N.Outer || Safe(N.OuterCount));
  for (const RowValue &RV : N.Values)
    Ok &= Safe(RV.Start) && Safe(RV.DQ);
  for (const RowValue &RV : N.Anchors)
    Ok &= Safe(RV.DQ);
  for (const Fits &F : N.Need)
    Ok &= Safe(F.Lo) && Safe(F.Hi);
  for (auto &[X, Y] : N.Disjoint)
    Ok &= Safe(X.Lo) && Safe(X.Hi) && Safe(Y.Lo) && Safe(Y.Hi);
  if (!Ok)
    Why = "a size, a row's start or a bound of the run-time checks is not "
          "available before the nest";
  return Ok;
}

/// The value Start + Idx * D of the type of \p Like (a pointer: a byte GEP).
Value *rowAt(IRBuilder<> &B, Value *Start, Value *Idx, Value *D, Type *Like,
             const Twine &Name) {
  Value *Off = B.CreateMul(Idx, D, Name + ".off", /*HasNUW=*/false,
                           /*HasNSW=*/true);
  if (Like->isPointerTy())
    return B.CreateGEP(B.getInt8Ty(), Start, Off, Name);
  return B.CreateAdd(Start, Off, Name, /*HasNUW=*/false, /*HasNSW=*/true);
}

/// A new loop of \p Parent (top level when null) whose blocks are \p Blocks,
/// the header first.
Loop *newLoop(LoopInfo &LI, Loop *Parent, ArrayRef<BasicBlock *> Blocks) {
  Loop *L = LI.AllocateLoop();
  if (Parent)
    Parent->addChildLoop(L);
  else
    LI.addTopLevelLoop(L);
  for (BasicBlock *BB : Blocks)
    L->addBasicBlockToLoop(BB, LI);
  return L;
}

/// Expands N (analysed): the check, the unchanged copy, the loop over the
/// flattened rows with the fill loop cloned into it, the copies back, the
/// last row into the temporary; the original nest deleted.
BoundVersion expand(ProductNest &N, LoopInfo &LI, DominatorTree &DT,
                    ScalarEvolution &SE) {
  Loop &R = *N.Root;
  Loop *Parent = R.getParentLoop();
  BasicBlock *Check = R.getLoopPreheader();
  Function *Fn = Check->getParent();
  LLVMContext &Ctx = Fn->getContext();
  Module &M = *Fn->getParent();
  const DataLayout &DL = M.getDataLayout();
  Instruction *At = Check->getTerminator();
  SCEVExpander Exp(SE, DL, "idiom.rowprod");
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty(), *PtrTy = B.getPtrTy();
  auto Expand = [&](const SCEV *S, Type *Ty) {
    Value *V = Exp.expandCodeFor(S, Ty, At);
    B.SetInsertPoint(At);
    return V;
  };
  Value *Ok = B.getTrue();
  for (auto &[Cond, When] : N.Guards)
    Ok = B.CreateAnd(Ok, When ? Cond : B.CreateNot(Cond), "idiom.rowprod.guard");
  for (const Fits &F : N.Need) {
    Type *Ty = F.Lo->getType();
    Ok = B.CreateAnd(Ok, B.CreateICmpSLE(Expand(F.Lo, Ty), Expand(F.Hi, Ty)),
                     "idiom.rowprod.fits");
  }
  for (auto &[X, Y] : N.Disjoint) {
    Value *XEnd = B.CreateGEP(B.getInt8Ty(), Expand(X.Hi, PtrTy),
                              B.getInt64(X.Size));
    Value *YEnd = B.CreateGEP(B.getInt8Ty(), Expand(Y.Hi, PtrTy),
                              B.getInt64(Y.Size));
    Value *XLo = Expand(X.Lo, PtrTy), *YLo = Expand(Y.Lo, PtrTy);
    Ok = B.CreateAnd(Ok, B.CreateOr(B.CreateICmpULE(XEnd, YLo),
                                    B.CreateICmpULE(YEnd, XLo)),
                     "idiom.rowprod.disjoint");
  }
  Value *Q = Expand(N.RowCount, I64);
  Value *Rows = Q;
  if (N.Outer) { // R*Q rows, not wrapping
    Value *RQ = B.CreateBinaryIntrinsic(Intrinsic::umul_with_overflow,
                                        Expand(N.OuterCount, I64), Q);
    Rows = B.CreateExtractValue(RQ, 0, "idiom.rowprod.rows");
    Ok = B.CreateAnd(Ok, B.CreateNot(B.CreateExtractValue(RQ, 1)));
  }
  Value *RowBytes = Expand(N.RowBytes, I64);
  Value *DstStart = Expand(N.Dst.Start, PtrTy);
  Value *DstDQ = Expand(N.Dst.DQ, I64), *DstDR = Expand(N.Dst.DR, I64);
  Value *TempStart = Expand(N.TempStart, PtrTy);
  SmallVector<Value *, 4> AnchorDQ;
  for (const RowValue &RV : N.Anchors)
    AnchorDQ.push_back(Expand(RV.DQ, I64));
  SmallVector<std::pair<Value *, Value *>, 8> Starts; // (Start, DQ)
  for (const RowValue &RV : N.Values)
    Starts.push_back({Expand(RV.Start, RV.V->getType()->isPointerTy()
                                           ? PtrTy
                                           : RV.V->getType()),
                      Expand(RV.DQ, I64)});

  BasicBlock *PH = nullptr;
  Loop *Orig = copyNestBehindCheck(R, LI, DT, ".rowprod", PH);
  markFallbackLoop(*Orig);
  BasicBlock *OrigPH = Orig->getLoopPreheader();
  BasicBlock *Exit = R.getExitBlock();

  // The check, then the temporary's rows (a dropped version's check is
  // false: the allocation is dead code). A failed malloc runs the copy.
  BasicBlock *Alloc = BasicBlock::Create(Ctx, "idiom.rowprod.alloc", Fn, PH);
  Check->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Check);
  // The block's size, R*Q rows of RowBytes, must not wrap.
  Value *Mul = B.CreateBinaryIntrinsic(Intrinsic::umul_with_overflow, Rows,
                                       RowBytes);
  Value *Bytes = B.CreateExtractValue(Mul, 0, "idiom.rowprod.bytes");
  Ok = B.CreateAnd(Ok, B.CreateNot(B.CreateExtractValue(Mul, 1)),
                   "idiom.rowprod.size");
  BranchInst *Br = B.CreateCondBr(Ok, Alloc, OrigPH);
  B.SetInsertPoint(Alloc);
  FunctionCallee Malloc = M.getOrInsertFunction("malloc", PtrTy, I64);
  FunctionCallee Free = M.getOrInsertFunction("free", B.getVoidTy(), PtrTy);
  Value *T = B.CreateCall(Malloc, {Bytes}, "idiom.rowprod.t");
  B.CreateCondBr(B.CreateIsNotNull(T), PH, OrigPH);
  // The function now allocates and frees: drop the attributes that promised
  // otherwise (as stitching does for its runtime calls).
  Fn->removeFnAttr(Attribute::Memory);
  Fn->removeFnAttr(Attribute::NoFree);
  Fn->removeFnAttr(Attribute::NoSync);
  Fn->removeFnAttr(Attribute::WillReturn);

  // The loop over the flattened rows: header, the fill loop, latch.
  BasicBlock *IH = BasicBlock::Create(Ctx, "idiom.rowprod.row", Fn, PH);
  BasicBlock *IL = BasicBlock::Create(Ctx, "idiom.rowprod.latch", Fn, PH);
  BasicBlock *IExit = BasicBlock::Create(Ctx, "idiom.rowprod.done", Fn, PH);
  B.SetInsertPoint(IH);
  PHINode *I = B.CreatePHI(I64, 2, "idiom.rowprod.i");
  ValueToValueMapTy VMap;
  DenseMap<Value *, Value *> StartOf;
  for (unsigned K = 0; K < N.Values.size(); ++K) {
    StartOf[N.Values[K].V] = Starts[K].first;
    VMap[N.Values[K].V] =
        N.Values[K].Flat
            ? rowAt(B, Starts[K].first, I, Starts[K].second,
                    N.Values[K].V->getType(),
                    N.Values[K].V->getName() + ".rowprod")
            : Starts[K].first;
  }
  SmallVector<Value *, 4> AnchorOff;
  for (unsigned K = 0; K < N.Anchors.size(); ++K)
    AnchorOff.push_back(B.CreateMul(I, AnchorDQ[K], "idiom.rowprod.aoff",
                                    /*HasNUW=*/false, /*HasNSW=*/true));
  Value *TRow = B.CreateGEP(B.getInt8Ty(), T,
                            B.CreateNUWMul(I, RowBytes), "idiom.rowprod.trow");
  VMap[N.Fill->getLoopPreheader()] = IH;
  VMap[N.Fill->getExitBlock()] = IL;
  SmallVector<BasicBlock *, 8> Clones;
  for (BasicBlock *BB : N.Fill->blocks()) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".rowprod", Fn);
    C->moveBefore(IL);
    VMap[BB] = C;
    Clones.push_back(C);
  }
  remapInstructionsInBlocks(Clones, VMap);
  for (GetElementPtrInst *G : N.TempGEPs)
    cast<GetElementPtrInst>(VMap[G])->setOperand(0, TRow);
  // Anchors: computed at the first row, then moved to row i.
  for (unsigned K = 0; K < N.Anchors.size(); ++K) {
    auto *G = cast<GetElementPtrInst>(N.Anchors[K].V);
    auto *GC = cast<GetElementPtrInst>(VMap[G]);
    for (unsigned Op = 0; Op < G->getNumOperands(); ++Op)
      if (Value *S = StartOf.lookup(G->getOperand(Op)))
        GC->setOperand(Op, S);
    GC->setIsInBounds(false);
    auto *Moved = GetElementPtrInst::Create(B.getInt8Ty(), GC, {AnchorOff[K]},
                                            G->getName() + ".row");
    Moved->insertAfter(GC);
    GC->replaceUsesWithIf(Moved, [&](Use &U) { return U.getUser() != Moved; });
  }
  auto *FHead = cast<BasicBlock>(VMap[N.Fill->getHeader()]);
  auto *KHead = cast<BasicBlock>(VMap[N.Inner->getHeader()]);
  SmallVector<std::pair<BasicBlock *, bool>, 8> InInner;
  for (BasicBlock *BB : N.Fill->blocks())
    InInner.push_back({cast<BasicBlock>(VMap[BB]), N.Inner->contains(BB)});
  B.CreateBr(FHead);
  B.SetInsertPoint(IL);
  Value *Next = B.CreateNUWAdd(I, B.getInt64(1), "idiom.rowprod.next");
  BranchInst *Back = B.CreateCondBr(B.CreateICmpEQ(Next, Rows), IExit, IH);
  I->addIncoming(B.getInt64(0), PH);
  I->addIncoming(Next, IL);
  // The loop's location: the outer row loop's (remarks name its line).
  if (DebugLoc DLoc = R.getStartLoc()) {
    Back->setDebugLoc(DLoc);
    Metadata *Ops[] = {nullptr, DLoc.get()};
    MDNode *Self = MDNode::getDistinct(Ctx, Ops);
    Self->replaceOperandWith(0, Self);
    Back->setMetadata(LLVMContext::MD_loop, Self);
  }

  // The copies back, then the last row into the temporary.
  BasicBlock *CH = BasicBlock::Create(Ctx, "idiom.rowprod.copy", Fn, PH);
  BasicBlock *Tail = BasicBlock::Create(Ctx, "idiom.rowprod.tail", Fn, PH);
  B.SetInsertPoint(IExit);
  B.CreateBr(CH);
  B.SetInsertPoint(CH);
  PHINode *C = B.CreatePHI(I64, 2, "idiom.rowprod.c");
  Value *Dst = DstStart;
  if (N.Outer) {
    Value *RIdx = B.CreateUDiv(C, Q), *QIdx = B.CreateURem(C, Q);
    Dst = rowAt(B, Dst, RIdx, DstDR, PtrTy, "idiom.rowprod.dr");
    Dst = rowAt(B, Dst, QIdx, DstDQ, PtrTy, "idiom.rowprod.dst");
  } else {
    Dst = rowAt(B, Dst, C, DstDQ, PtrTy, "idiom.rowprod.dst");
  }
  Value *Src = B.CreateGEP(B.getInt8Ty(), T, B.CreateNUWMul(C, RowBytes));
  B.CreateMemCpy(Dst, N.DstAlign, Src, Align(16), RowBytes);
  Value *CNext = B.CreateNUWAdd(C, B.getInt64(1));
  B.CreateCondBr(B.CreateICmpEQ(CNext, Rows), Tail, CH);
  C->addIncoming(B.getInt64(0), IExit);
  C->addIncoming(CNext, CH);
  B.SetInsertPoint(Tail);
  Value *Last = B.CreateGEP(
      B.getInt8Ty(), T,
      B.CreateNUWMul(B.CreateSub(Rows, B.getInt64(1)), RowBytes));
  B.CreateMemCpy(TempStart, N.SrcAlign, Last, Align(16),
                 RowBytes);
  B.CreateCall(Free, {T});
  B.CreateBr(Exit);

  // The original nest goes (PH then branches to its exit), PH leads to the
  // new one instead.
  deleteDeadLoop(&R, nullptr, &SE, &LI);
  PH->getTerminator()->eraseFromParent();
  BranchInst::Create(IH, PH);
  for (PHINode &P : Exit->phis())
    for (unsigned K = 0; K < P.getNumIncomingValues(); ++K)
      if (P.getIncomingBlock(K) == PH)
        P.setIncomingBlock(K, Tail);

  // Loops of the new blocks.
  Loop *IL0 = newLoop(LI, Parent, {IH});
  Loop *FL = newLoop(LI, IL0, {FHead});
  Loop *KL = newLoop(LI, FL, {KHead});
  for (auto &[Cl, Inner] : InInner)
    if (Cl != FHead && Cl != KHead)
      (Inner ? KL : FL)->addBasicBlockToLoop(Cl, LI);
  IL0->addBasicBlockToLoop(IL, LI);
  // The copies back are host plumbing of the batched idiom, like its
  // fallback: never offered to the idioms (no remarks of their own).
  markFallbackLoop(*newLoop(LI, Parent, {CH}));
  for (BasicBlock *BB : {Alloc, IExit, Tail})
    if (Parent)
      Parent->addBasicBlockToLoop(BB, LI);
  DT.recalculate(*Fn);
  return {IL0, Br};
}

/// Visits L's nest, innermost loops first. Returns the loop that an
/// expansion deleted (L itself, or its parent), else null.
Loop *visit(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
            SmallVectorImpl<BoundVersion> &Out,
            SmallVectorImpl<RowProductMiss> &Misses, bool &Changed) {
  if (isFallbackLoop(L))
    return nullptr;
  SmallVector<Loop *, 4> Subs(L.getSubLoops().begin(), L.getSubLoops().end());
  for (Loop *S : Subs)
    if (Loop *Gone = visit(*S, LI, DT, SE, Out, Misses, Changed);
        Gone && Gone != S)
      return Gone; // L itself went with its row loop

  ProductNest N;
  N.Row = &L;
  std::string Why;
  RowProductAnalysis A(N, DT, SE);
  if (!A.run(Why)) {
    if (!Why.empty())
      Misses.push_back({N.Root ? N.Root : &L, Why});
    return nullptr;
  }
  Changed = true;
  Loop *Gone = N.Root;
  Out.push_back(expand(N, LI, DT, SE));
  return Gone;
}

} // namespace

SmallVector<BoundVersion, 4>
batchRowProducts(LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
                 SmallVectorImpl<RowProductMiss> &Misses, bool &Changed) {
  SmallVector<BoundVersion, 4> Out;
  SmallVector<Loop *, 8> Top(LI.begin(), LI.end());
  for (Loop *L : Top)
    visit(*L, LI, DT, SE, Out, Misses, Changed);
  return Out;
}

CallInst *rowProductTemporary(const BoundVersion &V) {
  if (!V.Check || !V.Check->isConditional())
    return nullptr;
  for (Instruction &I : *V.Check->getSuccessor(0))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *Fn = CI->getCalledFunction();
          Fn && Fn->getName() == "malloc")
        return CI;
  return nullptr;
}

} // namespace idiom
