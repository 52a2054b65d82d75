//===- SpmvLifting.cpp - Lift a detected CSR or JDS SpMV into FunIL -------===//

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

/// How the values of one scalar function (STEP, INIT or POST) are read.
using Reading = SliceReading;

/// \p X (of FunIL type \p T) widened to i64, by zero extension when \p Z.
std::string widen(const std::string &X, bool Z, const std::string &T) {
  return T == "i64" ? X : std::string(Z ? "zext" : "sext") + ".i64(" + X + ")";
}

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
  // Both formats.
  bool productRoles(PHINode *IV);
  /// The base pointer of \p I's address, or null.
  Value *baseOf(Instruction *I) {
    auto *B = dyn_cast<SCEVUnknown>(
        SE.getPointerBase(SE.getSCEV(getLoadStorePointerOperand(I))));
    return B ? B->getValue() : nullptr;
  }
  bool slices(std::string &StepText, std::string &InitText,
              std::string &PostText);
  std::string funil(const std::string &Name, const std::string &Stmt);
  void setXExtent(CsrExtent &X, Value *XBase);
  // JDS (the jagged diagonal form, spmv-jds).
  bool findJdsRoles(const std::string &CsrWhy);
  bool checkCountGuard(BranchInst *Br);
  bool checkPermutedStore();
  const SCEV *rowElement(LoadInst *L);
  bool runJds(const std::string &Name);

  bool fail(const std::string &W) {
    if (Why.empty())
      Why = W;
    return false;
  }
  bool findRoles();
  bool checkRowLoop();
  bool entering(BranchInst *Br, CmpInst::Predicate &P) const;
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
  // JDS roles.
  bool Jds = false;
  std::optional<JdsRows> J;
  LoadInst *PermL = nullptr;
  bool PermZExt = false, CntSigned = true;
  int64_t YOffset = 0;
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
  std::string N = sliceScalarParam(V, Scalars, ScalarNames);
  if (N.empty())
    fail("the SpMV reads a loop-invariant value of a type the lifter does "
         "not pass (only float, double, int and long)");
  return N;
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

/// The accumulator, the product val[p] * x[col[p]] and the reduction of
/// the inner loop whose counter is \p IV (CSR and JDS alike).
bool SpmvLifter::productRoles(PHINode *IV) {
  for (PHINode &P : Inner->getHeader()->phis()) {
    if (&P == IV)
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
  if (Red && !Red->Stores.empty()) {
    Why = "the accumulator is stored to memory inside the row loop";
    return false;
  }
  return Red.has_value();
}

bool SpmvLifter::findRoles() {
  Inner = sparseRowInner(Row, SE, Why);
  if (!Inner)
    return false;
  std::string CsrWhy;
  Ptr = csrRowPointers(Inner, Row, SE, CsrWhy);
  if (!Ptr)
    return findJdsRoles(CsrWhy);
  if (!productRoles(Ptr->IV) || !isCsrRange(Inner, Row, ValL, SE, Why))
    return false;
  bool EndZExt = false;
  if (!widening(Ptr->Start, PtrZExt) || !widening(Ptr->End, EndZExt))
    return false;
  if (PtrZExt != EndZExt)
    return fail("the row's start and end pointers are widened differently");
  return true;
}

/// Makes \p P, the predicate of \p Br's condition, the condition under
/// which Br enters the inner loop (inverted when it enters on false); false
/// when both or neither of its successors enter it.
bool SpmvLifter::entering(BranchInst *Br, CmpInst::Predicate &P) const {
  BasicBlock *Pre = Inner->getLoopPreheader();
  BasicBlock *In = Inner->getHeader();
  auto Enters = [&](BasicBlock *BB) { return BB == Pre || BB == In; };
  if (Enters(Br->getSuccessor(1)) && !Enters(Br->getSuccessor(0)))
    P = CmpInst::getInversePredicate(P);
  else if (!Enters(Br->getSuccessor(0)) || Enters(Br->getSuccessor(1)))
    return false;
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
  if (!entering(Br, P))
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
  if (Jds)
    InnerLoads.insert(J->Diag);
  const SCEV *PtrBase = Jds ? nullptr : SE.getSCEV(Ptr->Base);
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
  if (Jds && !checkPermutedStore())
    return false;
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
          if (Jds)
            return fail("the JDS row loop reads y[perm[i]] (only y[perm[i]] "
                        "= F(sum) is lifted)");
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
        if (Jds ? L != J->Count && L != PermL
                : SE.getPointerBase(SE.getSCEV(L->getPointerOperand())) != PtrBase)
          return fail(Jds ? "the row loop reads memory other than cnt[i] and "
                            "perm[i] outside its inner loop"
                          : "the row loop reads memory other than the row "
                            "pointers outside its inner loop");
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
        if (!(Jds ? checkCountGuard(Br) : checkGuard(Br)))
          return false;
        ++Guards;
      }
    }
  // Without its guard the inner loop would run once on an empty row.
  if (Guards != 1)
    return fail(Jds ? "the inner loop has no zero-trip guard cnt[i] > 0"
                    : "the inner loop has no zero-trip guard ptr[i] < ptr[i+1]");
  if (!Jds && !checkLatch())
    return false;
  if (!isRowResult(St, Row, Inner, Acc, SE, Why) ||
      (!Jds && !isRowIndexedStore(St, Row, SE, Why)))
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
  if (Jds)
    return runJds(Name);

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
  Value *ValBase = baseOf(ValL), *ColBase = baseOf(ColL), *XBase = baseOf(XL),
        *YBase = baseOf(St);
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

  std::string StepText, InitText, PostText;
  if (!slices(StepText, InitText, PostText))
    return false;

  std::string Lo = widen("r.0", PtrZExt, TP), Hi = widen("r.1", PtrZExt, TP);
  std::string Slice0 = "sub(" + Lo + ", " + Nz0 + "), 1:i64, sub(" + Hi + ", " +
                       Lo + ")";
  std::string Gather = "map(\\(c: " + TC + ") => at(view(b3, 0:i64, 1:i64, " +
                       XLen + "), sub(" + widen("c", ColZExt, TC) + ", " + Col0 +
                       ")), view(b2, " + Slice0 + "))";
  std::string RedText = "reduceSeq(\\(acc: " + TA + ", x: (" + TV + ", " + TX +
                        ")) => " + StepText + ", " + InitText + ", zip(view(b1, " +
                        Slice0 + "), " + Gather + "))";
  PostText.replace(PostText.find(SliceSumMark), 1, RedText);
  std::string YView = "view(b4, 0:i64, " + std::to_string(YStride) + ":i64, " +
                      NText + ")";
  std::string Old = YOld.empty() ? "" : ", " + YView;
  std::string OldTy = YOld.empty() ? "" : ", " + funilTypeText(YTy);
  std::string Stmt = "store " + YView + " = map(\\(r: (" + TP + ", " + TP +
                     OldTy + ")) => " + PostText +
                     ", zip(view(b0, 0:i64, 1:i64, " + NText +
                     "), view(b0, 1:i64, 1:i64, " + NText + ")" + Old + "));";

  Out.FunIL = funil(Name, Stmt);

  auto X = std::make_shared<CsrExtent>();
  X->Ptr = Ptr->Base;
  X->PtrFirst = PtrFirst;
  X->PtrBytes = Ptr->ElemBytes;
  X->ColBytes = DL.getTypeAllocSize(ColL->getType());
  X->Col = ColBase;
  X->Flags = (PtrZExt ? IDIOM_CSR_PTR_ZEXT : 0) | (ColZExt ? IDIOM_CSR_COL_ZEXT : 0);
  X->Rows = N;
  setXExtent(*X, XBase);
  Out.Csr = X;
  return true;
}

/// STEP, INIT and POST of the row (Slice's roots), POST with the row's sum
/// as SliceSumMark, used once.
bool SpmvLifter::slices(std::string &StepText, std::string &InitText,
                        std::string &PostText) {
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
  StepText = expr(Slice.Step, Step);
  InitText = expr(Slice.Init, Init);
  Post.Finals = true;
  PostText = expr(Slice.Post, Post);
  if (!Why.empty())
    return false;
  size_t Uses = 0;
  for (size_t At = PostText.find(SliceSumMark); At != std::string::npos;
       At = PostText.find(SliceSumMark, At + 1))
    ++Uses;
  if (Uses != 1)
    return fail("the stored value uses the row's sum " + std::to_string(Uses) +
                " times, not once");
  return true;
}

/// The program text of statement \p Stmt over the parameters collected so
/// far (appended to Out.Params), and Out's sizes and slices.
std::string SpmvLifter::funil(const std::string &Name, const std::string &Stmt) {
  size_t First = Out.Params.size();
  for (auto *List : {&Buffers, &Indices, &Scalars})
    Out.Params.insert(Out.Params.end(), List->begin(), List->end());
  std::string Params =
      funilParamList(ArrayRef<LiftedParam>(Out.Params).drop_front(First));
  Out.Sizes.push_back(M.Nest.TripCounts.front());
  Out.Gemm = std::make_shared<GemmSlice>(Slice);
  return "idiom " + Name + "(" + Params + ") {\n  " + Stmt + "\n}\n";
}

/// x's extent: the object behind its base (a global or stack array), and
/// the array type of `getelementptr [K x T], base, 0, idx` (S.x[col[p]]
/// with x a member of a struct S).
void SpmvLifter::setXExtent(CsrExtent &X, Value *XBase) {
  X.XOffset = XOffset;
  uint64_t Bytes = 0;
  if (getObjectSize(XBase, Bytes, DL, nullptr))
    X.XExtent = Bytes / DL.getTypeAllocSize(XL->getType());
  auto *G = dyn_cast<GEPOperator>(XL->getPointerOperand());
  auto *AT = G ? dyn_cast<ArrayType>(G->getSourceElementType()) : nullptr;
  if (AT && G->getPointerOperand() == XBase && G->getNumIndices() == 2 &&
      AT->getElementType() == XL->getType() &&
      match(G->getOperand(1), m_Zero()))
    X.XExtent = X.XExtent ? std::min<uint64_t>(X.XExtent, AT->getNumElements())
                          : AT->getNumElements();
}

/// The roles of a JDS row loop: the counter k runs from 0 to cnt[i], the
/// product reads val and col at ptr[k] + i; \p CsrWhy says why the bounds
/// are not CSR row pointers, for the remark when they are not JDS either.
bool SpmvLifter::findJdsRoles(const std::string &CsrWhy) {
  PHINode *IV = nullptr;
  for (PHINode &P : Inner->getHeader()->phis()) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
    if (P.getType()->isIntegerTy() && AR && AR->getLoop() == Inner &&
        AR->getStart()->isZero() && AR->getStepRecurrence(SE)->isOne())
      IV = &P;
  }
  if (!IV)
    return fail(CsrWhy + "; nor does its counter run from 0 (JDS)");
  Jds = true;
  if (!productRoles(IV)) {
    std::string W = Why;
    Why.clear();
    return fail(CsrWhy + "; not JDS either: " + W);
  }
  std::string JWhy;
  J = jdsRows(Inner, Row, ValL, SE, JWhy);
  if (!J || J->IV != IV)
    return fail(CsrWhy + "; not JDS either: " + JWhy);
  // The position ptr[k] + i: the 32-bit sum only with nsw (an overflow is
  // undefined, so the i64 sum the kernel and the check use is the loop's),
  // the row part exactly the row index.
  Type *PT = J->Pos->getType();
  auto *G = dyn_cast<GEPOperator>(ValL->getPointerOperand());
  Value *GI = G ? G->getOperand(G->getNumOperands() - 1) : nullptr;
  auto *Add = dyn_cast<BinaryOperator>(J->Pos);
  if (!(PT->isIntegerTy(64) && GI == J->Pos) &&
      !(PT->isIntegerTy(32) && Add && Add->getOpcode() == Instruction::Add &&
        Add->hasNoSignedWrap() && GI && isa<SExtInst>(GI) &&
        cast<SExtInst>(GI)->getOperand(0) == J->Pos))
    return fail("the position ptr[k] + i is not a long index, or an int sum "
                "without wrapping (nsw) sign-extended to the index");
  if (J->Diag->getType() != PT)
    return fail("ptr[k] and the position ptr[k] + i differ in type");
  auto *RP = dyn_cast<SCEVAddRecExpr>(J->RowPart);
  auto *RowIV = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(M.Nest.IVs.front()));
  if (!RP || RP->getLoop() != Row || !RP->getStart()->isZero() ||
      !RP->getStepRecurrence(SE)->isOne() || !RowIV || !RowIV->getStart()->isZero() ||
      !RowIV->getStepRecurrence(SE)->isOne())
    return fail("the position is not ptr[k] + i with i the row, from 0 by 1");
  if (!J->End->getType()->isIntegerTy(64))
    return fail("the inner loop's counter is not 64 bits wide");
  Type *CT = J->Count->getType();
  if (!CT->isIntegerTy(32) && !CT->isIntegerTy(64))
    return fail("the row counts are not int or long elements");
  return true;
}

/// The one conditional branch of the row loop outside its inner loop and
/// latch enters the inner loop exactly when cnt[i] > 0 (signed), or
/// cnt[i] != 0 or > 0 unsigned (the counts are then unsigned); the
/// run-time check refuses negative signed counts.
bool SpmvLifter::checkCountGuard(BranchInst *Br) {
  const char *Bad = "the row loop has a condition other than the inner "
                    "loop's guard cnt[i] > 0";
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return fail(Bad);
  Value *A = stripCasts(Cmp->getOperand(0)), *B = stripCasts(Cmp->getOperand(1));
  CmpInst::Predicate P = Cmp->getPredicate();
  if (B == J->Count) {
    std::swap(A, B);
    P = CmpInst::getSwappedPredicate(P);
  }
  auto *C = dyn_cast<ConstantInt>(B);
  if (A != J->Count || !C)
    return fail(Bad);
  if (!entering(Br, P))
    return fail(Bad);
  bool Zero = C->isZero(), One = C->isOne();
  if ((P == CmpInst::ICMP_SGT && Zero) || (P == CmpInst::ICMP_SGE && One))
    CntSigned = true;
  else if ((P == CmpInst::ICMP_NE || P == CmpInst::ICMP_UGT) && Zero)
    CntSigned = isa<SExtInst>(J->End);
  else if (P == CmpInst::ICMP_UGE && One)
    CntSigned = isa<SExtInst>(J->End);
  else
    return fail(Bad);
  return true;
}

/// y is written at perm[i] + c: perm a load of the row loop outside its
/// inner loop (an int or long array; rowElement checks that it is read at
/// the row).
bool SpmvLifter::checkPermutedStore() {
  for (BasicBlock *BB : Row->blocks())
    for (Instruction &I : *BB) {
      auto *L = dyn_cast<LoadInst>(&I);
      if (!L || !L->isSimple() || Inner->contains(L) ||
          (!L->getType()->isIntegerTy(32) && !L->getType()->isIntegerTy(64)))
        continue;
      bool Z = false;
      if (auto Off = gatherOffset(St, L, SE, Z)) {
        PermL = L;
        YOffset = *Off;
        PermZExt = Z && L->getType()->isIntegerTy(32);
        return true;
      }
    }
  return fail("y is not written at perm[i] plus a constant, perm an int or "
              "long array read at the row");
}

/// \p L's first element when it reads element i + first of an array whose
/// base is invariant in the row loop (i the row), else null.
const SCEV *SpmvLifter::rowElement(LoadInst *L) {
  uint64_t Size = DL.getTypeAllocSize(L->getType());
  auto *AR = dyn_cast<SCEVAddRecExpr>(
      SE.removePointerBase(SE.getSCEV(L->getPointerOperand())));
  auto *Step = AR ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE)) : nullptr;
  auto *Base = dyn_cast_or_null<Instruction>(baseOf(L));
  if (!AR || AR->getLoop() != Row || !Step ||
      Step->getAPInt().getSExtValue() != (int64_t)Size ||
      !SE.isLoopInvariant(AR->getStart(), Row) || (Base && Row->contains(Base)))
    return nullptr;
  return elements(AR->getStart(), Size);
}

/// The JDS program (docs/FunIL.md, "SpMV programs"): a map over the rows
/// of the sequential reduction over the row's diagonals, y scattered
/// through perm.
bool SpmvLifter::runJds(const std::string &Name) {
  Type *DT = J->Diag->getType(), *CT = J->Count->getType(), *QT = PermL->getType();
  Type *YTy = St->getValueOperand()->getType();
  std::string TD = funilTypeText(DT), TC = funilTypeText(ColL->getType());
  std::string TN = funilTypeText(CT), TQ = funilTypeText(QT);
  std::string TV = funilTypeText(ValL->getType()), TX = funilTypeText(XL->getType());
  std::string TA = funilTypeText(Acc->getType());
  if (TV.empty() || TX.empty() || TA.empty() || funilTypeText(YTy).empty() ||
      TA == "bool")
    return fail("an SpMV operand has a type the lifter does not express");
  Value *CntBase = baseOf(J->Count), *DiagBase = baseOf(J->Diag),
        *ValBase = baseOf(ValL), *ColBase = baseOf(ColL), *XBase = baseOf(XL),
        *PermBase = baseOf(PermL), *YBase = baseOf(St);
  for (Value *B : {CntBase, DiagBase, ValBase, ColBase, XBase, PermBase, YBase}) {
    if (!B)
      return fail("an SpMV array has no base pointer");
    if (auto *BI = dyn_cast<Instruction>(B); BI && Row->contains(BI))
      return fail("an SpMV array's base pointer is computed in the row loop");
  }
  // cnt[i + c], or cnt[i / D] from its base for blocks of D rows (checked
  // by the fact).
  unsigned Div = J->RowsPerCount;
  const SCEV *CntFirst = Div == 1 ? rowElement(J->Count) : SE.getZero(I64);
  const SCEV *PermFirst = rowElement(PermL);
  if (!CntFirst)
    return fail("the row counts are not read at cnt[i + c], i the row");
  if (!PermFirst)
    return fail("perm is not read at perm[i + c], i the row");
  auto *DAR = dyn_cast<SCEVAddRecExpr>(
      SE.removePointerBase(SE.getSCEV(J->Diag->getPointerOperand())));
  if (!DAR || !DAR->getStart()->isZero())
    return fail("the diagonals' starts are not read at ptr[k] from ptr's base");

  // Buffers: cnt and perm the rows' elements, ptr [0, K) for the largest
  // count K, val and col the positions' range, x the columns' range, y the
  // n elements the rows write; all but cnt and perm found at run time.
  const SCEV *N = SE.getTruncateOrZeroExtend(M.Nest.TripCounts.front(), I64);
  const SCEV *Zero = SE.getZero(I64);
  const SCEV *XOff = SE.getConstant(I64, XOffset, true);
  const SCEV *D = SE.getConstant(I64, Div);
  buffer(CntBase, CT, CntFirst,
         Div == 1 ? SE.getAddExpr(CntFirst, N)
                  : SE.getUDivExpr(SE.getAddExpr(N, SE.getMinusSCEV(D, SE.getOne(I64))), D),
         false);
  buffer(DiagBase, DT, Zero, Zero, false, RunTimeValue::CsrDiagonals,
         RunTimeValue::CsrDiagonals);
  buffer(ValBase, ValL->getType(), Zero, Zero, false,
         RunTimeValue::CsrFirstNonzero, RunTimeValue::CsrEndNonzero);
  buffer(ColBase, ColL->getType(), Zero, Zero, false,
         RunTimeValue::CsrFirstNonzero, RunTimeValue::CsrEndNonzero);
  buffer(XBase, XL->getType(), XOff, XOff, false, RunTimeValue::CsrFirstColumn,
         RunTimeValue::CsrEndColumn);
  buffer(PermBase, QT, PermFirst, SE.getAddExpr(PermFirst, N), false);
  buffer(YBase, YTy, Zero, Zero, true, RunTimeValue::CsrFirstResult,
         RunTimeValue::CsrFirstResult);
  std::string NText = index(N, "n0");
  std::string Nz0 = index(Zero, "nz0", RunTimeValue::CsrFirstNonzero);
  std::string Nnz = index(Zero, "nnz", RunTimeValue::CsrNonzeroCount);
  std::string Col0 = index(Zero, "c0", RunTimeValue::CsrFirstColumn);
  std::string XLen = index(Zero, "nx", RunTimeValue::CsrColumnCount);
  std::string Y0 = index(Zero, "y0", RunTimeValue::CsrFirstResult);

  std::string StepText, InitText, PostText;
  if (!slices(StepText, InitText, PostText))
    return false;
  // Row i: its count, its diagonals' starts, the positions ptr[k] + i (cnt
  // and perm are passed from row 0's element on).
  std::string DText = std::to_string(Div) + ":i64";
  std::string CountAt =
      Div == 1 ? "at(view(b0, 0:i64, 1:i64, " + NText + "), i)"
               : "at(view(b0, 0:i64, 1:i64, udiv(add(" + NText + ", " +
                     std::to_string(Div - 1) + ":i64), " + DText + ")), udiv(i, " +
                     DText + "))";
  std::string Count = widen(CountAt, !CntSigned, TN);
  std::string Diags = "view(b1, 0:i64, 1:i64, " + Count + ")";
  std::string Pos = "sub(add(" + widen("d", false, TD) + ", i), " + Nz0 + ")";
  std::string Vals = "map(\\(d: " + TD + ") => at(view(b2, 0:i64, 1:i64, " + Nnz +
                     "), " + Pos + "), " + Diags + ")";
  std::string Col = widen("at(view(b3, 0:i64, 1:i64, " + Nnz + "), " + Pos + ")",
                          ColZExt, TC);
  std::string Xs = "map(\\(d: " + TD + ") => at(view(b4, 0:i64, 1:i64, " + XLen +
                   "), sub(" + Col + ", " + Col0 + ")), " + Diags + ")";
  std::string RedText = "reduceSeq(\\(acc: " + TA + ", x: (" + TV + ", " + TX +
                        ")) => " + StepText + ", " + InitText + ", zip(" + Vals +
                        ", " + Xs + "))";
  PostText.replace(PostText.find(SliceSumMark), 1, RedText);
  std::string YIdx =
      widen("at(view(b5, 0:i64, 1:i64, " + NText + "), i)", PermZExt, TQ);
  if (YOffset)
    YIdx = "add(" + YIdx + ", " + std::to_string(YOffset) + ":i64)";
  std::string Stmt = "store view(b6, 0:i64, 1:i64, " + NText +
                     ") = scatter(\\(i: i64) => sub(" + YIdx + ", " + Y0 +
                     "), map(\\(i: i64) => " + PostText + ", iota(" + NText +
                     ")));";
  // An int position ptr[k] + i sums the row's index truncated to 32 bits:
  // the row count must keep it exact (n <= 2^31).
  if (!J->Pos->getType()->isIntegerTy(64))
    Out.NonNegative.push_back(SE.getMinusSCEV(SE.getConstant(I64, 1ll << 31), N));

  unsigned First = Out.Params.size();
  Out.FunIL = funil(Name, Stmt);
  auto X = std::make_shared<CsrExtent>();
  X->Format = IDIOM_SPARSE_JDS;
  X->Ptr = DiagBase;
  X->PtrFirst = Zero;
  X->PtrBytes = DL.getTypeAllocSize(DT);
  X->ColBytes = DL.getTypeAllocSize(ColL->getType());
  X->Col = ColBase;
  X->Flags = (ColZExt ? IDIOM_CSR_COL_ZEXT : 0) |
             (CntSigned ? 0 : IDIOM_CSR_CNT_ZEXT) |
             (PermZExt ? IDIOM_CSR_PERM_ZEXT : 0);
  X->Rows = N;
  X->CntParam = First;
  X->PermParam = First + 5;
  X->CntBytes = DL.getTypeAllocSize(CT);
  X->RowsPerCount = Div;
  X->PermBytes = DL.getTypeAllocSize(QT);
  X->YOffset = YOffset;
  setXExtent(*X, XBase);
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
