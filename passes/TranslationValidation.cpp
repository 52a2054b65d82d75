//===- TranslationValidation.cpp - Lifted FunIL equals the LLVM slice -----===//

#include "TranslationValidation.h"
#include "lift/HistogramLifting.h"
#include "lift/GemmLifting.h"
#include "idiom/Constraints/Z3Checks.h"
#include "idiom/FunIL/Expr.h"
#include "idiom/FunIL/Printer.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include <functional>
#include <map>
#include <optional>
#include <z3++.h>

using namespace llvm;

namespace idiom {
namespace {

using funil::Expr;
using funil::ExprPtr;
using funil::ScalarKind;

/// A symbolic FunIL value: a scalar term, or a tuple of symbolic values.
/// Arrays (row views of 2-D maps) have neither and must not be read here.
struct Sym {
  std::optional<z3::expr> E;
  std::vector<Sym> Parts;
};

/// Thrown inside this file only, for shapes the validator does not handle.
struct Unsupported {
  std::string Why;
};

class Validator {
public:
  Validator(z3::context &C, const IdiomMatch &M, const LiftedIdiom &L)
      : C(C), M(M), L(L) {}

  bool run(const funil::Program &P, unsigned TimeoutMs, std::string &Why);
  /// GEMM programs: STEP, INIT and POST against GemmSlice.
  bool runGemm(const funil::Program &P, unsigned TimeoutMs, std::string &Why);

private:
  void bindParams();
  // Sorts and leaves.
  z3::sort sortOf(Type *T);
  z3::sort sortOf(ScalarKind K);
  z3::expr leaf(const std::string &Name, z3::sort S) { return C.constant(Name.c_str(), S); }
  z3::expr rne() { return z3::expr(C, Z3_mk_fpa_rne(C)); }

  // The shared operation semantics, by FunIL name.
  z3::expr apply(const std::string &Op, const std::vector<z3::expr> &A);
  z3::expr convert(const std::string &Op, const z3::expr &X, z3::sort To, bool ToFloat);

  // FunIL side.
  Sym eval(const ExprPtr &E, std::map<std::string, Sym> &Env);
  // LLVM side.
  z3::expr tr(Value *V);
  z3::expr identityTerm(const ReductionInfo &R);

  z3::context &C;
  const IdiomMatch &M;
  const LiftedIdiom &L;
  std::map<std::string, z3::expr> Params; ///< FunIL parameter -> term
  std::map<const Value *, z3::expr> Memo;  ///< LLVM value -> term
  std::vector<std::optional<z3::expr>> Iter; ///< iteration index per loop
  std::optional<z3::expr> ReduceSeqValue; ///< GEMM POST: the reduction's result
};

z3::sort Validator::sortOf(Type *T) {
  if (T->isIntegerTy(1))
    return C.bool_sort();
  if (T->isIntegerTy())
    return C.bv_sort(T->getIntegerBitWidth());
  if (T->isFloatTy())
    return C.fpa_sort<32>();
  if (T->isDoubleTy())
    return C.fpa_sort<64>();
  throw Unsupported{"value of a type the validator does not model"};
}

z3::sort Validator::sortOf(ScalarKind K) {
  switch (K) {
  case ScalarKind::Bool: return C.bool_sort();
  case ScalarKind::I8: case ScalarKind::U8: return C.bv_sort(8);
  case ScalarKind::I16: case ScalarKind::U16: return C.bv_sort(16);
  case ScalarKind::I32: case ScalarKind::U32: return C.bv_sort(32);
  case ScalarKind::I64: case ScalarKind::U64: return C.bv_sort(64);
  case ScalarKind::F32: return C.fpa_sort<32>();
  case ScalarKind::F64: return C.fpa_sort<64>();
  }
  throw Unsupported{"unknown scalar kind"};
}

z3::expr Validator::apply(const std::string &Op, const std::vector<z3::expr> &A) {
  auto Need = [&](size_t N) {
    if (A.size() != N)
      throw Unsupported{"operation " + Op + " with an unexpected arity"};
  };
  auto Cmp = [&](const std::string &P) -> z3::expr {
    Need(2);
    const z3::expr &X = A[0], &Y = A[1];
    if (P == "eq") return X == Y;
    if (P == "ne") return X != Y;
    if (P == "slt") return z3::slt(X, Y);
    if (P == "sle") return z3::sle(X, Y);
    if (P == "sgt") return z3::sgt(X, Y);
    if (P == "sge") return z3::sge(X, Y);
    if (P == "ult") return z3::ult(X, Y);
    if (P == "ule") return z3::ule(X, Y);
    if (P == "ugt") return z3::ugt(X, Y);
    if (P == "uge") return z3::uge(X, Y);
    // Floating point: o* = ordered and relation, u* = unordered or relation.
    z3::expr Uno = X.mk_is_nan() || Y.mk_is_nan();
    if (P == "ord")
      return !Uno;
    if (P == "uno")
      return Uno;
    std::string R = P.substr(1);
    std::optional<z3::expr> Rel;
    if (R == "eq") Rel = z3::fp_eq(X, Y);
    else if (R == "ne") Rel = !z3::fp_eq(X, Y);
    else if (R == "lt") Rel = X < Y;
    else if (R == "le") Rel = X <= Y;
    else if (R == "gt") Rel = X > Y;
    else if (R == "ge") Rel = X >= Y;
    else throw Unsupported{"compare " + P};
    return P[0] == 'o' ? (!Uno && *Rel) : (Uno || *Rel);
  };
  if (Op.rfind("icmp_", 0) == 0 || Op.rfind("fcmp_", 0) == 0)
    return Cmp(Op.substr(5));
  if (Op == "select") { Need(3); return z3::ite(A[0], A[1], A[2]); }
  if (Op == "not") { Need(1); return !A[0]; }
  if (Op == "fneg") { Need(1); return -A[0]; }
  if (Op == "abs") { Need(1); return z3::ite(z3::slt(A[0], C.bv_val(0, A[0].get_sort().bv_size())), -A[0], A[0]); }
  if (Op == "fabs") { Need(1); return z3::abs(A[0]); }
  if (Op == "sqrt") { Need(1); return z3::sqrt(A[0], rne()); }
  if (Op == "fma") { Need(3); return z3::fma(A[0], A[1], A[2], rne()); }
  if (Op == "fmuladd") { Need(3); return A[0] * A[1] + A[2]; }
  if (Op == "floor" || Op == "ceil") {
    Need(1);
    Z3_ast RM = Op == "floor" ? Z3_mk_fpa_rtn(C) : Z3_mk_fpa_rtp(C);
    return z3::expr(C, Z3_mk_fpa_round_to_integral(C, RM, A[0]));
  }
  if (Op == "exp" || Op == "log" || Op == "sin" || Op == "cos" || Op == "pow" ||
      Op == "frem") {
    // Uninterpreted, but the same symbol on both sides.
    z3::sort S = A[0].get_sort();
    z3::sort_vector Dom(C);
    z3::expr_vector Args(C);
    for (const z3::expr &X : A) {
      Dom.push_back(X.get_sort());
      Args.push_back(X);
    }
    bool F32 = z3::eq(S, C.fpa_sort<32>());
    std::string Name = Op + (F32 ? "_f32" : "_f64");
    return C.function(Name.c_str(), Dom, S)(Args);
  }
  Need(2);
  const z3::expr &X = A[0], &Y = A[1];
  if (Op == "add" || Op == "fadd") return X + Y;
  if (Op == "sub" || Op == "fsub") return X - Y;
  if (Op == "mul" || Op == "fmul") return X * Y;
  if (Op == "fdiv" || Op == "sdiv") return X / Y;
  if (Op == "udiv") return z3::udiv(X, Y);
  if (Op == "srem") return z3::srem(X, Y);
  if (Op == "urem") return z3::urem(X, Y);
  if (Op == "and") return X.is_bool() ? (X && Y) : (X & Y);
  if (Op == "or") return X.is_bool() ? (X || Y) : (X | Y);
  if (Op == "xor") return X.is_bool() ? (X != Y) : (X ^ Y);
  if (Op == "shl") return z3::shl(X, Y);
  if (Op == "lshr") return z3::lshr(X, Y);
  if (Op == "ashr") return z3::ashr(X, Y);
  if (Op == "smin") return z3::ite(z3::slt(X, Y), X, Y);
  if (Op == "smax") return z3::ite(z3::sgt(X, Y), X, Y);
  if (Op == "umin") return z3::ite(z3::ult(X, Y), X, Y);
  if (Op == "umax") return z3::ite(z3::ugt(X, Y), X, Y);
  if (Op == "fmin") return z3::min(X, Y);
  if (Op == "fmax") return z3::max(X, Y);
  throw Unsupported{"operation " + Op};
}

z3::expr Validator::convert(const std::string &Op, const z3::expr &X, z3::sort To,
                         bool ToFloat) {
  auto Width = [](const z3::expr &E) { return E.is_bool() ? 1u : E.get_sort().bv_size(); };
  auto AsBv = [&](const z3::expr &E) {
    return E.is_bool() ? z3::ite(E, C.bv_val(1, 1), C.bv_val(0, 1)) : E;
  };
  if (Op == "zext" || Op == "sext") {
    z3::expr B = AsBv(X);
    unsigned Ext = To.bv_size() - Width(X);
    return Op == "zext" ? z3::zext(B, Ext) : z3::sext(B, Ext);
  }
  if (Op == "trunc") {
    if (To.is_bool())
      return X.extract(0, 0) == C.bv_val(1, 1);
    return X.extract(To.bv_size() - 1, 0);
  }
  if (Op == "sitofp" || Op == "uitofp")
    return z3::expr(C, Op == "sitofp" ? Z3_mk_fpa_to_fp_signed(C, rne(), AsBv(X), To)
                                      : Z3_mk_fpa_to_fp_unsigned(C, rne(), AsBv(X), To));
  if (Op == "fptosi" || Op == "fptoui")
    return z3::expr(C, Op == "fptosi"
                           ? Z3_mk_fpa_to_sbv(C, Z3_mk_fpa_rtz(C), X, To.bv_size())
                           : Z3_mk_fpa_to_ubv(C, Z3_mk_fpa_rtz(C), X, To.bv_size()));
  if (Op == "fpext" || Op == "fptrunc")
    return z3::expr(C, Z3_mk_fpa_to_fp_float(C, rne(), X, To));
  if (Op == "bitcast") {
    if (ToFloat)
      return z3::expr(C, Z3_mk_fpa_to_fp_bv(C, X, To));
    return z3::expr(C, Z3_mk_fpa_to_ieee_bv(C, X));
  }
  throw Unsupported{"cast " + Op};
}

Sym Validator::eval(const ExprPtr &E, std::map<std::string, Sym> &Env) {
  switch (E->K) {
  case Expr::Var: {
    auto It = Env.find(E->Name);
    if (It != Env.end())
      return It->second;
    auto P = Params.find(E->Name);
    if (P == Params.end())
      throw Unsupported{"FunIL variable " + E->Name + " has no meaning here"};
    return Sym{P->second, {}};
  }
  case Expr::Lit: {
    z3::sort S = sortOf(E->LitKind);
    if (S.is_bool())
      return Sym{C.bool_val(E->Bits != 0), {}};
    if (S.is_bv())
      return Sym{C.bv_val((uint64_t)E->Bits, S.bv_size()), {}};
    if (E->LitKind == ScalarKind::F32)
      return Sym{C.fpa_val((float)E->F), {}};
    return Sym{C.fpa_val(E->F), {}};
  }
  case Expr::Proj: {
    Sym T = eval(E->Args[0], Env);
    if (E->Index >= T.Parts.size())
      throw Unsupported{"projection out of a non-tuple"};
    return T.Parts[E->Index];
  }
  case Expr::Tuple: {
    Sym T;
    for (const ExprPtr &A : E->Args)
      T.Parts.push_back(eval(A, Env));
    return T;
  }
  case Expr::Cast: {
    Sym X = eval(E->Args[0], Env);
    z3::sort To = sortOf(E->LitKind);
    return Sym{convert(E->Name, *X.E, To, To.is_fpa()), {}};
  }
  case Expr::Call: {
    if (E->Name == "reduceSeq" && ReduceSeqValue)
      return Sym{*ReduceSeqValue, {}};
    std::vector<z3::expr> A;
    for (const ExprPtr &X : E->Args) {
      Sym S = eval(X, Env);
      if (!S.E)
        throw Unsupported{"operation " + E->Name + " on a non-scalar"};
      A.push_back(*S.E);
    }
    return Sym{apply(E->Name, A), {}};
  }
  case Expr::Lambda:
    break;
  }
  throw Unsupported{"lambda in a scalar position"};
}

z3::expr Validator::identityTerm(const ReductionInfo &R) {
  Constant *Id = reductionIdentity(R.Op, R.Phi->getType());
  if (!Id)
    throw Unsupported{"reduction without identity"};
  return tr(Id);
}

z3::expr Validator::tr(Value *V) {
  auto It = Memo.find(V);
  if (It != Memo.end())
    return It->second;
  std::optional<z3::expr> R;
  auto *I = dyn_cast<Instruction>(V);
  if (auto *CI = dyn_cast<ConstantInt>(V)) {
    R = CI->getBitWidth() == 1 ? C.bool_val(CI->isOne())
                               : C.bv_val(CI->getZExtValue(), CI->getBitWidth());
  } else if (auto *CF = dyn_cast<ConstantFP>(V)) {
    R = CF->getType()->isFloatTy() ? C.fpa_val(CF->getValueAPF().convertToFloat())
                                   : C.fpa_val(CF->getValueAPF().convertToDouble());
  } else if (!I || !M.Nest.contains(I)) {
    throw Unsupported{"loop-invariant value without a FunIL parameter"};
  } else if (auto *P = dyn_cast<PHINode>(I)) {
    unsigned D = 0;
    while (D < M.Nest.depth() && M.Nest.IVs[D] != P)
      ++D;
    if (D == M.Nest.depth() || !Iter[D])
      throw Unsupported{"phi without an iteration index"};
    // IV = start + step * k, in the phi's width.
    const SCEV *Start = M.Nest.IVStarts[D];
    z3::expr S = C.bv_val(0, 64);
    if (auto *SC = dyn_cast<SCEVConstant>(Start)) {
      S = C.bv_val((uint64_t)SC->getAPInt().getSExtValue(), 64);
    } else {
      bool Found = false;
      for (const LiftedParam &LP : L.Params)
        if (LP.K == LiftedParam::Kind::Index && LP.S && Params.count(LP.Name) &&
            (LP.S == Start || (isa<SCEVCastExpr>(LP.S) &&
                               cast<SCEVCastExpr>(LP.S)->getOperand(0) == Start))) {
          S = Params.at(LP.Name);
          Found = true;
        }
      if (!Found)
        throw Unsupported{"induction start without a FunIL parameter"};
    }
    z3::expr Full = S + *Iter[D] * C.bv_val((uint64_t)M.Nest.IVSteps[D], 64);
    unsigned W = P->getType()->getIntegerBitWidth();
    R = W == 64 ? Full : Full.extract(W - 1, 0);
  } else if (isa<LoadInst>(I)) {
    throw Unsupported{"load that is not an input of the element function"};
  } else if (isa<FreezeInst>(I)) {
    R = tr(I->getOperand(0));
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
    R = z3::ite(tr(Sel->getCondition()), tr(Sel->getTrueValue()), tr(Sel->getFalseValue()));
  } else if (auto *Cs = dyn_cast<CastInst>(I)) {
    z3::sort To = sortOf(Cs->getType());
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
    std::vector<z3::expr> A;
    unsigned NArgs = N == "abs" ? 1 : CB->arg_size();
    for (unsigned K = 0; K < NArgs; ++K)
      A.push_back(tr(CB->getArgOperand(K)));
    R = apply(N, A);
  } else {
    throw Unsupported{"instruction the validator does not model"};
  }
  Memo.emplace(V, *R);
  return *R;
}

/// The element lambda and the names bound around it, by template shape.
struct ElementFn {
  const Expr *Inner = nullptr; ///< lambda over `t`
  const Expr *Outer = nullptr; ///< 2-D: lambda over `r`
};

ElementFn findElementFn(const funil::Program &P, bool TwoD) {
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
  if (!TwoD) {
    F.Inner = Map->Args[0].get();
    return F;
  }
  F.Outer = Map->Args[0].get();
  const Expr *InnerMap = F.Outer->body().get();
  if (!InnerMap->isCall("map") || InnerMap->Args[0]->K != Expr::Lambda)
    throw Unsupported{"2-D map body is not map(lambda, ...)"};
  F.Inner = InnerMap->Args[0].get();
  return F;
}

/// Binds every FunIL parameter to a symbol; loop-invariant LLVM values to
/// the same symbols.
void Validator::bindParams() {
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
    z3::expr X = leaf(LP.Name, Narrow ? C.bv_sort(32) : sortOf(T));
    Params.emplace(LP.Name, X);
    // The call site passes narrow integers zero- (i1) or sign-extended.
    Memo.emplace(LP.V, T->isIntegerTy(1) ? X != C.bv_val(0, 32)
                       : Narrow          ? X.extract(T->getIntegerBitWidth() - 1, 0)
                                         : X);
  }
}

bool Validator::run(const funil::Program &P, unsigned TimeoutMs, std::string &Why) {
  bool TwoD = M.Nest.depth() == 2;
  ElementFn F = findElementFn(P, TwoD);
  Iter.assign(M.Nest.depth(), std::nullopt);
  bindParams();
  // Lambda inputs: one symbol per loaded element and iteration index.
  auto Inputs = [&](const std::vector<Value *> &Vs, const char *Prefix) {
    Sym T;
    for (size_t I = 0; I < Vs.size(); ++I) {
      Sym S;
      if (Value *V = Vs[I]) {
        std::string Name = std::string(Prefix) + std::to_string(I);
        if (auto *Phi = dyn_cast<PHINode>(V)) {
          S.E = leaf(Name, C.bv_sort(64));
          for (unsigned D = 0; D < M.Nest.depth(); ++D)
            if (M.Nest.IVs[D] == Phi)
              Iter[D] = S.E;
        } else {
          S.E = leaf(Name, sortOf(V->getType()));
          Memo.emplace(V, *S.E);
        }
      }
      T.Parts.push_back(S);
    }
    return T.Parts.size() == 1 ? T.Parts[0] : T;
  };
  std::map<std::string, Sym> Env;
  if (F.Outer)
    Env[F.Outer->Params.at(0).Name] = Inputs(L.OuterInputs, "r");
  Env[F.Inner->Params.at(0).Name] = Inputs(L.InnerInputs, "t");
  Sym Got = eval(F.Inner->body(), Env);

  // What the LLVM slice computes for the same inputs.
  std::vector<z3::expr> Want;
  if (M.Kind == IdiomKind::Map) {
    for (const AffineAccess &A : M.Accesses)
      if (A.IsStore)
        Want.push_back(tr(cast<StoreInst>(A.Inst)->getValueOperand()));
  } else if (M.Kind == IdiomKind::Histogram) {
    Want.push_back(C.bool_val(true)); // replaced below
  } else {
    for (const ReductionInfo &R : M.Reductions) {
      std::optional<z3::expr> E;
      std::string Op = reductionOpName(R.Op);
      for (size_t J = 0; J < R.Operands.size(); ++J) {
        z3::expr X = tr(R.Operands[J]);
        if (Value *Y = R.MulPartners[J])
          X = X * tr(Y);
        E = E ? apply(Op, {*E, X}) : X;
      }
      if (R.Cond)
        E = R.CondNegated ? z3::ite(tr(R.Cond), identityTerm(R), *E)
                          : z3::ite(tr(R.Cond), *E, identityTerm(R));
      Want.push_back(*E);
    }
  }
  std::vector<Sym> GotParts = Want.size() == 1 ? std::vector<Sym>{Got} : Got.Parts;
  z3::expr Differ = C.bool_val(false);
  if (M.Kind == IdiomKind::Histogram) {
    // The index equals the GEP index (sign-extended); for every bin value b,
    // op(b, value) equals what the loop stores (b when a guard fails).
    if (M.Histograms.empty())
      throw Unsupported{"histogram without a bin update"};
    const BinUpdateInfo &U = M.Histograms.front().U;
    Value *Idx = binIndexOf(U);
    if (!Idx || Got.Parts.size() != 2 || !Got.Parts[0].E || !Got.Parts[1].E)
      throw Unsupported{"histogram element function is not (index, value)"};
    z3::expr WantIdx = tr(Idx);
    if (WantIdx.get_sort().bv_size() < 64)
      WantIdx = z3::sext(WantIdx, 64 - WantIdx.get_sort().bv_size());
    GotParts = {Got.Parts[0]};
    Want = {WantIdx};
    z3::expr B = leaf("bin", sortOf(U.ElemTy));
    Memo.insert_or_assign(U.Acc, B);
    z3::expr Stored = tr(U.NewValue);
    for (const UpdateGuard &G : U.Guards)
      Stored = z3::ite(G.ExpectTrue ? tr(G.Cond) : !tr(G.Cond), Stored, B);
    const Expr *Op = P.Body->Args[0].get();
    if (Op->K != Expr::Lambda || Op->Params.size() != 2)
      throw Unsupported{"histogram operator is not a two-parameter lambda"};
    std::map<std::string, Sym> OEnv;
    OEnv[Op->Params[0].Name] = Sym{B, {}};
    OEnv[Op->Params[1].Name] = Got.Parts[1];
    Sym Upd = eval(Op->body(), OEnv);
    if (!Upd.E || !z3::eq(Upd.E->get_sort(), Stored.get_sort()))
      throw Unsupported{"histogram operator of another type than the bins"};
    Differ = Differ || *Upd.E != Stored;
  }
  if (M.Kind == IdiomKind::ScalarReduction) {
    // The combine operator and its identity, against the instruction that
    // combines accumulator and element in the loop.
    const Expr *Red = P.Body.get();
    const Expr *Comb = Red->Args[0].get();
    if (Comb->K != Expr::Lambda || Comb->Params.size() != 2)
      throw Unsupported{"combine is not a two-parameter lambda"};
    size_t K = M.Reductions.size();
    std::vector<z3::expr> As, Bs;
    Sym ASym, BSym;
    for (size_t I = 0; I < K; ++I) {
      z3::sort S = sortOf(M.Reductions[I].Phi->getType());
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
      z3::expr Op = C.bool_val(false);
      if (II && (II->getIntrinsicID() == Intrinsic::fmuladd ||
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
      if (!CI.E || !II2.E || !z3::eq(CI.E->get_sort(), Op.get_sort()))
        throw Unsupported{"combine or identity of another type than the accumulator"};
      Differ = Differ || *CI.E != Op || *II2.E != identityTerm(R);
    }
  }
  if (GotParts.size() != Want.size()) {
    Why = "lifted function has " + std::to_string(GotParts.size()) +
          " results, the slice " + std::to_string(Want.size());
    return false;
  }
  for (size_t I = 0; I < Want.size(); ++I) {
    if (!GotParts[I].E || !z3::eq(GotParts[I].E->get_sort(), Want[I].get_sort())) {
      Why = "result " + std::to_string(I) + " has another type than the slice";
      return false;
    }
    Differ = Differ || *GotParts[I].E != Want[I];
  }
  // Equal lifts give identical terms, which the simplifier folds to false;
  // only the others need the solver.
  z3::expr D = Differ.simplify();
  if (D.is_false())
    return true;
  z3::solver S(C);
  z3::params Ps(C);
  Ps.set("timeout", TimeoutMs);
  S.set(Ps);
  S.add(D);
  switch (S.check()) {
  case z3::unsat:
    return true;
  case z3::sat:
    Why = "Z3 found inputs on which the lifted FunIL and the LLVM slice differ "
          "(element function, combine operator, identity or histogram update)";
    return false;
  default:
    Why = "equivalence of the lifted FunIL and the LLVM slice not proven (Z3 unknown)";
    return false;
  }
}

/// The canonical GEMM program (GemmLifting.h): checks its shape, then proves
/// STEP, INIT and POST equal to the slices the lifter recorded, over shared
/// symbols for acc, x.0 (A's element), x.1 (B's element), the old C element
/// (q.1) and the reduction's result (reduceSeq in POST).
bool Validator::runGemm(const funil::Program &P, unsigned TimeoutMs,
                        std::string &Why) {
  const GemmSlice *G = L.Gemm.get();
  if (!G || L.Params.size() < 3)
    throw Unsupported{"GEMM lift without its slices"};
  auto IsView = [&](const Expr &E, size_t Buf) {
    return E.isCall("view") && E.Args.size() == 6 && E.Args[0]->K == Expr::Var &&
           E.Args[0]->Name == L.Params[Buf].Name;
  };
  auto IsMap = [](const Expr &E) {
    return E.isCall("map") && E.Args.size() == 2 && E.Args[0]->K == Expr::Lambda &&
           E.Args[0]->Params.size() == 1 && E.Args[1]->isCall("zip") &&
           E.Args[1]->Args.size() == 2;
  };
  // store view(C) = map(\r => map(\q => POST, zip(view(B), r.1)),
  //                     zip(view(A), view(C)))
  const Expr &Rows = *P.Body;
  if (P.IsReturn || P.Outs.size() != 1 || !IsView(*P.Outs[0], 2) || !IsMap(Rows) ||
      !IsView(*Rows.Args[1]->Args[0], 0) ||
      !funil::sameExpr(*Rows.Args[1]->Args[1], *P.Outs[0]))
    throw Unsupported{"GEMM program is not store view(C) = map(f, zip(view(A), view(C)))"};
  const Expr &RowFn = *Rows.Args[0];
  const std::string &R = RowFn.Params[0].Name;
  const Expr &Cols = *RowFn.body();
  if (!IsMap(Cols) || !IsView(*Cols.Args[1]->Args[0], 1) ||
      funil::printExpr(*Cols.Args[1]->Args[1]) != R + ".1")
    throw Unsupported{"GEMM row function is not map(g, zip(view(B), r.1))"};
  const Expr &ColFn = *Cols.Args[0];
  const std::string &Q = ColFn.Params[0].Name;
  std::vector<const Expr *> Reds;
  std::function<void(const Expr &)> Find = [&](const Expr &E) {
    if (E.isCall("reduceSeq"))
      Reds.push_back(&E);
    for (const ExprPtr &A : E.Args)
      Find(*A);
  };
  Find(*ColFn.body());
  if (Reds.size() != 1 || Reds[0]->Args.size() != 3 ||
      Reds[0]->Args[0]->K != Expr::Lambda || Reds[0]->Args[0]->Params.size() != 2 ||
      funil::printExpr(*Reds[0]->Args[2]) != "zip(" + R + ".0, " + Q + ".0)")
    throw Unsupported{"GEMM element function is not POST(reduceSeq(step, init, "
                      "zip(r.0, q.0)), q.1)"};
  const Expr &Step = *Reds[0]->Args[0];

  bindParams();
  z3::sort S = sortOf(G->Step->getType());
  z3::expr Acc = leaf("acc", S), XA = leaf("xA", S), XB = leaf("xB", S),
           COld = leaf("cOld", S), Result = leaf("result", S);
  auto Base = Memo;
  auto Bind = [&](ArrayRef<Value *> Vs, const z3::expr &E) {
    for (Value *V : Vs)
      Memo.insert_or_assign(V, E);
  };
  // STEP: the accumulator and one element each of A and B.
  Bind(G->Acc, Acc);
  Bind(G->ElemA, XA);
  Bind(G->ElemB, XB);
  z3::expr StepWant = tr(G->Step);
  std::map<std::string, Sym> Env;
  Env[Step.Params[0].Name] = Sym{Acc, {}};
  Env[Step.Params[1].Name] = Sym{std::nullopt, {Sym{XA, {}}, Sym{XB, {}}}};
  Sym StepGot = eval(Step.body(), Env);
  // INIT and POST: the old C element; POST also the reduction's result.
  Memo = Base;
  Bind(G->COld, COld);
  z3::expr InitWant = G->Init ? tr(G->Init) : COld;
  Bind(G->Final, Result);
  z3::expr PostWant = G->Post ? tr(G->Post) : Result;
  Env.clear();
  Env[Q] = Sym{std::nullopt, {Sym{}, Sym{COld, {}}}};
  Sym InitGot = eval(Reds[0]->Args[1], Env);
  ReduceSeqValue = Result;
  Sym PostGot = eval(ColFn.body(), Env);
  ReduceSeqValue.reset();

  z3::expr Differ = C.bool_val(false);
  const char *Names[] = {"STEP", "INIT", "POST"};
  const Sym *Got[] = {&StepGot, &InitGot, &PostGot};
  const z3::expr *Want[] = {&StepWant, &InitWant, &PostWant};
  for (int I = 0; I < 3; ++I) {
    if (!Got[I]->E || !z3::eq(Got[I]->E->get_sort(), Want[I]->get_sort())) {
      Why = std::string("GEMM ") + Names[I] + " has another type than the slice";
      return false;
    }
    Differ = Differ || *Got[I]->E != *Want[I];
  }
  z3::expr D = Differ.simplify();
  if (D.is_false())
    return true;
  z3::solver Sv(C);
  z3::params Ps(C);
  Ps.set("timeout", TimeoutMs);
  Sv.set(Ps);
  Sv.add(D);
  switch (Sv.check()) {
  case z3::unsat:
    return true;
  case z3::sat:
    Why = "Z3 found inputs on which the lifted FunIL and the LLVM slice differ "
          "(GEMM STEP, INIT or POST)";
    return false;
  default:
    Why = "equivalence of the lifted GEMM and the LLVM slice not proven (Z3 unknown)";
    return false;
  }
}

} // namespace

bool validateLifting(const IdiomMatch &M, const LiftedIdiom &L,
                     const funil::Program &P, unsigned TimeoutMs,
                     std::string &Why) {
  z3::context &C = sharedZ3Context();
  try {
    Validator V(C, M, L);
    if (M.Kind == IdiomKind::Gemm)
      return V.runGemm(P, TimeoutMs, Why);
    return V.run(P, TimeoutMs, Why);
  } catch (const Unsupported &U) {
    Why = "translation validation: " + U.Why;
  } catch (const z3::exception &E) {
    Why = std::string("translation validation: Z3 error: ") + E.msg();
  } catch (const std::out_of_range &) {
    Why = "translation validation: unexpected FunIL shape";
  }
  return false;
}

} // namespace idiom
