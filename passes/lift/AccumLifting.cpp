//===- AccumLifting.cpp - Lift an outer-loop accumulation into FunIL ------===//

#include "AccumLifting.h"
#include "SliceExpr.h"
#include "idiom/Constraints/AccumulationFacts.h"
#include "idiom/Constraints/ColumnReductionFacts.h"
#include "idiom/Constraints/LoopFacts.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include <map>

using namespace llvm;

namespace idiom {
namespace {

/// FunIL spelling of a scalar the program may carry (no bool element).
std::string elemType(Type *T) {
  return T->isIntegerTy(1) ? "" : funilTypeText(T);
}

class AccumLifter {
public:
  AccumLifter(const IdiomMatch &M, ScalarEvolution &SE, LiftedIdiom &Out,
              std::string &Why)
      : M(M), SE(SE), Out(Out), Why(Why), Outer(M.Nest.Loops.front()),
        I64(Type::getInt64Ty(Outer->getHeader()->getContext())) {}

  bool run(const std::string &Name);

private:
  /// The column form's accumulators and outputs (ColumnReductionFacts.h):
  /// t's first components are the outputs' old elements; fills the
  /// accumulator types, leaves, INIT and the finishing function's results.
  bool columnRoles(const ColumnReductionRoles &C, AccumSlices &Sl,
                   std::vector<std::string> &TViews,
                   std::vector<std::string> &TTys,
                   std::vector<std::string> &AccTys);
  bool fail(const std::string &W) {
    if (Why.empty())
      Why = W;
    return false;
  }
  const SCEV *i64(const SCEV *S) { return SE.getTruncateOrSignExtend(S, I64); }
  std::string index(const SCEV *S, const std::string &Name);
  std::string scalar(Value *V);
  std::string call(CallInst *CI, const std::vector<std::string> &Args);
  /// True when \p V is computed in the nest from an old accumulator.
  bool readsOld(Value *V) const;
  unsigned buffer(const ChainAccess &A, bool Written);
  std::string view(const ChainAccess &A, bool Written, bool Rows,
                   unsigned Loop);

  const IdiomMatch &M;
  ScalarEvolution &SE;
  LiftedIdiom &Out;
  std::string &Why;
  Loop *Outer;
  Type *I64;
  /// Positions in the nest of the map's loop x and the reduction's loop k:
  /// (1, 0) for the outer-loop accumulation, (0, 1) for a column reduction.
  unsigned XD = 1, KD = 0;
  std::string SizeN, SizeK;
  std::vector<LiftedParam> Buffers, Indices, Scalars;
  std::map<const SCEV *, std::string> IndexNames;
  DenseMap<Value *, std::string> ScalarNames;
  std::vector<std::string> ErrnoConds, ErrnoNames;
  /// Column reductions: conditions of errno-setting calls in POST (which
  /// may read the reduction's result r), and whether POST is being printed.
  std::vector<std::string> PostErrnoConds;
  bool InPost = false;
  SmallPtrSet<Value *, 4> OldLoads;
};

bool AccumLifter::readsOld(Value *V) const {
  SmallVector<Value *, 16> Work{V};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    Value *X = Work.pop_back_val();
    if (OldLoads.count(X))
      return true;
    auto *I = dyn_cast<Instruction>(X);
    if (I && Outer->contains(I) && !isa<PHINode>(I) && !isa<LoadInst>(I) &&
        Seen.insert(I).second)
      Work.append(I->op_begin(), I->op_end());
  }
  return false;
}

std::string AccumLifter::index(const SCEV *S, const std::string &Name) {
  return sliceIndexParam(i64(S), Name + std::to_string(Indices.size()),
                         Indices, IndexNames);
}

std::string AccumLifter::scalar(Value *V) {
  std::string N = sliceScalarParam(V, Scalars, ScalarNames);
  if (N.empty())
    fail("the accumulation reads a loop-invariant value of a type the lifter "
         "does not pass (only float, double, int and long)");
  return N;
}

/// A pure call, or a libm call that may set errno (its condition goes to
/// the errno check, which reads the same t and e but not the accumulators).
std::string AccumLifter::call(CallInst *CI,
                              const std::vector<std::string> &Args) {
  std::string N = funilCallName(CI);
  if (N.empty() || N == "fmuladd" || N == "fma") {
    fail("the accumulation update calls a function without a FunIL form");
    return "";
  }
  if (N == "fmin" || N == "fmax") {
    fail("fmin/fmax in an accumulation: the host's handling of signed zeros "
         "and NaN is not mirrored");
    return "";
  }
  std::vector<std::string> Used(Args.begin(),
                                Args.begin() + (N == "abs" ? 1 : Args.size()));
  if (!isPureCall(CI)) {
    if (!isErrnoLibmCall(CI)) {
      fail("the accumulation update calls a function that may have side "
           "effects");
      return "";
    }
    if (!InPost && readsOld(CI)) {
      fail("the argument of " + CI->getCalledFunction()->getName().str() +
           ", which may set errno, reads the accumulator: the errno check "
           "cannot run before the reduction");
      return "";
    }
    std::string W, Cond = errnoConditionText(CI, Used, M.Nest, W);
    if (Cond.empty()) {
      fail(W);
      return "";
    }
    (InPost ? PostErrnoConds : ErrnoConds).push_back(Cond);
    std::string CName = CI->getCalledFunction()->getName().str();
    if (!llvm::is_contained(ErrnoNames, CName))
      ErrnoNames.push_back(CName);
  }
  std::string S = N + "(";
  for (size_t I = 0; I < Used.size(); ++I)
    S += (I ? ", " : "") + Used[I];
  return S + ")";
}

/// A buffer for the elements access \p A touches over the whole nest.
unsigned AccumLifter::buffer(const ChainAccess &A, bool Written) {
  LiftedParam P;
  P.K = LiftedParam::Kind::Buffer;
  P.Name = "b" + std::to_string(Buffers.size());
  P.Base = A.Base;
  P.ElemTy = A.ElemTy;
  chainAccessRange(A, M.Nest, SE, P.Lo, P.Hi);
  P.Read = true;
  P.Written = Written;
  // An accumulator with unit stride: every element of [Lo, Hi) is stored.
  const SCEV *SX = i64(A.Strides[XD]);
  P.Dense = Written && (SX->isOne() || SE.getNegativeSCEV(SX)->isOne());
  Buffers.push_back(P);
  return Buffers.size() - 1;
}

/// The view of \p A in a new buffer: over the loop at nest position \p Loop
/// (XD: x, KD: k); \p Rows: rows over x of elements over k.
std::string AccumLifter::view(const ChainAccess &A, bool Written, bool Rows,
                              unsigned Loop) {
  const LiftedParam &B = Buffers[buffer(A, Written)];
  std::string Off = index(SE.getMinusSCEV(i64(A.Offset), B.Lo), "o");
  if (Rows)
    return "view(" + B.Name + ", " + Off + ", " + index(A.Strides[XD], "st") +
           ", " + SizeN + ", " + index(A.Strides[KD], "st") + ", " + SizeK +
           ")";
  return "view(" + B.Name + ", " + Off + ", " + index(A.Strides[Loop], "st") +
         ", " + (Loop == XD ? SizeN : SizeK) + ")";
}

bool AccumLifter::columnRoles(const ColumnReductionRoles &C, AccumSlices &Sl,
                              std::vector<std::string> &TViews,
                              std::vector<std::string> &TTys,
                              std::vector<std::string> &AccTys) {
  Sl.Column = true;
  for (const ColumnOutput &O : C.Outputs) {
    std::string T = elemType(O.Store.ElemTy);
    if (T.empty())
      return fail("an output of type bool");
    TViews.push_back(view(O.Store, true, false, XD));
    TTys.push_back(T);
    Sl.TTypes.push_back(O.Store.ElemTy);
  }
  for (const ColumnAccumulator &Q : C.Accumulators) {
    std::string T = elemType(Q.Phi->getType());
    if (T.empty())
      return fail("an accumulator of type bool");
    AccTys.push_back(T);
    Sl.Steps.push_back(Q.Step);
    Sl.Old.push_back({Q.Phi});
    Sl.Inits.push_back(Q.Init);
    OldLoads.insert(Q.Phi);
  }
  for (unsigned O = 0; O < C.Outputs.size(); ++O) {
    const ColumnOutput &Out = C.Outputs[O];
    if (Out.OldLoad)
      Sl.Leaves.push_back({Out.OldLoad, false, O});
    int Result = -1;
    if (M.Nest.Loops[1]->contains(cast<Instruction>(Out.Store.Inst)))
      for (unsigned Q = 0; Q < C.Accumulators.size(); ++Q)
        if (C.Accumulators[Q].Step == Out.Value)
          Result = Q;
    Sl.Posts.push_back(Result >= 0 ? nullptr : Out.Value);
    Sl.PostResult.push_back(Result);
  }
  Sl.Finals.assign(C.Finals.begin(), C.Finals.end());
  return true;
}

bool AccumLifter::run(const std::string &Name) {
  const NestInfo &N = M.Nest;
  bool Col = M.MapsOuterLoop;
  std::optional<AccumulationRoles> Roles;
  std::optional<ColumnReductionRoles> Cols;
  if (Col) {
    XD = 0;
    KD = 1;
    Cols = analyzeColumnReduction(N, SE, Why);
    if (!Cols)
      return false;
  } else {
    Roles = analyzeOuterAccumulation(N, SE, Why);
    if (!Roles)
      return false;
  }
  for (const NestGuard &G : N.Guards)
    if (auto *I = dyn_cast<Instruction>(G.Cond); I && Outer->contains(I))
      return fail("a zero-trip guard of the nest is computed inside it");
  // Sizes first: the parameters N and K.
  auto Size = [&](const SCEV *S, const char *Nm, std::string &Text) {
    S = i64(S);
    if (auto *C = dyn_cast<SCEVConstant>(S)) {
      Text = std::to_string(C->getAPInt().getSExtValue());
      return Text + ":i64";
    }
    LiftedParam P;
    P.K = LiftedParam::Kind::Index;
    P.Name = Text = Nm;
    P.S = S;
    Indices.push_back(P);
    IndexNames.emplace(S, P.Name);
    return Text;
  };
  std::string TyN, TyK;
  SizeN = Size(N.TripCounts[XD], "N", TyN);
  SizeK = Size(N.TripCounts[KD], "K", TyK);

  auto Slices = std::make_shared<AccumSlices>();
  std::vector<std::string> TViews, TTys, EViews, ETys, Init, AccTys;
  SliceReading R;
  size_t NQ = 0, NOut = 0;
  if (Col) {
    if (!columnRoles(*Cols, *Slices, TViews, TTys, AccTys))
      return false;
    NQ = Cols->Accumulators.size();
    NOut = Cols->Outputs.size();
  } else {
    NQ = NOut = Roles->Accumulators.size();
    for (const AccumulatorRole &Q : Roles->Accumulators) {
      std::string T = elemType(Q.Store.ElemTy);
      if (T.empty())
        return fail("an accumulator of type bool");
      TViews.push_back(view(Q.Store, true, false, XD));
      TTys.push_back(T);
      AccTys.push_back(T);
      Slices->TTypes.push_back(Q.Store.ElemTy);
      Slices->Steps.push_back(cast<StoreInst>(Q.Store.Inst)->getValueOperand());
      Slices->Old.emplace_back(Q.OldLoads.begin(), Q.OldLoads.end());
      OldLoads.insert(Q.OldLoads.begin(), Q.OldLoads.end());
    }
  }
  const auto &Inputs = Col ? Cols->Inputs : Roles->Inputs;
  const auto &InputLoads = Col ? Cols->InputLoads : Roles->InputLoads;
  // Inputs: those indexed by x alone in t, by k alone in e, matrix rows in
  // t and their elements in e.
  std::vector<int> TSlot(Inputs.size(), -1), ESlot(TSlot);
  std::vector<unsigned> Rows;
  for (unsigned I = 0; I < Inputs.size(); ++I) {
    const AccumulationInput &In = Inputs[I];
    std::string T = elemType(In.Access.ElemTy);
    if (T.empty())
      return fail("the accumulation reads an array of bool");
    if (In.Kind == AccumulationInputKind::Inner) {
      TSlot[I] = TViews.size();
      TViews.push_back(view(In.Access, false, false, XD));
      TTys.push_back(T);
      Slices->TTypes.push_back(In.Access.ElemTy);
    } else if (In.Kind == AccumulationInputKind::Outer) {
      ESlot[I] = EViews.size();
      EViews.push_back(view(In.Access, false, false, KD));
      ETys.push_back(T);
      Slices->ETypes.push_back(In.Access.ElemTy);
    } else {
      Rows.push_back(I);
    }
  }
  for (unsigned I : Rows) {
    const AccumulationInput &In = Inputs[I];
    std::string T = elemType(In.Access.ElemTy);
    unsigned Row = TViews.size();
    TViews.push_back(view(In.Access, false, true, XD));
    TTys.push_back("[" + T + "]_" + TyK);
    Slices->TTypes.push_back(nullptr);
    ESlot[I] = EViews.size();
    EViews.push_back("t." + std::to_string(Row));
    ETys.push_back(T);
    Slices->ETypes.push_back(In.Access.ElemTy);
  }
  // Induction variables the slices read: their iteration index from iota.
  bool UsesIV[2] = {false, false};
  {
    SmallVector<Value *, 16> Work(Slices->Steps.begin(), Slices->Steps.end());
    for (auto *List : {&Slices->Inits, &Slices->Posts})
      for (Value *V : *List)
        if (V)
          Work.push_back(V);
    SmallPtrSet<Value *, 32> Seen;
    while (!Work.empty()) {
      auto *I = dyn_cast<Instruction>(Work.pop_back_val());
      if (!I || !Outer->contains(I) || isa<LoadInst>(I) ||
          !Seen.insert(I).second)
        continue;
      for (unsigned D = 0; D < 2; ++D)
        UsesIV[D] |= I == N.IVs[D];
      if (!isa<PHINode>(I))
        Work.append(I->op_begin(), I->op_end());
    }
  }
  if (EViews.empty() || UsesIV[KD]) {
    Slices->KIndexInE = UsesIV[KD] ? (int)EViews.size() : -1;
    EViews.push_back("iota(" + SizeK + ")");
    ETys.push_back("i64");
    Slices->ETypes.push_back(I64);
  }
  if (UsesIV[XD]) {
    Slices->XIndexInT = TViews.size();
    TViews.push_back("iota(" + SizeN + ")");
    TTys.push_back("i64");
    Slices->TTypes.push_back(I64);
  }
  for (unsigned D = 0; D < 2; ++D) {
    if (!UsesIV[D])
      continue;
    std::string Idx = D == XD
                          ? component("t", Slices->XIndexInT, TViews.size())
                          : component("e", Slices->KIndexInE, EViews.size());
    unsigned W = N.IVs[D]->getType()->getIntegerBitWidth();
    std::string V = "add(" + index(N.IVStarts[D], "o") + ", mul(" + Idx + ", " +
                    std::to_string(N.IVSteps[D]) + ":i64))";
    R.Leaves[N.IVs[D]] =
        W == 64 ? V : "trunc.i" + std::to_string(W) + "(" + V + ")";
  }
  // Leaves.
  for (unsigned A = 0; A < NQ; ++A)
    for (Value *L : Slices->Old[A])
      R.Leaves[L] = component("acc", A, NQ);
  for (const AccumSlices::Leaf &Lf : Slices->Leaves) // column: old outputs
    R.Leaves[Lf.Load] = component("t", Lf.Index, TViews.size());
  for (auto [V, Q] : Slices->Finals)
    R.Leaves[V] = component("r", Q, NQ);
  for (auto [L, I] : InputLoads) {
    bool InE = ESlot[I] >= 0;
    unsigned Idx = InE ? ESlot[I] : TSlot[I];
    R.Leaves[L] = InE ? component("e", Idx, EViews.size())
                      : component("t", Idx, TViews.size());
    Slices->Leaves.push_back({L, InE, Idx});
  }

  SliceExprRules X;
  X.Idiom = Col ? "column reduction" : "accumulation";
  X.LoadWhy = "reads memory other than its inputs and the old accumulator";
  X.PhiWhy = "reads a value carried by a loop of the nest other than its "
             "induction variables";
  X.Body = Outer;
  X.TypeText = [](Type *T) { return funilTypeText(T); };
  X.IsFinal = [](Value *) { return false; };
  X.Scalar = [this](Value *V) { return scalar(V); };
  X.AllowSelect = true;
  X.Call = [this](CallInst *CI, const std::vector<std::string> &Args) {
    return call(CI, Args);
  };
  SmallVector<Value *, 2> Finals;
  std::vector<std::string> Steps, Posts;
  for (Value *V : Slices->Steps)
    Steps.push_back(sliceExpr(V, R, X, Finals, Why));
  if (Col) {
    for (Value *V : Slices->Inits)
      Init.push_back(sliceExpr(V, R, X, Finals, Why));
    InPost = true;
    for (unsigned O = 0; O < NOut; ++O)
      Posts.push_back(Slices->Posts[O]
                          ? sliceExpr(Slices->Posts[O], R, X, Finals, Why)
                          : component("r", Slices->PostResult[O], NQ));
    InPost = false;
    if (!ErrnoConds.empty() && !PostErrnoConds.empty())
      return fail("the column reduction calls functions that may set errno "
                  "both in its inner loop and after it");
  } else {
    for (unsigned A = 0; A < NQ; ++A)
      Init.push_back(component("t", A, TViews.size()));
  }
  if (!Why.empty())
    return false;

  std::string Lambda = "\\(t: " + tupleOf(TTys) + ")";
  std::string Seq = "reduceSeq(\\(acc: " + tupleOf(AccTys) +
                    ", e: " + tupleOf(ETys) + ") => " + tupleOf(Steps) + ", " +
                    tupleOf(Init) + ", " + zipOf(EViews) + ")";
  // A column reduction's epilogue: G applied to the reduction's results.
  auto Finish = [&](const std::string &G) {
    return "apply(\\(r: " + tupleOf(AccTys) + ") => " + G + ", " + Seq + ")";
  };
  std::string Red = Col ? Finish(tupleOf(Posts)) : Seq;
  std::vector<std::string> Outs(TViews.begin(), TViews.begin() + NOut);
  std::string Zip = zipOf(TViews);
  std::string Stmt = "store " + tupleOf(Outs) + " = map(" + Lambda + " => " +
                     Red + ", " + Zip + ");";
  size_t First = Out.Params.size();
  for (auto *List : {&Buffers, &Indices, &Scalars})
    Out.Params.insert(Out.Params.end(), List->begin(), List->end());
  std::string Params =
      funilParamList(ArrayRef<LiftedParam>(Out.Params).drop_front(First));
  Out.FunIL = "idiom " + Name + "(" + Params + ") {\n  " + Stmt + "\n}\n";
  Out.Sizes.push_back(N.TripCounts[XD]);
  Out.Accum = Slices;
  if (ErrnoConds.empty() && PostErrnoConds.empty())
    return true;
  // The errno check: the same map and reduction over k, or-ing the
  // conditions; the accumulators are read (t's components) but not used.
  // Conditions in a column reduction's POST read its result: the check
  // then runs the reduction and tests them on r.
  const std::vector<std::string> &Conds =
      ErrnoConds.empty() ? PostErrnoConds : ErrnoConds;
  std::string Cond = Conds.front();
  for (size_t I = 1; I < Conds.size(); ++I)
    Cond = "or(" + Cond + ", " + Conds[I] + ")";
  for (size_t I = First; I < Out.Params.size(); ++I)
    Out.ErrnoCheckParams.push_back(I);
  std::string Elem = ErrnoConds.empty()
                         ? Finish("zext.i32(" + Cond + ")")
                         : "reduceSeq(\\(f: i32, e: " + tupleOf(ETys) +
                               ") => or(f, zext.i32(" + Cond + ")), 0:i32, " +
                               zipOf(EViews) + ")";
  Out.ErrnoCheckFunIL =
      "idiom " + Name + "_errno(" + Params +
      ") {\n  return reduce(\\(a: i32, b: i32) => or(a, b), 0:i32, map(" +
      Lambda + " => " + Elem + ", " + Zip + "));\n}\n";
  for (const std::string &C : ErrnoNames)
    Out.ErrnoFunctions += (Out.ErrnoFunctions.empty() ? "" : ", ") + C;
  return true;
}

} // namespace

bool liftAccumulation(const IdiomMatch &M, const std::string &Name,
                      ScalarEvolution &SE, LiftedIdiom &Out, std::string &Why) {
  if (M.Kind != IdiomKind::Accumulation || M.Nest.depth() != 2) {
    Why = "not an outer-loop accumulation match";
    return false;
  }
  AccumLifter L(M, SE, Out, Why);
  return L.run(Name);
}

} // namespace idiom
