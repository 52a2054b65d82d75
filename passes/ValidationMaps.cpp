//===- ValidationMaps.cpp - Maps, histograms, reductions ------------------===//
//
// Part of Idiom (TranslationValidationImpl.h). Validator::run: the element
// function of a map (1-D to 3-D), a histogram (reduceIndexed) or a scalar
// reduction against each stored value or accumulator update of the slice.
//
//===----------------------------------------------------------------------===//

#include "TranslationValidationImpl.h"
#include "lift/HistogramLifting.h"
#include "lift/HostFloat.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace idiom::tv {

namespace {

/// The element lambda and the names bound around it, by template shape.
struct ElementFn {
  const Expr *Inner = nullptr;  ///< lambda over `t`
  const Expr *Outer = nullptr;  ///< 2-D: lambda over `r`; 3-D: over `p`
  const Expr *Middle = nullptr; ///< 3-D: lambda over `r`
};

/// \p Depth: 1 (a map or a reduction over one or a flattened 2-D space), 2
/// or 3 (a map with that many nested maps).
ElementFn findElementFn(const funil::Program &P, unsigned Depth) {
  ElementFn F;
  const Expr *Map = P.Body.get();
  if (Map->isCall("reduceIndexed") && Map->Args.size() == 4 &&
      Map->Args[2]->K == Expr::Lambda) { // histogram: \t => (index, value)
    F.Inner = Map->Args[2].get();
    return F;
  }
  if (P.IsReturn) {
    if (!Map->isCall("reduce") || Map->Args.size() != 3)
      throw Unsupported{"reduction program is not reduce(f, z, map(...))"};
    Map = Map->Args[2].get();
  }
  if (!Map->isCall("map") || Map->Args[0]->K != Expr::Lambda)
    throw Unsupported{"element function is not map(lambda, ...)"};
  if (Depth == 1) {
    F.Inner = Map->Args[0].get();
    return F;
  }
  F.Outer = Map->Args[0].get();
  if (Depth == 3) {
    const Expr *MidMap = F.Outer->body().get();
    if (!MidMap->isCall("map") || MidMap->Args[0]->K != Expr::Lambda)
      throw Unsupported{"3-D map body is not map(lambda, ...)"};
    F.Middle = MidMap->Args[0].get();
  }
  const Expr *InnerMap = (F.Middle ? F.Middle : F.Outer)->body().get();
  if (!InnerMap->isCall("map") || InnerMap->Args[0]->K != Expr::Lambda)
    throw Unsupported{"2-D map body is not map(lambda, ...)"};
  F.Inner = InnerMap->Args[0].get();
  return F;
}

} // namespace

/// Branch \p J of the lifter's select chain on the update number of a
/// histogram with \p K updates per iteration (HistogramLift::More):
/// `select(icmp_eq(T.S, 0:i64), X0, select(icmp_eq(T.S, 1:i64), X1, ...
/// Xlast))` with T.S component \p Slot of lambda parameter \p T. Where the
/// update number is J the chain is X_J, so checking X_J against update J
/// for every J checks the chain. Null when \p E has another shape.
static ExprPtr chainBranch(ExprPtr E, const std::string &T, int Slot, size_t J, size_t K) {
  for (size_t I = 0; I + 1 < K; ++I) {
    if (!E->isCall("select") || E->Args.size() != 3)
      return nullptr;
    const Expr &Cmp = *E->Args[0];
    if (!Cmp.isCall("icmp_eq") || Cmp.Args.size() != 2)
      return nullptr;
    const Expr &S = *Cmp.Args[0], &V = *Cmp.Args[1];
    if (S.K != Expr::Proj || (int)S.Index != Slot || S.Args[0]->K != Expr::Var ||
        S.Args[0]->Name != T || V.K != Expr::Lit || V.LitKind != funil::ScalarKind::I64 ||
        V.Bits != I)
      return nullptr;
    if (I == J)
      return E->Args[1];
    E = E->Args[2];
  }
  return E;
}

template <class TB>
bool Validator<TB>::run(const funil::Program &P, unsigned TimeoutMs, std::string &Why) {
  // A 2-D reduction's element function is 1-D: it maps the joined rows.
  // (and a triangle's histogram: the flattened rectangle).
  unsigned Depth = liftsFlattened(M) ? 1 : M.Nest.depth();
  ElementFn F = findElementFn(P, Depth);
  Iter.assign(M.Nest.depth(), std::nullopt);
  bindParams();
  std::optional<TermT> Slot; // a histogram's update number k
  // Lambda inputs: one symbol per loaded element and iteration index.
  auto Inputs = [&](const std::vector<Value *> &Vs, const char *Prefix) {
    Sym T;
    for (size_t I = 0; I < Vs.size(); ++I) {
      Sym S;
      if (Value *V = Vs[I]) {
        std::string Name = std::string(Prefix) + std::to_string(I);
        auto *Phi = dyn_cast<PHINode>(V);
        if (Phi && is_contained(M.Nest.IVs, Phi)) {
          S.E = leaf(Name, C.bv_sort(64));
          for (unsigned D = 0; D < M.Nest.depth(); ++D)
            if (M.Nest.IVs[D] == Phi)
              Iter[D] = S.E;
        } else {
          S.E = leaf(Name, sortOf(V->getType()));
          Memo.try_emplace(V, *S.E);
        }
      } else if (Prefix[0] == 't' && (int)I == L.UpdateSlot) {
        // The update number k of a histogram with several updates.
        S.E = leaf("slot", C.bv_sort(64));
        Slot = S.E;
      }
      T.Parts.push_back(S);
    }
    return T.Parts.size() == 1 ? T.Parts[0] : T;
  };
  std::map<std::string, Sym> Env;
  if (F.Outer)
    Env[F.Outer->Params.at(0).Name] = Inputs(L.OuterInputs, F.Middle ? "p" : "r");
  if (F.Middle)
    Env[F.Middle->Params.at(0).Name] = Inputs(L.MiddleInputs, "r");
  Env[F.Inner->Params.at(0).Name] = Inputs(L.InnerInputs, "t");
  Sym Got = eval(F.Inner->body(), Env);

  // What the LLVM slice computes for the same inputs.
  std::vector<TermT> Want;
  if (M.Kind == IdiomKind::Map) {
    for (const AffineAccess &A : M.Accesses)
      if (A.IsStore)
        Want.push_back(tr(cast<StoreInst>(A.Inst)->getValueOperand()));
  } else if (M.Kind == IdiomKind::Histogram) {
    Want.push_back(C.bool_val(true)); // replaced below
  } else {
    for (const ReductionInfo &R : M.Reductions) {
      std::optional<TermT> E;
      std::string Op = reductionOpName(R.Op);
      for (size_t J = 0; J < R.Operands.size(); ++J) {
        TermT X = tr(R.Operands[J]);
        if (Value *Y = R.MulPartners[J])
          X = X * tr(Y);
        E = E ? apply(Op, {*E, X}) : X;
      }
      if (R.Cond)
        E = R.CondNegated ? TB::ite(tr(R.Cond), identityTerm(R), *E)
                          : TB::ite(tr(R.Cond), *E, identityTerm(R));
      Want.push_back(*E);
    }
    // argmin/argmax: both elements are the loop's step from the identity
    // pair (the lifter's NaN and identity-value handling, Lifting.cpp).
    for (size_t I = 0; I < M.Reductions.size(); ++I) {
      const ReductionInfo &R = M.Reductions[I];
      if (R.Op != ReductionOp::ArgIndex)
        continue;
      size_t J = argValueOf(R);
      const ReductionInfo &V = M.Reductions[J];
      TermT XV = tr(V.Operands.front()), XI = tr(R.Operands.front());
      auto SavedMemo = Memo;
      forgetLink(V.FirstLink);
      forgetLink(R.FirstLink);
      Memo.insert_or_assign(V.Phi, identityTerm(V));
      Memo.insert_or_assign(V.Operands.front(), XV);
      Memo.insert_or_assign(R.Phi, identityTerm(R));
      Memo.insert_or_assign(R.Operands.front(), XI);
      Want[J] = tr(V.FirstLink);
      Want[I] = tr(R.FirstLink);
      Memo = SavedMemo;
    }
  }
  std::vector<Sym> GotParts = Want.size() == 1 ? std::vector<Sym>{Got} : Got.Parts;
  TermT Differ = C.bool_val(false);
  if (M.Kind == IdiomKind::Histogram) {
    // The index equals the GEP index (sign-extended); for every bin value b,
    // op(b, value) equals what the loop stores (b when a guard fails).
    if (M.Histograms.empty())
      throw Unsupported{"histogram without a bin update"};
    const BinUpdateInfo &U = M.Histograms.front().U;
    if (Got.Parts.size() != 2 || !Got.Parts[0].E || !Got.Parts[1].E)
      throw Unsupported{"histogram element function is not (index, value)"};
    // Several updates (HistogramLift::More): the element function at each
    // update number J (the slot a constant: the lifter's select chains
    // fold to update J's branch) against update J.
    size_t K = M.Histograms.size();
    if (K > 1 && (L.UpdateSlot < 0 || !Slot))
      throw Unsupported{"several bin updates without an update number"};
    const Expr *Op = P.Body->Args[0].get();
    if (Op->K != Expr::Lambda || Op->Params.size() != 2)
      throw Unsupported{"histogram operator is not a two-parameter lambda"};
    TermT B = leaf("bin", sortOf(U.ElemTy));
    for (size_t J = 0; J < K; ++J) {
      const BinUpdateInfo &V = M.Histograms[J].U;
      Sym GJ = Got;
      if (K > 1) {
        const ExprPtr &Body = F.Inner->body();
        if (Body->K != Expr::Tuple || Body->Args.size() != 2)
          throw Unsupported{"histogram element function is not (index, value)"};
        const std::string &T = F.Inner->Params.at(0).Name;
        ExprPtr IdxJ = chainBranch(Body->Args[0], T, L.UpdateSlot, J, K);
        ExprPtr ValJ = chainBranch(Body->Args[1], T, L.UpdateSlot, J, K);
        if (!IdxJ || !ValJ)
          throw Unsupported{"several bin updates not as select chains on the update number"};
        GJ.Parts = {eval(IdxJ, Env), eval(ValJ, Env)};
        if (!GJ.Parts[0].E || !GJ.Parts[1].E)
          throw Unsupported{"histogram element function is not (index, value)"};
      }
      // The index equals the GEP index (sign-extended).
      Value *Idx = binIndexOf(V);
      if (!Idx)
        throw Unsupported{"bin address is not bins[index]"};
      TermT WantIdx = tr(Idx);
      if (WantIdx.get_sort().bv_size() < 64)
        WantIdx = TB::sext(WantIdx, 64 - WantIdx.get_sort().bv_size());
      // Run-time bins: the bins buffer starts at bin lo (Lifting.h,
      // RunTimeExtent), so the program's index is the loop's minus lo.
      if (!L.Extents.empty()) {
        const LiftedParam &First = L.Params.at(L.Extents.front().FirstParam);
        auto It = Params.find(First.Name);
        if (It == Params.end())
          throw Unsupported{"run-time bins without their first-bin parameter"};
        WantIdx = WantIdx - It->second;
      }
      if (!TB::eq(GJ.Parts[0].E->get_sort(), WantIdx.get_sort())) {
        Why = "result 0 has another type than the slice";
        return false;
      }
      Differ = Differ || *GJ.Parts[0].E != WantIdx;
      // For every bin value b, op(b, value) equals what the loop stores
      // (b when a guard fails).
      Memo.insert_or_assign(V.Acc, B);
      auto OpOf = [&](const Sym &X) {
        std::map<std::string, Sym> OEnv;
        OEnv[Op->Params[0].Name] = Sym{B, {}};
        OEnv[Op->Params[1].Name] = X;
        Sym Upd = eval(Op->body(), OEnv);
        if (!Upd.E || !TB::eq(Upd.E->get_sort(), B.get_sort()))
          throw Unsupported{"histogram operator of another type than the bins"};
        return *Upd.E;
      };
      // The loop's update with the bin b. `b += x * y` contracted to an
      // llvm.fmuladd the host evaluates unfused (HostFloat.h) is
      // fadd(b, fmul(x, y)) as the lifter writes it: IEEE addition
      // commutes, and so both backends build the same term.
      auto UpdateOf = [&](const BinUpdateInfo &W) {
        auto *MA = dyn_cast<IntrinsicInst>(W.NewValue);
        if (MA && MA->getIntrinsicID() == Intrinsic::fmuladd && MA->getArgOperand(2) == W.Acc &&
            hostMulAdd(*MA->getFunction()) == HostMulAdd::Unfused)
          return apply("fadd", {B, apply("fmul", {tr(MA->getArgOperand(0)),
                                                  tr(MA->getArgOperand(1))})});
        return tr(W.NewValue);
      };
      // A guarded update lifted as select(COND, X, Z) where COND is the
      // loop's guards (the same term): op(b, X) equal to the update and
      // op(b, Z) = b suffice, so the solver never sees the guard (an FP
      // compare of products is slow to bit-blast).
      const ExprPtr &Body = F.Inner->body();
      ExprPtr ValE = K > 1 ? chainBranch(Body->Args.at(1), F.Inner->Params.at(0).Name,
                                         L.UpdateSlot, J, K)
                           : (Body->K == Expr::Tuple && Body->Args.size() == 2 ? Body->Args[1]
                                                                             : nullptr);
      if (ValE && ValE->isCall("select") && ValE->Args.size() == 3 && !V.Guards.empty() &&
          !M.Nest.Skew) {
        std::optional<TermT> WantCond;
        for (const UpdateGuard &G : V.Guards) {
          TermT X = G.ExpectTrue ? tr(G.Cond) : !tr(G.Cond);
          WantCond = WantCond ? (*WantCond && X) : X;
        }
        Sym GotCond = eval(ValE->Args[0], Env);
        if (GotCond.E && TB::same(*GotCond.E, *WantCond)) {
          Sym GotX = eval(ValE->Args[1], Env), GotZ = eval(ValE->Args[2], Env);
          if (!GotX.E || !GotZ.E)
            throw Unsupported{"histogram value is not a scalar"};
          Differ = Differ || OpOf(GotX) != UpdateOf(V) || OpOf(GotZ) != B;
          continue;
        }
      }
      TermT Stored = UpdateOf(V);
      for (const UpdateGuard &G : V.Guards)
        Stored = TB::ite(G.ExpectTrue ? tr(G.Cond) : !tr(G.Cond), Stored, B);
      // A triangle: the loop runs (k0, k1) of the rectangle only when
      // k1 >= Skew k0 (LoopFacts.h, NestInfo::Skew); elsewhere the bin
      // keeps its value.
      if (M.Nest.Skew) {
        if (M.Nest.depth() != 2 || !Iter[0] || !Iter[1])
          throw Unsupported{"triangular histogram without both iteration indices"};
        TermT InTriangle =
            apply("icmp_sge", {*Iter[1], *Iter[0] * C.bv_val((uint64_t)M.Nest.Skew, 64)});
        Stored = TB::ite(InTriangle, Stored, B);
      }
      Differ = Differ || OpOf(GJ.Parts[1]) != Stored;
    }
    GotParts.clear();
    Want.clear();
  }
  if (M.Kind == IdiomKind::ScalarReduction) {
    // The combine operator and its identity, against the instruction that
    // combines accumulator and element in the loop.
    const Expr *Red = P.Body.get();
    const Expr *Comb = Red->Args[0].get();
    if (Comb->K != Expr::Lambda || Comb->Params.size() != 2)
      throw Unsupported{"combine is not a two-parameter lambda"};
    size_t K = M.Reductions.size();
    std::vector<TermT> As, Bs;
    Sym ASym, BSym;
    for (size_t I = 0; I < K; ++I) {
      SortT S = sortOf(M.Reductions[I].Phi->getType());
      As.push_back(leaf("acc" + std::to_string(I), S));
      Bs.push_back(leaf("elem" + std::to_string(I), S));
      ASym.Parts.push_back(Sym{As.back(), {}});
      BSym.Parts.push_back(Sym{Bs.back(), {}});
    }
    std::map<std::string, Sym> CEnv;
    CEnv[Comb->Params[0].Name] = K == 1 ? ASym.Parts[0] : ASym;
    CEnv[Comb->Params[1].Name] = K == 1 ? BSym.Parts[0] : BSym;
    Sym CGot = eval(Comb->body(), CEnv);
    std::map<std::string, Sym> NoEnv;
    Sym IdGot = eval(Red->Args[1], NoEnv);
    for (size_t I = 0; I < K; ++I) {
      const ReductionInfo &R = M.Reductions[I];
      auto *II = dyn_cast<IntrinsicInst>(R.FirstLink);
      TermT Op = C.bool_val(false);
      // argmin/argmax index: the combine equals the loop's step when the
      // accumulator's index comes first and no value is NaN (the elements
      // map NaN to the identity); ties between equal values then follow the
      // loop, and the lexicographic combine makes every order agree.
      std::optional<TermT> Pre;
      if (R.Op == ReductionOp::ArgIndex) {
        size_t J = argValueOf(R);
        const ReductionInfo &V = M.Reductions[J];
        auto SavedMemo = Memo;
        forgetLink(V.FirstLink);
        forgetLink(R.FirstLink);
        Memo.insert_or_assign(V.Phi, As[J]);
        Memo.insert_or_assign(V.Operands.front(), Bs[J]);
        Memo.insert_or_assign(R.Phi, As[I]);
        Memo.insert_or_assign(R.Operands.front(), Bs[I]);
        Op = tr(R.FirstLink);
        Memo = SavedMemo;
        Pre = apply("icmp_slt", {As[I], Bs[I]});
        if (V.Phi->getType()->isFloatingPointTy())
          Pre = *Pre && apply("fcmp_ord", {As[J], Bs[J]});
      } else if (II && (II->getIntrinsicID() == Intrinsic::fmuladd ||
                 II->getIntrinsicID() == Intrinsic::fma)) {
        Op = As[I] + Bs[I];
      } else {
        auto SavedMemo = Memo;
        Memo.erase(R.FirstLink);
        if (auto *Cmp = dyn_cast<CmpInst>(R.FirstLink->getOperand(0)))
          Memo.erase(Cmp);
        Memo.insert_or_assign(R.Phi, As[I]);
        Memo.insert_or_assign(R.Operands.front(), Bs[I]);
        Op = tr(R.FirstLink);
        Memo = SavedMemo;
      }
      const Sym &CI = K == 1 ? CGot : CGot.Parts.at(I);
      const Sym &II2 = K == 1 ? IdGot : IdGot.Parts.at(I);
      if (!CI.E || !II2.E || !TB::eq(CI.E->get_sort(), Op.get_sort()))
        throw Unsupported{"combine or identity of another type than the accumulator"};
      Differ = Differ || (Pre ? (*Pre && *CI.E != Op) : *CI.E != Op) ||
               *II2.E != identityTerm(R);
    }
  }
  if (GotParts.size() != Want.size()) {
    Why = "lifted function has " + std::to_string(GotParts.size()) +
          " results, the slice " + std::to_string(Want.size());
    return false;
  }
  for (size_t I = 0; I < Want.size(); ++I) {
    if (!GotParts[I].E || !TB::eq(GotParts[I].E->get_sort(), Want[I].get_sort())) {
      Why = "result " + std::to_string(I) + " has another type than the slice";
      return false;
    }
    Differ = Differ || *GotParts[I].E != Want[I];
  }
  for (const TermT &G : GatherMismatch)
    Differ = Differ || G;
  for (const TermT &G : SearchMismatch)
    Differ = Differ || G;
  // Equal lifts give identical terms, which the simplifier folds to false;
  // only the others need the solver.
  return proveNoDifference(Differ, TimeoutMs,
                           "element function, combine operator, identity or "
                           "histogram update",
                           "FunIL", Why);
}

#define IDIOM_TV_MAPS(TB)                                                     \
  template bool Validator<TB>::run(const funil::Program &, unsigned,           \
                                   std::string &);
IDIOM_TV_INSTANTIATE(IDIOM_TV_MAPS)

} // namespace idiom::tv
