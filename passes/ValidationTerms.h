//===- ValidationTerms.h - Hash-consed terms for translation validation -*- C++ -*-===//
//
// Part of Idiom. Translation validation (TranslationValidation.cpp) first
// builds both sides as hash-consed terms without Z3: when every pair it
// compares is the same term, equality holds for every input and no Z3
// context is needed (creating one costs about 7 ms). Term mirrors the part
// of z3::expr's interface the validator uses; each operation makes the node
// (operation, result sort, operands, value or name), so the same node is
// built exactly when Z3 would be given the same constructor with the same
// arguments, with one canonicalisation: operands of commutative operations
// (bit-vector and IEEE add and mul, bitwise and Boolean and/or/xor) are
// ordered, and bit-vector x + 0 and x * 1 are x (modular arithmetic; IEEE
// add and mul commute also in Z3's FP theory, which has a single NaN).
// Anything the mirror does not model, or operands of sorts Z3 would reject,
// throws GiveUp: the validator then asks Z3 as before.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_PASSES_VALIDATIONTERMS_H
#define IDIOM_PASSES_VALIDATIONTERMS_H

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace idiom::tv {

/// Thrown where the terms cannot decide; the caller falls back to Z3.
struct GiveUp {};

/// A sort: Bool, bit-vector of W bits, IEEE float of W bits (32, 64), or a
/// rounding mode.
struct TSort {
  enum Kind : uint8_t { Bool, BV, FP, RM } K = Bool;
  unsigned W = 0;
  bool is_bool() const { return K == Bool; }
  bool is_bv() const { return K == BV; }
  bool is_fpa() const { return K == FP; }
  unsigned bv_size() const {
    if (K != BV)
      throw GiveUp{};
    return W;
  }
  bool operator==(const TSort &O) const { return K == O.K && W == O.W; }
  bool operator<(const TSort &O) const { return std::tie(K, W) < std::tie(O.K, O.W); }
};

/// One node of the term DAG; nodes are unique per context (hash-consed).
struct Node {
  std::string Op;  ///< operation, "leaf", "const" or an uninterpreted name
  TSort S;         ///< result sort
  std::vector<const Node *> Args;
  uint64_t Val = 0; ///< constant bits, extract bounds, extension width
  std::string Name; ///< leaf or uninterpreted function name
  unsigned Id = 0;  ///< creation order, for ordering commutative operands
};

class TermContext;

/// A term: a node of a TermContext.
class Term {
public:
  Term(TermContext &C, const Node *N) : C(&C), N(N) {}
  TSort get_sort() const { return N->S; }
  bool is_bool() const { return N->S.is_bool(); }
  /// True for the constant false.
  bool is_false() const { return N->Op == "const" && N->S.is_bool() && N->Val == 0; }
  /// Identity: the terms are compared as they are built.
  Term simplify() const { return *this; }
  Term extract(unsigned Hi, unsigned Lo) const;
  Term mk_is_nan() const;
  TermContext &ctx() const { return *C; }
  const Node *node() const { return N; }

private:
  TermContext *C;
  const Node *N;
};

/// Owns the nodes; the z3::context counterpart (same member names).
class TermContext {
public:
  /// The unique node (Op, S, Args, Val, Name).
  Term make(const std::string &Op, TSort S, std::vector<const Node *> Args,
            uint64_t Val = 0, const std::string &Name = "") {
    auto Key = std::make_tuple(Op, S, Args, Val, Name);
    auto It = Nodes.find(Key);
    if (It == Nodes.end()) {
      auto P = std::make_unique<Node>(Node{Op, S, Args, Val, Name, unsigned(Nodes.size())});
      It = Nodes.emplace(std::move(Key), std::move(P)).first;
    }
    return Term(*this, It->second.get());
  }
  TSort bool_sort() { return {TSort::Bool, 0}; }
  TSort bv_sort(unsigned W) { return {TSort::BV, W}; }
  TSort fp_sort(unsigned W) { return {TSort::FP, W}; }
  Term bool_val(bool B) { return make("const", bool_sort(), {}, B ? 1 : 0); }
  Term bv_val(uint64_t V, unsigned W) {
    if (W == 0 || W > 64)
      throw GiveUp{};
    return make("const", bv_sort(W), {}, W == 64 ? V : V & ((uint64_t(1) << W) - 1));
  }
  Term fpa_val(float F) {
    uint32_t B;
    std::memcpy(&B, &F, 4);
    return make("const", fp_sort(32), {}, B);
  }
  Term fpa_val(double D) {
    uint64_t B;
    std::memcpy(&B, &D, 8);
    return make("const", fp_sort(64), {}, B);
  }
  Term constant(const char *Name, TSort S) { return make("leaf", S, {}, 0, Name); }
  Term rounding(const char *Mode) { return make(Mode, {TSort::RM, 0}, {}); }

private:
  using Key = std::tuple<std::string, TSort, std::vector<const Node *>, uint64_t,
                         std::string>;
  std::map<Key, std::unique_ptr<Node>> Nodes;
};

/// Operation \p Op on operands of one sort (checked), of result sort \p R
/// (the operands' sort when \p R is null).
inline Term same(const std::string &Op, std::vector<Term> A, const TSort *R = nullptr) {
  std::vector<const Node *> Ns;
  for (const Term &X : A) {
    if (!(X.get_sort() == A[0].get_sort()))
      throw GiveUp{};
    Ns.push_back(X.node());
  }
  return A[0].ctx().make(Op, R ? *R : A[0].get_sort(), std::move(Ns));
}
inline Term numeric(const std::string &Op, std::vector<Term> A) {
  if (!A[0].get_sort().is_bv() && !A[0].get_sort().is_fpa())
    throw GiveUp{};
  return same(Op, std::move(A));
}
inline Term bvOnly(const std::string &Op, std::vector<Term> A) {
  if (!A[0].get_sort().is_bv())
    throw GiveUp{};
  return same(Op, std::move(A));
}
inline Term fpOnly(const std::string &Op, std::vector<Term> A) {
  if (!A[0].get_sort().is_fpa())
    throw GiveUp{};
  return same(Op, std::move(A));
}
inline Term boolOnly(const std::string &Op, std::vector<Term> A) {
  if (!A[0].get_sort().is_bool())
    throw GiveUp{};
  return same(Op, std::move(A));
}
inline Term relation(const std::string &Op, const Term &X, const Term &Y, bool FP,
                     bool BV) {
  TSort B{TSort::Bool, 0};
  if (!((FP && X.get_sort().is_fpa()) || (BV && X.get_sort().is_bv())))
    throw GiveUp{};
  return same(Op, {X, Y}, &B);
}

/// True for the bit-vector constant \p V.
inline bool isBvConst(const Term &X, uint64_t V) {
  const Node *N = X.node();
  return N->Op == "const" && N->S.is_bv() && N->Val == V;
}
/// X op Y with the operands in creation order (commutative operations).
inline Term commuted(Term (*Op)(const std::string &, std::vector<Term>),
                     const std::string &Name, const Term &X, const Term &Y) {
  return X.node()->Id <= Y.node()->Id ? Op(Name, {X, Y}) : Op(Name, {Y, X});
}

inline Term operator+(const Term &X, const Term &Y) {
  if (X.get_sort() == Y.get_sort() && isBvConst(Y, 0))
    return X;
  if (X.get_sort() == Y.get_sort() && isBvConst(X, 0))
    return Y;
  return commuted(numeric, "add", X, Y);
}
inline Term operator-(const Term &X, const Term &Y) { return numeric("sub", {X, Y}); }
inline Term operator*(const Term &X, const Term &Y) {
  if (X.get_sort() == Y.get_sort() && isBvConst(Y, 1))
    return X;
  if (X.get_sort() == Y.get_sort() && isBvConst(X, 1))
    return Y;
  return commuted(numeric, "mul", X, Y);
}
inline Term operator/(const Term &X, const Term &Y) { return numeric("div", {X, Y}); }
inline Term operator-(const Term &X) { return numeric("neg", {X}); }
inline Term operator&(const Term &X, const Term &Y) { return commuted(bvOnly, "bvand", X, Y); }
inline Term operator|(const Term &X, const Term &Y) { return commuted(bvOnly, "bvor", X, Y); }
inline Term operator^(const Term &X, const Term &Y) { return commuted(bvOnly, "bvxor", X, Y); }
inline Term operator!(const Term &X) { return boolOnly("not", {X}); }
inline Term operator&&(const Term &X, const Term &Y) { return commuted(boolOnly, "and", X, Y); }
inline Term operator||(const Term &X, const Term &Y) {
  if (X.is_false() && Y.is_bool())
    return Y;
  if (Y.is_false() && X.is_bool())
    return X;
  return commuted(boolOnly, "or", X, Y);
}
inline Term operator==(const Term &X, const Term &Y) {
  TSort B{TSort::Bool, 0};
  return same("eq", {X, Y}, &B);
}
/// `distinct`: false for the same term (what Z3's simplifier does too).
inline Term operator!=(const Term &X, const Term &Y) {
  if (X.node() == Y.node())
    return X.ctx().bool_val(false);
  TSort B{TSort::Bool, 0};
  return same("distinct", {X, Y}, &B);
}
// z3's operator< and friends: signed on bit-vectors, IEEE on floats.
inline Term operator<(const Term &X, const Term &Y) { return relation("lt", X, Y, true, true); }
inline Term operator<=(const Term &X, const Term &Y) { return relation("le", X, Y, true, true); }
inline Term operator>(const Term &X, const Term &Y) { return relation("gt", X, Y, true, true); }
inline Term operator>=(const Term &X, const Term &Y) { return relation("ge", X, Y, true, true); }

inline Term Term::extract(unsigned Hi, unsigned Lo) const {
  if (!N->S.is_bv() || Hi < Lo || Hi >= N->S.W)
    throw GiveUp{};
  return C->make("extract", C->bv_sort(Hi - Lo + 1), {N}, uint64_t(Hi) << 32 | Lo);
}
inline Term Term::mk_is_nan() const {
  if (!N->S.is_fpa())
    throw GiveUp{};
  return C->make("isnan", C->bool_sort(), {N});
}

} // namespace idiom::tv

#endif // IDIOM_PASSES_VALIDATIONTERMS_H
