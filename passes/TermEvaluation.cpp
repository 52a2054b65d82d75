//===- TermEvaluation.cpp - Deciding small validation terms by evaluation -===//

#include "TermEvaluation.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <vector>

using llvm::APInt;

namespace idiom::tv {
namespace {

/// Bit-vectors of at most 64 bits, or Booleans (as 1-bit values).
bool evaluatedSort(const TSort &S) {
  return S.is_bool() || (S.is_bv() && S.W >= 1 && S.W <= 64);
}
unsigned bitsOf(const TSort &S) { return S.is_bool() ? 1 : S.W; }

/// The operations evaluated here.
enum class EvalOp {
  Const, Leaf, Not, Neg, Add, Sub, Mul, And, Or, Xor, Eq, Distinct, Slt, Sle,
  Sgt, Sge, Ult, Ule, Ugt, Uge, Ite, ZExt, SExt, Extract, Shl, LShr, AShr
};

/// The operation of node \p N with its operands' count and sorts checked
/// (relations and arithmetic on bit-vectors only: on floats the same names
/// are IEEE operations); nothing when it is not evaluated here.
std::optional<EvalOp> decode(const Node &N) {
  static const std::pair<const char *, std::pair<EvalOp, unsigned>> Table[] = {
      {"const", {EvalOp::Const, 0}}, {"leaf", {EvalOp::Leaf, 0}},
      {"not", {EvalOp::Not, 1}},     {"neg", {EvalOp::Neg, 1}},
      {"add", {EvalOp::Add, 2}},     {"sub", {EvalOp::Sub, 2}},
      {"mul", {EvalOp::Mul, 2}},     {"bvand", {EvalOp::And, 2}},
      {"and", {EvalOp::And, 2}},     {"bvor", {EvalOp::Or, 2}},
      {"or", {EvalOp::Or, 2}},       {"bvxor", {EvalOp::Xor, 2}},
      {"eq", {EvalOp::Eq, 2}},       {"distinct", {EvalOp::Distinct, 2}},
      {"slt", {EvalOp::Slt, 2}},     {"lt", {EvalOp::Slt, 2}},
      {"sle", {EvalOp::Sle, 2}},     {"le", {EvalOp::Sle, 2}},
      {"sgt", {EvalOp::Sgt, 2}},     {"gt", {EvalOp::Sgt, 2}},
      {"sge", {EvalOp::Sge, 2}},     {"ge", {EvalOp::Sge, 2}},
      {"ult", {EvalOp::Ult, 2}},     {"ule", {EvalOp::Ule, 2}},
      {"ugt", {EvalOp::Ugt, 2}},     {"uge", {EvalOp::Uge, 2}},
      {"ite", {EvalOp::Ite, 3}},     {"zext", {EvalOp::ZExt, 1}},
      {"sext", {EvalOp::SExt, 1}},   {"extract", {EvalOp::Extract, 1}},
      {"bvshl", {EvalOp::Shl, 2}},   {"bvlshr", {EvalOp::LShr, 2}},
      {"bvashr", {EvalOp::AShr, 2}}};
  for (const auto &E : Table) {
    if (N.Op != E.first || N.Args.size() != E.second.second)
      continue;
    EvalOp Op = E.second.first;
    bool BoolOk = Op == EvalOp::Not || Op == EvalOp::And || Op == EvalOp::Or ||
                  Op == EvalOp::Eq || Op == EvalOp::Distinct || Op == EvalOp::Ite;
    // Operands: Booleans only where the operation takes them (the first of
    // ite is its condition); everything else on bit-vectors.
    for (size_t K = Op == EvalOp::Ite ? 1 : 0; K < N.Args.size(); ++K)
      if (!N.Args[K]->S.is_bv() && !BoolOk)
        return std::nullopt;
    return Op;
  }
  return std::nullopt;
}

/// The value of node \p N (operation \p Op) at operand values \p A.
APInt evalNode(const Node &N, EvalOp Op, const std::vector<const APInt *> &A) {
  auto Bit = [](bool B) { return APInt(1, B ? 1 : 0); };
  switch (Op) {
  case EvalOp::Const: return APInt(bitsOf(N.S), N.Val);
  case EvalOp::Leaf: break;
  case EvalOp::Not: return ~*A[0];
  case EvalOp::Neg: return -*A[0];
  case EvalOp::Add: return *A[0] + *A[1];
  case EvalOp::Sub: return *A[0] - *A[1];
  case EvalOp::Mul: return *A[0] * *A[1];
  case EvalOp::And: return *A[0] & *A[1];
  case EvalOp::Or: return *A[0] | *A[1];
  case EvalOp::Xor: return *A[0] ^ *A[1];
  case EvalOp::Eq: return Bit(*A[0] == *A[1]);
  case EvalOp::Distinct: return Bit(*A[0] != *A[1]);
  case EvalOp::Slt: return Bit(A[0]->slt(*A[1]));
  case EvalOp::Sle: return Bit(A[0]->sle(*A[1]));
  case EvalOp::Sgt: return Bit(A[0]->sgt(*A[1]));
  case EvalOp::Sge: return Bit(A[0]->sge(*A[1]));
  case EvalOp::Ult: return Bit(A[0]->ult(*A[1]));
  case EvalOp::Ule: return Bit(A[0]->ule(*A[1]));
  case EvalOp::Ugt: return Bit(A[0]->ugt(*A[1]));
  case EvalOp::Uge: return Bit(A[0]->uge(*A[1]));
  case EvalOp::Ite: return A[0]->isOne() ? *A[1] : *A[2];
  case EvalOp::ZExt: return A[0]->zext(N.S.W);
  case EvalOp::SExt: return A[0]->sext(N.S.W);
  case EvalOp::Extract: {
    unsigned Hi = unsigned(N.Val >> 32), Lo = unsigned(N.Val);
    return A[0]->extractBits(Hi - Lo + 1, Lo);
  }
  // APInt's shifts by an APInt amount give 0 (the sign for ashr) at the
  // width or more, as SMT-LIB's bvshl, bvlshr and bvashr do.
  case EvalOp::Shl: return A[0]->shl(*A[1]);
  case EvalOp::LShr: return A[0]->lshr(*A[1]);
  case EvalOp::AShr: return A[0]->ashr(*A[1]);
  }
  return APInt(bitsOf(N.S), 0);
}

} // namespace

std::optional<bool> satisfiableByEvaluation(const Term &D) {
  if (!D.is_bool())
    return std::nullopt;
  // Nodes in operand-first order, and the leaves among them.
  std::vector<const Node *> Order, Leaves;
  std::vector<EvalOp> Ops;
  llvm::DenseMap<const Node *, unsigned> Index;
  bool Ok = true;
  std::function<void(const Node *)> Visit = [&](const Node *N) {
    if (!Ok || Index.count(N))
      return;
    if (!evaluatedSort(N->S)) {
      Ok = false;
      return;
    }
    std::optional<EvalOp> Op = decode(*N);
    if (!Op) {
      Ok = false;
      return;
    }
    for (const Node *A : N->Args)
      Visit(A);
    if (!Ok)
      return;
    Index[N] = Order.size();
    Ops.push_back(*Op);
    Order.push_back(N);
    if (N->Op == "leaf")
      Leaves.push_back(N);
  };
  Visit(D.node());
  if (!Ok)
    return std::nullopt;
  unsigned Bits = 0;
  for (const Node *L : Leaves)
    Bits += bitsOf(L->S);
  if (Bits > MaxEvaluatedLeafBits)
    return std::nullopt;

  std::vector<std::vector<unsigned>> ArgIdx(Order.size());
  for (size_t K = 0; K < Order.size(); ++K)
    for (const Node *A : Order[K]->Args)
      ArgIdx[K].push_back(Index[A]);
  std::vector<APInt> Vals(Order.size());
  std::vector<const APInt *> Args;
  for (uint64_t X = 0; X < (uint64_t(1) << Bits); ++X) {
    unsigned Shift = 0;
    for (const Node *L : Leaves) {
      unsigned W = bitsOf(L->S);
      Vals[Index[L]] = APInt(W, (X >> Shift) & ((uint64_t(1) << W) - 1));
      Shift += W;
    }
    for (size_t K = 0; K < Order.size(); ++K) {
      const Node &N = *Order[K];
      if (Ops[K] == EvalOp::Leaf)
        continue;
      Args.clear();
      for (unsigned A : ArgIdx[K])
        Args.push_back(&Vals[A]);
      Vals[K] = evalNode(N, Ops[K], Args);
    }
    if (Vals.back().isOne())
      return true;
  }
  return false;
}

} // namespace idiom::tv
