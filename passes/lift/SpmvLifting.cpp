//===- SpmvLifting.cpp - Lift a detected CSR SpMV into FunIL --------------===//

#include "SpmvLifting.h"
#include "GemmLifting.h"
#include "HostFloat.h"
#include "SliceExpr.h"
#include "idiom/Constraints/LoopFacts.h"
#include "idiom/Constraints/SpmvFacts.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "../../runtime/include/idiomrt.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace idiom {
namespace {

/// Stands for the row's sum while POST is printed.
const char *const SumMark = SliceSumMark;

/// How the values of one scalar function (STEP, INIT or POST) are read.
using Reading = SliceReading;

Value *stripCasts(Value *V) {
  while (isa<SExtInst>(V) || isa<ZExtInst>(V) || isa<TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

class SpmvLifter {
public:
  SpmvLifter(const IdiomMatch &M, ScalarEvolution &SE, LiftedIdiom &Out,
             std::string &Why)
      : M(M), SE(SE), Out(Out), Why(Why), Row(M.Nest.Loops.front()),
        DL(Row->getHeader()->getModule()->getDataLayout()),
        I64(Type::getInt64Ty(Row->getHeader()->getContext())) {}

  bool run(const std::string &Name);

private:
  bool fail(const std::string &W) {
    if (Why.empty())
      Why = W;
    return false;
  }
  bool findRoles();
  bool checkRowLoop();
  bool checkGuard(BranchInst *Br);
  bool checkLatch();
  bool widening(Value *Bound, bool &ZExt);
  bool isFinal(Value *V, unsigned Depth = 0) const;
  std::string expr(Value *V, Reading &R);
  std::string scalar(Value *V);
  std::string index(const SCEV *S, const std::string &Name,
                    RunTimeValue Rt = RunTimeValue::None);
  unsigned buffer(Value *Base, Type *ElemTy, const SCEV *Lo, const SCEV *Hi,
                  bool Written, RunTimeValue RtLo = RunTimeValue::None,
                  RunTimeValue RtHi = RunTimeValue::None);
  const SCEV *elements(const SCEV *Bytes, uint64_t Size);

  const IdiomMatch &M;
  ScalarEvolution &SE;
  LiftedIdiom &Out;
  std::string &Why;
  Loop *Row;
  Loop *Inner = nullptr;
  const DataLayout &DL;
  Type *I64;

  std::optional<CsrRowPointers> Ptr;
  PHINode *Acc = nullptr;
  std::optional<ReductionInfo> Red;
  LoadInst *ValL = nullptr, *ColL = nullptr, *XL = nullptr;
  StoreInst *St = nullptr;
  SmallVector<LoadInst *, 1> YOld; ///< loads of y[i] before its store
  bool PtrZExt = false, ColZExt = false;
  int64_t XOffset = 0;
  GemmSlice Slice;

  std::vector<LiftedParam> Buffers, Indices, Scalars;
  DenseMap<Value *, std::string> ScalarNames;
};

/// \p Bytes divided by \p Size when SCEV proves the quotient exact, else null.
const SCEV *SpmvLifter::elements(const SCEV *Bytes, uint64_t Size) {
  Bytes = SE.getTruncateOrSignExtend(Bytes, I64);
  const SCEV *S = SE.getConstant(I64, Size);
  const SCEV *Q = SE.getUDivExactExpr(Bytes, S);
  return SE.getMulExpr(Q, S) == Bytes ? Q : nullptr;
}

std::string SpmvLifter::scalar(Value *V) {
  auto It = ScalarNames.find(V);
  if (It != ScalarNames.end())
    return It->second;
  std::string T = funilTypeText(V->getType());
  if (T.empty() || T == "bool" || T == "i8" || T == "i16") {
    fail("the SpMV reads a loop-invariant value of a type the lifter does "
         "not pass (only float, double, int and long)");
    return "";
  }
  LiftedParam P;
  P.K = LiftedParam::Kind::Scalar;
  P.V = V;
  P.Name = "s" + std::to_string(Scalars.size());
  Scalars.push_back(P);
  ScalarNames[V] = P.Name;
  return P.Name;
}

std::string SpmvLifter::index(const SCEV *S, const std::string &Name,
                              RunTimeValue Rt) {
  S = SE.getTruncateOrSignExtend(S, I64);
  if (Rt == RunTimeValue::None)
    if (auto *C = dyn_cast<SCEVConstant>(S))
      return std::to_string(C->getAPInt().getSExtValue()) + ":i64";
  LiftedParam P;
  P.K = LiftedParam::Kind::Index;
  P.Name = Name;
  P.S = S;
  P.RtS = Rt;
  Indices.push_back(P);
  return P.Name;
}

unsigned SpmvLifter::buffer(Value *Base, Type *ElemTy, const SCEV *Lo,
                            const SCEV *Hi, bool Written, RunTimeValue RtLo,
                            RunTimeValue RtHi) {
  LiftedParam P;
  P.K = LiftedParam::Kind::Buffer;
  P.Name = "b" + std::to_string(Buffers.size());
  P.Base = Base;
  P.ElemTy = ElemTy;
  P.Lo = SE.getTruncateOrSignExtend(Lo, I64);
  P.Hi = SE.getTruncateOrSignExtend(Hi, I64);
  P.RtLo = RtLo;
  P.RtHi = RtHi;
  P.Read = !Written;
  P.Written = Written;
  Buffers.push_back(P);
  return Buffers.size() - 1;
}

/// \p V is the row's sum after its inner loop: the update seen from outside
/// the loop, or a phi outside it merging such values with the initial value
/// (the path that skips the inner loop: checkGuard makes it the empty row).
bool SpmvLifter::isFinal(Value *V, unsigned Depth) const {
  if (V == Red->Update)
    return true;
  auto *P = dyn_cast<PHINode>(V);
  if (!P || Inner->contains(P) || !Row->contains(P) || Depth > 4)
    return false;
  bool Saw = false;
  for (Value *In : P->incoming_values()) {
    if (In == Red->Init)
      continue;
    if (!isFinal(In, Depth + 1))
      return false;
    Saw = true;
  }
  return Saw;
}

std::string SpmvLifter::expr(Value *V, Reading &R) {
  SliceExprRules X;
  X.Idiom = "SpMV";
  X.LoadWhy = "reads memory other than val[p] and x[col[p]]";
  X.PhiWhy = "reads a value carried by a loop (a counter or another "
             "accumulator)";
  X.Body = Row;
  X.TypeText = funilTypeText;
  X.IsFinal = [this](Value *F) { return isFinal(F); };
  X.Scalar = [this](Value *F) { return scalar(F); };
  // Where the host's fusion of llvm.fmuladd is unknown a row's bits could
  // differ: not offloaded.
  X.RefuseUnknownMulAdd = true;
  return sliceExpr(V, R, X, Slice.Final, Why);
}

/// How \p Bound, the inner counter's start or end, widens a row pointer:
/// a sign or zero extension to i64 of a narrower element, or none for i64
/// elements.
bool SpmvLifter::widening(Value *Bound, bool &ZExt) {
  if (!Bound->getType()->isIntegerTy(64))
    return fail("the inner loop's counter is not 64 bits wide");
  unsigned Bits = 8 * Ptr->ElemBytes;
  if (auto *C = dyn_cast<CastInst>(Bound);
      C && (isa<SExtInst>(C) || isa<ZExtInst>(C)) &&
      C->getSrcTy()->isIntegerTy(Bits) && Bits == 32) {
    ZExt = isa<ZExtInst>(C);
    return true;
  }
  if (Bits == 64 && stripCasts(Bound)->getType()->isIntegerTy(64)) {
    ZExt = false;
    return true;
  }
  return fail("the row pointers are not int or long elements widened once to "
              "the inner loop's counter");
}

bool SpmvLifter::findRoles() {
  Inner = sparseRowInner(Row, SE, Why);
  if (!Inner)
    return false;
  Ptr = csrRowPointers(Inner, Row, SE, Why);
  if (!Ptr)
    return false;
  for (PHINode &P : Inner->getHeader()->phis()) {
    if (&P == Ptr->IV)
      continue;
    if (Acc)
      return fail("the inner loop carries more than one accumulator");
    Acc = &P;
  }
  if (!Acc)
    return fail("the inner loop has no accumulator");
  auto F = sparseProductFactors(Acc, Inner, SE, Why);
  if (!F)
    return false;
  std::string W1, W2;
  if (LoadInst *C = indirectIndexLoad(F->second, Inner, SE, W1)) {
    XL = F->second, ColL = C, ValL = F->first;
  } else if (LoadInst *C2 = indirectIndexLoad(F->first, Inner, SE, W2)) {
    XL = F->first, ColL = C2, ValL = F->second;
  } else {
    return fail("neither factor of the product is read through a column "
                "index: " + W1);
  }
  if (!isCsrRange(Inner, Row, ValL, SE, Why))
    return false;
  if (!sameElementIndex(ValL, ColL, SE))
    return fail("val and col are not read at the same position");
  if (!ColL->getType()->isIntegerTy(32) && !ColL->getType()->isIntegerTy(64))
    return fail("the column indices are not int or long elements");
  auto Off = gatherOffset(XL, ColL, SE, ColZExt);
  if (!Off)
    return fail("x is not read at col[p] plus a constant");
  XOffset = *Off;
  if (ColL->getType()->isIntegerTy(64))
    ColZExt = false;
  auto N = analyzeNest(Inner, SE, Why);
  if (!N)
    return false;
  Red = analyzeReduction(Acc, *N, Why);
  if (!Red)
    return false;
  bool EndZExt = false;
  if (!widening(Ptr->Start, PtrZExt) || !widening(Ptr->End, EndZExt))
    return false;
  if (PtrZExt != EndZExt)
    return fail("the row's start and end pointers are widened differently");
  return true;
}

/// A conditional branch of the row loop outside its inner loop and latch
/// must be the inner loop's zero-trip guard: it enters the inner loop
/// exactly when ptr[i] < ptr[i+1] (or !=, the same for the monotone row
/// pointers the run-time check demands).
bool SpmvLifter::checkGuard(BranchInst *Br) {
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  const char *Bad = "the row loop has a condition other than the inner "
                    "loop's guard ptr[i] < ptr[i+1]";
  if (!Cmp)
    return fail(Bad);
  Value *S = stripCasts(Ptr->Start), *E = stripCasts(Ptr->End);
  Value *A = stripCasts(Cmp->getOperand(0)), *B = stripCasts(Cmp->getOperand(1));
  CmpInst::Predicate P = Cmp->getPredicate();
  if (A == E && B == S)
    P = CmpInst::getSwappedPredicate(P);
  else if (A != S || B != E)
    return fail(Bad);
  BasicBlock *Pre = Inner->getLoopPreheader();
  BasicBlock *In = Inner->getHeader();
  auto Enters = [&](BasicBlock *BB) { return BB == Pre || BB == In; };
  if (Enters(Br->getSuccessor(1)) && !Enters(Br->getSuccessor(0)))
    P = CmpInst::getInversePredicate(P);
  else if (!Enters(Br->getSuccessor(0)) || Enters(Br->getSuccessor(1)))
    return fail(Bad);
  // A compare of the narrow elements decides as one of the widened values
  // when its signedness is the widening's; `!=` always does.
  bool Wide = Cmp->getOperand(0)->getType()->isIntegerTy(64);
  bool Ok = P == CmpInst::ICMP_NE ||
            (P == CmpInst::ICMP_SLT && (Wide || !PtrZExt)) ||
            (P == CmpInst::ICMP_ULT && PtrZExt);
  return Ok ? true : fail(Bad);
}

/// The inner loop runs while p + 1 < ptr[i+1] (or !=, the same once the
/// guard let it start below the bound); an unsigned compare only of
/// zero-extended pointers, which are not negative.
bool SpmvLifter::checkLatch() {
  BasicBlock *Latch = Inner->getLoopLatch();
  auto *Br = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  ICmpInst *Cmp = Inner->getLatchCmpInst();
  const char *Bad = "the inner loop's exit test is not p < ptr[i+1] or p != "
                    "ptr[i+1]";
  if (!Br || !Br->isConditional() || !Cmp)
    return fail(Bad);
  Value *Next = Ptr->IV->getIncomingValueForBlock(Latch);
  CmpInst::Predicate P = Cmp->getPredicate();
  if (Cmp->getOperand(1) == Next)
    P = CmpInst::getSwappedPredicate(P);
  else if (Cmp->getOperand(0) != Next)
    return fail(Bad);
  if (Br->getSuccessor(0) != Inner->getHeader())
    P = CmpInst::getInversePredicate(P);
  bool Ok = P == CmpInst::ICMP_NE || P == CmpInst::ICMP_SLT ||
            (P == CmpInst::ICMP_ULT && PtrZExt);
  return Ok ? true : fail(Bad);
}

bool SpmvLifter::checkRowLoop() {
  unsigned Guards = 0;
  // Memory: the row pointers outside the inner loop, val, col and x in it,
  // and one store.
  SmallPtrSet<Instruction *, 4> InnerLoads{ValL, ColL, XL};
  const SCEV *PtrBase = SE.getSCEV(Ptr->Base);
  for (BasicBlock *BB : Row->blocks())
    for (Instruction &I : *BB)
      if (auto *S = dyn_cast<StoreInst>(&I)) {
        if (St)
          return fail("the row loop has more than one store");
        if (Inner->contains(S))
          return fail("the inner loop stores to memory");
        St = S;
      }
  if (!St || !St->isSimple())
    return fail("the row loop has no simple store of the row's result");
  const SCEV *YAddr = SE.getSCEV(St->getPointerOperand());
  Type *YTy = St->getValueOperand()->getType();
  for (BasicBlock *BB : Row->blocks())
    for (Instruction &I : *BB) {
      if (isa<StoreInst>(&I))
        continue;
      if (auto *L = dyn_cast<LoadInst>(&I)) {
        // y[i] before its update (y = A x + y).
        if (!Inner->contains(L) && L->isSimple() && L->getType() == YTy &&
            SE.getSCEV(L->getPointerOperand()) == YAddr) {
          YOld.push_back(L);
          continue;
        }
        if (!L->isSimple())
          return fail("the row loop has a volatile or atomic load");
        if (Inner->contains(L)) {
          if (!InnerLoads.count(L))
            return fail("the inner loop reads memory other than val[p], "
                        "col[p] and x[col[p]]");
          continue;
        }
        if (SE.getPointerBase(SE.getSCEV(L->getPointerOperand())) != PtrBase)
          return fail("the row loop reads memory other than the row pointers "
                      "outside its inner loop");
        continue;
      }
      if (I.isTerminator() && !isa<BranchInst>(I))
        return fail("the row loop has a switch or another terminator that "
                    "is not a branch");
      if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects())
        return fail("the row loop has an instruction with side effects or "
                    "memory access that is not a load or the store");
      for (User *U : I.users())
        if (auto *UI = dyn_cast<Instruction>(U); UI && !Row->contains(UI))
          return fail("a value computed in the row loop is used after it");
      if (Inner->contains(&I) || BB == Row->getLoopLatch())
        continue;
      if (auto *Br = dyn_cast<BranchInst>(&I); Br && Br->isConditional()) {
        if (!checkGuard(Br))
          return false;
        ++Guards;
      }
    }
  // Without its guard the inner loop would run once on an empty row.
  if (Guards != 1)
    return fail("the inner loop has no zero-trip guard ptr[i] < ptr[i+1]");
  if (!checkLatch())
    return false;
  if (!isRowResult(St, Row, Inner, Acc, SE, Why) ||
      !isRowIndexedStore(St, Row, SE, Why))
    return false;
  // Every row writes its result: the store runs on every iteration.
  DominatorTree DT(*Row->getHeader()->getParent());
  if (!DT.dominates(St->getParent(), Row->getLoopLatch()))
    return fail("the store of the row's result does not run for every row");
  for (PHINode &P : Row->getHeader()->phis())
    if (&P != M.Nest.IVs.front())
      for (User *U : P.users())
        if (auto *UI = dyn_cast<Instruction>(U); UI && !Row->contains(UI))
          return fail("a value carried by the row loop is used after it");
  return true;
}

bool SpmvLifter::run(const std::string &Name) {
  if (!findRoles() || !checkRowLoop())
    return false;

  // Types.
  std::string TP = funilTypeText(IntegerType::get(I64->getContext(),
                                                  8 * Ptr->ElemBytes));
  std::string TV = funilTypeText(ValL->getType()), TX = funilTypeText(XL->getType());
  std::string TC = funilTypeText(ColL->getType());
  std::string TA = funilTypeText(Acc->getType());
  Type *YTy = St->getValueOperand()->getType();
  if (TV.empty() || TX.empty() || TA.empty() || funilTypeText(YTy).empty() ||
      TA == "bool")
    return fail("an SpMV operand has a type the lifter does not express");

  // Buffers: ptr [first, first + n + 1), val and col [ptr[0], ptr[n]), x the
  // columns' range, y the rows' elements.
  const SCEV *N = SE.getTruncateOrZeroExtend(M.Nest.TripCounts.front(), I64);
  const SCEV *PtrFirst = elements(Ptr->FirstBytes, Ptr->ElemBytes);
  if (!PtrFirst)
    return fail("the first row pointer is not at a whole element");
  const SCEV *Zero = SE.getZero(I64);
  Type *PtrTy = IntegerType::get(I64->getContext(), 8 * Ptr->ElemBytes);
  buffer(Ptr->Base, PtrTy, PtrFirst,
         SE.getAddExpr(PtrFirst, SE.getAddExpr(N, SE.getOne(I64))), false);
  auto BaseOf = [&](Instruction *I) -> Value * {
    auto *B = dyn_cast<SCEVUnknown>(
        SE.getPointerBase(SE.getSCEV(getLoadStorePointerOperand(I))));
    return B ? B->getValue() : nullptr;
  };
  Value *ValBase = BaseOf(ValL), *ColBase = BaseOf(ColL), *XBase = BaseOf(XL),
        *YBase = BaseOf(St);
  if (!ValBase || !ColBase || !XBase || !YBase)
    return fail("an SpMV array has no base pointer");
  for (Value *B : {ValBase, ColBase, XBase, YBase, Ptr->Base})
    if (auto *BI = dyn_cast<Instruction>(B); BI && Row->contains(BI))
      return fail("an SpMV array's base pointer is computed in the row loop");
  buffer(ValBase, ValL->getType(), Zero, Zero, false,
         RunTimeValue::CsrFirstNonzero, RunTimeValue::CsrEndNonzero);
  buffer(ColBase, ColL->getType(), Zero, Zero, false,
         RunTimeValue::CsrFirstNonzero, RunTimeValue::CsrEndNonzero);
  const SCEV *C = SE.getConstant(I64, XOffset, true);
  buffer(XBase, XL->getType(), C, C, false, RunTimeValue::CsrFirstColumn,
         RunTimeValue::CsrEndColumn);
  // y[i]: an affine element of the row with a positive constant stride.
  uint64_t YSize = DL.getTypeAllocSize(YTy);
  auto *YAR = dyn_cast<SCEVAddRecExpr>(
      SE.removePointerBase(SE.getSCEV(St->getPointerOperand())));
  auto *YStep = YAR ? dyn_cast<SCEVConstant>(YAR->getStepRecurrence(SE)) : nullptr;
  const SCEV *YFirst = YAR ? elements(YAR->getStart(), YSize) : nullptr;
  int64_t YStride = YStep ? YStep->getAPInt().getSExtValue() : 0;
  if (!YFirst || YAR->getLoop() != Row || YStride <= 0 ||
      YStride % (int64_t)YSize)
    return fail("y is not written at a positive constant stride per row");
  YStride /= YSize;
  const SCEV *YLast = SE.getAddExpr(
      YFirst, SE.getMulExpr(SE.getConstant(I64, YStride),
                            SE.getMinusSCEV(N, SE.getOne(I64))));
  buffer(YBase, YTy, YFirst, SE.getAddExpr(YLast, SE.getOne(I64)), true);
  Buffers.back().Read = !YOld.empty();

  // Sizes and offsets.
  std::string NText = index(N, "n0");
  std::string Nz0 = index(Zero, "nz0", RunTimeValue::CsrFirstNonzero);
  std::string Col0 = index(Zero, "c0", RunTimeValue::CsrFirstColumn);
  std::string XLen = index(Zero, "nx", RunTimeValue::CsrColumnCount);

  // STEP, INIT, POST.
  Slice.Acc.push_back(Acc);
  Slice.ElemA.push_back(ValL);
  Slice.ElemB.push_back(XL);
  Slice.Step = Red->Update;
  Slice.Init = Red->Init;
  Slice.Post = St->getValueOperand();
  Reading Step, Init, Post;
  for (LoadInst *L : YOld) {
    Slice.COld.push_back(L);
    Init.Leaves[L] = Post.Leaves[L] = "r.2";
  }
  Step.Leaves[Acc] = "acc";
  Step.Leaves[ValL] = "x.0";
  Step.Leaves[XL] = "x.1";
  std::string StepText = expr(Slice.Step, Step);
  std::string InitText = expr(Slice.Init, Init);
  Post.Finals = true;
  std::string PostText = expr(Slice.Post, Post);
  if (!Why.empty())
    return false;
  size_t Uses = 0;
  for (size_t At = PostText.find(SumMark); At != std::string::npos;
       At = PostText.find(SumMark, At + 1))
    ++Uses;
  if (Uses != 1)
    return fail("the stored value uses the row's sum " + std::to_string(Uses) +
                " times, not once");

  auto Widen = [&](const std::string &X, bool Z, const std::string &T) {
    return T == "i64" ? X : std::string(Z ? "zext" : "sext") + ".i64(" + X + ")";
  };
  std::string Lo = Widen("r.0", PtrZExt, TP), Hi = Widen("r.1", PtrZExt, TP);
  std::string Slice0 = "sub(" + Lo + ", " + Nz0 + "), 1:i64, sub(" + Hi + ", " +
                       Lo + ")";
  std::string Gather = "map(\\(c: " + TC + ") => at(view(b3, 0:i64, 1:i64, " +
                       XLen + "), sub(" + Widen("c", ColZExt, TC) + ", " + Col0 +
                       ")), view(b2, " + Slice0 + "))";
  std::string RedText = "reduceSeq(\\(acc: " + TA + ", x: (" + TV + ", " + TX +
                        ")) => " + StepText + ", " + InitText + ", zip(view(b1, " +
                        Slice0 + "), " + Gather + "))";
  PostText.replace(PostText.find(SumMark), 1, RedText);
  std::string YView = "view(b4, 0:i64, " + std::to_string(YStride) + ":i64, " +
                      NText + ")";
  std::string Old = YOld.empty() ? "" : ", " + YView;
  std::string OldTy = YOld.empty() ? "" : ", " + funilTypeText(YTy);
  std::string Stmt = "store " + YView + " = map(\\(r: (" + TP + ", " + TP +
                     OldTy + ")) => " + PostText +
                     ", zip(view(b0, 0:i64, 1:i64, " + NText +
                     "), view(b0, 1:i64, 1:i64, " + NText + ")" + Old + "));";

  size_t First = Out.Params.size();
  for (auto *List : {&Buffers, &Indices, &Scalars})
    Out.Params.insert(Out.Params.end(), List->begin(), List->end());
  std::string Params =
      funilParamList(ArrayRef<LiftedParam>(Out.Params).drop_front(First));
  Out.FunIL = "idiom " + Name + "(" + Params + ") {\n  " + Stmt + "\n}\n";
  Out.Sizes.push_back(M.Nest.TripCounts.front());
  Out.Gemm = std::make_shared<GemmSlice>(Slice);

  auto X = std::make_shared<CsrExtent>();
  X->Ptr = Ptr->Base;
  X->PtrFirst = PtrFirst;
  X->PtrBytes = Ptr->ElemBytes;
  X->ColBytes = DL.getTypeAllocSize(ColL->getType());
  X->Col = ColBase;
  X->Flags = (PtrZExt ? IDIOM_CSR_PTR_ZEXT : 0) | (ColZExt ? IDIOM_CSR_COL_ZEXT : 0);
  X->Rows = N;
  X->XOffset = XOffset;
  // x's extent: the object behind its base (a global or stack array), and
  // the array type of `getelementptr [K x T], base, 0, idx` (S.x[col[p]]
  // with x a member of a struct S).
  uint64_t Bytes = 0;
  if (getObjectSize(XBase, Bytes, DL, nullptr))
    X->XExtent = Bytes / DL.getTypeAllocSize(XL->getType());
  auto *G = dyn_cast<GEPOperator>(XL->getPointerOperand());
  auto *AT = G ? dyn_cast<ArrayType>(G->getSourceElementType()) : nullptr;
  if (AT && G->getPointerOperand() == XBase && G->getNumIndices() == 2 &&
      AT->getElementType() == XL->getType() &&
      match(G->getOperand(1), m_Zero()))
    X->XExtent = X->XExtent ? std::min<uint64_t>(X->XExtent, AT->getNumElements())
                            : AT->getNumElements();
  Out.Csr = X;
  return true;
}

} // namespace

bool liftSpmv(const IdiomMatch &M, const std::string &Name, ScalarEvolution &SE,
              LiftedIdiom &Out, std::string &Why) {
  if (M.Kind != IdiomKind::Spmv || M.Nest.depth() != 1) {
    Why = "not an SpMV match";
    return false;
  }
  SpmvLifter L(M, SE, Out, Why);
  return L.run(Name);
}

} // namespace idiom
