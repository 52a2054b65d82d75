//===- BisectionZ3.cpp - The step lemma of a bisection search -------------===//
//
// proveBisectionStep (BisectionFacts.h): over bit-vectors of the interval's
// width W, with the boundary's compare (and every other value the step
// reads from outside the interval) a free constant, so the lemma holds
// whatever the boundaries and the key are, sorted or not, NaN or not:
//
//   lo, hi in [0, 2^(W-2)] /\ continue(lo, hi)  =>
//     lo < mid < hi /\ lo <= lo' < hi' <= hi /\ 2 (hi' - lo') <= hi - lo + 1
//
// (signed; mid without its widening to the address's width), where continue is the latch's condition
// read on the interval it tests (the conclusions keep lo' and hi' in
// [0, 2^(W-2)], so the lemma applies again). And the loop's entry: with lo0
// and hi0 in [0, 2^(W-2)], the guard holds exactly when continue(lo0, hi0) does (no
// guard: continue(lo0, hi0) always holds). The bounds on lo0 and hi0 are
// the lifter's run-time precondition; they keep lo + hi and lo + 1 from
// wrapping.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/BisectionFacts.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/Z3Budget.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include <z3++.h>

using namespace llvm;

namespace idiom {
namespace {

/// Integer slices as bit-vectors (i1 as Bool); what is not an integer
/// operation is a free constant named by its order of appearance.
class IntTranslator {
public:
  /// Free constants are named \p Prefix0, \p Prefix1, ... (by sort).
  IntTranslator(z3::context &C, std::string Prefix) : C(C), Prefix(std::move(Prefix)) {}
  void preset(Value *V, const z3::expr &E) { Memo.insert_or_assign(V, E); }
  void forget() { Memo.clear(); }

  std::optional<z3::expr> tr(Value *V, unsigned Depth = 0) {
    auto It = Memo.find(V);
    if (It != Memo.end())
      return It->second;
    std::optional<z3::expr> R = Depth < 64 ? inst(V, Depth) : std::nullopt;
    if (!R)
      R = leaf(V);
    if (R)
      Memo.insert_or_assign(V, *R);
    return R;
  }

private:
  std::optional<z3::expr> leaf(Value *V) {
    if (auto *CI = dyn_cast<ConstantInt>(V)) {
      if (CI->getBitWidth() == 1)
        return C.bool_val(CI->isOne());
      if (CI->getBitWidth() > 64)
        return std::nullopt;
      return C.bv_val(CI->getZExtValue(), CI->getBitWidth());
    }
    Type *T = V->getType();
    std::string Name = Prefix + std::to_string(Leaves++);
    if (T->isIntegerTy(1))
      return C.bool_const((Name + "_bool").c_str());
    if (T->isIntegerTy() && T->getIntegerBitWidth() <= 64)
      return C.bv_const((Name + "_bv" + std::to_string(T->getIntegerBitWidth())).c_str(),
                        T->getIntegerBitWidth());
    return std::nullopt;
  }

  std::optional<z3::expr> inst(Value *V, unsigned Depth) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || isa<PHINode>(I) || I->mayReadOrWriteMemory() || !I->getType()->isIntegerTy())
      return std::nullopt;
    auto Op = [&](unsigned K) { return tr(I->getOperand(K), Depth + 1); };
    if (auto *BO = dyn_cast<BinaryOperator>(I)) {
      auto A = Op(0), B = Op(1);
      if (!A || !B)
        return std::nullopt;
      bool Bool = A->is_bool();
      switch (BO->getOpcode()) {
      case Instruction::Add: return *A + *B;
      case Instruction::Sub: return *A - *B;
      case Instruction::Mul: return *A * *B;
      case Instruction::SDiv: return *A / *B;
      case Instruction::UDiv: return z3::udiv(*A, *B);
      case Instruction::Shl: return z3::shl(*A, *B);
      case Instruction::LShr: return z3::lshr(*A, *B);
      case Instruction::AShr: return z3::ashr(*A, *B);
      case Instruction::And: return Bool ? *A && *B : *A & *B;
      case Instruction::Or: return Bool ? *A || *B : *A | *B;
      case Instruction::Xor: return Bool ? *A != *B : *A ^ *B;
      default: return std::nullopt;
      }
    }
    if (auto *Cmp = dyn_cast<ICmpInst>(I)) {
      auto A = Op(0), B = Op(1);
      if (!A || !B || A->is_bool())
        return std::nullopt;
      switch (Cmp->getPredicate()) {
      case CmpInst::ICMP_EQ: return *A == *B;
      case CmpInst::ICMP_NE: return *A != *B;
      case CmpInst::ICMP_SLT: return z3::slt(*A, *B);
      case CmpInst::ICMP_SLE: return z3::sle(*A, *B);
      case CmpInst::ICMP_SGT: return z3::sgt(*A, *B);
      case CmpInst::ICMP_SGE: return z3::sge(*A, *B);
      case CmpInst::ICMP_ULT: return z3::ult(*A, *B);
      case CmpInst::ICMP_ULE: return z3::ule(*A, *B);
      case CmpInst::ICMP_UGT: return z3::ugt(*A, *B);
      case CmpInst::ICMP_UGE: return z3::uge(*A, *B);
      default: return std::nullopt;
      }
    }
    if (auto *S = dyn_cast<SelectInst>(I)) {
      auto Cd = tr(S->getCondition(), Depth + 1), A = Op(1), B = Op(2);
      if (!Cd || !A || !B || !Cd->is_bool())
        return std::nullopt;
      return z3::ite(*Cd, *A, *B);
    }
    if (auto *Cs = dyn_cast<CastInst>(I)) {
      auto A = Op(0);
      if (!A || A->is_bool())
        return std::nullopt;
      unsigned From = A->get_sort().bv_size(), To = I->getType()->getIntegerBitWidth();
      switch (Cs->getOpcode()) {
      case Instruction::ZExt: return z3::zext(*A, To - From);
      case Instruction::SExt: return z3::sext(*A, To - From);
      case Instruction::Trunc: return To == 1 ? std::nullopt
                                              : std::optional<z3::expr>(A->extract(To - 1, 0));
      default: return std::nullopt;
      }
    }
    if (isa<FreezeInst>(I))
      return Op(0);
    return std::nullopt;
  }

  z3::context &C;
  std::string Prefix;
  DenseMap<Value *, z3::expr> Memo;
  unsigned Leaves = 0;
};

z3::expr asBool(const z3::expr &E, bool When) { return When ? E : !E; }

} // namespace

Proof proveBisectionStep(BisectionInfo &B, unsigned TimeoutMs, std::string &Why) {
  TimeScope T("z3 bisection: total");
  z3::context &C = sharedZ3Context();
  unsigned W = B.width();
  unsigned BestFact = 0;
  const char *Refuted = "";
  try {
    for (unsigned Low = 0; Low < 2; ++Low) {
      unsigned High = 1 - Low;
      z3::expr Lo = C.bv_const(("lo_bv" + std::to_string(W)).c_str(), W);
      z3::expr Hi = C.bv_const(("hi_bv" + std::to_string(W)).c_str(), W);
      z3::expr Bound = C.bv_val(uint64_t(1) << (W - 2), W);
      auto InRange = [&](const z3::expr &X) {
        return z3::sge(X, C.bv_val(0, W)) && z3::sle(X, Bound);
      };
      z3::expr Pre = InRange(Lo) && InRange(Hi);
      IntTranslator Tr(C, "x");
      // continue(lo, hi): the latch's condition read on the interval.
      Tr.preset(B.Next[Low], Lo);
      Tr.preset(B.Next[High], Hi);
      auto Cont = Tr.tr(B.Cond);
      // The step from (lo, hi).
      Tr.forget();
      Tr.preset(B.Phi[Low], Lo);
      Tr.preset(B.Phi[High], Hi);
      // The index without its widening to the GEP's width: compared in W
      // bits (unsigned after a zext; lo and hi are not negative here).
      Value *MidV = B.Mid;
      bool Unsigned = false;
      if (auto *Ext = dyn_cast<CastInst>(MidV);
          Ext && (isa<ZExtInst>(Ext) || isa<SExtInst>(Ext)) &&
          Ext->getOperand(0)->getType()->getIntegerBitWidth() == W) {
        Unsigned = isa<ZExtInst>(Ext);
        MidV = Ext->getOperand(0);
      }
      auto Mid = Tr.tr(MidV);
      auto Lo2 = Tr.tr(B.Next[Low]), Hi2 = Tr.tr(B.Next[High]);
      if (!Cont || !Cont->is_bool() || !Mid || Mid->is_bool() || !Lo2 || !Hi2 ||
          Mid->get_sort().bv_size() < W) {
        Why = "the search step cannot be translated for the SMT solver";
        return Proof::Unknown;
      }
      unsigned MW = Mid->get_sort().bv_size();
      z3::expr LoM = z3::sext(Lo, MW - W), HiM = z3::sext(Hi, MW - W);
      z3::expr Inside = Unsigned ? z3::ult(Lo, *Mid) && z3::ult(*Mid, Hi)
                                 : z3::slt(LoM, *Mid) && z3::slt(*Mid, HiM);
      z3::expr Hyp = Pre && asBool(*Cont, B.ContinueWhen);
      // First the midpoint: inside, and floor((lo + hi) / 2) (in W + 1
      // bits: 2 mid <= lo + hi <= 2 mid + 1). Then the new interval with
      // the midpoint a fresh m (one query per fact: each is small for the
      // bit-vector solver, the whole is not).
      Proof P = Proof::Proven;
      z3::expr Wm = z3::sext(MW == W ? *Mid : Mid->extract(W - 1, 0), 1);
      z3::expr Sum = z3::sext(Lo, 1) + z3::sext(Hi, 1);
      z3::expr Floor = z3::sle(Wm + Wm, Sum) && z3::sle(Sum, Wm + Wm + C.bv_val(1, W + 1));
      static const char *const Facts[] = {
          "its midpoint does not lie strictly inside [lo, hi]",
          "its midpoint is not floor((lo + hi) / 2)",
          "a step does not move exactly one bound to the midpoint"};
      unsigned Fact = 0;
      for (const z3::expr &Goal : {Inside, Floor}) {
        P = decideLaw(C, Hyp && !Goal, TimeoutMs, /*FreshSolver=*/true);
        if (P != Proof::Proven)
          break;
        ++Fact;
      }
      if (P == Proof::Proven && MW == W) {
        z3::expr M = C.bv_const(("m_bv" + std::to_string(W)).c_str(), W);
        z3::expr_vector From(C), To(C);
        From.push_back(*Mid);
        To.push_back(M);
        z3::expr L2 = Lo2->substitute(From, To), H2 = Hi2->substitute(From, To);
        // The step moves exactly one bound to the midpoint. With the facts
        // above that gives the lemma by arithmetic: lo <= lo' < hi' <= hi,
        // and 2 (m - lo) <= hi - lo, 2 (hi - m) <= hi - lo + 1. (Posed as
        // such, the lengths are hard for the bit-vector solver; the shape
        // is not.)
        z3::expr Shape = (L2 == Lo && H2 == M) || (L2 == M && H2 == Hi);
        P = decideLaw(C, Hyp && !Shape, TimeoutMs, /*FreshSolver=*/true);
      } else if (P == Proof::Proven) {
        P = Proof::Unknown; // a midpoint computed wider than the interval
      }
      if (P == Proof::Unknown) {
        Why = "Z3 could not decide whether the search halves its interval (timeout)";
        return P;
      }
      if (P == Proof::Refuted) {
        // The other part may be the lower bound; report the orientation
        // that got further.
        if (Low == 0 || Fact >= BestFact) {
          BestFact = Fact;
          Refuted = Facts[Fact];
        }
        continue;
      }
      // The entry: the guard tests continue on the initial interval.
      Tr.forget();
      auto Lo0 = Tr.tr(B.Init[Low]), Hi0 = Tr.tr(B.Init[High]);
      if (!Lo0 || !Hi0 || Lo0->is_bool() || Hi0->is_bool()) {
        Why = "the search's initial interval cannot be translated for the SMT solver";
        return Proof::Unknown;
      }
      z3::expr Pre0 = InRange(*Lo0) && InRange(*Hi0);
      IntTranslator Tc(C, "y");
      Tc.preset(B.Next[Low], *Lo0);
      Tc.preset(B.Next[High], *Hi0);
      auto Cont0 = Tc.tr(B.Cond);
      std::optional<z3::expr> Guard =
          B.GuardCond ? Tr.tr(B.GuardCond) : std::optional<z3::expr>(C.bool_val(true));
      if (!Cont0 || !Guard || !Guard->is_bool()) {
        Why = "the search's entry test cannot be translated for the SMT solver";
        return Proof::Unknown;
      }
      z3::expr Enter = B.GuardCond ? asBool(*Guard, B.GuardWhen) : C.bool_val(true);
      P = decideLaw(C, Pre0 && (Enter != asBool(*Cont0, B.ContinueWhen)), TimeoutMs,
                    /*FreshSolver=*/false);
      if (P == Proof::Proven) {
        B.LowPart = Low;
        return P;
      }
      Why = P == Proof::Unknown
                ? "Z3 could not decide whether the search's entry test is its loop "
                  "condition (timeout)"
                : "the search loop is entered when its condition fails on the initial "
                  "interval (a do-while), or skipped when it holds";
      return P;
    }
  } catch (const z3::exception &E) {
    Why = std::string("Z3 error: ") + E.msg();
    return Proof::Unknown;
  }
  Why = std::string("the loop is not a bisection: ") + Refuted;
  return Proof::Refuted;
}

} // namespace idiom
