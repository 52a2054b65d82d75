//===- HistogramLifting.cpp - Lift a histogram into FunIL -----------------===//

#include "HistogramLifting.h"
#include "HostFloat.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace idiom {
namespace {

constexpr uint64_t MaxBins = MaxHistogramBins;

/// The number of elements of \p ElemTy from \p Base to the end of the object
/// it points into (a global, a stack array, or an allocation of constant
/// size such as `malloc(1024)`, through llvm::getObjectSize), or 0 when that
/// is not known. The runtime copies the whole bins range in and out, so a
/// range must never reach past the object, whatever the index's range says.
uint64_t arrayCount(Value *Base, Type *ElemTy, const DataLayout &DL) {
  uint64_t Size = DL.getTypeAllocSize(ElemTy);
  if (!Size)
    return 0;
  uint64_t Bytes = 0;
  ObjectSizeOpts Opts;
  Opts.RoundToAlign = false;
  if (!getObjectSize(Base, Bytes, DL, /*TLI=*/nullptr, Opts))
    return 0;
  return Bytes / Size;
}

/// The loads a slice from \p Root reads inside the loop. A bisection
/// search's result is followed into the search (its key), whose own
/// boundary read is the search lifting's (SearchLifting.h).
void loadsOf(Value *Root, const NestInfo &N, SmallPtrSetImpl<LoadInst *> &Out) {
  SmallVector<Value *, 16> Work{Root};
  SmallPtrSet<Value *, 32> Seen;
  auto InSearch = [&](const Instruction *I) {
    return any_of(N.Searches, [&](Loop *S) { return S->contains(I); });
  };
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !N.contains(I) || !Seen.insert(I).second)
      continue;
    if (auto *P = dyn_cast<PHINode>(I)) {
      bool LcssaOfSearch = P->getNumIncomingValues() == 1 &&
                           isa<Instruction>(P->getIncomingValue(0)) &&
                           InSearch(cast<Instruction>(P->getIncomingValue(0)));
      if (isNestSearchResult(P, N) || LcssaOfSearch)
        for (Value *In : P->incoming_values())
          Work.push_back(In);
      continue;
    }
    if (isa<LoadInst>(I) && InSearch(I))
      continue;
    if (auto *L = dyn_cast<LoadInst>(I)) {
      Out.insert(L);
      continue;
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
}

/// The proven range of integer \p V, read as signed: through zext/sext from
/// narrower values (the range of `zext(k % 100)` is that of `k % 100`,
/// unsigned), else what ValueTracking (and/urem/udiv/shifts by constants,
/// min/max, selects) and SCEV know.
ConstantRange indexRange(Value *V, ScalarEvolution &SE) {
  unsigned W = V->getType()->getIntegerBitWidth();
  if (auto *Z = dyn_cast<ZExtInst>(V))
    return computeConstantRange(Z->getOperand(0), /*ForSigned=*/false)
        .intersectWith(SE.getUnsignedRange(SE.getSCEV(Z->getOperand(0))))
        .zeroExtend(W);
  if (auto *S = dyn_cast<SExtInst>(V))
    return indexRange(S->getOperand(0), SE).signExtend(W);
  return computeConstantRange(V, /*ForSigned=*/true)
      .intersectWith(SE.getSignedRange(SE.getSCEV(V)));
}

} // namespace

Value *binIndexOf(const BinUpdateInfo &U) {
  auto *GEP = dyn_cast<GetElementPtrInst>(U.Store->getPointerOperand());
  if (!GEP || GEP->getPointerOperand() != U.Base)
    return nullptr;
  Type *Src = GEP->getSourceElementType();
  if (GEP->getNumIndices() == 1 && Src == U.ElemTy)
    return GEP->getOperand(1);
  if (GEP->getNumIndices() == 2 && isa<ArrayType>(Src) &&
      cast<ArrayType>(Src)->getElementType() == U.ElemTy)
    if (auto *Z = dyn_cast<ConstantInt>(GEP->getOperand(1)); Z && Z->isZero())
      return GEP->getOperand(2);
  return nullptr;
}

bool prepareHistogramLift(const IdiomMatch &M, ScalarEvolution &SE, HistogramLift &Out,
                          std::vector<Value *> &Roots, std::string &Why) {
  if (M.Nest.depth() != 1 && !M.Nest.Skew) {
    Why = "histograms are lifted from nests of depth 1 only (this nest has depth " +
          std::to_string(M.Nest.depth()) + ")";
    return false;
  }
  const HistogramUpdate &H = M.Histograms.front();
  const BinUpdateInfo &U = H.U;
  // Several updates: of one bins array with one operator (a scatter over a
  // neighbourhood), in a single loop; one reduceIndexed over (i, k).
  for (size_t K = 1; K < M.Histograms.size(); ++K) {
    const HistogramUpdate &O = M.Histograms[K];
    if (O.U.Base != U.Base || O.Op.Op != H.Op.Op || O.Op.Saturating != H.Op.Saturating ||
        O.U.ElemTy != U.ElemTy || M.Nest.depth() != 1) {
      Why = "the loop makes " + std::to_string(M.Histograms.size()) +
            " bin updates per iteration; one reduceIndexed lifts one (several "
            "histograms in one loop are not offloaded)";
      if (O.U.Base == U.Base && M.Nest.depth() != 1)
        Why = "several updates of one bins array are lifted in single loops only";
      return false;
    }
    if (O.U.Form != UpdateForm::Bin || !isa<LoadInst>(O.U.Acc) || !binIndexOf(O.U) ||
        !binIndexOf(O.U)->getType()->isIntegerTy()) {
      Why = "the update is not a read-modify-write of bins[index]";
      return false;
    }
    Out.More.push_back(&O);
    Out.MoreIndices.push_back(binIndexOf(O.U));
  }
  if (U.Form != UpdateForm::Bin || !isa<LoadInst>(U.Acc)) {
    Why = "the update is not a read-modify-write of bins[index]";
    return false;
  }
  if (H.Op.Op == ReductionOp::Other) {
    Why = "the update operator has no FunIL form";
    return false;
  }
  if (funilTypeText(U.ElemTy).empty() || U.ElemTy->isIntegerTy(1)) {
    Why = "bins of a type the lifter cannot express";
    return false;
  }
  Value *Idx = binIndexOf(U);
  if (!Idx || !Idx->getType()->isIntegerTy()) {
    Why = "the bin address is not bins[index] of the bins array";
    return false;
  }
  // Every load of the index and value slices is an affine input (the bin
  // read aside): bins[lut[x[i]]] is not lifted.
  SmallPtrSet<LoadInst *, 8> Loads;
  SmallPtrSet<Value *, 8> Accs{U.Acc};
  loadsOf(Idx, M.Nest, Loads);
  for (size_t K = 0; K <= Out.More.size(); ++K) {
    const BinUpdateInfo &V = K ? Out.More[K - 1]->U : U;
    if (K)
      loadsOf(Out.MoreIndices[K - 1], M.Nest, Loads);
    Accs.insert(V.Acc);
    loadsOf(V.NewValue, M.Nest, Loads);
    for (const UpdateGuard &G : V.Guards)
      loadsOf(G.Cond, M.Nest, Loads);
  }
  for (LoadInst *L : Loads) {
    if (Accs.count(L))
      continue;
    bool Affine = false;
    for (const AffineAccess &A : M.Accesses)
      Affine |= A.Inst == L;
    if (!Affine) {
      Why = "the bin index or value reads an array at a computed position "
            "(e.g. bins[lut[x[i]]]); only affine input reads are lifted";
      return false;
    }
  }

  // The bins: [0, m) with m from the index's proven range, else from the
  // array's type.
  const DataLayout &DL = U.Store->getModule()->getDataLayout();
  uint64_t FromArray = arrayCount(U.Base, U.ElemTy, DL);
  ConstantRange R = indexRange(Idx, SE);
  uint64_t FromIndex = 0;
  if (!R.isFullSet() && !R.isEmptySet() && R.getSignedMin().isNonNegative() &&
      R.getSignedMax().ult(MaxBins))
    FromIndex = R.getSignedMax().getZExtValue() + 1;
  if (!Out.More.empty())
    FromIndex = 0; // one count for every update: the array's
  if (!FromArray) {
    // The bins are a pointer into an object of unknown size: a range from
    // the index's type could reach past the object, so the range is the
    // one the loop touches, computed at run time (RunTimeExtent).
    Out.RunTime = true;
    Out.CountFrom = "run time";
  } else if (FromIndex && FromIndex <= FromArray) {
    Out.NumBins = FromIndex;
    Out.CountFrom = "index range";
  } else if (FromArray <= MaxBins) {
    Out.NumBins = FromArray;
    Out.CountFrom = "array type";
  } else {
    Why = "the bins' object holds more than 2^24 elements and the index's "
          "range is not proven to be smaller";
    return false;
  }
  Out.H = &H;
  Out.Index = Idx;
  Roots.push_back(Idx);
  for (size_t K = 0; K <= Out.More.size(); ++K) {
    const BinUpdateInfo &V = K ? Out.More[K - 1]->U : U;
    if (K)
      Roots.push_back(Out.MoreIndices[K - 1]);
    Roots.push_back(V.NewValue);
    for (const UpdateGuard &G : V.Guards)
      Roots.push_back(G.Cond);
  }
  return true;
}

/// `select(icmp_eq(Slot, 0), X0, select(icmp_eq(Slot, 1), X1, ... Xn))`.
static std::string chainText(const std::string &Slot, const std::vector<std::string> &Xs) {
  std::string S = Xs.back();
  for (size_t K = Xs.size() - 1; K-- > 0;)
    S = "select(icmp_eq(" + Slot + ", " + std::to_string(K) + ":i64), " + Xs[K] + ", " + S + ")";
  return S;
}

LiftedParam histogramBinsParam(const HistogramLift &H, const std::vector<LiftedParam> &Params,
                               ScalarEvolution &SE) {
  LiftedParam P = newBufferParam(Params, H.H->U.Base, H.H->U.ElemTy);
  Type *I64 = Type::getInt64Ty(P.ElemTy->getContext());
  P.Read = P.Written = true;
  if (H.RunTime) {
    P.RtLo = P.RtHi = RunTimeValue::Extent;
    return P;
  }
  P.Lo = SE.getZero(I64);
  P.Hi = SE.getConstant(I64, H.NumBins);
  return P;
}

std::string histogramStatement(const HistogramLift &H, const std::string &Bins,
                               const std::string &Lambda, const std::string &Zip,
                               const std::function<std::string(Value *)> &Expr,
                               const std::function<void(Value *, const std::string &)> &Preset) {
  const BinUpdateInfo &U = H.H->U;
  std::string T = funilTypeText(U.ElemTy);
  std::string Z = funilLiteralText(reductionIdentity(H.H->Op.Op, U.ElemTy));
  std::string OpName = reductionOpName(H.H->Op.Op);
  std::string Op = H.H->Op.Saturating ? "select(icmp_ult(add(a, b), a), -1:" + T + ", add(a, b))"
                                      : OpName + "(a, b)";
  // The index first: it does not read the bin.
  std::string Idx = histogramIndexText(H, Expr, H.RunTime ? H.FirstName : "");
  // The value of each update: x when F is `bin op x` itself, else F with
  // the bin read as the identity (guards give the identity when they fail).
  // The first update's operand order is the operator's; an update with the
  // other order takes the general form.
  int FirstK = -1;
  std::vector<std::string> Vals;
  for (size_t N = 0; N <= H.More.size(); ++N) {
    const HistogramUpdate &HU = N ? *H.More[N - 1] : *H.H;
    const BinUpdateInfo &V = HU.U;
    std::string Val;
    // `bin += x * y` contracted to llvm.fmuladd(x, y, bin), which the host
    // evaluates unfused (HostFloat.h): the value is fmul(x, y), added to the
    // bin by the operator as the host adds it.
    auto *MA = dyn_cast<IntrinsicInst>(V.NewValue);
    if (MA && MA->getIntrinsicID() == Intrinsic::fmuladd && MA->getArgOperand(2) == V.Acc &&
        MA->getArgOperand(0) != V.Acc && MA->getArgOperand(1) != V.Acc &&
        H.H->Op.Op == ReductionOp::FAdd && (FirstK < 0 || FirstK == 0) &&
        hostMulAdd(*MA->getFunction()) == HostMulAdd::Unfused) {
      Val = "fmul(" + Expr(MA->getArgOperand(0)) + ", " + Expr(MA->getArgOperand(1)) + ")";
      FirstK = 0;
    }
    auto *BO = dyn_cast<BinaryOperator>(V.NewValue);
    if (BO && !H.H->Op.Saturating && BO->getOpcodeName() == OpName)
      for (int K = 0; K < 2 && Val.empty(); ++K)
        if (BO->getOperand(K) == V.Acc && BO->getOperand(1 - K) != V.Acc &&
            (K == 1 || BO->isCommutative()) && (FirstK < 0 || FirstK == K)) {
          Val = Expr(BO->getOperand(1 - K));
          FirstK = K;
        }
    if (N == 0 && FirstK == 1) // keep the slice's operand order (Z3 need not prove fadd commutes)
      Op = OpName + "(b, a)";
    if (N == 0 && FirstK < 0)
      FirstK = 2; // the general form for every update
    Preset(V.Acc, Z);
    if (Val.empty())
      Val = Expr(V.NewValue);
    std::string Cond = N == 0 ? H.Mask : "";
    for (const UpdateGuard &G : V.Guards) {
      std::string C = Expr(G.Cond);
      if (!G.ExpectTrue)
        C = "not(" + C + ")";
      Cond = Cond.empty() ? C : "and(" + Cond + ", " + C + ")";
    }
    if (!Cond.empty())
      Val = "select(" + Cond + ", " + Val + ", " + Z + ")";
    Vals.push_back(Val);
  }
  std::string Val = H.More.empty() ? Vals[0] : chainText(H.Slot, Vals);
  std::string Count = std::to_string(H.NumBins) + ":i64";
  if (H.RunTime) {
    unsigned Bytes = U.ElemTy->getPrimitiveSizeInBits() / 8;
    Count = Bytes >= 4 ? H.CountName
                       : "mul(" + H.CountName + ", " + std::to_string(4 / Bytes) + ":i64)";
  }
  std::string View = "view(" + Bins + ", 0:i64, 1:i64, " + Count + ")";
  return "store " + View + " = reduceIndexed(\\(a: " + T + ", b: " + T + ") => " + Op + ", " +
         View + ", \\(" + Lambda + ") => (" + Idx + ", " + Val + "), " + Zip + ");";
}

std::string histogramIndexText(const HistogramLift &H,
                               const std::function<std::string(Value *)> &Expr,
                               const std::string &First) {
  std::vector<std::string> Idx;
  for (size_t N = 0; N <= H.More.size(); ++N) {
    Value *V = N ? H.MoreIndices[N - 1] : H.Index;
    std::string X = Expr(V);
    if (!V->getType()->isIntegerTy(64))
      X = "sext.i64(" + X + ")"; // GEP indices are sign-extended
    Idx.push_back(First.empty() ? X : "sub(" + X + ", " + First + ")");
  }
  return H.More.empty() ? Idx[0] : chainText(H.Slot, Idx);
}

std::string histogramAccessCondition(const HistogramLift &H,
                                     const std::function<std::string(Value *)> &Expr) {
  std::vector<std::string> Conds;
  bool Any = false;
  for (size_t N = 0; N <= H.More.size(); ++N) {
    const BinUpdateInfo &U = N ? H.More[N - 1]->U : H.H->U;
    std::string Cond = N == 0 ? H.Mask : "";
    for (const UpdateGuard &G : U.Guards) {
      if (G.DependsOnAcc)
        continue;
      std::string C = Expr(G.Cond);
      if (!G.ExpectTrue)
        C = "not(" + C + ")";
      Cond = Cond.empty() ? C : "and(" + Cond + ", " + C + ")";
    }
    Any |= !Cond.empty();
    Conds.push_back(Cond.empty() ? "icmp_eq(0:i64, 0:i64)" : Cond);
  }
  if (!Any)
    return "";
  return H.More.empty() ? Conds[0] : chainText(H.Slot, Conds);
}

} // namespace idiom
