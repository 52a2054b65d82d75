//===- BisectionFacts.cpp - Binary searches inside a loop body ------------===//
//
// The structural half of BisectionFacts.h; the step lemma is proved in
// lib/z3/BisectionZ3.cpp.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/BisectionFacts.h"
#include "idiom/Constraints/LoopFacts.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace idiom {
namespace {

/// True when the slice of \p Root inside \p L reaches no phi of L and no
/// load, stopping at \p Leaves (and at values defined outside L).
bool readsOnly(Value *Root, Loop *L, ArrayRef<Value *> Leaves) {
  SmallVector<Value *, 16> Work{Root};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (is_contained(Leaves, V) || !Seen.insert(V).second)
      continue;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L->contains(I))
      continue;
    if (isa<PHINode>(I) || isa<LoadInst>(I))
      return false;
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  return true;
}

/// A value the enclosing loop \p Outer does not change: a constant, an
/// argument, or an instruction outside Outer.
bool invariantIn(Value *V, Loop *Outer) {
  auto *I = dyn_cast<Instruction>(V);
  return !I || !Outer->contains(I);
}

} // namespace

unsigned BisectionInfo::width() const {
  return Phi[0]->getType()->getIntegerBitWidth();
}

std::optional<BisectionInfo> analyzeBisection(Loop *Inner, Loop *Outer, ScalarEvolution &SE,
                                              std::string &Why) {
  auto Fail = [&](const char *W) {
    Why = W;
    return std::nullopt;
  };
  if (Inner->getParentLoop() != Outer)
    return Fail("search loop is not directly inside the loop");
  if (!Inner->getSubLoops().empty())
    return Fail("search loop contains a loop");
  if (!hasCanonicalShape(Inner, Why))
    return std::nullopt;
  BisectionInfo B;
  B.L = Inner;
  BasicBlock *H = Inner->getHeader(), *Latch = Inner->getLoopLatch();
  BasicBlock *PH = Inner->getLoopPreheader(), *Exit = Inner->getExitBlock();
  unsigned NPhis = 0;
  for (PHINode &P : H->phis()) {
    if (NPhis == 2)
      return Fail("search loop carries more than an interval (two header phis)");
    B.Phi[NPhis++] = &P;
  }
  if (NPhis != 2)
    return Fail("search loop does not carry an interval (two header phis)");
  Type *T = B.Phi[0]->getType();
  if (!(T->isIntegerTy(32) || T->isIntegerTy(64)) || B.Phi[1]->getType() != T)
    return Fail("the search interval is not two i32 or two i64 values");
  for (unsigned K = 0; K < 2; ++K) {
    B.Init[K] = B.Phi[K]->getIncomingValueForBlock(PH);
    B.Next[K] = B.Phi[K]->getIncomingValueForBlock(Latch);
    if (!invariantIn(B.Init[K], Outer))
      return Fail("the search interval's initial bounds change with the loop");
  }
  // One load, pure scalar operations, branches.
  for (BasicBlock *BB : Inner->blocks())
    for (Instruction &I : *BB) {
      if (auto *Ld = dyn_cast<LoadInst>(&I)) {
        if (B.Probe)
          return Fail("search loop reads more than one element per step");
        if (!Ld->isSimple())
          return Fail("search loop reads memory with a volatile or atomic load");
        B.Probe = Ld;
      } else if (isa<PHINode>(I) || isa<BranchInst>(I) || isa<GetElementPtrInst>(I)) {
        continue;
      } else if (I.mayReadOrWriteMemory() || isa<CallBase>(I)) {
        return Fail("search loop writes memory or calls a function");
      } else if (!isPureScalarOp(&I)) {
        return Fail("search loop has an operation the lifter does not know");
      }
    }
  if (!B.Probe)
    return Fail("search loop reads no boundary");
  // a[mid]: `getelementptr T, a, mid`, or `getelementptr [N x T], @a, 0, mid`.
  auto *GEP = dyn_cast<GetElementPtrInst>(B.Probe->getPointerOperand());
  Type *Src = GEP ? GEP->getSourceElementType() : nullptr;
  auto *Zero = GEP && GEP->getNumIndices() == 2 ? dyn_cast<ConstantInt>(GEP->getOperand(1))
                                                : nullptr;
  if (GEP && GEP->getNumIndices() == 1 && Src == B.Probe->getType())
    B.Mid = GEP->getOperand(1);
  else if (Zero && Zero->isZero() && isa<ArrayType>(Src) &&
           cast<ArrayType>(Src)->getElementType() == B.Probe->getType())
    B.Mid = GEP->getOperand(2);
  if (!B.Mid || !invariantIn(GEP->getPointerOperand(), Outer) ||
      !B.Mid->getType()->isIntegerTy())
    return Fail("the boundary read is not a[mid] of an array the loop does not move");
  B.ProbeBase = GEP->getPointerOperand();
  B.ProbeTy = B.Probe->getType();
  if (!readsOnly(B.Mid, Inner, {B.Phi[0], B.Phi[1]}) ||
      is_contained(ArrayRef<Value *>{B.Phi[0], B.Phi[1]}, B.Mid))
    return Fail("the boundary's index is not computed from the interval alone");
  // Each step's new bounds read the interval, the boundary and values from
  // outside the loop (the key) only.
  for (unsigned K = 0; K < 2; ++K)
    if (!readsOnly(B.Next[K], Inner, {B.Phi[0], B.Phi[1], B.Probe}))
      return Fail("the new interval is not computed from the interval and the "
                  "boundary alone");
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional())
    return Fail("search loop's latch does not test a condition");
  B.Cond = Br->getCondition();
  B.ContinueWhen = Br->getSuccessor(0) == H;
  if (!readsOnly(B.Cond, Inner, {B.Next[0], B.Next[1]}))
    return Fail("the search loop's condition is not a function of the new interval");

  // The value used after the loop: one part's final value, through the
  // exit block's LCSSA phi and, for a rotated loop, a phi that takes the
  // initial value when the guard skips the loop.
  PHINode *Lcssa = nullptr;
  for (BasicBlock *BB : Inner->blocks())
    for (Instruction &I : *BB)
      for (User *U : I.users()) {
        auto *UI = cast<Instruction>(U);
        if (Inner->contains(UI))
          continue;
        auto *P = dyn_cast<PHINode>(UI);
        if (!P || P->getParent() != Exit || P->getNumIncomingValues() != 1 ||
            (Lcssa && Lcssa != P))
          return Fail("search loop has a result other than one bound of the interval");
        Lcssa = P;
      }
  if (!Lcssa)
    return Fail("search loop's result is not used");
  Value *Final = Lcssa->getIncomingValue(0);
  if (Final == B.Next[0])
    B.ResultPart = 0;
  else if (Final == B.Next[1])
    B.ResultPart = 1;
  else
    return Fail("search loop's result is not one bound of the new interval");

  BasicBlock *G = PH->getSinglePredecessor();
  auto *GBr = G ? dyn_cast<BranchInst>(G->getTerminator()) : nullptr;
  if (!GBr || !GBr->isConditional()) {
    // Entered unconditionally: the result is the LCSSA phi itself.
    B.Result = Lcssa;
    return B;
  }
  B.GuardCond = GBr->getCondition();
  B.GuardWhen = GBr->getSuccessor(0) == PH;
  BasicBlock *Skip = GBr->getSuccessor(B.GuardWhen ? 1 : 0);
  if (Skip == PH || !Lcssa->hasOneUse())
    return Fail("the value after the search loop is not the search's result");
  auto *R = dyn_cast<PHINode>(*Lcssa->user_begin());
  BasicBlock *ExitSucc = Exit->getSingleSuccessor();
  if (!R || R->getParent() != Skip || ExitSucc != Skip || R->getNumIncomingValues() != 2 ||
      R->getBasicBlockIndex(G) < 0 || R->getBasicBlockIndex(Exit) < 0 ||
      R->getIncomingValueForBlock(G) != B.Init[B.ResultPart] ||
      !readsOnly(B.GuardCond, Outer, {}))
    return Fail("the value after the search loop is not the interval's bound when "
                "the guard skips it");
  B.Result = R;
  return B;
}

std::optional<SmallVector<BisectionInfo, 1>> analyzeBisections(Loop *Outer, ScalarEvolution &SE,
                                                               std::string &Why) {
  SmallVector<BisectionInfo, 1> Out;
  for (Loop *Sub : Outer->getSubLoops()) {
    auto B = analyzeBisection(Sub, Outer, SE, Why);
    if (!B)
      return std::nullopt;
    Out.push_back(*B);
  }
  if (Out.empty()) {
    Why = "loop contains no search loop";
    return std::nullopt;
  }
  return Out;
}

} // namespace idiom
