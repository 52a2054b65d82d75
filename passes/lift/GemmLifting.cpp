//===- GemmLifting.cpp - Lift a detected GEMM into FunIL ------------------===//

#include "GemmLifting.h"
#include "HostFloat.h"
#include "SliceExpr.h"
#include "idiom/Constraints/LinearAlgebraFacts.h"
#include "idiom/Constraints/LoopFacts.h"
#include "idiom/Constraints/Z3Checks.h"
#include "../IdiomDetection.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

using namespace llvm;

namespace idiom {
namespace {

/// A TRMV whose triangle or band is in the loop of its output y, the outer
/// loop its reduction's.
const char *const TransposedTrmv =
    "the triangular GEMV's triangle or band is in the loop of the output y "
    "(a transposed triangular product, y[j] += L[i][j] * x[i]); only a "
    "triangle or band on the reduction's loop is lifted";

/// LoopI of a GEMV: the output is a vector, and the program's rows are one
/// row of size 1 (M = 1, stride 0).
constexpr unsigned NoLoop = ~0u;

/// FunIL spelling of the scalar types a GEMM slice may compute (f32, f64,
/// i32, i64), or empty.
std::string typeName(Type *T) {
  if (T->isFloatTy() || T->isDoubleTy() || T->isIntegerTy(32) ||
      T->isIntegerTy(64))
    return funilTypeText(T);
  return "";
}

/// How the values of one scalar function (STEP, INIT or POST) are read.
using Reading = SliceReading;

class GemmLifter {
public:
  GemmLifter(const IdiomMatch &M, ScalarEvolution &SE, LiftedIdiom &Out,
             std::string &Why)
      : M(M), SE(SE), Out(Out), Why(Why), Outer(M.Nest.Loops.front()),
        I64(Type::getInt64Ty(Outer->getHeader()->getContext())),
        Depth(M.Nest.depth()), Gemv(Depth == 2),
        Trmm(!Gemv && M.InPlaceTriangular) {}

  /// One GEMV of a pair (liftGemvPair): the instructions of \p Other, the
  /// other product's slice and stores, are not this program's.
  void setForeign(const SmallPtrSetImpl<Instruction *> *Other) {
    Foreign = Other;
  }

  bool run(const std::string &Name);

private:
  /// Sets Why; a GEMV's messages name the GEMV and its output y.
  bool fail(std::string W) {
    if (Gemv)
      for (auto [From, To] :
           {std::pair<const char *, const char *>{"GEMM", "GEMV"},
            {"output C", "output y"}})
        for (size_t At = W.find(From); At != std::string::npos;
             At = W.find(From, At + 1))
          W.replace(At, strlen(From), To);
    if (Why.empty())
      Why = W;
    return false;
  }
  const char *idiomName() const { return Gemv ? "GEMV" : "GEMM"; }
  /// The source's name of the program's operand A (\p IsA) or B.
  const char *operandName(bool IsA) const {
    return Gemv ? (IsA ? "x" : "the matrix") : (IsA ? "A" : "B");
  }
  bool findRoles();
  bool findInitStore(StoreInst *S0, StoreInst *S1);
  bool prologue(ArrayRef<Instruction *> Ops);
  bool findUpdate();
  bool readBeforeInit(LoadInst *L, const DominatorTree &DT);
  bool checkOutputRows();
  bool denseOutput();
  bool triangle(std::string &Mask, std::string &RedMask);
  bool bandOperand(const ChainAccess &Op);
  void noteInPlaceDependence();
  bool loopOf(Instruction *I, unsigned &D) const;
  void elementOffset(ChainAccess &A);
  bool isFinal(Value *V, unsigned Depth = 0) const;
  std::string expr(Value *V, Reading &R);
  std::string index(const SCEV *S, const std::string &Name);
  std::string size(const SCEV *S, const std::string &Name);
  std::string scalar(Value *V);
  const SCEV *i64(const SCEV *S) { return SE.getTruncateOrSignExtend(S, I64); }
  void range(const ChainAccess &A, const SCEV *&Lo, const SCEV *&Hi);
  std::string view(unsigned Buf, const ChainAccess &A, unsigned D0,
                   const std::string &N0, unsigned D1, const std::string &N1);

  const IdiomMatch &M;
  ScalarEvolution &SE;
  LiftedIdiom &Out;
  std::string &Why;
  Loop *Outer;
  Type *I64;
  unsigned Depth; ///< 3: GEMM; 2: GEMV (LoopI is NoLoop)
  bool Gemv;
  /// A TRMM (IdiomMatch::InPlaceTriangular on a chain of three loops): its
  /// reduction is a band or a triangle, its operand over C's array read
  /// from a snapshot.
  bool Trmm;

  unsigned LoopI = 0, LoopJ = 0, LoopK = 0; ///< positions in the chain
  StoreInst *St = nullptr;
  /// `C = INIT` before the loop of an in-place update (PolyBench's
  /// `tmp[i] = 0; for (j) tmp[i] += A[i][j] * x[j];`), or null.
  StoreInst *InitSt = nullptr;
  /// A band (NestInfo::BandLoop): the store of the running sum on every
  /// step of the band's loop (LLVM's promotion of PolyBench trmm's
  /// `B[i][j] += ...`), overwritten by St after the loop; or null.
  StoreInst *RunningSt = nullptr;
  Type *T = nullptr;
  std::optional<ChainAccess> CAcc, AAcc, BAcc;
  /// The second operands of two products per step (SYR2K), or empty.
  std::optional<ChainAccess> AAcc2, BAcc2;
  SmallVector<LoadInst *, 2> CLoads;
  PHINode *Sum = nullptr;
  Value *SumInit = nullptr, *SumUpd = nullptr;
  GemmSlice Slice;
  /// STEP, INIT or POST has an llvm.fmuladd lifted as fma under the
  /// licence (LiftedIdiom::FusedMulAdd).
  bool LicensedFusion = false;

  std::vector<LiftedParam> Buffers, Indices, Scalars;
  std::map<const SCEV *, std::string> IndexNames;
  DenseMap<Value *, std::string> ScalarNames;
  /// A GEMV of a pair: the other product's instructions, skipped.
  const SmallPtrSetImpl<Instruction *> *Foreign = nullptr;
};

/// Position in the chain of the innermost chain loop containing \p I.
bool GemmLifter::loopOf(Instruction *I, unsigned &D) const {
  for (int X = M.Nest.depth() - 1; X >= 0; --X)
    if (M.Nest.Loops[X]->contains(I)) {
      D = X;
      return true;
    }
  return false;
}

/// \p V is the sum after its loop: the latch value seen from outside the
/// loop, or a phi outside it that merges such values with the entry value
/// (the zero-trip path, which only runs when a nest guard fails).
bool GemmLifter::isFinal(Value *V, unsigned Depth) const {
  if (V == SumUpd)
    return true;
  auto *P = dyn_cast<PHINode>(V);
  const NestInfo &N = M.Nest;
  Loop *KL = N.Loops[LoopK];
  if (!P || KL->contains(P) || Depth > 4)
    return false;
  bool Saw = false;
  // The sum's entry value, or on a band's zero-trip path another load of
  // the old output element (LLVM duplicates it on both sides of the guard).
  auto IsInit = [&](Value *In) {
    return In == SumInit ||
           ((N.BandLoop || Trmm) && is_contained(CLoads, In) &&
            is_contained(CLoads, SumInit));
  };
  for (Value *In : P->incoming_values()) {
    if (IsInit(In))
      continue;
    if (!isFinal(In, Depth + 1))
      return false;
    Saw = true;
  }
  return Saw;
}

std::string GemmLifter::index(const SCEV *S, const std::string &Name) {
  return sliceIndexParam(i64(S), Name, Indices, IndexNames);
}

std::string GemmLifter::size(const SCEV *S, const std::string &Name) {
  S = i64(S);
  if (auto *C = dyn_cast<SCEVConstant>(S))
    return std::to_string(C->getAPInt().getSExtValue());
  // Each size gets its own name, even when two are equal.
  LiftedParam P;
  P.K = LiftedParam::Kind::Index;
  P.Name = Name;
  P.S = S;
  Indices.push_back(P);
  IndexNames.emplace(S, Name);
  return Name;
}

std::string GemmLifter::scalar(Value *V) {
  std::string N = sliceScalarParam(V, Scalars, ScalarNames);
  if (N.empty())
    fail("the GEMM update reads a loop-invariant value of a type the lifter "
         "does not pass (only float, double, int and long)");
  return N;
}

std::string GemmLifter::expr(Value *V, Reading &R) {
  SliceExprRules X;
  X.Idiom = idiomName();
  X.LoadWhy = "reads memory other than A, B and the output element before "
              "its update";
  X.PhiWhy = "reads a value carried by a loop of the nest (an induction "
             "variable or a second accumulator)";
  X.Body = Outer;
  X.TypeText = typeName;
  X.IsFinal = [this](Value *F) { return isFinal(F); };
  X.Scalar = [this](Value *F) { return scalar(F); };
  X.FuseMulAdd = M.FPContract;
  // Without the licence the sums are the loop's bit for bit: a product the
  // host may contract is refused.
  X.RefuseHostContraction = !M.FPContract;
  std::string S = sliceExpr(V, R, X, Slice.Final, Why);
  LicensedFusion |= R.LicensedFusion;
  return S;
}

/// Sets A.Offset when SCEV could not divide the byte offset by the element
/// size (an offset computed by instructions SCEV does not see through): the
/// unsigned quotient, with a run-time test that the remainder is zero. All
/// uses of the offset are linear modulo 2^64, so the quotient is exact then.
void GemmLifter::elementOffset(ChainAccess &A) {
  if (A.Offset)
    return;
  const DataLayout &DL = Outer->getHeader()->getModule()->getDataLayout();
  const SCEV *Bytes = i64(A.OffsetBytes);
  const SCEV *Size = SE.getConstant(I64, DL.getTypeAllocSize(A.ElemTy));
  A.Offset = SE.getUDivExpr(Bytes, Size);
  Out.NonNegative.push_back(SE.getNegativeSCEV(SE.getURemExpr(Bytes, Size)));
}

/// Finds the store (C), its loops i and j, the third loop k, and which loads
/// read A, B and C.
bool GemmLifter::findRoles() {
  const NestInfo &N = M.Nest;
  SmallVector<LoadInst *, 8> Loads;
  SmallVector<Instruction *, 4> ProOps; // of the prologue (prologue())
  for (BasicBlock *BB : Outer->blocks())
    for (Instruction &I : *BB) {
      if (Foreign && Foreign->count(&I))
        continue;
      if (N.Prologue && N.Prologue->contains(&I) &&
          (isa<LoadInst>(I) || isa<StoreInst>(I))) {
        ProOps.push_back(&I);
      } else if (auto *L = dyn_cast<LoadInst>(&I)) {
        Loads.push_back(L);
      } else if (auto *S = dyn_cast<StoreInst>(&I)) {
        if (Trmm && N.Loops[Depth - 1]->contains(S)) {
          if (RunningSt)
            return fail("the TRMM nest stores twice in its band's loop");
          RunningSt = S;
          continue;
        }
        if (InitSt)
          return fail("the GEMM nest has more than two stores");
        if (St && !findInitStore(St, S))
          return false;
        if (!St)
          St = S;
      } else if (isa<CallBase>(I)) {
        if (!isPureCall(&I))
          return fail("the GEMM nest calls a function that may have side effects");
      } else if (I.mayReadOrWriteMemory()) {
        return fail("the GEMM nest has a memory operation that is not a simple "
                    "load or store");
      }
    }
  if (!St)
    return fail(Trmm ? "the TRMM nest stores nothing after its band's "
                             "loop (an update in place is not lifted)"
                           : "the GEMM nest stores nothing");
  if (RunningSt && !accessesSameElement(RunningSt, St, SE))
    return fail("the TRMM nest stores in its band's loop to another element "
                "than the output element");
  if (N.Prologue && !prologue(ProOps))
    return false;
  std::string W;
  CAcc = analyzeChainAccess(St, N, SE, W);
  if (!CAcc)
    return fail("the output C: " + W);
  T = CAcc->ElemTy;
  if (T->isIntegerTy())
    return fail("GEMM with int elements not offloaded (GEMM programs are "
                "float or double)");
  if (!T->isFloatTy() && !T->isDoubleTy())
    return fail("GEMM with elements that are neither float nor double not "
                "offloaded");
  if (Gemv) {
    // y varies with one loop j (any non-zero stride: checkOutputRows), the
    // other loop is the reduction's.
    SmallVector<unsigned, 3> V = CAcc->varyingLoops();
    if (V.size() != 1)
      return fail("the GEMV output y is not a vector indexed by one loop of "
                  "the nest");
    LoopJ = V[0];
    LoopK = 1 - V[0];
    LoopI = NoLoop;
  } else {
    unsigned Row, Col;
    if (!isMatrixAccess(*CAcc, N, Row, Col, W))
      return fail("the output C: " + W);
    LoopJ = Col;
    LoopI = Row;
    LoopK = 3 - Row - Col;
  }
  elementOffset(*CAcc);

  for (LoadInst *L : Loads) {
    if (!L->isSimple())
      return fail("the GEMM nest has a volatile or atomic load");
    if (accessesSameElement(L, St, SE)) {
      CLoads.push_back(L);
      continue;
    }
    auto A = analyzeChainAccess(L, N, SE, W);
    if (!A)
      return fail("a load of the GEMM nest: " + W);
    SmallVector<unsigned, 3> V = A->varyingLoops();
    // In a GEMV, A of the program is the vector x (indexed by k alone) and
    // B the matrix (indexed by j and k).
    bool IsA = Gemv ? V.size() == 1 && V[0] == LoopK
                    : V.size() == 2 && llvm::is_contained(V, LoopI) &&
                          llvm::is_contained(V, LoopK);
    bool IsB = V.size() == 2 && llvm::is_contained(V, LoopJ) &&
               llvm::is_contained(V, LoopK);
    if (!IsA && !IsB) {
      if (A->Base == CAcc->Base)
        return fail("GEMM whose output C is also read at another index not "
                    "offloaded");
      return fail(Gemv ? "a load of the GEMV nest reads neither the matrix "
                         "(indexed by both loops) nor the vector x (indexed "
                         "by the reduction's loop) nor the output element"
                       : "a load of the GEMM nest reads neither A (indexed by "
                         "i and k) nor B (indexed by k and j) nor the output "
                         "element");
    }
    // A second element of the role (SYR2K's two products) goes to the
    // second slot; a third is refused.
    auto Reads = [&](const std::optional<ChainAccess> &S) {
      return S && SE.getSCEV(cast<LoadInst>(S->Inst)->getPointerOperand()) ==
                      SE.getSCEV(L->getPointerOperand());
    };
    std::optional<ChainAccess> &First = IsA ? AAcc : BAcc;
    std::optional<ChainAccess> &Second = IsA ? AAcc2 : BAcc2;
    bool ToSecond = First && !Reads(First);
    if (ToSecond && (Gemv || (Second && !Reads(Second))))
      return fail(std::string("the GEMM update reads ") +
                  (Gemv ? "two" : "more than two") + " different elements of " +
                  operandName(IsA) + " per step");
    std::optional<ChainAccess> &Slot = ToSecond ? Second : First;
    if (A->ElemTy != T)
      return fail("GEMM with mixed element types not offloaded");
    elementOffset(*A);
    if (!Slot)
      Slot = A;
    (ToSecond ? (IsA ? Slice.ElemA2 : Slice.ElemB2)
              : (IsA ? Slice.ElemA : Slice.ElemB))
        .push_back(L);
  }
  if (!AAcc || !BAcc)
    return fail(Gemv ? "the GEMV update does not read both the matrix "
                       "(indexed by both loops) and the vector x (indexed by "
                       "the reduction's loop)"
                     : "the GEMM update does not read both A (indexed by i "
                       "and k) and B (indexed by k and j)");
  if (AAcc2.has_value() != BAcc2.has_value())
    return fail("the GEMM update reads two elements of " +
                std::string(operandName(AAcc2.has_value())) +
                " per step but one of " + operandName(!AAcc2.has_value()) +
                " (not two products)");
  // The same array as C: the ranges must be apart (the runtime's overlap
  // check sees separate buffers from here on). Proven here; refused where
  // they provably meet whenever the nest runs (under its guards); else a
  // run-time test (LU's row of U, `A[i][j] -= A[i][k] * A[k][j]` for j >= i
  // and k < i: x and the matrix are the parts of A before A[i][i]).
  const SCEV *CLo, *CHi;
  range(*CAcc, CLo, CHi);
  for (const std::optional<ChainAccess> *X : {&AAcc, &BAcc, &AAcc2, &BAcc2}) {
    if (!*X || (*X)->Base != CAcc->Base)
      continue;
    // A band reads the operand as it was before the nest (a snapshot, with
    // anti dependences only: buildIdiomMatch), so it may overlap C, but
    // never at the element that the same (i, j) updates. (A TRMV's are
    // apart, as a GEMV's.)
    if (Trmm) {
      if (!bandOperand(**X))
        return false;
      continue;
    }
    const SCEV *Lo, *Hi;
    range(**X, Lo, Hi);
    if (SE.isKnownPredicate(CmpInst::ICMP_SLE, Hi, CLo) ||
        SE.isKnownPredicate(CmpInst::ICMP_SLE, CHi, Lo))
      continue;
    const SCEV *Gap =
        SE.getSMaxExpr(SE.getMinusSCEV(CLo, Hi), SE.getMinusSCEV(Lo, CHi));
    if (SE.isKnownNegative(SE.applyLoopGuards(Gap, Outer)) ||
        isa<SCEVConstant>(Gap))
      return fail(Gemv ? "GEMV whose output y is also read at another index "
                         "not offloaded (the matrix or x is the array y)"
                       : "GEMM whose output C is also read at another index "
                         "not offloaded (A or B is the array C)");
    Out.NonNegative.push_back(Gap);
  }
  return true;
}

/// The prologue of the chain (PolyBench gemm's `for (j) C[i][j] *= beta;`
/// before `for (k) for (j) C[i][j] += ...`), whose loads and stores are \p
/// Ops: one store, on every iteration, of the element St writes on the same
/// iteration of the loop j (same offset, strides and trip count), which is the
/// initialisation (InitSt); its loads read that element before the store
/// (INIT's q.1). The update must then be in place (checked in findUpdate).
bool GemmLifter::prologue(ArrayRef<Instruction *> Ops) {
  if (Gemv)
    return fail("GEMV with a loop before its inner loop not offloaded");
  Loop *Pro = M.Nest.Prologue;
  DominatorTree DT(*Outer->getHeader()->getParent());
  std::string W;
  for (Instruction *I : Ops)
    if (auto *S = dyn_cast<StoreInst>(I)) {
      if (InitSt)
        return fail("the loop before the inner loops of the GEMM stores "
                    "twice");
      InitSt = S;
    }
  if (!InitSt || !InitSt->isSimple() ||
      !isPrologueElement(InitSt, St, M.Nest, SE, W))
    return fail("the loop before the inner loops of the GEMM is not an "
                "initialisation of the output elements" +
                (W.empty() ? std::string() : ": " + W));
  if (!DT.dominates(InitSt->getParent(), Pro->getLoopLatch()))
    return fail("the initialisation of the GEMM output is conditional");
  for (Instruction *I : Ops) {
    auto *L = dyn_cast<LoadInst>(I);
    if (!L)
      continue;
    if (!L->isSimple() || !isPrologueElement(L, St, M.Nest, SE, W) ||
        !DT.dominates(L, InitSt))
      return fail("the loop before the inner loops of the GEMM reads memory "
                  "other than the output element before its initialisation");
    Slice.COld.push_back(L);
  }
  return true;
}

/// Of two stores \p S0 and \p S1 of the nest, one must be the in-place
/// update in the innermost loop and the other an initialisation of the same
/// element in the loop around it, executed before the innermost loop on
/// every iteration (it dominates that loop's preheader; the nest's zero-trip
/// guards are tested before the call, so the innermost loop runs then). Sets
/// St to the update and InitSt to the initialisation.
bool GemmLifter::findInitStore(StoreInst *S0, StoreInst *S1) {
  Loop *In = M.Nest.Loops[Depth - 1];
  if (In->contains(S0) == In->contains(S1))
    return fail("the GEMM nest has two stores that are not an initialisation "
                "of the output element and its update in the innermost loop");
  StoreInst *Upd = In->contains(S0) ? S0 : S1;
  StoreInst *Ini = Upd == S0 ? S1 : S0;
  unsigned D;
  DominatorTree DT(*Outer->getHeader()->getParent());
  if (!Ini->isSimple() || !accessesSameElement(Ini, Upd, SE) ||
      !loopOf(Ini, D) || D + 2 != Depth || !In->getLoopPreheader() ||
      !DT.dominates(Ini->getParent(), In->getLoopPreheader()))
    return fail("the GEMM nest has a second store that is not an "
                "initialisation of the output element before the innermost "
                "loop");
  St = Upd;
  InitSt = Ini;
  return true;
}

/// Decides the form of the update: inner product (a sum phi in the k loop,
/// the store after it or on every iteration of it) or in place (`C += x*y`
/// in the innermost loop); sets the roots and leaves of the slices.
bool GemmLifter::findUpdate() {
  const NestInfo &N = M.Nest;
  const unsigned Inner = Depth - 1;
  for (unsigned D = 0; D < Depth; ++D)
    for (PHINode &P : N.Loops[D]->getHeader()->phis()) {
      if (&P == N.IVs[D] || (Foreign && Foreign->count(&P)))
        continue;
      auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
      if (SE.isSCEVable(P.getType()) && AR && AR->getLoop() == N.Loops[D] &&
          !P.getType()->isFloatingPointTy())
        continue; // another induction variable (addresses only)
      if (D == LoopK && !Sum && P.getType() == T) {
        Sum = &P;
        continue;
      }
      return fail("the GEMM nest carries a value other than the induction "
                  "variables and one sum over k");
    }
  DominatorTree DT(*Outer->getHeader()->getParent());
  unsigned StLoop;
  loopOf(St, StLoop);
  if (!DT.dominates(St->getParent(), N.Loops[StLoop]->getLoopLatch()))
    return fail("the GEMM output is not stored on every iteration of its loop");
  if (!Sum) {
    // In place: C = STEP(C, x, y) in the innermost loop, from INIT when a
    // store initialises C before it, else from the old C.
    if (StLoop != Inner)
      return fail("the GEMM output is updated in place outside the innermost "
                  "loop");
    if (RunningSt)
      return fail("the TRMM nest has no sum over its band's loop");
    for (LoadInst *L : CLoads) {
      if (readBeforeInit(L, DT))
        continue;
      unsigned D;
      if (!loopOf(L, D) || D != Inner)
        return fail("the GEMM output element is read outside the innermost "
                    "loop of an in-place update");
      Slice.Acc.push_back(L);
    }
    Slice.Step = St->getValueOperand();
    if (InitSt)
      Slice.Init = InitSt->getValueOperand();
    return true;
  }
  if (LoopK != Inner)
    return fail("the GEMM sum is carried by a loop that is not the innermost");
  if (N.Prologue)
    return fail("GEMM with a loop before its inner loops and a sum over k not "
                "offloaded (only the in-place update of the i-k-j order)");
  Loop *KL = N.Loops[Inner];
  SumInit = Sum->getIncomingValueForBlock(KL->getLoopPreheader());
  SumUpd = Sum->getIncomingValueForBlock(KL->getLoopLatch());
  if (StLoop + 2 < Depth)
    return fail("the GEMM output is not stored in the loop around the sum");
  if (RunningSt && RunningSt->getValueOperand() != SumUpd)
    return fail("the TRMM nest stores in its band's loop a value other than "
                "the running sum");
  Slice.Acc.push_back(Sum);
  Slice.Step = SumUpd;
  Slice.Init = SumInit;
  Slice.Post = St->getValueOperand();
  // An initialised element read by the sum: its phi must start from the
  // value stored (what GVN forwards), and C is read only before the
  // initialisation (PolyBench 2mm's `D[i][j] *= beta;`).
  if (InitSt && SumInit != InitSt->getValueOperand())
    return fail("the GEMM output is initialised, but the sum does not start "
                "from the initial value");
  for (LoadInst *L : CLoads) {
    if (readBeforeInit(L, DT))
      continue;
    if (InitSt)
      return fail("the GEMM output element is read after its initialisation "
                  "outside the update");
    unsigned D;
    if (!loopOf(L, D) || D != Inner - 1)
      return fail("the GEMM output element is read inside the sum's loop");
    Slice.COld.push_back(L);
  }
  return true;
}

/// \p L reads the old output element for the initialisation (`D[i][j] *=
/// beta;`): it runs in the loop around the innermost one before the
/// initialising store, on every iteration (it dominates the store). Such a
/// load is q.1 of INIT (Slice.COld).
bool GemmLifter::readBeforeInit(LoadInst *L, const DominatorTree &DT) {
  unsigned D;
  if (!InitSt || !loopOf(L, D) || D + 2 != Depth || !DT.dominates(L, InitSt))
    return false;
  Slice.COld.push_back(L);
  return true;
}

/// C's rows must not overlap: |sCi| >= N (or M == 1), else two (i, j) write
/// one element; a GEMV's y must not repeat an element: |sCj| >= 1 (or
/// N == 1), as for a column of rows of length 1. Proven here, or left to a
/// run-time test.
bool GemmLifter::checkOutputRows() {
  const SCEV *Ld = i64(CAcc->Strides[Gemv ? LoopJ : LoopI]);
  const SCEV *Len = Gemv ? SE.getOne(I64) : i64(M.Nest.TripCounts[LoopJ]);
  const SCEV *Rows = i64(M.Nest.TripCounts[Gemv ? LoopJ : LoopI]);
  if (Ld == Len)
    return true;
  SmallVector<const SCEV *, 3> Ops = {
      SE.getMinusSCEV(Ld, Len), SE.getMinusSCEV(SE.getNegativeSCEV(Ld), Len),
      SE.getMinusSCEV(SE.getOne(I64), Rows)};
  const SCEV *Gap = SE.getSMaxExpr(Ops);
  if (SE.isKnownNonNegative(Gap))
    return true;
  if (isa<SCEVConstant>(Gap))
    return fail(Gemv ? "the GEMV output y is written at one element twice"
                     : "the rows of the output C overlap (leading dimension "
                       "shorter than a row)");
  Out.NonNegative.push_back(Gap);
  return true;
}

/// True when C's footprint is M whole rows that abut (unit stride along j,
/// leading dimension N) or its transpose: the store, which runs on every
/// (i, j) (it dominates its loop's latch, findUpdate), then writes every
/// element of [Lo, Hi), so the runtime need not copy C in when it is only
/// written, nor diff it on the way back (LiftedParam::Dense).
bool GemmLifter::denseOutput() {
  const SCEV *One = SE.getOne(I64);
  if (!i64(CAcc->Strides[LoopK])->isZero())
    return false;
  const SCEV *SJ = i64(CAcc->Strides[LoopJ]);
  if (Gemv)
    return SJ == One;
  const SCEV *SI = i64(CAcc->Strides[LoopI]);
  return (SJ == One && SI == i64(M.Nest.TripCounts[LoopJ])) ||
         (SI == One && SJ == i64(M.Nest.TripCounts[LoopI]));
}

/// A triangular chain (NestInfo::TriLoop, SYRK's `j <= i`): the triangle
/// must lie in C's index space, its row loop the outermost; sets \p Mask to
/// the FunIL condition under which element (r.2, q.2) of the program (rows
/// i, columns j) is updated, kT < TriBase + TriSlope k0. A GEMV's triangle
/// may instead lie on its reduction (a lower TRMV, `j <= i`): \p RedMask is
/// then the condition under which step x.2 of column q.2 adds its product,
/// kT < TriBase + TriSlope k0 (docs/FunIL.md, "TRMV programs"). Every access must
/// have strides of one sign along the two loops of the triangle, so that
/// the ranges of the rectangle around it (the copies) end at corners the
/// loop reaches: (0, 0), a row's first element (TriBase >= 1), and the last
/// row's last element (the rows grow).
bool GemmLifter::triangle(std::string &Mask, std::string &RedMask) {
  const NestInfo &N = M.Nest;
  unsigned T = N.TriLoop;
  // A TRMM's triangle on its reduction is driven by the rows (r.2), a
  // TRMV's by its columns (q.2).
  const bool OnReduction =
      T == LoopK && (Gemv ? LoopJ == 0 : Trmm && LoopI == 0);
  if (Gemv && !OnReduction)
    return fail(TransposedTrmv);
  if (!OnReduction && (T == LoopK || LoopK == 0))
    return fail("the GEMM nest is triangular in the reduction's loop k (a "
                "TRMM-like product whose sum runs over a triangle) or its "
                "triangle is driven by k; only a triangle of the output C "
                "(SYRK's j <= i) is lifted");
  for (const std::optional<ChainAccess> *X :
       {&AAcc, &BAcc, &CAcc, &AAcc2, &BAcc2}) {
    if (!*X)
      continue;
    const SCEV *S0 = i64((*X)->Strides[0]), *ST = i64((*X)->Strides[T]);
    bool Pos = SE.isKnownNonNegative(S0) && SE.isKnownNonNegative(ST);
    bool Neg = SE.isKnownNonPositive(S0) && SE.isKnownNonPositive(ST);
    // A TRMV's run-time leading dimension (`L[i * ld + j]`): non-negative
    // strides tested before the call.
    if (!Pos && !Neg && OnReduction &&
        none_of(std::initializer_list<const SCEV *>{S0, ST}, [&](const SCEV *S) {
          return isa<SCEVConstant>(S) && !SE.isKnownNonNegative(S);
        })) {
      for (const SCEV *S : {S0, ST})
        if (!SE.isKnownNonNegative(S))
          Out.NonNegative.push_back(S);
      continue;
    }
    if (!Pos && !Neg)
      return fail("an operand of the triangular GEMM has strides of unknown "
                  "or opposite signs along the triangle's loops (the rectangle "
                  "around the triangle would reach elements the loop does not)");
  }
  if (OnReduction) {
    Slice.TriangleOnReduction = true;
    RedMask = "icmp_slt(x.2, add(" + std::to_string(N.TriBase) + ":i64, mul(" +
              std::to_string(N.TriSlope) + ":i64, " + (Gemv ? "q.2" : "r.2") +
              ")))";
    return true;
  }
  Slice.TriangleOnColumns = T == LoopJ;
  std::string KT = T == LoopJ ? "q.2" : "r.2", K0 = T == LoopJ ? "r.2" : "q.2";
  Mask = "icmp_slt(" + KT + ", add(" + std::to_string(N.TriBase) + ":i64, mul(" +
         std::to_string(N.TriSlope) + ":i64, " + K0 + ")))";
  return true;
}

/// An operand \p Op of a TRMM over C's array (a band, NestInfo::BandLoop,
/// or a triangle, TriLoop): in the rectangle's coordinates its element
/// minus C's is d0 + dI k0 + dJ j + sK kB. In a band kB = a k0 + t with t
/// >= 0, so d0 + (dI + a sK) k0 + sK t; in a triangle kT = b - 1 + s k0 -
/// u with u >= 0 (its rows' last step), so d0 + sK (b - 1) + (dI + s sK) k0
/// - sK u. It must never be C's element of the same (i, j) (whose reads
/// the snapshot would not see: an initialisation before the band read at
/// its first step), which holds when dJ = 0 and the three terms have one
/// sign, the constant not 0 (PolyBench trmm's B[k][j], k > i: d0 = n, dI +
/// a sK = 0, sK = n; the lower form's B[k][j], k < i, rows counted from 0:
/// d0 = 0, b = 0, s = 1, dI = -n, sK = n). Proven here, or tested at run
/// time for the positive signs.
bool GemmLifter::bandOperand(const ChainAccess &Op) {
  const char *Meets = "the TRMM operand over the output array may meet the "
                      "output element within one (i, j) (the snapshot would "
                      "not see what the nest wrote there)";
  if (AAcc2 || BAcc2)
    return fail("a TRMM with two products per step is not lifted");
  const NestInfo &N = M.Nest;
  const bool Tri = N.TriLoop != 0;
  const SCEV *DJ = SE.getMinusSCEV(i64(Op.Strides[LoopJ]), i64(CAcc->Strides[LoopJ]));
  const SCEV *SK = i64(Op.Strides[LoopK]);
  const SCEV *DI = SE.getAddExpr(
      SE.getMinusSCEV(i64(Op.Strides[LoopI]), i64(CAcc->Strides[LoopI])),
      SE.getMulExpr(SE.getConstant(I64, Tri ? N.TriSlope : N.BandLead), SK));
  if (!DJ->isZero() || !i64(CAcc->Strides[LoopK])->isZero())
    return fail(Meets);
  const SCEV *One = SE.getOne(I64);
  const SCEV *D0 = SE.getMinusSCEV(i64(Op.Offset), i64(CAcc->Offset));
  if (Tri)
    D0 = SE.getAddExpr(D0, SE.getMulExpr(SE.getConstant(I64, N.TriBase - 1), SK));
  const SCEV *Free = Tri ? SE.getNegativeSCEV(SK) : SK;
  const SCEV *Up[3] = {SE.getMinusSCEV(D0, One), DI, Free};
  const SCEV *Down[3] = {SE.getAddExpr(D0, One), DI, Free};
  auto All = [&](const SCEV *const(&Xs)[3], bool Pos) {
    for (const SCEV *X : Xs) {
      X = SE.applyLoopGuards(X, Outer);
      if (!(Pos ? SE.isKnownNonNegative(X) : SE.isKnownNonPositive(X)))
        return false;
    }
    return true;
  };
  if (All(Up, true) || All(Down, false))
    return true;
  // Else one sign at run time: a band's operand rows usually lie after the
  // output row (k > i), a triangle's before it (k < i); the other sign
  // when a constant term rules that one out.
  auto Possible = [&](const SCEV *const(&Xs)[3], bool Pos) {
    return none_of(Xs, [&](const SCEV *X) {
      return isa<SCEVConstant>(X) &&
             !(Pos ? SE.isKnownNonNegative(X) : SE.isKnownNonPositive(X));
    });
  };
  bool Pos = !Tri;
  if (!Possible(Pos ? Up : Down, Pos))
    Pos = !Pos;
  if (!Possible(Pos ? Up : Down, Pos))
    return fail(Meets);
  // The constant >= 1 and the two slopes >= 0, or the constant <= -1 and
  // the slopes <= 0, at run time.
  for (const SCEV *X : Pos ? Up : Down)
    Out.NonNegative.push_back(Pos ? X : SE.getNegativeSCEV(X));
  return true;
}

/// Elements [Lo, Hi) that access \p A touches over the whole nest.
void GemmLifter::range(const ChainAccess &A, const SCEV *&Lo, const SCEV *&Hi) {
  chainAccessRange(A, M.Nest, SE, Lo, Hi);
}

/// `view(X, off, s0, n0, s1, n1)` of buffer \p Buf over loops D0 (rows) and
/// D1 (columns), naming its offset and strides after the buffer.
std::string GemmLifter::view(unsigned Buf, const ChainAccess &A, unsigned D0,
                             const std::string &N0, unsigned D1,
                             const std::string &N1) {
  const LiftedParam &B = Buffers[Buf];
  auto Role = [&](unsigned D) {
    return std::string(1, D == LoopI ? 'i' : D == LoopJ ? 'j' : 'k');
  };
  // The missing loop i of a GEMV: one row, stride 0.
  auto Stride = [&](unsigned D) {
    return D == NoLoop ? SE.getZero(I64) : A.Strides[D];
  };
  // One statement each, so that parameters are created in argument order.
  std::string Off = index(SE.getMinusSCEV(i64(A.Offset), B.Lo), "o" + B.Name);
  std::string S0 = index(Stride(D0), "s" + B.Name + Role(D0));
  std::string S1 = index(Stride(D1), "s" + B.Name + Role(D1));
  return "view(" + B.Name + ", " + Off + ", " + S0 + ", " + N0 + ", " + S1 +
         ", " + N1 + ")";
}

/// After a failed lift of a triangular GEMM (not a TRMM) whose innermost
/// loop reads another element of an array the nest stores to (an update in
/// place, PolyBench 3's lower trmm `for (i = 1; ...) for (k < i) B[i][j] +=
/// A[i][k] * B[k][j]`): appends to Why the loop-carried flow or output
/// dependence Z3 finds, the reason no lift in place could take the nest.
void GemmLifter::noteInPlaceDependence() {
  const NestInfo &N = M.Nest;
  if (Trmm || !N.TriLoop)
    return;
  Loop *In = N.Loops[Depth - 1];
  bool InPlace = false;
  for (BasicBlock *BB : Outer->blocks())
    for (Instruction &I : *BB)
      if (auto *St = dyn_cast<StoreInst>(&I)) {
        const SCEV *SP = SE.getSCEV(St->getPointerOperand());
        for (BasicBlock *IB : In->blocks())
          for (Instruction &J : *IB)
            if (auto *Ld = dyn_cast<LoadInst>(&J)) {
              const SCEV *LP = SE.getSCEV(Ld->getPointerOperand());
              InPlace |= LP != SP && SE.getPointerBase(LP) == SE.getPointerBase(SP);
            }
      }
  std::string W;
  if (InPlace && proveOnlyAntiDependences(Outer, SE, currentLiftOptions().Z3TimeoutMs,
                                          W) == Proof::Refuted)
    Why += "; the nest updates its output in place and is not parallel: " + W;
}

bool GemmLifter::run(const std::string &Name) {
  if (!findRoles() || !findUpdate() || !checkOutputRows()) {
    noteInPlaceDependence();
    return false;
  }
  const NestInfo &N = M.Nest;
  for (const NestGuard &G : N.Guards)
    if (auto *I = dyn_cast<Instruction>(G.Cond); I && Outer->contains(I))
      return fail("a zero-trip guard of the GEMM nest is computed inside it");

  // A triangle's: element (i, j) is updated under Mask. A band's: step kB
  // of row r.2 (of column q.2 in a GEMV, whose one row is not the band's)
  // adds nothing under BandMask; a TRMV's triangle: step kT of column q.2
  // adds its product only under BandMask (docs/FunIL.md, "TRMM programs: a
  // band on the reduction", "TRMV programs").
  std::string Mask, BandMask;
  if (N.TriLoop && !triangle(Mask, BandMask))
    return false;
  const std::string BandRow = Gemv ? "q.2" : "r.2";
  if (N.BandLoop && Gemv && (N.BandLoop != LoopK || LoopJ != 0))
    return fail(TransposedTrmv);
  if (N.BandLoop)
    BandMask = N.BandLead == 1
                   ? "icmp_slt(x.2, " + BandRow + ")"
                   : "icmp_slt(x.2, mul(" + std::to_string(N.BandLead) +
                         ":i64, " + BandRow + "))";

  // Buffers A, B, C in this order (then A2 and B2 of two products); C is
  // read when a slice reads it (or keeps its elements outside a triangle).
  const bool Two = AAcc2.has_value();
  const ChainAccess *Accs[5] = {&*AAcc, &*BAcc, &*CAcc, Two ? &*AAcc2 : nullptr,
                                Two ? &*BAcc2 : nullptr};
  const char *const BufNames[5] = {"A", "B", "C", "A2", "B2"};
  for (unsigned X = 0; X < (Two ? 5u : 3u); ++X) {
    LiftedParam P;
    P.K = LiftedParam::Kind::Buffer;
    P.Name = BufNames[X];
    P.Base = Accs[X]->Base;
    P.ElemTy = T;
    range(*Accs[X], P.Lo, P.Hi);
    // An initialised C is read after the initialisation (STEP's acc) and,
    // for INIT, before it (`D[i][j] *= beta;`).
    P.Read = X != 2 || !Slice.COld.empty() || (!CLoads.empty() && !InitSt) ||
             !Mask.empty();
    P.Written = X == 2;
    P.Dense = X == 2 && Mask.empty() && denseOutput();
    // A band's operand over C's array is read as it was before the nest.
    P.Snapshot = Trmm && X != 2 && Accs[X]->Base == CAcc->Base;
    Buffers.push_back(P);
  }
  std::string SM = Gemv ? std::string("1") : size(N.TripCounts[LoopI], "M");
  std::string SN = size(N.TripCounts[LoopJ], "N");
  std::string SK = size(N.TripCounts[LoopK], "K");
  // In views a size is an i64 expression ("48:i64"), in types a size ("48");
  // a symbolic size is its own parameter even when two sizes are equal (the
  // type checker tells sizes apart by name).
  auto SizeExpr = [](const std::string &S) {
    return isdigit((unsigned char)S[0]) ? S + ":i64" : S;
  };
  std::string XM = SizeExpr(SM), XN = SizeExpr(SN), XK = SizeExpr(SK);
  std::string VA = view(0, *AAcc, LoopI, XM, LoopK, XK);
  std::string VB = view(1, *BAcc, LoopJ, XN, LoopK, XK);
  std::string VC = view(2, *CAcc, LoopI, XM, LoopJ, XN);
  std::string VA2, VB2;
  if (Two) {
    VA2 = view(3, *AAcc2, LoopI, XM, LoopK, XK);
    VB2 = view(4, *BAcc2, LoopJ, XN, LoopK, XK);
  }

  // STEP, INIT, POST.
  Reading Step, Init, Post;
  for (Value *V : Slice.Acc)
    Step.Leaves[V] = "acc";
  for (Value *V : Slice.ElemA)
    Step.Leaves[V] = "x.0";
  for (Value *V : Slice.ElemB)
    Step.Leaves[V] = "x.1";
  for (Value *V : Slice.ElemA2)
    Step.Leaves[V] = "x.2";
  for (Value *V : Slice.ElemB2)
    Step.Leaves[V] = "x.3";
  std::string StepText = expr(Slice.Step, Step);
  std::string InitText = "q.1", PostText = SliceSumMark;
  for (Value *V : Slice.COld)
    Init.Leaves[V] = Post.Leaves[V] = "q.1";
  if (Slice.Init)
    InitText = expr(Slice.Init, Init);
  if (Slice.Post) {
    Post.Finals = true;
    PostText = expr(Slice.Post, Post);
  }
  if (!Why.empty())
    return false;
  size_t Uses = 0;
  for (size_t At = PostText.find(SliceSumMark); At != std::string::npos;
       At = PostText.find(SliceSumMark, At + 1))
    ++Uses;
  if (Uses != 1)
    return fail("the GEMM output uses the sum " + std::to_string(Uses) +
                " times, not once");
  std::string Ty = typeName(T);
  // Two products: the rows and columns zip A2 and B2 as their last
  // component (after the indices of a triangle).
  std::string P2 = Mask.empty() ? "2" : "3";
  const bool Band = !BandMask.empty();
  if (Band)
    StepText = Slice.TriangleOnReduction
                   ? "select(" + BandMask + ", " + StepText + ", acc)"
                   : "select(" + BandMask + ", acc, " + StepText + ")";
  std::string Red = "reduceSeq(\\(acc: " + Ty + ", x: (" + Ty + ", " + Ty +
                    (Two ? ", " + Ty + ", " + Ty : "") +
                    (Band ? ", i64" : "") + ")) => " + StepText + ", " +
                    InitText + ", zip(r.0, q.0" +
                    (Two ? ", r." + P2 + ", q." + P2 : "") +
                    (Band ? ", iota(" + XK + ")" : "") + "))";
  PostText.replace(PostText.find(SliceSumMark), 1, Red);
  // A triangle: the rows and columns carry their indices (iota), and the
  // elements outside it keep their value (docs/FunIL.md, "Triangular GEMM
  // programs").
  std::string Idx = Mask.empty() ? "" : ", i64";
  if (!Mask.empty())
    PostText = "select(" + Mask + ", " + PostText + ", q.1)";
  std::string Row2 = Two ? ", [" + Ty + "]_" + SK : "";
  // A band's rows carry their index (the mask's r.2), its columns not; a
  // TRMV's columns (q.2), its one row not.
  const bool RowBand = Band && !Gemv, ColBand = Band && Gemv;
  std::string RowIdx = RowBand ? ", i64" : Idx;
  std::string ColIdx = ColBand ? ", i64" : Idx;
  std::string Stmt = "store " + VC + " = map(\\(r: ([" + Ty + "]_" + SK + ", [" +
                     Ty + "]_" + SN + RowIdx + Row2 + ")) => map(\\(q: ([" + Ty +
                     "]_" + SK + ", " + Ty + ColIdx + Row2 + ")) => " + PostText +
                     ", zip(" + VB + ", r.1" +
                     (Mask.empty() && !ColBand ? "" : ", iota(" + XN + ")") +
                     (Two ? ", " + VB2 : "") + ")), zip(" + VA + ", " + VC +
                     (Mask.empty() && !RowBand ? "" : ", iota(" + XM + ")") +
                     (Two ? ", " + VA2 : "") + "));";

  size_t First = Out.Params.size();
  for (auto *List : {&Buffers, &Indices, &Scalars})
    Out.Params.insert(Out.Params.end(), List->begin(), List->end());
  std::string Params =
      funilParamList(ArrayRef<LiftedParam>(Out.Params).drop_front(First));
  Out.FunIL = "idiom " + Name + "(" + Params + ") {\n  " + Stmt + "\n}\n";
  Out.Sizes.push_back(Gemv ? SE.getOne(I64) : N.TripCounts[LoopI]);
  Out.Sizes.push_back(N.TripCounts[LoopJ]);
  Out.Gemm = std::make_shared<GemmSlice>(Slice);
  Out.FusedMulAdd = LicensedFusion;
  return true;
}

/// Adds to \p S the instructions of \p Body that \p V is computed from
/// (operands and phi inputs, transitively; loads included, not what they
/// read).
void backwardSlice(Value *V, const Loop *Body, SmallPtrSetImpl<Instruction *> &S) {
  SmallVector<Value *, 16> Work{V};
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Body->contains(I) || !S.insert(I).second)
      continue;
    Work.append(I->op_begin(), I->op_end());
  }
}

/// One product of a pair: the stores of its output element and the
/// instructions its stored values and addresses are computed from.
struct PairProduct {
  SmallVector<StoreInst *, 2> Stores;
  SmallPtrSet<Instruction *, 32> Slice;
};

/// Splits the nest of a GEMV pair into its two products (stores grouped by
/// element) and checks that neither reads what the other writes; the
/// product whose output the outer loop indexes (y = A x) comes first.
bool splitPair(const IdiomMatch &M, ScalarEvolution &SE, PairProduct Ps[2],
               std::string &Why) {
  Loop *Outer = M.Nest.Loops.front();
  unsigned NP = 0;
  SmallVector<LoadInst *, 8> Loads;
  for (BasicBlock *BB : Outer->blocks())
    for (Instruction &I : *BB) {
      if (auto *L = dyn_cast<LoadInst>(&I))
        Loads.push_back(L);
      auto *St = dyn_cast<StoreInst>(&I);
      if (!St)
        continue;
      unsigned P = 0;
      while (P < NP && !accessesSameElement(Ps[P].Stores.front(), St, SE))
        ++P;
      if (P == 2) {
        Why = "the GEMV pair nest stores to more than two output elements";
        return false;
      }
      NP = std::max(NP, P + 1);
      Ps[P].Stores.push_back(St);
    }
  if (NP != 2) {
    Why = "the GEMV pair nest does not store two output elements";
    return false;
  }
  for (unsigned P = 0; P < 2; ++P)
    for (StoreInst *St : Ps[P].Stores) {
      backwardSlice(St->getValueOperand(), Outer, Ps[P].Slice);
      backwardSlice(St->getPointerOperand(), Outer, Ps[P].Slice);
    }
  for (LoadInst *L : Loads)
    if (!Ps[0].Slice.count(L) && !Ps[1].Slice.count(L)) {
      Why = "a load of the GEMV pair nest feeds neither product";
      return false;
    }
  // Fission runs one product after the other: neither may read the other's
  // output. Through the same pointer that is refused here (but a product's
  // own element, which may lie in the same array: the runtime's overlap
  // check then compares the ranges); through another pointer the overlap
  // check of both kernels' ranges declines.
  for (unsigned P = 0; P < 2; ++P) {
    const Value *Theirs = getUnderlyingObject(
        Ps[1 - P].Stores.front()->getPointerOperand());
    for (LoadInst *L : Loads)
      if (Ps[P].Slice.count(L) &&
          !accessesSameElement(L, Ps[P].Stores.front(), SE) &&
          getUnderlyingObject(L->getPointerOperand()) == Theirs) {
        Why = "one GEMV of the pair reads the array the other one writes "
              "(the products depend on each other)";
        return false;
      }
  }
  auto *S0 = dyn_cast<SCEVAddRecExpr>(
      SE.getSCEV(Ps[0].Stores.front()->getPointerOperand()));
  if (!S0 || S0->getLoop() != Outer)
    std::swap(Ps[0], Ps[1]);
  return true;
}

} // namespace

/// Lifts the GEMV pair \p M: each product with the GEMV lifter, the other
/// product's instructions skipped (splitPair), the first named \p Name, the
/// second Name + "_pair".
static bool liftGemvPair(const IdiomMatch &M, const std::string &Name,
                         ScalarEvolution &SE, LiftedIdiom &Out,
                         std::string &Why) {
  if (M.Nest.depth() != 2) {
    Why = "a GEMV pair needs a chain of two loops";
    return false;
  }
  PairProduct Ps[2];
  if (!splitPair(M, SE, Ps, Why))
    return false;
  auto Pair = std::make_shared<LiftedPair>();
  LiftedIdiom *Parts[2] = {&Pair->First, &Pair->Second};
  for (unsigned P = 0; P < 2; ++P) {
    SmallPtrSet<Instruction *, 32> Other;
    for (Instruction *I : Ps[1 - P].Slice)
      if (!Ps[P].Slice.count(I))
        Other.insert(I);
    for (StoreInst *St : Ps[1 - P].Stores)
      Other.insert(St);
    std::string W;
    GemmLifter L(M, SE, *Parts[P], W);
    L.setForeign(&Other);
    if (!L.run(P ? Name + "_pair" : Name)) {
      Why = std::string(P ? "the second" : "the first") +
            " GEMV of the pair: " + W;
      return false;
    }
  }
  for (const LiftedIdiom *Part : Parts) {
    Out.FunIL += Part->FunIL;
    Out.Params.insert(Out.Params.end(), Part->Params.begin(), Part->Params.end());
    Out.Sizes.append(Part->Sizes.begin(), Part->Sizes.end());
    Out.NonNegative.append(Part->NonNegative.begin(), Part->NonNegative.end());
  }
  Out.Gemm = Pair->First.Gemm;
  Out.Pair = std::move(Pair);
  return true;
}

bool liftGemm(const IdiomMatch &M, const std::string &Name, ScalarEvolution &SE,
              LiftedIdiom &Out, std::string &Why) {
  if (M.Kind != IdiomKind::Gemm ||
      (M.Nest.depth() != 3 && M.Nest.depth() != 2)) {
    Why = "not a GEMM match";
    return false;
  }
  if (M.GemvPair)
    return liftGemvPair(M, Name, SE, Out, Why);
  GemmLifter L(M, SE, Out, Why);
  return L.run(Name);
}

} // namespace idiom
