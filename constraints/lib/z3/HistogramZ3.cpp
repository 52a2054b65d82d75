//===- HistogramZ3.cpp - Z3 proofs for histogram and array updates --------===//
//
// An update stores F(b, x) into the element it read as b (HistogramFacts.h).
// It is order-independent, and can be computed with private copies combined
// at the end, when F(b, x) = b (+) g(x) for an associative, commutative
// operator (+) with an identity e. Then g(x) = F(e, x), so the proof
// obligation needs no guess of g:
//
//     forall b, x:  C(x)  =>  F(b, x) == b (+) F(e, x)
//
// where C is the conjunction of the guards that do not read b (when they
// fail the update does nothing). F includes the guards that do read b, e.g.
// the `bins[k] < 255` of a saturating count: F(b) = b != 255 ? b + 1 : b,
// which Z3 proves equal to uadd.sat(b, F(0)) = uadd.sat(b, 1). The operator
// is tried from a fixed list (the one suggested by the instruction that
// reads b first); each candidate's laws are proved too. Floating point is
// modelled over the reals, as for scalar reductions (Z3Checks.h); fmin and
// fmax have no real identity, so for them g(x) is an operand of F that does
// not depend on b.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/HistogramFacts.h"
#include "idiom/Constraints/HistogramLaws.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/Z3Budget.h"
#include "idiom/Constraints/UpdateEvaluation.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include <cmath>
#include <functional>
#include <map>
#include <mutex>
#include <z3++.h>

using namespace llvm;

namespace idiom {
namespace {

z3::context &context() {
  z3::context &C = sharedZ3Context();
  return C;
}

/// The name of a fresh constant: its role and its sort, so that the text of
/// a formula determines it (e.g. "b_bv8", "x0_real").
std::string constName(const std::string &Role, const z3::sort &S) {
  return Role + "_" + (S.is_bv() ? "bv" + std::to_string(S.bv_size()) : "real");
}

/// Decides whether \p Negated (a law's negation) is unsatisfiable, with a new
/// solver per query (the formulas may be non-linear over the reals), through
/// decideLaw: memoised by the formula's text, which names every constant by
/// its role, position and sort (constName), so equal shapes share one proof.
Proof decide(z3::context &C, const z3::expr &Negated, unsigned TimeoutMs) {
  TimeScope T("z3 histogram: total");
  return decideLaw(C, Negated, TimeoutMs, /*FreshSolver=*/true);
}

/// Translates F: instructions of the update structurally, Acc as `b`, every
/// other value as a fresh constant (x0, x1, ... in visiting order). i1 is a
/// 1-bit vector; floating point is real.
class UpdateTranslator {
public:
  UpdateTranslator(z3::context &C, const BinUpdateInfo &U)
      : C(C), U(U),
        B(C.constant(constName("b", *sortOf(C, U.ElemTy)).c_str(),
                     *sortOf(C, U.ElemTy))) {}

  static std::optional<z3::sort> sortOf(z3::context &C, Type *T) {
    if (T->isIntegerTy() && T->getIntegerBitWidth() <= 64)
      return C.bv_sort(T->getIntegerBitWidth());
    if (T->isFloatTy() || T->isDoubleTy())
      return C.real_sort();
    return std::nullopt;
  }
  std::optional<z3::sort> sortOf(Type *T) { return sortOf(C, T); }

  const z3::expr &acc() const { return B; }
  /// Real-valued operands of the update's instructions that do not depend
  /// on b (the candidates for g(x) of fmin/fmax).
  const std::vector<z3::expr> &realOperands() const { return RealOperands; }

  /// Instructions that depend on b must translate; the others are translated
  /// when possible (so that, say, zext(w[i]) stays below 256) and are fresh
  /// constants otherwise.
  std::optional<z3::expr> tr(Value *V) {
    if (V == U.Acc)
      return B;
    auto It = Memo.find(V);
    if (It != Memo.end())
      return It->second;
    std::optional<z3::expr> R;
    auto *I = dyn_cast<Instruction>(V);
    if (I && U.UpdateInsts.count(I)) {
      R = inst(I);
      if (R)
        for (Value *Op : I->operands()) {
          auto *OI = dyn_cast<Instruction>(Op);
          if (Op == U.Acc || (OI && U.UpdateInsts.count(OI)))
            continue;
          auto OE = Memo.find(Op);
          if (OE != Memo.end() && OE->second.is_real())
            RealOperands.push_back(OE->second);
        }
    } else if (I && !isa<PHINode>(I) && !I->mayReadOrWriteMemory() &&
               Depth < 64) {
      ++Depth;
      R = inst(I);
      --Depth;
      if (!R)
        R = leaf(V);
    } else {
      R = leaf(V);
    }
    if (R)
      Memo.insert_or_assign(V, *R);
    return R;
  }

  z3::expr bit(const z3::expr &Cond) {
    return z3::ite(Cond, C.bv_val(1, 1), C.bv_val(0, 1));
  }
  z3::expr isTrue(const z3::expr &Bit) { return Bit == C.bv_val(1, 1); }

private:
  /// \p D as an exact rational M / 2^K.
  z3::expr exactReal(double D) {
    int Exp = 0;
    double Frac = std::frexp(D, &Exp); // D = Frac * 2^Exp, |Frac| in [0.5, 1)
    int64_t M = (int64_t)std::ldexp(Frac, 53);
    int K = 53 - Exp;
    while (K > 0 && M % 2 == 0) {
      M /= 2;
      --K;
    }
    if (K <= 0)
      return C.real_val(toString(APInt(2200, (uint64_t)M, true).shl(-K), 10, true).c_str());
    std::string Text = std::to_string(M) + "/" +
                       toString(APInt::getOneBitSet(2200, K), 10, false);
    return C.real_val(Text.c_str());
  }

  std::optional<z3::expr> leaf(Value *V) {
    if (auto *CI = dyn_cast<ConstantInt>(V)) {
      if (CI->getBitWidth() > 64)
        return std::nullopt;
      return C.bv_val(toString(CI->getValue(), 10, /*Signed=*/false).c_str(),
                      CI->getBitWidth());
    }
    if (auto *CF = dyn_cast<ConstantFP>(V)) {
      if (!CF->getValueAPF().isFinite())
        return std::nullopt;
      return exactReal(CF->getValueAPF().convertToDouble());
    }
    auto S = sortOf(V->getType());
    if (!S)
      return std::nullopt;
    std::string Name = constName("x" + std::to_string(Leaves++), *S);
    return C.constant(Name.c_str(), *S);
  }

  std::optional<z3::expr> inst(Instruction *I) {
    auto Op = [&](unsigned K) { return tr(I->getOperand(K)); };
    if (isa<BinaryOperator>(I)) {
      auto A = Op(0), Bv = Op(1);
      if (!A || !Bv)
        return std::nullopt;
      switch (I->getOpcode()) {
      case Instruction::Add: case Instruction::FAdd: return *A + *Bv;
      case Instruction::Sub: case Instruction::FSub: return *A - *Bv;
      case Instruction::Mul: case Instruction::FMul: return *A * *Bv;
      case Instruction::And: return *A & *Bv;
      case Instruction::Or: return *A | *Bv;
      case Instruction::Xor: return *A ^ *Bv;
      case Instruction::SDiv: case Instruction::FDiv: return *A / *Bv;
      case Instruction::UDiv: return z3::udiv(*A, *Bv);
      case Instruction::SRem: return z3::srem(*A, *Bv);
      case Instruction::URem: return z3::urem(*A, *Bv);
      case Instruction::Shl: return z3::shl(*A, *Bv);
      case Instruction::LShr: return z3::lshr(*A, *Bv);
      case Instruction::AShr: return z3::ashr(*A, *Bv);
      default: return std::nullopt;
      }
    }
    if (auto *Cmp = dyn_cast<CmpInst>(I)) {
      auto A = Op(0), Bv = Op(1);
      if (!A || !Bv)
        return std::nullopt;
      std::optional<z3::expr> R;
      switch (Cmp->getPredicate()) {
      case CmpInst::ICMP_EQ: case CmpInst::FCMP_OEQ: case CmpInst::FCMP_UEQ: R = *A == *Bv; break;
      case CmpInst::ICMP_NE: case CmpInst::FCMP_ONE: case CmpInst::FCMP_UNE: R = *A != *Bv; break;
      case CmpInst::ICMP_SLT: R = z3::slt(*A, *Bv); break;
      case CmpInst::ICMP_SLE: R = z3::sle(*A, *Bv); break;
      case CmpInst::ICMP_SGT: R = z3::sgt(*A, *Bv); break;
      case CmpInst::ICMP_SGE: R = z3::sge(*A, *Bv); break;
      case CmpInst::ICMP_ULT: R = z3::ult(*A, *Bv); break;
      case CmpInst::ICMP_ULE: R = z3::ule(*A, *Bv); break;
      case CmpInst::ICMP_UGT: R = z3::ugt(*A, *Bv); break;
      case CmpInst::ICMP_UGE: R = z3::uge(*A, *Bv); break;
      case CmpInst::FCMP_OLT: case CmpInst::FCMP_ULT: R = *A < *Bv; break;
      case CmpInst::FCMP_OLE: case CmpInst::FCMP_ULE: R = *A <= *Bv; break;
      case CmpInst::FCMP_OGT: case CmpInst::FCMP_UGT: R = *A > *Bv; break;
      case CmpInst::FCMP_OGE: case CmpInst::FCMP_UGE: R = *A >= *Bv; break;
      default: return std::nullopt;
      }
      return bit(*R);
    }
    if (isa<SelectInst>(I)) {
      auto Cd = Op(0), T = Op(1), F = Op(2);
      if (!Cd || !T || !F || I->getType()->isVectorTy())
        return std::nullopt;
      return z3::ite(isTrue(*Cd), *T, *F);
    }
    if (auto *Cast = dyn_cast<CastInst>(I)) {
      auto A = Op(0);
      if (!A)
        return std::nullopt;
      Type *From = Cast->getSrcTy(), *To = Cast->getType();
      bool IntCast = Cast->getOpcode() == Instruction::ZExt ||
                     Cast->getOpcode() == Instruction::SExt ||
                     Cast->getOpcode() == Instruction::Trunc;
      if (IntCast && (!From->isIntegerTy() || !To->isIntegerTy()))
        return std::nullopt; // vector casts: not modelled
      switch (Cast->getOpcode()) {
      case Instruction::ZExt:
        return z3::zext(*A, To->getIntegerBitWidth() - From->getIntegerBitWidth());
      case Instruction::SExt:
        return z3::sext(*A, To->getIntegerBitWidth() - From->getIntegerBitWidth());
      case Instruction::Trunc:
        return A->extract(To->getIntegerBitWidth() - 1, 0);
      case Instruction::FPExt: case Instruction::FPTrunc:
        return *A;
      default:
        return std::nullopt;
      }
    }
    if (isa<FreezeInst>(I))
      return Op(0);
    if (I->getOpcode() == Instruction::FNeg) {
      auto A = Op(0);
      return A ? std::optional<z3::expr>(-*A) : std::nullopt;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(I)) {
      Intrinsic::ID ID = II->getIntrinsicID();
      if (ID == Intrinsic::fmuladd || ID == Intrinsic::fma) {
        auto X = Op(0), Y = Op(1), Z = Op(2);
        if (!X || !Y || !Z)
          return std::nullopt;
        return *X * *Y + *Z;
      }
      if (II->arg_size() != 2)
        return std::nullopt;
      auto A = Op(0), Bv = Op(1);
      if (!A || !Bv)
        return std::nullopt;
      switch (ID) {
      case Intrinsic::smin: return z3::ite(z3::slt(*A, *Bv), *A, *Bv);
      case Intrinsic::smax: return z3::ite(z3::sgt(*A, *Bv), *A, *Bv);
      case Intrinsic::umin: return z3::ite(z3::ult(*A, *Bv), *A, *Bv);
      case Intrinsic::umax: return z3::ite(z3::ugt(*A, *Bv), *A, *Bv);
      case Intrinsic::minnum: case Intrinsic::minimum:
        return z3::ite(*A < *Bv, *A, *Bv);
      case Intrinsic::maxnum: case Intrinsic::maximum:
        return z3::ite(*A > *Bv, *A, *Bv);
      case Intrinsic::uadd_sat: {
        z3::expr S = *A + *Bv;
        return z3::ite(z3::ult(S, *A), C.bv_val(-1, A->get_sort().bv_size()), S);
      }
      case Intrinsic::usub_sat:
        return z3::ite(z3::ult(*A, *Bv), C.bv_val(0, A->get_sort().bv_size()),
                       *A - *Bv);
      default:
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  z3::context &C;
  const BinUpdateInfo &U;
  z3::expr B;
  MapVector<Value *, z3::expr> Memo;
  std::vector<z3::expr> RealOperands;
  unsigned Leaves = 0, Depth = 0;
};

/// A candidate operator: its combination of two values and, when it has a
/// finite identity, that identity.
struct Candidate {
  UpdateOperator Op;
  std::function<z3::expr(const z3::expr &, const z3::expr &)> Apply;
  std::optional<z3::expr> Identity;
};

std::vector<Candidate> bitVectorCandidates(z3::context &C, unsigned W) {
  using E = const z3::expr &;
  std::vector<Candidate> Out;
  // The order and identities are UpdateEvaluation.h's, shared with the
  // evaluation that decides small updates without Z3.
  for (UpdateOperator K : bitVectorUpdateOperators()) {
    std::function<z3::expr(E, E)> F;
    switch (K.Op) {
    case ReductionOp::Add:
      if (K.Saturating)
        F = [W, &C](E A, E B) {
          z3::expr S = A + B;
          return z3::ite(z3::ult(S, A), C.bv_val(-1, W), S);
        };
      else
        F = [](E A, E B) { return A + B; };
      break;
    case ReductionOp::Or: F = [](E A, E B) { return A | B; }; break;
    case ReductionOp::And: F = [](E A, E B) { return A & B; }; break;
    case ReductionOp::Xor: F = [](E A, E B) { return A ^ B; }; break;
    case ReductionOp::Mul: F = [](E A, E B) { return A * B; }; break;
    case ReductionOp::SMax: F = [](E A, E B) { return z3::ite(z3::sgt(A, B), A, B); }; break;
    case ReductionOp::SMin: F = [](E A, E B) { return z3::ite(z3::slt(A, B), A, B); }; break;
    case ReductionOp::UMax: F = [](E A, E B) { return z3::ite(z3::ugt(A, B), A, B); }; break;
    case ReductionOp::UMin: F = [](E A, E B) { return z3::ite(z3::ult(A, B), A, B); }; break;
    default: llvm_unreachable("not a bit-vector update candidate");
    }
    APInt Id = updateOperatorIdentity(K, W);
    Out.push_back({K, F, C.bv_val(toString(Id, 10, false).c_str(), W)});
  }
  return Out;
}

std::vector<Candidate> realCandidates(z3::context &C) {
  using E = const z3::expr &;
  std::vector<Candidate> Out;
  Out.push_back({UpdateOperator{ReductionOp::FAdd, false},
                 [](E A, E B) { return A + B; }, C.real_val(0)});
  Out.push_back({UpdateOperator{ReductionOp::FMul, false},
                 [](E A, E B) { return A * B; }, C.real_val(1)});
  Out.push_back({UpdateOperator{ReductionOp::FMax, false},
                 [](E A, E B) { return z3::ite(A > B, A, B); }, std::nullopt});
  Out.push_back({UpdateOperator{ReductionOp::FMin, false},
                 [](E A, E B) { return z3::ite(A < B, A, B); }, std::nullopt});
  return Out;
}

/// Proves associativity and commutativity of \p K (and its identity). The
/// candidates are textbook operators (OperatorLaws.h), so with structural
/// shortcuts on (the default) the laws hold without asking Z3; the unit test
/// HistogramLawsTest has Z3 prove them for every candidate.
Proof laws(z3::context &C, const Candidate &K, const z3::sort &S,
           unsigned TimeoutMs, std::string &Why) {
  if (structuralShortcuts()) {
    TimeReport::count("laws: histogram candidate");
    return Proof::Proven;
  }
  z3::expr P = C.constant(constName("p", S).c_str(), S),
           Q = C.constant(constName("q", S).c_str(), S),
           R = C.constant(constName("r", S).c_str(), S);
  std::string N = K.Op.name();
  Proof Pr = decide(C, K.Apply(P, Q) != K.Apply(Q, P), TimeoutMs);
  if (Pr != Proof::Proven) {
    Why = N + (Pr == Proof::Refuted ? " is not commutative" : ": commutativity not proven (" + z3UnknownText() + ")");
    return Pr;
  }
  Pr = decide(C, K.Apply(K.Apply(P, Q), R) != K.Apply(P, K.Apply(Q, R)), TimeoutMs);
  if (Pr != Proof::Proven) {
    Why = N + (Pr == Proof::Refuted ? " is not associative" : ": associativity not proven (" + z3UnknownText() + ")");
    return Pr;
  }
  if (K.Identity) {
    Pr = decide(C, K.Apply(*K.Identity, P) != P, TimeoutMs);
    if (Pr != Proof::Proven)
      Why = N + ": identity not proven";
  }
  return Pr;
}

Proof proveOperator(const BinUpdateInfo &U, unsigned TimeoutMs,
                    UpdateOperator &Out, std::string &Why) {
  // Small or structurally evident updates: the same answer without a Z3
  // context (UpdateEvaluation.h; UpdateEvaluationTest compares with Z3).
  if (structuralShortcuts()) {
    UpdateDecider By;
    if (auto P = decideUpdateWithoutZ3(U, Out, Why, &By)) {
      TimeReport::count(By == UpdateDecider::StructuralIdentity
                            ? "histogram update: structural identity, no Z3"
                            : "histogram update: exhaustive evaluation, no Z3");
      if (*P == Proof::Proven)
        TimeReport::count("laws: histogram candidate");
      return *P;
    }
  }
  try {
    z3::context &C = context();
    auto Sort = UpdateTranslator::sortOf(C, U.ElemTy);
    if (!Sort) {
      Why = "element type cannot be modelled for the SMT solver";
      return Proof::Unknown;
    }
    UpdateTranslator T(C, U);
    const z3::expr &B = T.acc();
    auto V = T.tr(U.NewValue);
    if (!V) {
      Why = "update cannot be translated for the SMT solver";
      return Proof::Unknown;
    }
    // F(b, x) with the guards that read b; C(x), the guards that do not.
    z3::expr Dep = C.bool_val(true), Indep = C.bool_val(true);
    bool HasDep = false;
    for (const UpdateGuard &G : U.Guards) {
      auto E = T.tr(G.Cond);
      if (!E) {
        Why = "update guard cannot be translated for the SMT solver";
        return Proof::Unknown;
      }
      z3::expr Holds = G.ExpectTrue ? T.isTrue(*E) : !T.isTrue(*E);
      if (G.DependsOnAcc) {
        Dep = Dep && Holds;
        HasDep = true;
      } else {
        Indep = Indep && Holds;
      }
    }
    z3::expr F = HasDep ? z3::ite(Dep, *V, B) : *V;

    std::vector<Candidate> Cands = Sort->is_bv()
                                       ? bitVectorCandidates(C, Sort->bv_size())
                                       : realCandidates(C);
    if (auto H = updateOperatorHint(U))
      std::stable_partition(Cands.begin(), Cands.end(), [&](const Candidate &K) {
        return K.Op.Op == *H;
      });
    std::string Tried;
    bool AnyUnknown = false;
    for (const Candidate &K : Cands) {
      // g(x): F at the identity, or (fmin/fmax) a real operand of F.
      std::vector<z3::expr> Gs;
      if (K.Identity) {
        z3::expr_vector From(C), To(C);
        From.push_back(B);
        To.push_back(*K.Identity);
        Gs.push_back(F.substitute(From, To));
      } else {
        Gs = T.realOperands();
      }
      Tried += (Tried.empty() ? "" : ", ") + K.Op.name();
      for (const z3::expr &G : Gs) {
        Proof P = decide(C, Indep && F != K.Apply(B, G), TimeoutMs);
        AnyUnknown |= P == Proof::Unknown;
        if (P != Proof::Proven)
          continue;
        std::string LawWhy;
        P = laws(C, K, *Sort, TimeoutMs, LawWhy);
        if (P != Proof::Proven) {
          Why = LawWhy;
          return P;
        }
        Out = K.Op;
        return Proof::Proven;
      }
    }
    if (AnyUnknown) {
      Why = "update operator not proven (" + z3UnknownText() + "; tried " + Tried + ")";
      return Proof::Unknown;
    }
    Why = updateRefusal(U, HasDep, Sort->is_bv(), Tried);
    return Proof::Refuted;
  } catch (const z3::exception &E) {
    Why = std::string("Z3 error: ") + E.msg();
    return Proof::Unknown;
  }
}

} // namespace

Proof proveHistogramCandidateLaws(unsigned BitWidth, unsigned TimeoutMs,
                                  std::string &Why) {
  bool Saved = structuralShortcuts();
  setStructuralShortcuts(false);
  Proof Result = Proof::Proven;
  try {
    z3::context &C = context();
    z3::sort S = BitWidth ? C.bv_sort(BitWidth) : C.real_sort();
    std::vector<Candidate> Cands =
        BitWidth ? bitVectorCandidates(C, BitWidth) : realCandidates(C);
    for (const Candidate &K : Cands) {
      Result = laws(C, K, S, TimeoutMs, Why);
      if (Result != Proof::Proven)
        break;
    }
  } catch (const z3::exception &E) {
    Why = std::string("Z3 error: ") + E.msg();
    Result = Proof::Unknown;
  }
  setStructuralShortcuts(Saved);
  return Result;
}

Proof proveUpdateOperator(const BinUpdateInfo &U, unsigned TimeoutMs,
                          UpdateOperator &Op, std::string &Why,
                          ProofCache *Cache) {
  // The cache keeps (proof, text) per key; for a proven update the text is
  // the operator's name, read back here.
  if (Cache)
    if (const auto *Hit = Cache->lookup(ProofCache::Query::AssocComm, U.Store)) {
      if (Hit->first == Proof::Proven) {
        const std::string &N = Hit->second;
        Op = UpdateOperator{};
        if (N == "uadd.sat") {
          Op = UpdateOperator{ReductionOp::Add, true};
        } else {
          for (int K = 0; K <= int(ReductionOp::Other); ++K)
            if (N == reductionOpName(ReductionOp(K)))
              Op.Op = ReductionOp(K);
        }
      } else {
        Why = Hit->second;
      }
      return Hit->first;
    }
  Proof P = proveOperator(U, TimeoutMs, Op, Why);
  if (Cache)
    Cache->store(ProofCache::Query::AssocComm, U.Store, P,
                 P == Proof::Proven ? Op.name() : Why);
  return P;
}

} // namespace idiom
