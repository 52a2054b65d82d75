//===- Lifting.cpp - Lift a detected idiom into FunIL text ----------------===//

#include "Lifting.h"
#include "lift/HistogramLifting.h"
#include "lift/AccumLifting.h"
#include "lift/GemmLifting.h"
#include "lift/SpmvLifting.h"
#include "lift/SearchLifting.h"
#include "lift/HostFloat.h"
#include "idiom/Constraints/LoopFacts.h"
#include "idiom/Constraints/ValueText.h"
#include "idiom/FunIL/LibmErrno.h"
#include "idiom/FunIL/Parser.h"
#include "idiom/FunIL/Printer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "../runtime/include/idiomrt.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

using namespace llvm;

namespace idiom {
namespace {

constexpr size_t MaxText = 64 * 1024;

/// FunIL spelling of an LLVM scalar type, or empty.
std::string typeText(Type *T) {
  if (T->isIntegerTy(1))
    return "bool";
  if (T->isIntegerTy(8) || T->isIntegerTy(16) || T->isIntegerTy(32) ||
      T->isIntegerTy(64))
    return "i" + std::to_string(T->getIntegerBitWidth());
  if (T->isFloatTy())
    return "f32";
  if (T->isDoubleTy())
    return "f64";
  return "";
}

/// FunIL literal for a constant, or empty when it has no literal form.
std::string literalText(Constant *C) {
  if (auto *CI = dyn_cast<ConstantInt>(C)) {
    if (CI->getBitWidth() == 1)
      return CI->isOne() ? "true" : "false";
    std::string T = typeText(CI->getType());
    return T.empty() ? "" : std::to_string(CI->getSExtValue()) + ":" + T;
  }
  if (auto *CF = dyn_cast<ConstantFP>(C)) {
    std::string T = typeText(CF->getType());
    if (T.empty())
      return "";
    double D = CF->getType()->isFloatTy()
                   ? (double)CF->getValueAPF().convertToFloat()
                   : CF->getValueAPF().convertToDouble();
    if (std::isnan(D))
      return "nan:" + T;
    if (std::isinf(D))
      return std::string(D < 0 ? "-inf:" : "inf:") + T;
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%a", D);
    return std::string(Buf) + ":" + T;
  }
  return "";
}

/// FunIL name of a pure intrinsic or library call, or empty.
std::string callName(const CallInst *CI) {
  if (auto *II = dyn_cast<IntrinsicInst>(CI)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::fmuladd: return "fmuladd";
    case Intrinsic::fma: return "fma";
    case Intrinsic::sqrt: return "sqrt";
    case Intrinsic::fabs: return "fabs";
    case Intrinsic::exp: return "exp";
    case Intrinsic::log: return "log";
    case Intrinsic::sin: return "sin";
    case Intrinsic::cos: return "cos";
    case Intrinsic::pow: return "pow";
    case Intrinsic::floor: return "floor";
    case Intrinsic::ceil: return "ceil";
    case Intrinsic::smin: return "smin";
    case Intrinsic::smax: return "smax";
    case Intrinsic::umin: return "umin";
    case Intrinsic::umax: return "umax";
    case Intrinsic::minnum: return "fmin";
    case Intrinsic::maxnum: return "fmax";
    case Intrinsic::abs: return "abs";
    default: return "";
    }
  }
  const Function *F = CI->getCalledFunction();
  if (!F)
    return "";
  // Library names: the float variant ends in 'f' (sqrtf, fabsf, fminf).
  std::string N = F->getName().str();
  if (N.size() > 3 && N.back() == 'f')
    N.pop_back();
  static const char *Known[] = {"sqrt", "fabs", "exp", "log", "sin", "cos",
                                "pow", "floor", "ceil", "fmin", "fmax"};
  for (const char *K : Known)
    if (N == K)
      return N;
  return "";
}

class Lifter {
public:
  Lifter(const IdiomMatch &M, ScalarEvolution &SE, LiftedIdiom &Out,
         std::string &Why)
      : M(M), SE(SE), Out(Out), Why(Why),
        I64(Type::getInt64Ty(M.Nest.Loops.front()->getHeader()->getContext())) {}

  bool run(const std::string &Name);

private:
  // Parameters.
  std::string indexText(const SCEV *S);
  std::string scalarParam(Value *V);
  unsigned bufferParam(const AffineAccess &A);
  /// True when store \p A alone writes every element of its footprint on
  /// every run (see LiftedParam::Dense).
  bool denseFootprint(const AffineAccess &A);
  /// True when the accesses \p As of one array are one dense store and
  /// loads of the same elements.
  bool denseAccesses(llvm::ArrayRef<const AffineAccess *> As);
  /// Sets LiftedParam::InPlace on the inputs of a map that it allows.
  void markInPlaceInputs();
  std::map<llvm::Value *, llvm::SmallVector<const AffineAccess *, 4>> AccessesOf;
  std::string viewText(const AffineAccess &A);
  std::string sizeText(unsigned D) { return SizeNames[D]; }
  /// The length of dimension \p D in an array type: the trip count's
  /// number, or the index parameter that views use for it (equal trip
  /// counts share one).
  std::string lengthText(unsigned D) {
    const SCEV *TC = SE.getTruncateOrSignExtend(M.Nest.TripCounts[D], I64);
    return isa<SCEVConstant>(TC) ? sizeText(D) : indexText(TC);
  }
  /// \p View of a nest of \p Depth loops joined into one dimension,
  /// row-major (`join(join(v))` for three loops).
  static std::string joined(const std::string &View, unsigned Depth) {
    std::string S = View;
    for (unsigned D = 1; D < Depth; ++D)
      S = "join(" + S + ")";
    return S;
  }
  /// Flattened nests: the iteration count of loop \p D at each point of the
  /// flattened space, as nested maps over iota of the loops' counts, joined
  /// (`join(map(\(r: i64) => map(\(c: i64) => r, iota(n1)), iota(n0)))`).
  std::string flatIotaText(unsigned D) {
    unsigned Depth = M.Nest.depth();
    static const char *const Names[] = {"p", "r", "c"};
    const char *const *Var = Names + (3 - Depth);
    std::string S = Var[D];
    for (unsigned L = Depth; L-- > 0;) {
      std::string Count = indexText(M.Nest.TripCounts[L]);
      if (L == Depth - 1 && D == L)
        S = "iota(" + Count + ")"; // map(\(c: i64) => c, iota(n)) is iota(n)
      else
        S = "map(\\(" + std::string(Var[L]) + ": i64) => " + S + ", iota(" + Count + "))";
    }
    return joined(S, Depth);
  }

  /// Accumulators also stored to memory on every iteration
  /// (ReductionInfo::Stores): the stitched code stores the final values
  /// after the nest, valid only when no input the kernel reads overlaps a
  /// stored element (else the loop would read its own partial sums). One
  /// run-time condition per (store, input buffer) pair, in bytes:
  /// max(lo - (a + size), a - hi) >= 0 (Out.NonNegative).
  bool storedResultChecks();

  // Slices.
  void scan(Value *Root);
  std::string expr(Value *V);
  std::string ivExpr(unsigned D);
  /// The second induction variable \p P (DerivedIV) as Start + Step * k,
  /// k loop \p V.Loop's iteration index.
  std::string derivedIVExpr(const llvm::PHINode *P, const DerivedIV &V);
  std::string substitutedText(
      const std::vector<std::pair<Value *, std::string>> &Subst, Value *Root);
  std::string combineText(const ReductionInfo &R, const std::string &A,
                          const std::string &B);
  /// Records the errno condition of errno-setting libm call \p CI whose
  /// arguments lifted to \p ArgTexts.
  void noteErrnoCall(const CallInst *CI, const std::vector<std::string> &ArgTexts);
  /// Builds Out.ErrnoCheckFunIL from the recorded conditions.
  bool buildErrnoCheck(const std::string &Name, const std::string &LambdaParam,
                       const std::string &Zip);
  /// Builds Out.ExtentCheckFunIL from one (i64 index, condition) pair per
  /// entry of Out.Extents (an empty condition: every iteration).
  bool buildExtentCheck(const std::string &Name, const std::string &LambdaParam,
                        const std::string &Zip,
                        const std::vector<std::pair<std::string, std::string>> &Indices);
  /// Appends an Index parameter whose value the stitched code computes from
  /// the extent check (RunTimeValue::Extent); returns its name.
  std::string extentParam();
  std::string paramList(llvm::ArrayRef<unsigned> Which);
  bool failed() const { return !Why.empty(); }
  bool fail(const std::string &W) {
    if (Why.empty())
      Why = W;
    return false;
  }

  const IdiomMatch &M;
  ScalarEvolution &SE;
  LiftedIdiom &Out;
  std::string &Why;
  Type *I64;

  std::vector<std::string> SizeNames;
  /// The nest's loops in the order of the lifted maps, outermost first
  /// (views, iotas and the runtime's sizes): the loop order, except that a
  /// 3-D map whose store walks the unit stride in an outer loop puts that
  /// loop innermost (NDRange dimension 0: neighbouring work-items,
  /// neighbouring elements). A map is order-free: the dependence test
  /// proved that no two iterations touch one element.
  SmallVector<unsigned, 3> Order;
  void chooseOrder();
  std::map<const SCEV *, std::string> IndexNames;
  DenseMap<Value *, std::string> ScalarUse;
  DenseMap<Value *, unsigned> BufferOf;
  std::vector<const AffineAccess *> Inputs; ///< loads feeding the slices
  std::vector<const GatherInfo *> Gathers;  ///< gather loads feeding them
  /// Adds a buffer with a run-time extent for each gather (Out.Extents).
  void gatherParams();
  /// Bisection searches (M.Searches) the slices read: the boundaries'
  /// buffer of each (SearchLifting.h), its first element and length.
  int searchOf(const llvm::PHINode *P) const;
  void searchParams();
  /// Adds the buffers of the searches used to \p Buffers (the inputs a
  /// check program reads).
  void insertSearchBuffers(std::set<unsigned> &Buffers) const {
    for (size_t K = 0; K < SearchUsed.size(); ++K)
      if (SearchUsed[K])
        Buffers.insert(SearchBuffer[K]);
  }
  std::vector<bool> SearchUsed;
  std::vector<unsigned> SearchBuffer;
  std::vector<std::string> SearchFirst, SearchCount;
  /// Sets the accessor of each gather, `at(view(b, 0, 1, count), sub(index,
  /// first))`, and returns the (index, "") pairs of the extent check.
  std::vector<std::pair<std::string, std::string>> gatherAccessors();
  DenseMap<const Instruction *, std::string> InputAccessor;
  bool UsesIV[3] = {false, false, false};
  std::string IVAccessor[3];
  DenseMap<Value *, std::string> Memo;
  size_t TextSize = 0;
  std::vector<std::string> ErrnoConds; ///< FunIL bools, one per errno call
  std::vector<std::string> ErrnoNames; ///< their C functions, first seen first
};

/// The first operation in the slice of \p Root inside nest \p N that the
/// device may compute differently from the host: an approximate libm call,
/// llvm.fmuladd where the host's fusion is not known, fmin/fmax where the
/// host's lowering is not known. Empty when every operation is exact.
static std::string inexactOperation(Value *Root, const NestInfo &N) {
  SmallVector<Value *, 16> Work{Root};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !N.contains(I) || isa<PHINode>(I) || isa<LoadInst>(I) ||
        !Seen.insert(I).second)
      continue;
    std::string Approx = approximateLibmName(I);
    if (!Approx.empty())
      return Approx + ", whose OpenCL version is not bit-exact";
    if (auto *II = dyn_cast<IntrinsicInst>(I)) {
      Intrinsic::ID ID = II->getIntrinsicID();
      if (ID == Intrinsic::fmuladd &&
          hostMulAdd(*II->getFunction()) == HostMulAdd::Unknown)
        return "llvm.fmuladd, whose fusion on the host is not known";
      if ((ID == Intrinsic::minnum || ID == Intrinsic::maxnum) &&
          hostMinMax(*II) == HostMinMax::Unknown)
        return "fmin/fmax, whose lowering on the host is not known";
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  return "";
}

void Lifter::noteErrnoCall(const CallInst *CI,
                           const std::vector<std::string> &ArgTexts) {
  std::string CName = CI->getCalledFunction()->getName().str();
  std::string W, Cond = errnoConditionText(CI, ArgTexts, M.Nest, W);
  if (Cond.empty()) {
    fail(W);
    return;
  }
  ErrnoConds.push_back(Cond);
  if (std::find(ErrnoNames.begin(), ErrnoNames.end(), CName) == ErrnoNames.end())
    ErrnoNames.push_back(CName);
}

std::string Lifter::paramList(ArrayRef<unsigned> Which) {
  std::vector<LiftedParam> Ps;
  for (unsigned I : Which)
    Ps.push_back(Out.Params[I]);
  return funilParamList(Ps);
}

bool Lifter::buildErrnoCheck(const std::string &Name,
                             const std::string &LambdaParam,
                             const std::string &Zip) {
  if (ErrnoConds.empty())
    return true;
  // A 2-D reduction's check reduces over the same flattened space.
  if (M.Nest.depth() != 1 && !liftsFlattened(M))
    return fail("a 2-D nest calls " + ErrnoNames.front() +
                ", which may set errno: the errno check is a 1-D reduction "
                "(2-D not implemented)");
  std::set<unsigned> Inputs;
  for (const AffineAccess *A : this->Inputs)
    Inputs.insert(BufferOf.lookup(A->Base));
  insertSearchBuffers(Inputs);
  for (unsigned I = 0; I < Out.Params.size(); ++I)
    if (Out.Params[I].K != LiftedParam::Kind::Buffer || Inputs.count(I))
      Out.ErrnoCheckParams.push_back(I);
  std::string Cond = ErrnoConds.front();
  for (size_t I = 1; I < ErrnoConds.size(); ++I)
    Cond = "or(" + Cond + ", " + ErrnoConds[I] + ")";
  Out.ErrnoCheckFunIL =
      "idiom " + Name + "_errno(" + paramList(Out.ErrnoCheckParams) +
      ") {\n  return reduce(\\(a: i32, b: i32) => or(a, b), 0:i32, map(\\(" +
      LambdaParam + ") => zext.i32(" + Cond + "), " + Zip + "));\n}\n";
  for (const std::string &N : ErrnoNames)
    Out.ErrnoFunctions += (Out.ErrnoFunctions.empty() ? "" : ", ") + N;
  return true;
}

/// Largest gathered range offloaded, in elements (the range is copied to
/// the device per call; 2^28 elements: 1 GiB of floats).
constexpr uint64_t MaxGatherElements = uint64_t(1) << 28;

} // namespace

std::string tupleOf(const std::vector<std::string> &Xs) {
  if (Xs.size() == 1)
    return Xs[0];
  std::string S = "(";
  for (size_t I = 0; I < Xs.size(); ++I)
    S += (I ? ", " : "") + Xs[I];
  return S + ")";
}

std::string zipOf(const std::vector<std::string> &Xs) {
  if (Xs.size() == 1)
    return Xs[0];
  std::string S = "zip(";
  for (size_t I = 0; I < Xs.size(); ++I)
    S += (I ? ", " : "") + Xs[I];
  return S + ")";
}

std::string component(const std::string &P, size_t I, size_t N) {
  return N == 1 ? P : P + "." + std::to_string(I);
}

std::string funilCallName(const CallInst *CI) { return callName(CI); }

std::string errnoConditionText(const CallInst *CI,
                               const std::vector<std::string> &ArgTexts,
                               const NestInfo &N, std::string &Why) {
  std::string CName = CI->getCalledFunction()->getName().str();
  // The check must decide as the host does: an argument the device may
  // compute differently (by an ulp, or a NaN where the host has a number)
  // could hide an argument that sets errno on the host.
  for (const Use &A : CI->args()) {
    std::string Inexact = inexactOperation(A.get(), N);
    if (!Inexact.empty()) {
      Why = "the argument of " + CName + ", which may set errno, depends on " +
            Inexact + ": the device's errno check could disagree with the host";
      return "";
    }
  }
  const funil::LibmErrnoRule *R = funil::findLibmErrnoRule(CName);
  if (!R) {
    Why = "call of " + CName + ", which may set errno, without an errno rule";
    return "";
  }
  std::vector<funil::ExprPtr> Args;
  std::string Err;
  for (const std::string &T : ArgTexts) {
    funil::ExprPtr E;
    if (!funil::parseExpr(T, E, Err)) {
      Why = "argument of " + CName + " does not parse (internal error): " + Err;
      return "";
    }
    Args.push_back(E);
  }
  funil::ExprPtr C = funil::libmErrnoCondition(*R, Args, Err);
  if (!C) {
    Why = Err;
    return "";
  }
  return funil::printExpr(*C);
}

LiftedParam newBufferParam(const std::vector<LiftedParam> &Params,
                           Value *Base, Type *ElemTy) {
  LiftedParam P;
  P.K = LiftedParam::Kind::Buffer;
  unsigned Idx = 0;
  for (const LiftedParam &Q : Params)
    Idx += Q.K == LiftedParam::Kind::Buffer;
  P.Name = "b" + std::to_string(Idx);
  P.Base = Base;
  P.ElemTy = ElemTy;
  return P;
}

namespace {

void Lifter::gatherParams() {
  for (const GatherInfo *G : Gathers) {
    LiftedParam P = newBufferParam(Out.Params, G->Base, G->ElemTy);
    P.Read = true;
    P.RtLo = P.RtHi = RunTimeValue::Extent;
    if (typeText(P.ElemTy).empty())
      fail("gather of an element type the lifter cannot express");
    Out.Params.push_back(P);
    RunTimeExtent E;
    E.Buffer = Out.Params.size() - 1;
    E.MaxCount = MaxGatherElements;
    E.GatherLoad = G->Load;
    E.GatherIndex = G->Index;
    E.GatherScale = G->Scale;
    E.GatherOffset = G->Offset;
    extentParam();
    E.FirstParam = Out.Params.size() - 1;
    extentParam();
    E.CountParam = Out.Params.size() - 1;
    Out.Extents.push_back(E);
  }
}

std::vector<std::pair<std::string, std::string>> Lifter::gatherAccessors() {
  std::vector<std::pair<std::string, std::string>> Indices;
  for (const RunTimeExtent &E : Out.Extents) {
    if (!E.GatherLoad)
      continue;
    std::string Idx = expr(E.GatherIndex);
    if (!E.GatherIndex->getType()->isIntegerTy(64))
      Idx = "sext.i64(" + Idx + ")"; // GEP indices are sign-extended
    if (E.GatherScale != 1) // a struct field x[idx].im: Scale * idx + Offset
      Idx = "mul(" + Idx + ", " + std::to_string(E.GatherScale) + ":i64)";
    if (E.GatherOffset != 0)
      Idx = "add(" + Idx + ", " + std::to_string(E.GatherOffset) + ":i64)";
    const std::string &B = Out.Params[E.Buffer].Name;
    InputAccessor[cast<LoadInst>(E.GatherLoad)] =
        "at(view(" + B + ", 0:i64, 1:i64, " + Out.Params[E.CountParam].Name + "), sub(" + Idx +
        ", " + Out.Params[E.FirstParam].Name + "))";
    Indices.push_back({Idx, ""});
  }
  return Indices;
}

std::string Lifter::extentParam() {
  LiftedParam P;
  P.K = LiftedParam::Kind::Index;
  unsigned N = 0;
  for (const LiftedParam &Q : Out.Params)
    N += Q.K == LiftedParam::Kind::Index && Q.RtS == RunTimeValue::Extent;
  P.Name = "e" + std::to_string(N);
  P.RtS = RunTimeValue::Extent;
  Out.Params.push_back(P);
  return P.Name;
}

bool Lifter::buildExtentCheck(const std::string &Name, const std::string &LambdaParam,
                              const std::string &Zip,
                              const std::vector<std::pair<std::string, std::string>> &Indices) {
  if (Out.Extents.empty())
    return true;
  if (M.Nest.depth() != 1 && !liftsFlattened(M))
    return fail("an array's extent is known only at run time in a 2-D nest: the "
                "extent check is a 1-D reduction (2-D not implemented)");
  if (!ErrnoConds.empty())
    return fail("a loop that calls " + ErrnoNames.front() +
                ", which may set errno, and needs a run-time extent: one run-time "
                "check per idiom is implemented");
  if (2 * Out.Extents.size() > IDIOM_MAX_RESULTS)
    return fail("more arrays with run-time extents than the extent check's "
                "results hold");
  std::set<unsigned> In;
  for (const AffineAccess *A : this->Inputs)
    In.insert(BufferOf.lookup(A->Base));
  insertSearchBuffers(In);
  for (unsigned I = 0; I < Out.Params.size(); ++I) {
    const LiftedParam &P = Out.Params[I];
    if (P.K == LiftedParam::Kind::Buffer ? In.count(I) : P.RtS != RunTimeValue::Extent)
      Out.ExtentCheckParams.push_back(I);
  }
  // Per extent: (smallest, largest) index over the iterations that use it,
  // (INT64_MAX, INT64_MIN) from those that do not.
  std::string Max = "9223372036854775807:i64", Min = "-9223372036854775808:i64";
  std::vector<std::string> Tys, Comb, Ids, Elems;
  for (size_t K = 0; K < Indices.size(); ++K) {
    const auto &[Idx, Cond] = Indices[K];
    std::string A0 = "a." + std::to_string(2 * K), A1 = "a." + std::to_string(2 * K + 1);
    std::string B0 = "b." + std::to_string(2 * K), B1 = "b." + std::to_string(2 * K + 1);
    Tys.insert(Tys.end(), {"i64", "i64"});
    Comb.push_back("smin(" + A0 + ", " + B0 + ")");
    Comb.push_back("smax(" + A1 + ", " + B1 + ")");
    Ids.insert(Ids.end(), {Max, Min});
    Elems.push_back(Cond.empty() ? Idx : "select(" + Cond + ", " + Idx + ", " + Max + ")");
    Elems.push_back(Cond.empty() ? Idx : "select(" + Cond + ", " + Idx + ", " + Min + ")");
  }
  std::string Ty = tupleOf(Tys);
  Out.ExtentCheckFunIL = "idiom " + Name + "_extent(" + paramList(Out.ExtentCheckParams) +
                         ") {\n  return reduce(\\(a: " + Ty + ", b: " + Ty + ") => " +
                         tupleOf(Comb) + ", " + tupleOf(Ids) + ", map(\\(" + LambdaParam +
                         ") => " + tupleOf(Elems) + ", " + Zip + "));\n}\n";
  return true;
}

std::string Lifter::indexText(const SCEV *S) {
  S = SE.getTruncateOrSignExtend(S, I64);
  if (auto *C = dyn_cast<SCEVConstant>(S))
    return std::to_string(C->getAPInt().getSExtValue()) + ":i64";
  auto It = IndexNames.find(S);
  if (It != IndexNames.end())
    return It->second;
  LiftedParam P;
  P.K = LiftedParam::Kind::Index;
  P.Name = "x" + std::to_string(IndexNames.size());
  P.S = S;
  IndexNames[S] = P.Name;
  Out.Params.push_back(P);
  return P.Name;
}

std::string Lifter::scalarParam(Value *V) {
  auto It = ScalarUse.find(V);
  if (It != ScalarUse.end())
    return It->second;
  Type *T = V->getType();
  std::string PT = typeText(T);
  if (PT.empty()) {
    fail("loop-invariant value of unsupported type");
    return "";
  }
  LiftedParam P;
  P.K = LiftedParam::Kind::Scalar;
  P.V = V;
  unsigned Idx = 0;
  for (const LiftedParam &Q : Out.Params)
    Idx += Q.K == LiftedParam::Kind::Scalar;
  P.Name = "s" + std::to_string(Idx);
  Out.Params.push_back(P);
  // Narrow integers travel as i32 (the runtime passes int or long).
  std::string Use = P.Name;
  if (T->isIntegerTy(1))
    Use = "icmp_ne(" + P.Name + ", 0:i32)";
  else if (T->isIntegerTy(8) || T->isIntegerTy(16))
    Use = "trunc." + PT + "(" + P.Name + ")";
  ScalarUse[V] = Use;
  return Use;
}

unsigned Lifter::bufferParam(const AffineAccess &A) {
  auto It = BufferOf.find(A.Base);
  // Trip counts are at least 1 in the preheader, so a span's sign is its
  // stride's: constant strides need no min/max.
  const SCEV *Lo = SE.getTruncateOrSignExtend(A.Offset, I64), *Hi = Lo;
  for (unsigned D = 0; D < M.Nest.depth(); ++D) {
    const SCEV *Stride = SE.getTruncateOrSignExtend(A.Strides[D], I64);
    const SCEV *Span = SE.getMulExpr(
        Stride, SE.getMinusSCEV(SE.getTruncateOrSignExtend(M.Nest.TripCounts[D], I64),
                                SE.getOne(I64)));
    if (SE.isKnownNonNegative(Stride)) {
      Hi = SE.getAddExpr(Hi, Span);
    } else if (SE.isKnownNegative(Stride)) {
      Lo = SE.getAddExpr(Lo, Span);
    } else {
      Lo = SE.getAddExpr(Lo, SE.getSMinExpr(Span, SE.getZero(I64)));
      Hi = SE.getAddExpr(Hi, SE.getSMaxExpr(Span, SE.getZero(I64)));
    }
  }
  Hi = SE.getAddExpr(SE.getTruncateOrSignExtend(Hi, I64), SE.getOne(I64));
  if (It != BufferOf.end()) {
    LiftedParam &P = Out.Params[It->second];
    if (P.ElemTy != A.ElemTy)
      fail("one array is accessed with two element types");
    P.Lo = SE.getSMinExpr(P.Lo, Lo);
    P.Hi = SE.getSMaxExpr(P.Hi, Hi);
    P.Read |= !A.IsStore;
    P.Written |= A.IsStore;
    AccessesOf[A.Base].push_back(&A);
    P.Dense = M.Kind == IdiomKind::Map && denseAccesses(AccessesOf[A.Base]);
    return It->second;
  }
  LiftedParam P = newBufferParam(Out.Params, A.Base, A.ElemTy);
  P.Lo = Lo;
  P.Hi = Hi;
  P.Read = !A.IsStore;
  P.Written = A.IsStore;
  AccessesOf[A.Base].push_back(&A);
  P.Dense = M.Kind == IdiomKind::Map && denseAccesses(AccessesOf[A.Base]);
  BufferOf[A.Base] = Out.Params.size();
  Out.Params.push_back(P);
  return BufferOf[A.Base];
}

bool Lifter::denseAccesses(ArrayRef<const AffineAccess *> As) {
  const AffineAccess *St = nullptr;
  for (const AffineAccess *A : As)
    if (A->IsStore) {
      if (St)
        return false; // two stores: their union may leave holes
      St = A;
    }
  if (!St || !denseFootprint(*St))
    return false;
  // Loads of the same elements only, so the range is the store's footprint.
  for (const AffineAccess *A : As)
    if (A->Offset != St->Offset || A->Strides != St->Strides)
      return false;
  return true;
}

bool Lifter::denseFootprint(const AffineAccess &A) {
  // Executed on every iteration: in the innermost loop's header (a store in
  // another block of the body may sit under a condition).
  if (A.Inst->getParent() != M.Nest.Loops.back()->getHeader())
    return false;
  auto IsOne = [&](const SCEV *S) {
    return S && SE.getTruncateOrSignExtend(S, I64) == SE.getOne(I64);
  };
  unsigned Depth = M.Nest.depth();
  if (A.Strides.size() != Depth || M.Nest.TripCounts.size() != Depth)
    return false;
  if (Depth == 1)
    return IsOne(A.Strides[0]);
  // Row-major rows that abut: unit inner stride, outer stride = row length;
  // in 3-D also planes that abut: plane stride = rows times row length.
  auto Wide = [&](const SCEV *S) { return SE.getTruncateOrSignExtend(S, I64); };
  const auto &TC = M.Nest.TripCounts;
  if (Depth == 3)
    return IsOne(A.Strides[2]) && A.Strides[1] && A.Strides[0] && TC[1] && TC[2] &&
           Wide(A.Strides[1]) == Wide(TC[2]) &&
           Wide(A.Strides[0]) == SE.getMulExpr(Wide(TC[1]), Wide(TC[2]));
  return Depth == 2 && IsOne(A.Strides[1]) && A.Strides[0] && TC[1] &&
         Wide(A.Strides[0]) == Wide(TC[1]);
}

std::string Lifter::viewText(const AffineAccess &A) {
  auto It = BufferOf.find(A.Base);
  if (It == BufferOf.end() || It->second >= Out.Params.size()) {
    fail("internal error: an access has no buffer parameter");
    return "";
  }
  // Copies, not references: indexText appends to Out.Params, which may
  // reallocate it.
  const std::string Name = Out.Params[It->second].Name;
  const SCEV *Lo = Out.Params[It->second].Lo;
  std::string S = "view(" + Name + ", ";
  S += indexText(SE.getMinusSCEV(SE.getTruncateOrSignExtend(A.Offset, I64), Lo));
  for (unsigned D : Order) {
    S += ", " + indexText(A.Strides[D]);
    S += ", " + indexText(M.Nest.TripCounts[D]);
  }
  return S + ")";
}

/// Finds the loads and induction variables a slice reads.
void Lifter::scan(Value *Root) {
  SmallVector<Value *, 16> Work{Root};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !M.Nest.contains(I) || !Seen.insert(V).second)
      continue;
    if (auto *L = dyn_cast<LoadInst>(I)) {
      for (const AffineAccess &A : M.Accesses)
        if (A.Inst == L && !InputAccessor.count(L)) {
          Inputs.push_back(&A);
          InputAccessor[L] = "";
        }
      for (const GatherInfo &G : M.Gathers)
        if (G.Load == L && !InputAccessor.count(L)) {
          Gathers.push_back(&G);
          InputAccessor[L] = "";
          Work.push_back(G.Index); // its index reads affine inputs
        }
      continue;
    }
    if (auto *P = dyn_cast<PHINode>(I)) {
      // A read forwarded from the previous iteration (a map's access whose
      // Inst is the phi): an input like a load, at the element it holds.
      for (const AffineAccess &A : M.Accesses)
        if (A.Inst == P && !A.IsStore && !InputAccessor.count(P)) {
          Inputs.push_back(&A);
          InputAccessor[P] = "";
        }
      for (unsigned D = 0; D < M.Nest.depth(); ++D)
        if (M.Nest.IVs[D] == P)
          UsesIV[D] = true;
      if (auto DIV = derivedIV(P, M.Nest)) // read from its loop's index
        UsesIV[DIV->Loop] = true;
      if (int K = searchOf(P); K >= 0) { // what the search reads
        const BisectionInfo &B = M.Searches[K];
        SearchUsed[K] = true;
        for (Value *X : {B.Next[0], B.Next[1], B.Cond, B.Init[0], B.Init[1]})
          Work.push_back(X);
      }
      continue;
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
}

int Lifter::searchOf(const PHINode *P) const {
  for (size_t K = 0; K < M.Searches.size(); ++K)
    if (M.Searches[K].Result == P)
      return K;
  return -1;
}

void Lifter::searchParams() {
  SearchBuffer.assign(M.Searches.size(), 0);
  SearchFirst.assign(M.Searches.size(), "");
  SearchCount.assign(M.Searches.size(), "");
  for (size_t K = 0; K < M.Searches.size(); ++K) {
    if (!SearchUsed[K])
      continue;
    const BisectionInfo &B = M.Searches[K];
    LiftedParam P = newBufferParam(Out.Params, B.ProbeBase, B.ProbeTy);
    if (typeText(P.ElemTy).empty())
      fail("search over boundaries of a type the lifter cannot express");
    P.Read = true;
    searchRange(B, SE, P.Lo, P.Hi, Out.NonNegative);
    SearchBuffer[K] = Out.Params.size();
    Out.Params.push_back(P);
    const SCEV *Lo = P.Lo, *Hi = P.Hi;
    SearchFirst[K] = indexText(Lo);
    SearchCount[K] = indexText(SE.getMinusSCEV(Hi, Lo));
  }
}

std::string Lifter::ivExpr(unsigned D) {
  PHINode *P = M.Nest.IVs[D];
  const SCEV *Start = M.Nest.IVStarts[D];
  int64_t Step = M.Nest.IVSteps[D];
  std::string K = IVAccessor[D];
  std::string E = Step == 1 ? K : "mul(" + K + ", " + std::to_string(Step) + ":i64)";
  if (const SCEV *SymStep = M.Nest.symbolicStep(D)) // blocks: j += 2 * s
    E = "mul(" + K + ", " + indexText(SymStep) + ")";
  if (!Start->isZero())
    E = "add(" + indexText(SE.getTruncateOrSignExtend(Start, I64)) + ", " + E + ")";
  if (!P->getType()->isIntegerTy(64))
    E = "trunc." + typeText(P->getType()) + "(" + E + ")";
  return E;
}

std::string Lifter::derivedIVExpr(const PHINode *P, const DerivedIV &V) {
  std::string E = "mul(" + IVAccessor[V.Loop] + ", " +
                  indexText(SE.getTruncateOrSignExtend(V.Step, I64)) + ")";
  if (!V.Start->isZero())
    E = "add(" + indexText(SE.getTruncateOrSignExtend(V.Start, I64)) + ", " +
        E + ")";
  if (!P->getType()->isIntegerTy(64))
    E = "trunc." + typeText(P->getType()) + "(" + E + ")";
  return E;
}

std::string Lifter::expr(Value *V) {
  if (failed())
    return "";
  auto It = Memo.find(V);
  if (It != Memo.end())
    return It->second;
  std::string R;
  auto *I = dyn_cast<Instruction>(V);
  if (auto *C = dyn_cast<Constant>(V)) {
    R = literalText(C);
    if (R.empty())
      fail("constant without a FunIL literal");
  } else if (!I || !M.Nest.contains(I)) {
    R = scalarParam(V);
  } else if (auto *L = dyn_cast<LoadInst>(I)) {
    R = InputAccessor.lookup(L);
    if (R.empty())
      fail("the slice reads memory that is not an input of the element function: " +
           valueText(L));
  } else if (auto *P = dyn_cast<PHINode>(I); P && InputAccessor.count(P)) {
    R = InputAccessor.lookup(P); // a forwarded read
  } else if (auto *P = dyn_cast<PHINode>(I); P && searchOf(P) >= 0) {
    unsigned K = searchOf(P);
    R = searchText(
        M.Searches[K], K, Out.Params[SearchBuffer[K]].Name, SearchFirst[K], SearchCount[K],
        [&](Value *X) { return expr(X); },
        [&](const std::vector<std::pair<Value *, std::string>> &S, Value *X) {
          return substitutedText(S, X);
        });
    if (R.empty())
      fail("a bisection search the lifter cannot express");
  } else if (auto *P = dyn_cast<PHINode>(I)) {
    unsigned D = 0;
    while (D < M.Nest.depth() && M.Nest.IVs[D] != P)
      ++D;
    if (D < M.Nest.depth())
      R = ivExpr(D);
    else if (auto DIV = derivedIV(P, M.Nest))
      R = derivedIVExpr(P, *DIV);
    else
      fail("slice reads a phi that is not an induction variable");
  } else if (isa<FreezeInst>(I)) {
    R = expr(I->getOperand(0));
  } else if (typeText(I->getType()).empty()) {
    fail("slice computes a value of unsupported type");
  } else if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    R = std::string(BO->getOpcodeName()) + "(" + expr(BO->getOperand(0)) +
        ", " + expr(BO->getOperand(1)) + ")";
  } else if (auto *UO = dyn_cast<UnaryOperator>(I)) {
    R = "fneg(" + expr(UO->getOperand(0)) + ")";
  } else if (auto *Cmp = dyn_cast<CmpInst>(I)) {
    if (Cmp->getPredicate() == CmpInst::FCMP_FALSE)
      R = "false";
    else if (Cmp->getPredicate() == CmpInst::FCMP_TRUE)
      R = "true";
    else
      R = std::string(isa<ICmpInst>(Cmp) ? "icmp_" : "fcmp_") +
          CmpInst::getPredicateName(Cmp->getPredicate()).str() + "(" +
          expr(Cmp->getOperand(0)) + ", " + expr(Cmp->getOperand(1)) + ")";
  } else if (auto *Sel = dyn_cast<SelectInst>(I)) {
    R = "select(" + expr(Sel->getCondition()) + ", " +
        expr(Sel->getTrueValue()) + ", " + expr(Sel->getFalseValue()) + ")";
  } else if (auto *Cast = dyn_cast<CastInst>(I)) {
    R = std::string(Cast->getOpcodeName()) + "." + typeText(Cast->getType()) +
        "(" + expr(Cast->getOperand(0)) + ")";
  } else if (auto *CI = dyn_cast<CallInst>(I)) {
    std::string N = callName(CI);
    bool IsMap = M.Kind == IdiomKind::Map;
    if (N == "fmuladd") {
      // Mirror the host back end's choice (HostFloat.h); reductions are
      // reassociated anyway, so there the unfused form is within tolerance.
      HostMulAdd H = hostMulAdd(*CI->getFunction());
      if (H == HostMulAdd::Fused)
        N = "fma";
      else if (H == HostMulAdd::Unknown && IsMap)
        fail("llvm.fmuladd in a map on a target whose fusion choice is not "
             "known");
    }
    if ((N == "fmax" || N == "fmin") && !isa<IntrinsicInst>(CI) && IsMap) {
      fail("libm " + N + " call in a map: its handling of signed zeros and "
           "NaN is not mirrored");
    } else if ((N == "fmax" || N == "fmin") && isa<IntrinsicInst>(CI)) {
      HostMinMax H = hostMinMax(*CI);
      std::string X = expr(CI->getArgOperand(0)), Y = expr(CI->getArgOperand(1));
      const char *Gt = N == "fmax" ? "fcmp_ogt(" : "fcmp_olt(";
      if (H == HostMinMax::Select)
        R = "select(" + std::string(Gt) + X + ", " + Y + "), " + X + ", " + Y + ")";
      else if (H == HostMinMax::Guarded)
        R = "select(fcmp_uno(" + X + ", " + X + "), " + Y + ", select(" + Gt + Y +
            ", " + X + "), " + Y + ", " + X + "))";
      else if (IsMap)
        fail("fmaxf/fminf in a map where the host's lowering (signed zeros, "
             "NaN) is not known");
      else
        R = N + "(" + X + ", " + Y + ")";
    } else if (N.empty()) {
      fail("call the lifter cannot express");
    } else {
      R = N + "(";
      unsigned NArgs = N == "abs" ? 1 : CI->arg_size();
      std::vector<std::string> ArgTexts;
      for (unsigned A = 0; A < NArgs; ++A) {
        ArgTexts.push_back(expr(CI->getArgOperand(A)));
        R += (A ? ", " : "") + ArgTexts.back();
      }
      R += ")";
      if (!isPureCall(CI)) {
        if (isErrnoLibmCall(CI))
          noteErrnoCall(CI, ArgTexts);
        else
          fail("call may have side effects");
      }
    }
  } else {
    fail("instruction the lifter cannot express");
  }
  TextSize += R.size();
  if (TextSize > MaxText)
    fail("lifted expression is too large");
  Memo[V] = R;
  return R;
}

/// The reduction operator as FunIL, lifted from the instruction that combines
/// the accumulator with an element (so compare+select min/max keep their
/// exact predicate), with the accumulator as \p A and the element as \p B.
std::string Lifter::combineText(const ReductionInfo &R, const std::string &A,
                                const std::string &B) {
  if (isa<IntrinsicInst>(R.FirstLink) &&
      (cast<IntrinsicInst>(R.FirstLink)->getIntrinsicID() == Intrinsic::fmuladd ||
       cast<IntrinsicInst>(R.FirstLink)->getIntrinsicID() == Intrinsic::fma))
    return "fadd(" + A + ", " + B + ")";
  DenseMap<Value *, std::string> Saved = Memo;
  size_t SavedSize = TextSize;
  Memo.clear();
  Memo[R.Phi] = A;
  Memo[R.Operands.front()] = B;
  std::string T = expr(R.FirstLink);
  Memo = std::move(Saved);
  TextSize = SavedSize + T.size();
  return T;
}

/// The FunIL text of \p Root with the values of \p Subst replaced by their
/// texts (the loop's own step applied to other operands).
std::string Lifter::substitutedText(
    const std::vector<std::pair<Value *, std::string>> &Subst, Value *Root) {
  DenseMap<Value *, std::string> Saved = Memo;
  size_t SavedSize = TextSize;
  Memo.clear();
  for (const auto &[V, T] : Subst)
    Memo[V] = T;
  std::string T = expr(Root);
  Memo = std::move(Saved);
  TextSize = SavedSize + T.size();
  return T;
}

void Lifter::chooseOrder() {
  unsigned Depth = M.Nest.depth();
  for (unsigned D = 0; D < Depth; ++D)
    Order.push_back(D);
  if (Depth != 3 || M.Kind != IdiomKind::Map)
    return;
  for (const AffineAccess &A : M.Accesses) {
    if (!A.IsStore || A.Strides.size() != Depth)
      continue;
    if (SE.getTruncateOrSignExtend(A.Strides[Depth - 1], I64) == SE.getOne(I64))
      return; // the first store decides
    for (unsigned D = 0; D + 1 < Depth; ++D)
      if (SE.getTruncateOrSignExtend(A.Strides[D], I64) == SE.getOne(I64)) {
        Order.erase(Order.begin() + D);
        Order.push_back(D);
        return;
      }
    return;
  }
}

bool Lifter::storedResultChecks() {
  const DataLayout &DL = M.Nest.Loops.front()->getHeader()->getModule()->getDataLayout();
  auto Address = [&](Value *Ptr) -> const SCEV * {
    const SCEV *S = SE.getPtrToIntExpr(SE.getSCEV(Ptr), I64);
    return isa<SCEVCouldNotCompute>(S) ? nullptr : SE.getTruncateOrZeroExtend(S, I64);
  };
  for (const ReductionInfo &R : M.Reductions)
    for (StoreInst *St : R.Stores) {
      const SCEV *A = Address(St->getPointerOperand());
      if (!A)
        return fail("the address an accumulator is stored to has no integer value");
      const SCEV *AEnd = SE.getAddExpr(
          A, SE.getConstant(I64, DL.getTypeStoreSize(St->getValueOperand()->getType())));
      for (const LiftedParam &P : Out.Params) {
        if (P.K != LiftedParam::Kind::Buffer || !P.Read)
          continue;
        const SCEV *B = Address(P.Base);
        if (!B)
          return fail("an input's base address has no integer value");
        const SCEV *Size = SE.getConstant(I64, DL.getTypeAllocSize(P.ElemTy));
        const SCEV *Lo = SE.getAddExpr(B, SE.getMulExpr(P.Lo, Size));
        const SCEV *Hi = SE.getAddExpr(B, SE.getMulExpr(P.Hi, Size));
        const SCEV *Gap = SE.getSMaxExpr(SE.getMinusSCEV(Lo, AEnd), SE.getMinusSCEV(A, Hi));
        if (!SE.isKnownNonNegative(Gap))
          Out.NonNegative.push_back(Gap);
      }
    }
  return true;
}

bool Lifter::run(const std::string &Name) {
  const NestInfo &N = M.Nest;
  chooseOrder();
  for (unsigned D : Order)
    Out.Sizes.push_back(N.TripCounts[D]);
  for (unsigned D = 0; D < N.depth(); ++D) {
    const SCEV *TC = SE.getTruncateOrSignExtend(N.TripCounts[D], I64);
    if (auto *C = dyn_cast<SCEVConstant>(TC)) {
      SizeNames.push_back(std::to_string(C->getAPInt().getSExtValue()));
    } else {
      LiftedParam P;
      P.K = LiftedParam::Kind::Index;
      P.Name = "n" + std::to_string(D);
      P.S = TC;
      IndexNames[TC] = P.Name;
      Out.Params.push_back(P);
      SizeNames.push_back(P.Name);
    }
  }

  // Roots of the slices, and the views they are written through.
  std::vector<Value *> Roots;
  std::vector<const AffineAccess *> Stores;
  if (M.Kind == IdiomKind::Map) {
    for (const AffineAccess &A : M.Accesses)
      if (A.IsStore) {
        Stores.push_back(&A);
        Roots.push_back(cast<StoreInst>(A.Inst)->getValueOperand());
      }
  } else {
    for (const ReductionInfo &R : M.Reductions) {
      for (Value *X : R.Operands)
        Roots.push_back(X);
      for (Value *X : R.MulPartners)
        if (X)
          Roots.push_back(X);
      if (R.Cond)
        Roots.push_back(R.Cond);
    }
  }
  HistogramLift Hist;
  if (M.Kind == IdiomKind::Histogram && !prepareHistogramLift(M, SE, Hist, Roots, Why))
    return false;
  SearchUsed.assign(M.Searches.size(), false);
  for (Value *R : Roots)
    scan(R);
  for (const AffineAccess *A : Inputs)
    bufferParam(*A);
  for (const AffineAccess *A : Stores)
    bufferParam(*A);
  gatherParams();
  searchParams();
  std::string BinsName;
  if (M.Kind == IdiomKind::Histogram) {
    Out.Params.push_back(histogramBinsParam(Hist, Out.Params, SE));
    BinsName = Out.Params.back().Name;
    if (Hist.RunTime) {
      RunTimeExtent E;
      E.Buffer = Out.Params.size() - 1;
      E.MaxCount = MaxHistogramBins;
      E.WholeWords = Hist.H->U.ElemTy->getPrimitiveSizeInBits() < 32;
      Hist.FirstName = extentParam();
      E.FirstParam = Out.Params.size() - 1;
      Hist.CountName = extentParam();
      E.CountParam = Out.Params.size() - 1;
      Out.Extents.push_back(E);
    }
  }
  if (failed())
    return false;

  // A reduction over a 2-D or 3-D nest is one reduction over the flattened
  // space: each input is join(view(b, off, s0, n0, s1, n1)) (in 3-D
  // join(join(view(b, off, s0, n0, s1, n1, s2, n2)))), row-major as the
  // loops visit it, and the element function is the 1-D template's.
  // So is a triangular histogram (NestInfo::Skew): the rectangle around
  // the triangle, masked (HistogramLift::Mask).
  if (M.Kind == IdiomKind::ScalarReduction && !storedResultChecks())
    return false;
  bool Flat = liftsFlattened(M);
  bool TwoD = N.depth() == 2 && !Flat;
  // A 3-D map is three nested maps over planes p, rows r and elements t
  // (one launch over a 3-D NDRange: map-to-mapGlobal-3d); a 3-D scalar
  // reduction is flattened as a 2-D one is.
  bool ThreeD = N.depth() == 3 && !Flat;
  if (N.depth() > 3 || (ThreeD && M.Kind != IdiomKind::Map && !Flat)) {
    Why = "a nest of three loops is lifted as a map or a scalar reduction only";
    return false;
  }
  if (Flat) {
    // The runtime sees one dimension of n0 * n1 (* n2) iterations. The
    // product must not wrap: where the ranges do not bound it, the call
    // tests, for each partial product P and next count n, n <= INT64_MAX /
    // max(P, 1), and runs the loop otherwise.
    const SCEV *Prod = SE.getTruncateOrSignExtend(N.TripCounts[0], I64);
    APInt ProdMax = SE.getUnsignedRangeMax(Prod);
    bool Wraps = false;
    for (unsigned D = 1; D < N.depth(); ++D) {
      const SCEV *ND = SE.getTruncateOrSignExtend(N.TripCounts[D], I64);
      bool Ov = false;
      APInt NextMax = ProdMax.umul_ov(SE.getUnsignedRangeMax(ND), Ov);
      Wraps |= Ov || NextMax.isNegative();
      if (Wraps) {
        const SCEV *Max = SE.getConstant(I64, INT64_MAX);
        const SCEV *Den = SE.getUMaxExpr(Prod, SE.getOne(I64));
        Out.NonNegative.push_back(SE.getMinusSCEV(SE.getUDivExpr(Max, Den), ND));
      }
      ProdMax = NextMax;
      Prod = SE.getMulExpr(Prod, ND);
    }
    Out.Sizes.assign(1, Prod);
  }
  // Several updates per iteration (HistogramLift::More): the pairs
  // (iteration, update k), each input repeated K times (a view with a
  // second dimension of stride 0), k from iota.
  std::string Rep = Hist.More.empty() ? "" : std::to_string(Hist.More.size() + 1) + ":i64";
  if (!Rep.empty()) {
    const SCEV *N0 = SE.getTruncateOrSignExtend(N.TripCounts[0], I64);
    Out.Sizes.assign(1, SE.getMulExpr(N0, SE.getConstant(I64, Hist.More.size() + 1)));
    Out.NonNegative.push_back(SE.getMinusSCEV(
        SE.getConstant(I64, INT64_MAX / int64_t(Hist.More.size() + 1)), N0));
  }
  auto Repeated = [&](const std::string &View) {
    return "join(" + View.substr(0, View.size() - 1) + ", 0:i64, " + Rep + "))";
  };
  std::vector<std::string> OuterComps, OuterTypes;
  for (const AffineAccess *A : Inputs) {
    OuterComps.push_back(Flat            ? joined(viewText(*A), N.depth())
                         : !Rep.empty() ? Repeated(viewText(*A))
                                        : viewText(*A));
    std::string T = typeText(A->ElemTy);
    OuterTypes.push_back(ThreeD ? "[[" + T + "]_" + lengthText(Order[2]) + "]_" +
                                      lengthText(Order[1])
                         : TwoD ? "[" + T + "]_" + sizeText(1)
                                : T);
  }
  int OuterIota = -1;
  // Flattened reductions: the iteration counts k0, k1 (and k2) of element
  // k0 * n1 + k1 (k0 * n1 * n2 + k1 * n2 + k2), where the element reads
  // them (or, the last, to give the zip a length).
  int FlatIota[3] = {-1, -1, -1};
  if (Flat) {
    unsigned Last = N.depth() - 1;
    for (unsigned D = 0; D <= Last; ++D)
      if (UsesIV[D] || N.Skew || (D == Last && OuterComps.empty())) {
        FlatIota[D] = OuterComps.size();
        OuterComps.push_back(flatIotaText(D));
        OuterTypes.push_back("i64");
      }
  } else if (UsesIV[Order[0]] || (OuterComps.empty() && Rep.empty())) {
    OuterIota = OuterComps.size();
    std::string N0 = indexText(N.TripCounts[Order[0]]);
    OuterComps.push_back(Rep.empty() ? "iota(" + N0 + ")"
                                     : "join(map(\\(r: i64) => map(\\(c: i64) => r, iota(" +
                                           Rep + ")), iota(" + N0 + ")))");
    OuterTypes.push_back("i64");
  }
  int SlotIota = -1;
  if (!Rep.empty()) {
    SlotIota = OuterComps.size();
    OuterComps.push_back("join(map(\\(r: i64) => iota(" + Rep + "), iota(" +
                         indexText(N.TripCounts[0]) + ")))");
    OuterTypes.push_back("i64");
  }
  std::string Body;
  // 3-D maps: the zips and element types of the rows (r) and elements (t).
  std::vector<std::string> MidComps, MidTypes, ElemComps, ElemTypes;
  if (ThreeD) {
    // Levels 1 (rows r of a plane p) and 2 (elements t of a row r): input
    // I is component I of the level above; the level above's index (its
    // iota's component) is its loop's induction variable; an iota over
    // this level's loop when the slice reads its index (or the zip would
    // be empty).
    std::vector<std::string> *Comps[3] = {&OuterComps, &MidComps, &ElemComps};
    std::vector<std::string> *Types[3] = {&OuterTypes, &MidTypes, &ElemTypes};
    std::vector<Value *> *Recorded[2] = {&Out.OuterInputs, &Out.MiddleInputs};
    const char *Names[3] = {"p", "r", "t"};
    int Iota = OuterIota;
    for (unsigned L = 1; L < 3; ++L) {
      size_t Above = Comps[L - 1]->size();
      for (size_t I = 0; I < Inputs.size(); ++I) {
        std::string T = typeText(Inputs[I]->ElemTy);
        Comps[L]->push_back(component(Names[L - 1], I, Above));
        Types[L]->push_back(L == 1 ? "[" + T + "]_" + lengthText(Order[2]) : T);
        Recorded[L - 1]->push_back(nullptr);
      }
      if (Iota >= 0) {
        IVAccessor[Order[L - 1]] = component(Names[L - 1], Iota, Above);
        Recorded[L - 1]->push_back(N.IVs[Order[L - 1]]);
      }
      Iota = -1;
      if (UsesIV[Order[L]] || Comps[L]->empty()) {
        Iota = Comps[L]->size();
        Comps[L]->push_back("iota(" + indexText(N.TripCounts[Order[L]]) + ")");
        Types[L]->push_back("i64");
      }
    }
    for (size_t I = 0; I < Inputs.size(); ++I) {
      InputAccessor[Inputs[I]->Inst] = component("t", I, ElemComps.size());
      Out.InnerInputs.push_back(Inputs[I]->Inst);
    }
    if (Iota >= 0) {
      IVAccessor[Order[2]] = component("t", Iota, ElemComps.size());
      Out.InnerInputs.push_back(N.IVs[Order[2]]);
    }
  } else if (!TwoD) {
    for (size_t I = 0; I < Inputs.size(); ++I) {
      InputAccessor[Inputs[I]->Inst] = component("t", I, OuterComps.size());
      Out.InnerInputs.push_back(Inputs[I]->Inst);
    }
    if (OuterIota >= 0) {
      IVAccessor[0] = component("t", OuterIota, OuterComps.size());
      Out.InnerInputs.push_back(N.IVs[0]);
    }
    if (SlotIota >= 0) {
      Hist.Slot = component("t", SlotIota, OuterComps.size());
      Out.UpdateSlot = Out.InnerInputs.size();
      Out.InnerInputs.push_back(nullptr);
    }
    for (unsigned D = 0; D < 3; ++D)
      if (FlatIota[D] >= 0) {
        IVAccessor[D] = component("t", FlatIota[D], OuterComps.size());
        Out.InnerInputs.push_back(N.IVs[D]);
      }
    if (N.Skew)
      Hist.Mask = "icmp_sge(" + IVAccessor[1] + ", mul(" + IVAccessor[0] + ", " +
                  std::to_string(N.Skew) + ":i64))";
  } else {
    std::vector<std::string> InnerComps, InnerTypes;
    for (size_t I = 0; I < Inputs.size(); ++I) {
      InnerComps.push_back(component("r", I, OuterComps.size()));
      InnerTypes.push_back(typeText(Inputs[I]->ElemTy));
      Out.OuterInputs.push_back(nullptr);
    }
    if (OuterIota >= 0) {
      IVAccessor[0] = component("r", OuterIota, OuterComps.size());
      Out.OuterInputs.push_back(N.IVs[0]);
    }
    int InnerIota = -1;
    if (UsesIV[1] || InnerComps.empty()) {
      InnerIota = InnerComps.size();
      InnerComps.push_back("iota(" + indexText(N.TripCounts[1]) + ")");
      InnerTypes.push_back("i64");
    }
    for (size_t I = 0; I < Inputs.size(); ++I) {
      InputAccessor[Inputs[I]->Inst] = component("t", I, InnerComps.size());
      Out.InnerInputs.push_back(Inputs[I]->Inst);
    }
    if (InnerIota >= 0) {
      IVAccessor[1] = component("t", InnerIota, InnerComps.size());
      Out.InnerInputs.push_back(N.IVs[1]);
    }
    Body = zipOf(InnerComps) + "|" + tupleOf(InnerTypes);
  }

  std::vector<std::pair<std::string, std::string>> GatherIndices = gatherAccessors();
  if (failed())
    return false;
  std::string Stmt;
  if (M.Kind == IdiomKind::Map) {
    std::vector<std::string> Vals, Views;
    for (size_t I = 0; I < Stores.size(); ++I) {
      Vals.push_back(expr(Roots[I]));
      Views.push_back(viewText(*Stores[I]));
    }
    if (failed())
      return false;
    std::string F = tupleOf(Vals);
    std::string Map;
    if (ThreeD) {
      Map = "map(\\(p: " + tupleOf(OuterTypes) + ") => map(\\(r: " + tupleOf(MidTypes) +
            ") => map(\\(t: " + tupleOf(ElemTypes) + ") => " + F + ", " +
            zipOf(ElemComps) + "), " + zipOf(MidComps) + "), " + zipOf(OuterComps) + ")";
    } else if (!TwoD) {
      Map = "map(\\(t: " + tupleOf(OuterTypes) + ") => " + F + ", " +
            zipOf(OuterComps) + ")";
    } else {
      size_t Bar = Body.find('|');
      std::string InnerZip = Body.substr(0, Bar), InnerTy = Body.substr(Bar + 1);
      Map = "map(\\(r: " + tupleOf(OuterTypes) + ") => map(\\(t: " + InnerTy +
            ") => " + F + ", " + InnerZip + "), " + zipOf(OuterComps) + ")";
    }
    Stmt = "store " + tupleOf(Views) + " = " + Map + ";";
    if (!buildErrnoCheck(Name, "t: " + tupleOf(OuterTypes), zipOf(OuterComps)) ||
        !buildExtentCheck(Name, "t: " + tupleOf(OuterTypes), zipOf(OuterComps),
                          GatherIndices))
      return false;
  } else if (M.Kind == IdiomKind::Histogram) {
    Stmt = histogramStatement(
        Hist, BinsName, "t: " + tupleOf(OuterTypes), zipOf(OuterComps),
        [&](Value *V) { return expr(V); }, [&](Value *V, const std::string &T) { Memo[V] = T; });
    if (failed() ||
        !buildErrnoCheck(Name, "t: " + tupleOf(OuterTypes), zipOf(OuterComps)))
      return false;
    if (Hist.RunTime) {
      auto E = [&](Value *V) { return expr(V); };
      std::string Idx = histogramIndexText(Hist, E);
      std::string Cond = histogramAccessCondition(Hist, E);
      if (failed() || !buildExtentCheck(Name, "t: " + tupleOf(OuterTypes),
                                        zipOf(OuterComps), {{Idx, Cond}}))
        return false;
    }
  } else {
    std::vector<std::string> Elems, Ids, Tys, Combine;
    size_t K = M.Reductions.size();
    for (size_t I = 0; I < K; ++I) {
      const ReductionInfo &R = M.Reductions[I];
      std::string Op = reductionOpName(R.Op);
      std::string Ty = typeText(R.Phi->getType());
      bool Arg = R.Op == ReductionOp::ArgIndex;
      std::string Id = literalText(Arg ? argIndexSentinel(R)
                                       : reductionIdentity(R.Op, R.Phi->getType()));
      std::string E;
      for (size_t J = 0; J < R.Operands.size(); ++J) {
        std::string X = expr(R.Operands[J]);
        if (Value *Y = R.MulPartners[J])
          X = "fmul(" + X + ", " + expr(Y) + ")";
        E = E.empty() ? X : Op + "(" + E + ", " + X + ")";
      }
      if (R.Cond)
        E = R.CondNegated ? "select(" + expr(R.Cond) + ", " + Id + ", " + E + ")"
                          : "select(" + expr(R.Cond) + ", " + E + ", " + Id + ")";
      Elems.push_back(E);
      Ids.push_back(Id);
      Tys.push_back(Ty);
      Combine.push_back(Arg ? std::string() // below, with its value
                            : combineText(R, component("a", I, K),
                                          component("b", I, K)));
    }
    // argmin/argmax: each (value J, index I) pair is one lexicographic
    // reduction. An element is the loop's own step applied to the identity
    // pair, so a NaN (never chosen by an ordered compare) becomes the
    // identity; the index combine takes the index of the strictly better
    // value, and on equal values the first (or, for <= and >=, the last)
    // index, so that any order of evaluation gives the loop's choice.
    for (size_t I = 0; I < K; ++I) {
      const ReductionInfo &R = M.Reductions[I];
      if (R.Op != ReductionOp::ArgIndex)
        continue;
      size_t J = 0;
      while (J < K && M.Reductions[J].Phi != R.ArgOf)
        ++J;
      if (J == K) {
        Why = "argmin/argmax index without its min/max accumulator";
        return false;
      }
      const ReductionInfo &V = M.Reductions[J];
      std::string XV = expr(V.Operands.front()), XI = expr(R.Operands.front());
      Ids[I] = literalText(argIndexSentinel(R));
      Elems[J] = substitutedText({{V.Phi, Ids[J]}, {V.Operands.front(), XV}},
                                 V.FirstLink);
      Elems[I] = substitutedText({{V.Phi, Ids[J]},
                                  {V.Operands.front(), XV},
                                  {R.Phi, Ids[I]},
                                  {R.Operands.front(), XI}},
                                 R.FirstLink);
      const char *Lt = nullptr;
      switch (V.Op) {
      case ReductionOp::SMin: Lt = "icmp_slt"; break;
      case ReductionOp::SMax: Lt = "icmp_sgt"; break;
      case ReductionOp::UMin: Lt = "icmp_ult"; break;
      case ReductionOp::UMax: Lt = "icmp_ugt"; break;
      case ReductionOp::FMin: Lt = "fcmp_olt"; break;
      case ReductionOp::FMax: Lt = "fcmp_ogt"; break;
      default:
        Why = "argmin/argmax index tied to a " + std::string(reductionOpName(V.Op)) +
              " reduction";
        return false;
      }
      std::string AV = component("a", J, K), BV = component("b", J, K);
      std::string AI = component("a", I, K), BI = component("b", I, K);
      Combine[I] = "select(" + std::string(Lt) + "(" + BV + ", " + AV + "), " + BI +
                   ", select(" + Lt + "(" + AV + ", " + BV + "), " + AI + ", " +
                   (R.ArgLast ? "smax(" : "smin(") + AI + ", " + BI + ")))";
    }
    if (failed())
      return false;
    std::string AccTy = tupleOf(Tys);
    Stmt = "return reduce(\\(a: " + AccTy + ", b: " + AccTy + ") => " +
           tupleOf(Combine) + ", " + tupleOf(Ids) + ", map(\\(t: " +
           tupleOf(OuterTypes) + ") => " + tupleOf(Elems) + ", " +
           zipOf(OuterComps) + "));";
    if (!buildErrnoCheck(Name, "t: " + tupleOf(OuterTypes), zipOf(OuterComps)) ||
        !buildExtentCheck(Name, "t: " + tupleOf(OuterTypes), zipOf(OuterComps),
                          GatherIndices))
      return false;
  }

  if (M.Kind == IdiomKind::Map)
    markInPlaceInputs();
  std::vector<unsigned> All(Out.Params.size());
  for (unsigned I = 0; I < All.size(); ++I)
    All[I] = I;
  Out.FunIL = "idiom " + Name + "(" + paramList(All) + ") {\n  " + Stmt + "\n}\n";
  return true;
}

void Lifter::markInPlaceInputs() {
  auto SameIndex = [&](const AffineAccess &A, const AffineAccess &B) {
    if (A.ElemTy != B.ElemTy ||
        SE.getTruncateOrSignExtend(A.Offset, I64) !=
            SE.getTruncateOrSignExtend(B.Offset, I64))
      return false;
    for (unsigned D = 0; D < A.Strides.size(); ++D)
      if (SE.getTruncateOrSignExtend(A.Strides[D], I64) !=
          SE.getTruncateOrSignExtend(B.Strides[D], I64))
        return false;
    return A.Strides.size() == B.Strides.size();
  };
  for (LiftedParam &P : Out.Params) {
    if (P.K != LiftedParam::Kind::Buffer || !P.Read || P.Written)
      continue;
    for (const LiftedParam &Q : Out.Params) {
      if (Q.K != LiftedParam::Kind::Buffer || !Q.Written || Q.Base == P.Base)
        continue;
      // Every load of P reads the element every store of Q writes, in the
      // same block, before each of those stores.
      bool Ok = true, AnyStore = false;
      for (const AffineAccess *L : AccessesOf[P.Base])
        for (const AffineAccess *S : AccessesOf[Q.Base]) {
          if (!S->IsStore)
            continue;
          AnyStore = true;
          Ok &= !L->IsStore && SameIndex(*L, *S) &&
                L->Inst->getParent() == S->Inst->getParent() &&
                L->Inst->comesBefore(S->Inst);
        }
      if (Ok && AnyStore && !AccessesOf[P.Base].empty()) {
        P.InPlace = true;
        break;
      }
    }
  }
}

} // namespace

std::string funilParamList(ArrayRef<LiftedParam> Params) {
  std::string List;
  for (const LiftedParam &P : Params) {
    List += List.empty() ? "" : ", ";
    switch (P.K) {
    case LiftedParam::Kind::Buffer:
      List += P.Name + ": [" + typeText(P.ElemTy) + "]";
      break;
    case LiftedParam::Kind::Index:
      List += P.Name + ": i64";
      break;
    case LiftedParam::Kind::Scalar: {
      Type *T = P.V->getType();
      bool Narrow = T->isIntegerTy(1) || T->isIntegerTy(8) || T->isIntegerTy(16);
      List += P.Name + ": " + (Narrow ? std::string("i32") : typeText(T));
      break;
    }
    }
  }
  return List;
}

bool liftsFlattened(const IdiomMatch &M) {
  return (M.Nest.depth() == 2 || M.Nest.depth() == 3) &&
         (M.Kind == IdiomKind::ScalarReduction ||
          (M.Kind == IdiomKind::Histogram && M.Nest.Skew && M.Nest.depth() == 2));
}

std::string funilTypeText(Type *T) { return typeText(T); }
std::string funilLiteralText(Constant *C) { return literalText(C); }

static cl::opt<bool> LiftHostContractions(
    "idiom-test-lift-contractions", cl::Hidden, cl::init(false),
    cl::desc("Testing only: lift loops whose fmul and fadd the host's back end "
             "may contract into one fma (-ffp-contract=fast) as two roundings, "
             "so that translation validation must reject them"));

bool liftToFunIL(const IdiomMatch &M, const std::string &Name,
                 ScalarEvolution &SE, LiftedIdiom &Out, std::string &Why) {
  Out = LiftedIdiom();
  Why.clear();
  bool Ok;
  if (M.Kind == IdiomKind::Gemm)
    Ok = liftGemm(M, Name, SE, Out, Why);
  else if (M.Kind == IdiomKind::Accumulation)
    Ok = liftAccumulation(M, Name, SE, Out, Why);
  else if (M.Kind == IdiomKind::Spmv)
    Ok = liftSpmv(M, Name, SE, Out, Why);
  else
    Ok = Lifter(M, SE, Out, Why).run(Name);
  // Every lifter evaluates fmul and fadd apart, as the IR writes them; where
  // the host's back end may fuse them (-ffp-contract=fast on an FMA target,
  // HostFloat.h) the kernel would not print the sequential build's digits.
  // Only the GEMM's floating-point licence covers that (its bound, and its
  // own check of the slices: SliceExprRules::RefuseHostContraction).
  // The reassociation licence covers a float sum's fusion of its term's
  // product into the accumulator's add (sumContractions).
  SmallPtrSet<const Instruction *, 4> SumLinks;
  sumContractions(M, SumLinks);
  if (Ok && !M.FPContract && !LiftHostContractions && !M.Nest.Loops.empty())
    if (hostContractionIn(*M.Nest.Loops.front(), &SumLinks)) {
      Why = std::string("the loop body ") + HostContractionWhy;
      Out = LiftedIdiom();
      Ok = false;
    }
  // What the dependence proof assumed is checked at run time.
  if (Ok)
    Out.NonNegative.append(M.Assumed.begin(), M.Assumed.end());
  return Ok;
}

} // namespace idiom
