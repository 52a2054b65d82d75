//===- ValidationBackends.h - Term backends of translation validation -*- C++ -*-===//
//
// Part of Idiom. The two backends the validator (TranslationValidation.cpp)
// builds both sides with: Z3Terms (z3::expr; a proof within a time limit)
// and HashTerms (hash-consed tv::Term, ValidationTerms.h; equal terms only,
// small ones decided by exhaustive evaluation, TermEvaluation.h). Each has
// the same static interface (relations, extensions, casts, rounding,
// uninterpreted functions, decide), so the validator is written once over
// either.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_VALIDATIONBACKENDS_H
#define IDIOM_PASSES_VALIDATIONBACKENDS_H

#include "TermEvaluation.h"
#include "ValidationTerms.h"
#include "idiom/Constraints/Z3Budget.h"
#include <string>
#include <vector>
#include <z3++.h>

namespace idiom::tv {

/// Z3 terms: the proof.
struct Z3Terms {
  using Expr = z3::expr;
  using Sort = z3::sort;
  using Context = z3::context;
#define IDIOM_TV_FWD(N) \
  template <class... A> static Expr N(const A &...X) { return z3::N(X...); }
  IDIOM_TV_FWD(slt) IDIOM_TV_FWD(sle) IDIOM_TV_FWD(sgt) IDIOM_TV_FWD(sge)
  IDIOM_TV_FWD(ult) IDIOM_TV_FWD(ule) IDIOM_TV_FWD(ugt) IDIOM_TV_FWD(uge)
  IDIOM_TV_FWD(fp_eq) IDIOM_TV_FWD(ite) IDIOM_TV_FWD(abs) IDIOM_TV_FWD(sqrt)
  IDIOM_TV_FWD(fma) IDIOM_TV_FWD(udiv) IDIOM_TV_FWD(srem) IDIOM_TV_FWD(urem)
  IDIOM_TV_FWD(shl) IDIOM_TV_FWD(lshr) IDIOM_TV_FWD(ashr) IDIOM_TV_FWD(min)
  IDIOM_TV_FWD(max)
#undef IDIOM_TV_FWD
  static Expr zext(const Expr &X, unsigned N) { return z3::zext(X, N); }
  static Expr sext(const Expr &X, unsigned N) { return z3::sext(X, N); }
  static bool eq(const Sort &A, const Sort &B) { return z3::eq(A, B); }
  /// The same term (structurally, as built).
  static bool same(const Expr &X, const Expr &Y) { return z3::eq(X, Y); }
  static Sort fpSort(Context &C, unsigned W) {
    return W == 32 ? C.fpa_sort<32>() : C.fpa_sort<64>();
  }
  static Expr rne(Context &C) { return Expr(C, Z3_mk_fpa_rne(C)); }
  static Expr roundIntegral(Context &C, bool Floor, const Expr &X) {
    Z3_ast RM = Floor ? Z3_mk_fpa_rtn(C) : Z3_mk_fpa_rtp(C);
    return Expr(C, Z3_mk_fpa_round_to_integral(C, RM, X));
  }
  static Expr uninterpreted(Context &C, const std::string &Name,
                            const std::vector<Expr> &A, const Sort &S) {
    z3::sort_vector Dom(C);
    z3::expr_vector Args(C);
    for (const Expr &X : A) {
      Dom.push_back(X.get_sort());
      Args.push_back(X);
    }
    return C.function(Name.c_str(), Dom, S)(Args);
  }
  static Expr intToFp(Context &C, bool Signed, const Expr &X, const Sort &To) {
    return Expr(C, Signed ? Z3_mk_fpa_to_fp_signed(C, rne(C), X, To)
                          : Z3_mk_fpa_to_fp_unsigned(C, rne(C), X, To));
  }
  static Expr fpToInt(Context &C, bool Signed, const Expr &X, unsigned W) {
    return Expr(C, Signed ? Z3_mk_fpa_to_sbv(C, Z3_mk_fpa_rtz(C), X, W)
                          : Z3_mk_fpa_to_ubv(C, Z3_mk_fpa_rtz(C), X, W));
  }
  static Expr fpToFp(Context &C, const Expr &X, const Sort &To) {
    return Expr(C, Z3_mk_fpa_to_fp_float(C, rne(C), X, To));
  }
  static Expr bitsToFp(Context &C, const Expr &X, const Sort &To) {
    return Expr(C, Z3_mk_fpa_to_fp_bv(C, X, To));
  }
  static Expr fpToBits(Context &C, const Expr &X) {
    return Expr(C, Z3_mk_fpa_to_ieee_bv(C, X));
  }
  /// Is \p D (the two sides differ) satisfiable, within \p TimeoutMs?
  static z3::check_result decide(Context &C, const Expr &D, unsigned TimeoutMs) {
    z3::solver S(C);
    applyZ3Limits(C, S, TimeoutMs);
    S.add(D);
    switch (checkWithinLimits(S)) {
    case Z3Outcome::Unsat: return z3::unsat;
    case Z3Outcome::Sat: return z3::sat;
    default: return z3::unknown;
    }
  }
};

/// Set by HashTerms::decide when exhaustive evaluation decided (reset by
/// decideWithoutZ3).
inline thread_local bool DecidedByEvaluation = false;

/// Hash-consed terms (ValidationTerms.h): the same operations, each a node;
/// no solver: decide evaluates small terms exhaustively (TermEvaluation.h)
/// and otherwise gives up, and the caller asks Z3.
struct HashTerms {
  using Expr = tv::Term;
  using Sort = tv::TSort;
  using Context = tv::TermContext;
  using GiveUp = tv::GiveUp;
  static Expr bvRel(const char *Op, const Expr &X, const Expr &Y) {
    return tv::relation(Op, X, Y, false, true);
  }
  static Expr slt(const Expr &X, const Expr &Y) { return bvRel("slt", X, Y); }
  static Expr sle(const Expr &X, const Expr &Y) { return bvRel("sle", X, Y); }
  static Expr sgt(const Expr &X, const Expr &Y) { return bvRel("sgt", X, Y); }
  static Expr sge(const Expr &X, const Expr &Y) { return bvRel("sge", X, Y); }
  static Expr ult(const Expr &X, const Expr &Y) { return bvRel("ult", X, Y); }
  static Expr ule(const Expr &X, const Expr &Y) { return bvRel("ule", X, Y); }
  static Expr ugt(const Expr &X, const Expr &Y) { return bvRel("ugt", X, Y); }
  static Expr uge(const Expr &X, const Expr &Y) { return bvRel("uge", X, Y); }
  static Expr fp_eq(const Expr &X, const Expr &Y) {
    return tv::relation("fp.eq", X, Y, true, false);
  }
  static Expr ite(const Expr &Cnd, const Expr &X, const Expr &Y) {
    if (!Cnd.is_bool() || !(X.get_sort() == Y.get_sort()))
      throw GiveUp{};
    return Cnd.ctx().make("ite", X.get_sort(), {Cnd.node(), X.node(), Y.node()});
  }
  static Expr abs(const Expr &X) { return tv::fpOnly("fp.abs", {X}); }
  static Expr sqrt(const Expr &X, const Expr &RM) { return withRM("fp.sqrt", RM, {X}); }
  static Expr fma(const Expr &X, const Expr &Y, const Expr &Z, const Expr &RM) {
    return withRM("fp.fma", RM, {X, Y, Z});
  }
  static Expr udiv(const Expr &X, const Expr &Y) { return tv::bvOnly("bvudiv", {X, Y}); }
  static Expr srem(const Expr &X, const Expr &Y) { return tv::bvOnly("bvsrem", {X, Y}); }
  static Expr urem(const Expr &X, const Expr &Y) { return tv::bvOnly("bvurem", {X, Y}); }
  static Expr shl(const Expr &X, const Expr &Y) { return tv::bvOnly("bvshl", {X, Y}); }
  static Expr lshr(const Expr &X, const Expr &Y) { return tv::bvOnly("bvlshr", {X, Y}); }
  static Expr ashr(const Expr &X, const Expr &Y) { return tv::bvOnly("bvashr", {X, Y}); }
  static Expr min(const Expr &X, const Expr &Y) { return tv::fpOnly("fp.min", {X, Y}); }
  static Expr max(const Expr &X, const Expr &Y) { return tv::fpOnly("fp.max", {X, Y}); }
  static Expr zext(const Expr &X, unsigned N) { return extend("zext", X, N); }
  static Expr sext(const Expr &X, unsigned N) { return extend("sext", X, N); }
  static bool eq(const Sort &A, const Sort &B) { return A == B; }
  static bool same(const Expr &X, const Expr &Y) { return X.node() == Y.node(); }
  static Sort fpSort(Context &C, unsigned W) { return C.fp_sort(W); }
  static Expr rne(Context &C) { return C.rounding("rne"); }
  static Expr roundIntegral(Context &C, bool Floor, const Expr &X) {
    return tv::fpOnly(Floor ? "fp.roundToIntegral.rtn" : "fp.roundToIntegral.rtp", {X});
  }
  static Expr uninterpreted(Context &C, const std::string &Name,
                            const std::vector<Expr> &A, const Sort &S) {
    std::vector<const tv::Node *> Ns;
    for (const Expr &X : A)
      Ns.push_back(X.node());
    return C.make("uf", S, std::move(Ns), 0, Name);
  }
  static Expr intToFp(Context &C, bool Signed, const Expr &X, const Sort &To) {
    if (!X.get_sort().is_bv() || !To.is_fpa())
      throw GiveUp{};
    return C.make(Signed ? "sitofp" : "uitofp", To, {X.node()});
  }
  static Expr fpToInt(Context &C, bool Signed, const Expr &X, unsigned W) {
    if (!X.get_sort().is_fpa())
      throw GiveUp{};
    return C.make(Signed ? "fptosi" : "fptoui", C.bv_sort(W), {X.node()});
  }
  static Expr fpToFp(Context &C, const Expr &X, const Sort &To) {
    if (!X.get_sort().is_fpa() || !To.is_fpa())
      throw GiveUp{};
    return C.make("fpconv", To, {X.node()});
  }
  static Expr bitsToFp(Context &C, const Expr &X, const Sort &To) {
    if (!X.get_sort().is_bv() || !To.is_fpa() || X.get_sort().W != To.W)
      throw GiveUp{};
    return C.make("bits2fp", To, {X.node()});
  }
  static Expr fpToBits(Context &C, const Expr &X) {
    if (!X.get_sort().is_fpa())
      throw GiveUp{};
    return C.make("fp2bits", C.bv_sort(X.get_sort().W), {X.node()});
  }
  /// unsat when D is false at every assignment of its leaves. Gives up
  /// where D holds somewhere too: Z3 then finds and explains the difference.
  static z3::check_result decide(Context &, const Expr &D, unsigned) {
    if (tv::satisfiableByEvaluation(D) != std::optional<bool>(false))
      throw GiveUp{};
    DecidedByEvaluation = true;
    return z3::unsat;
  }

private:
  static Expr withRM(const char *Op, const Expr &RM, std::vector<Expr> A) {
    Expr R = tv::fpOnly(Op, A);
    std::vector<const tv::Node *> Ns{RM.node()};
    for (const Expr &X : A)
      Ns.push_back(X.node());
    return R.ctx().make(Op, R.get_sort(), std::move(Ns));
  }
  static Expr extend(const char *Op, const Expr &X, unsigned N) {
    if (!X.get_sort().is_bv() || X.get_sort().W + N > 64)
      throw GiveUp{};
    return X.ctx().make(Op, X.ctx().bv_sort(X.get_sort().W + N), {X.node()}, N);
  }
};

} // namespace idiom::tv

#endif // IDIOM_PASSES_VALIDATIONBACKENDS_H
