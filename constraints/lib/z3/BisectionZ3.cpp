//===- BisectionZ3.cpp - The step lemma of a bisection search -------------===//
//
// proveBisectionStep (BisectionFacts.h). Over bit-vectors of the
// interval's width W, with the boundary's compare (and every other value
// the step reads from outside the interval) a free constant, so that it
// holds whatever the boundaries and the key are, sorted or not, NaN or not,
// and with lo, hi in [0, 2^(W-2)] (the lifter's run-time precondition on
// the initial interval; it keeps lo + hi and lo + 1 from wrapping):
//
//   1. continue(lo, hi) => lo + 1 < hi                              (Z3)
//   2. mid is (lo + hi) / 2 or lo + (hi - lo) / 2 (divisions by 2 or
//      shifts by 1), so mid = floor((lo + hi) / 2)          (by its form)
//   3. (lo', hi') is (lo, mid) or (mid, hi), whatever the compare (Z3)
//
// where continue is the latch's condition read on the interval it tests.
// By arithmetic: lo < mid < hi, lo <= lo' < hi' <= hi (so the premise
// holds again), and 2 (hi' - lo') <= hi - lo + 1. Posed as one query, or
// with the midpoint's dividers and adders, these exceed the bit-vector
// solver's resource limit; as three they take milliseconds. And the entry
// (Z3): the guard holds exactly when continue(lo0, hi0) does (no guard:
// continue(lo0, hi0) always holds).
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/BisectionFacts.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/Z3Budget.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
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
      // Division by a power of two as shifts (exact: signed division rounds
      // towards zero, so negative dividends get 2^k - 1 added first); the
      // bit-vector solver's dividers are what makes midpoints expensive.
      auto *D = dyn_cast<ConstantInt>(BO->getOperand(1));
      if (D && !Bool && D->getValue().isPowerOf2() && !D->isOne() &&
          (BO->getOpcode() == Instruction::SDiv || BO->getOpcode() == Instruction::UDiv)) {
        unsigned W = A->get_sort().bv_size(), K = D->getValue().logBase2();
        if (BO->getOpcode() == Instruction::UDiv)
          return z3::lshr(*A, C.bv_val(K, W));
        if (!D->isNegative()) {
          z3::expr Bias = z3::ite(z3::slt(*A, C.bv_val(0, W)),
                                  C.bv_val((uint64_t(1) << K) - 1, W), C.bv_val(0, W));
          return z3::ashr(*A + Bias, C.bv_val(K, W));
        }
      }
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
  MapVector<Value *, z3::expr> Memo;
  unsigned Leaves = 0;
};

z3::expr asBool(const z3::expr &E, bool When) { return When ? E : !E; }

/// \p V halved: X / 2 (sdiv, udiv), X >> 1 (lshr, ashr); X or null.
Value *halved(Value *V) {
  auto *BO = dyn_cast<BinaryOperator>(V);
  auto *C = BO ? dyn_cast<ConstantInt>(BO->getOperand(1)) : nullptr;
  if (!C)
    return nullptr;
  unsigned Op = BO->getOpcode();
  bool Div = (Op == Instruction::SDiv || Op == Instruction::UDiv) && C->equalsInt(2);
  bool Shift = (Op == Instruction::LShr || Op == Instruction::AShr) && C->equalsInt(1);
  return Div || Shift ? BO->getOperand(0) : nullptr;
}

/// True when \p V is (lo + hi) / 2 or lo + (hi - lo) / 2, halving by a
/// division or a shift, adds in either order: for 0 <= lo < hi whose sum
/// does not wrap (the lemma's premise), each is floor((lo + hi) / 2), so
/// 2 mid <= lo + hi <= 2 mid + 1.
bool isFloorMidpoint(Value *V, Value *Lo, Value *Hi) {
  auto IsAddOf = [](Value *X, Value *A, Value *B) {
    auto *Add = dyn_cast<BinaryOperator>(X);
    return Add && Add->getOpcode() == Instruction::Add &&
           ((Add->getOperand(0) == A && Add->getOperand(1) == B) ||
            (Add->getOperand(0) == B && Add->getOperand(1) == A));
  };
  if (Value *Sum = halved(V); Sum && IsAddOf(Sum, Lo, Hi))
    return true;
  auto *Add = dyn_cast<BinaryOperator>(V);
  if (!Add || Add->getOpcode() != Instruction::Add)
    return false;
  for (unsigned K = 0; K < 2; ++K) {
    auto *Sub = dyn_cast_or_null<BinaryOperator>(halved(Add->getOperand(1 - K)));
    if (Add->getOperand(K) == Lo && Sub && Sub->getOpcode() == Instruction::Sub &&
        Sub->getOperand(0) == Hi && Sub->getOperand(1) == Lo)
      return true;
  }
  return false;
}

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
      // The index without its widening to the GEP's width: the value the
      // step moves a bound to.
      Value *MidV = B.Mid;
      if (auto *Ext = dyn_cast<CastInst>(MidV);
          Ext && (isa<ZExtInst>(Ext) || isa<SExtInst>(Ext)) &&
          Ext->getOperand(0)->getType()->getIntegerBitWidth() == W) {
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
      z3::expr Hyp = Pre && asBool(*Cont, B.ContinueWhen);
      // The facts, each a small query (posed at once, or with the midpoint's
      // arithmetic, the bit-vector solver exceeds its resource limit): the
      // loop continues only on intervals of two or more elements (Z3); the
      // midpoint is floor((lo + hi) / 2) by its form (isFloorMidpoint), so
      // lo < mid < hi; a step moves exactly one bound to the midpoint (Z3,
      // the midpoint a fresh m).
      static const char *const Facts[] = {
          "it continues on an interval of fewer than two elements",
          "its midpoint is not (lo + hi) / 2 or lo + (hi - lo) / 2",
          "a step does not move exactly one bound to the midpoint"};
      unsigned Fact = 0;
      Proof P = decideLaw(C, Hyp && !z3::slt(Lo + C.bv_val(1, W), Hi), TimeoutMs,
                          /*FreshSolver=*/true);
      if (P == Proof::Proven) {
        ++Fact;
        if (isFloorMidpoint(MidV, B.Phi[Low], B.Phi[High]))
          ++Fact;
        else
          P = Proof::Refuted;
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
