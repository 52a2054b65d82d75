//===- ValidationSlice.cpp - The validator's LLVM side --------------------===//
//
// Part of Idiom (TranslationValidationImpl.h). The LLVM side of
// translation validation: the slice's instructions translated to terms by
// opcode (memoised per value), reduction identities, and the FunIL
// parameters bound to the loop-invariant values they stand for.
//
//===----------------------------------------------------------------------===//

#include "TranslationValidationImpl.h"
#include "lift/HostFloat.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace idiom::tv {

template <class TB>
auto Validator<TB>::identityTerm(const ReductionInfo &R) -> TermT {
  Constant *Id = R.Op == ReductionOp::ArgIndex
                    ? argIndexSentinel(R)
                    : reductionIdentity(R.Op, R.Phi->getType());
  if (!Id)
    throw Unsupported{"reduction without identity"};
  return tr(Id);
}

template <class TB> auto Validator<TB>::tr(Value *V) -> TermT {
  auto It = Memo.find(V);
  if (It != Memo.end())
    return It->second;
  std::optional<TermT> R;
  auto *I = dyn_cast<Instruction>(V);
  if (auto *CI = dyn_cast<ConstantInt>(V)) {
    if (CI->getBitWidth() > 64)
      throw Unsupported{"integer constant wider than 64 bits"};
    R = CI->getBitWidth() == 1 ? C.bool_val(CI->isOne())
                               : C.bv_val(CI->getZExtValue(), CI->getBitWidth());
  } else if (auto *CF = dyn_cast<ConstantFP>(V)) {
    R = CF->getType()->isFloatTy() ? C.fpa_val(CF->getValueAPF().convertToFloat())
                                   : C.fpa_val(CF->getValueAPF().convertToDouble());
  } else if (!I || !M.Nest.contains(I)) {
    throw Unsupported{"loop-invariant value without a FunIL parameter"};
  } else if (auto *P = dyn_cast<PHINode>(I)) {
    for (size_t K = 0; K < M.Searches.size(); ++K)
      if (M.Searches[K].Result == P) // evalSearch's result symbols
        return searchLeaf(K, M.Searches[K].ResultPart == M.Searches[K].LowPart ? 0 : 1);
    unsigned D = 0;
    while (D < M.Nest.depth() && M.Nest.IVs[D] != P)
      ++D;
    // A second induction variable: Start + Step * k of its loop's k.
    std::optional<DerivedIV> DIV =
        D == M.Nest.depth() ? derivedIV(P, M.Nest) : std::nullopt;
    if (DIV)
      D = DIV->Loop;
    if (D == M.Nest.depth() || !Iter[D])
      throw Unsupported{"phi without an iteration index"};
    // IV = start + step * k, in the phi's width.
    // A constant, or the FunIL index parameter the lifter made of it.
    auto IndexTerm = [&](const SCEV *X, const char *What) -> TermT {
      if (auto *SC = dyn_cast<SCEVConstant>(X)) {
        if (SC->getAPInt().getSignificantBits() > 64)
          throw Unsupported{std::string(What) + " wider than 64 bits"};
        return C.bv_val((uint64_t)SC->getAPInt().getSExtValue(), 64);
      }
      std::optional<TermT> Found;
      for (const LiftedParam &LP : L.Params)
        if (LP.K == LiftedParam::Kind::Index && LP.S && Params.count(LP.Name) &&
            (LP.S == X || (isa<SCEVCastExpr>(LP.S) &&
                           cast<SCEVCastExpr>(LP.S)->getOperand(0) == X)))
          Found = Params.at(LP.Name);
      if (!Found)
        throw Unsupported{std::string(What) + " without a FunIL parameter"};
      return *Found;
    };
    TermT S = IndexTerm(DIV ? DIV->Start : M.Nest.IVStarts[D], "induction start");
    const SCEV *SymStep = DIV ? DIV->Step : M.Nest.symbolicStep(D); // j += 2 * s
    TermT Step = SymStep ? IndexTerm(SymStep, "induction step")
                         : C.bv_val((uint64_t)M.Nest.IVSteps[D], 64);
    TermT Full = S + *Iter[D] * Step;
    unsigned W = P->getType()->getIntegerBitWidth();
    if (W > 64)
      throw Unsupported{"induction variable wider than 64 bits"};
    R = W == 64 ? Full : Full.extract(W - 1, 0);
  } else if (isa<LoadInst>(I)) {
    for (const RunTimeExtent &X : L.Extents)
      if (X.GatherLoad == I)
        return gatherLeaf(I);
    throw Unsupported{"load that is not an input of the element function"};
  } else if (isa<FreezeInst>(I)) {
    R = tr(I->getOperand(0));
  } else if (auto *BO = dyn_cast<BinaryOperator>(I);
             BO && !M.FPContract && mayContractOnHost(*BO) &&
             !SumLinks.count(BO)) {
    // The host may fuse it with a multiply (-ffp-contract=fast): two
    // roundings here would prove an unfused program equal to a slice the
    // host evaluates fused. Only the GEMM's licence and a float sum's
    // (sumContractions: its accumulator's links) accept that.
    throw Unsupported{"the slice adds a product that the host's back end may "
                      "contract into one fma (-ffp-contract=fast), which the "
                      "lifted program does not mirror"};
  } else if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    R = apply(BO->getOpcodeName(), {tr(BO->getOperand(0)), tr(BO->getOperand(1))});
  } else if (isa<UnaryOperator>(I)) {
    R = -tr(I->getOperand(0));
  } else if (auto *Cmp = dyn_cast<CmpInst>(I)) {
    if (Cmp->getPredicate() == CmpInst::FCMP_TRUE || Cmp->getPredicate() == CmpInst::FCMP_FALSE)
      R = C.bool_val(Cmp->getPredicate() == CmpInst::FCMP_TRUE);
    else
      R = apply(std::string(isa<ICmpInst>(Cmp) ? "icmp_" : "fcmp_") +
                    CmpInst::getPredicateName(Cmp->getPredicate()).str(),
                {tr(Cmp->getOperand(0)), tr(Cmp->getOperand(1))});
  } else if (auto *Sel = dyn_cast<SelectInst>(I)) {
    R = TB::ite(tr(Sel->getCondition()), tr(Sel->getTrueValue()), tr(Sel->getFalseValue()));
  } else if (auto *Cs = dyn_cast<CastInst>(I)) {
    SortT To = sortOf(Cs->getType());
    R = convert(Cs->getOpcodeName(), tr(Cs->getOperand(0)), To, To.is_fpa());
  } else if (auto *CB = dyn_cast<CallInst>(I)) {
    std::string N;
    if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
      StringRef Base = Intrinsic::getBaseName(II->getIntrinsicID());
      N = Base.starts_with("llvm.") ? Base.drop_front(5).str() : Base.str();
      if (N == "minnum") N = "fmin";
      if (N == "maxnum") N = "fmax";
    } else if (Function *F = CB->getCalledFunction()) {
      N = F->getName().str();
      if (N.size() > 3 && N.back() == 'f') // sqrtf, fabsf, fminf
        N.pop_back();
    }
    std::vector<TermT> A;
    unsigned NArgs = N == "abs" ? 1 : CB->arg_size();
    for (unsigned K = 0; K < NArgs; ++K)
      A.push_back(tr(CB->getArgOperand(K)));
    // What the host's back end computes (lift/HostFloat.h), or, for a GEMM
    // under the floating-point licence (IdiomMatch::FPContract), the fused
    // evaluation LLVM's definition of llvm.fmuladd allows: the lifted
    // program must then compute exactly that.
    if (N == "fmuladd" &&
        (M.FPContract || hostMulAdd(*CB->getFunction()) == HostMulAdd::Fused))
      N = "fma";
    HostMinMax H = (N == "fmax" || N == "fmin") ? hostMinMax(*CB) : HostMinMax::Unknown;
    std::string Rel = N == "fmax" ? "fcmp_ogt" : "fcmp_olt";
    if (H == HostMinMax::Select)
      R = TB::ite(apply(Rel, {A[0], A[1]}), A[0], A[1]);
    else if (H == HostMinMax::Guarded)
      R = TB::ite(apply("fcmp_uno", {A[0], A[0]}), A[1],
                  TB::ite(apply(Rel, {A[1], A[0]}), A[1], A[0]));
    else
      R = apply(N, A);
  } else {
    throw Unsupported{"instruction the validator does not model"};
  }
  Memo.try_emplace(V, *R);
  return *R;
}

/// Binds every FunIL parameter to a symbol; loop-invariant LLVM values to
/// the same symbols.
template <class TB> void Validator<TB>::bindParams() {
  // Parameters: scalars are the loop-invariant values, index parameters i64.
  for (size_t I = 0; I < L.Params.size(); ++I) {
    const LiftedParam &LP = L.Params[I];
    if (LP.K == LiftedParam::Kind::Buffer)
      continue;
    if (LP.K == LiftedParam::Kind::Index) {
      Params.emplace(LP.Name, leaf(LP.Name, C.bv_sort(64)));
      continue;
    }
    Type *T = LP.V->getType();
    bool Narrow = T->isIntegerTy(1) || T->isIntegerTy(8) || T->isIntegerTy(16);
    TermT X = leaf(LP.Name, Narrow ? C.bv_sort(32) : sortOf(T));
    Params.emplace(LP.Name, X);
    // The call site passes narrow integers zero- (i1) or sign-extended.
    Memo.try_emplace(LP.V, T->isIntegerTy(1) ? X != C.bv_val(0, 32)
                       : Narrow          ? X.extract(T->getIntegerBitWidth() - 1, 0)
                                         : X);
  }
}

#define IDIOM_TV_SLICE(TB)                                                    \
  template Validator<TB>::TermT Validator<TB>::identityTerm(                   \
      const ReductionInfo &);                                                  \
  template Validator<TB>::TermT Validator<TB>::tr(Value *);                    \
  template void Validator<TB>::bindParams();
IDIOM_TV_INSTANTIATE(IDIOM_TV_SLICE)

} // namespace idiom::tv
