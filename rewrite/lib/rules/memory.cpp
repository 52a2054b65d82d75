//===- memory.cpp - memory-space rules -------------------------------------===//
//
// Part of Idiom. Rules that choose where intermediate arrays live (seeds/004
// section 5.2: toLocal, toPrivate, toGlobal are the identity on values and
// give the code generator the address space): operand tiles of a
// work-group's sequential reduction copied to local memory (seeds/000
// section 4.2, "Copying to local memory": toLocal(copy2D)), and back.
//
//===----------------------------------------------------------------------===//

#include "../MatMulForm.h"
#include "../RuleHelpers.h"
#include "idiom/Rewrite/Rules.h"

namespace idiom::rewrite {

using namespace detail;

namespace {

/// Bytes of a 2-D array type with constant sizes and a scalar element, or 0.
int64_t constant2DBytes(const TypePtr &T) {
  if (!T || !T->isArray() || !T->Elem->isArray() || !T->Elem->Elem->isScalar() ||
      T->Len->K != funil::Size::Const || T->Elem->Len->K != funil::Size::Const)
    return 0;
  return T->Len->Value * T->Elem->Len->Value * (funil::scalarBits(T->Elem->Elem->S) / 8);
}

/// reduceSeq(f, z, zip(a, b)) -> reduceSeq(f, z, mapSeq(\t => (toLocal(copy2D(t.0)),
/// toLocal(copy2D(t.1))), zip(a, b))) in a work-group, the elements of a and
/// b 2-D arrays of constant size that fit MaxLocalBytes together; likewise
/// zip(a, b, a2, b2), the four tiles of two products per step (BLAS SYR2K),
/// and zip(a, b, ks) whose ks, a 1-D array of integers (a band program's k
/// indices), is passed through uncopied.
Rule toLocalOperands() {
  Rule R;
  R.Name = "to-local-operands";
  R.Family = "memory";
  R.Context = AppliesIn::Workgroup;
  R.Doc = "reduceSeq(f, z, zip(a, b)) -> reduceSeq(f, z, mapSeq(\\t => "
          "(toLocal(copy2D(t.0)), toLocal(copy2D(t.1))), zip(a, b))), "
          "copy2D = mapLocal(1, \\r => mapLocal(0, \\v => v, r), .)";
  R.Roots = {"reduceSeq"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduceSeq") || !E->Args[2]->isCall("zip") ||
        E->Args[2]->Args.size() < 2 || E->Args[2]->Args.size() > 4)
      return false;
    B["e"] = E;
    return true;
  };
  R.Condition = [](const Bindings &B, const RuleContext &Ctx) {
    TypePtr T = Ctx.typeOf(B.at("e")->Args[2]);
    if (!T || !T->isArray() || !T->Elem->isTuple())
      return false;
    int64_t Sum = 0;
    unsigned Copied = 0;
    for (const TypePtr &Tile : T->Elem->Elems) {
      if (Tile->isArray() && Tile->Elem->isScalar() && funil::isInteger(Tile->Elem->S))
        continue; // indices, passed through
      int64_t Bytes = constant2DBytes(Tile);
      if (Bytes <= 0)
        return false;
      Sum += Bytes;
      ++Copied;
    }
    return Copied >= 2 && Sum <= MaxLocalBytes;
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    const ExprPtr &E = B.at("e");
    TypePtr T = Ctx.typeOf(E->Args[2]);
    ExprPtr In = matmul::localCopies(E->Args[2], T->Elem->Elems,
                                     [&Ctx](const std::string &N) { return Ctx.fresh(N); });
    return Expr::call("reduceSeq", {E->Args[0], E->Args[1], In});
  };
  return R;
}

/// The inverse: operands read where they are.
Rule fromLocalOperands() {
  Rule R;
  R.Name = "from-local-operands";
  R.Family = "memory";
  R.Doc = "reduceSeq(f, z, mapSeq(\\t => (toLocal(copy2D(t.0)), toLocal(copy2D(t.1))), "
          "zip(a, b))) -> reduceSeq(f, z, zip(a, b))";
  R.Roots = {"reduceSeq"};
  R.Match = [](const ExprPtr &E, Bindings &B) {
    if (!E->isCall("reduceSeq") || !E->Args[2]->isCall("mapSeq") ||
        !E->Args[2]->Args[1]->isCall("zip"))
      return false;
    B["e"] = E;
    return true;
  };
  R.Build = [](const Bindings &B, RuleContext &Ctx) -> ExprPtr {
    const ExprPtr &E = B.at("e");
    const ExprPtr &In = E->Args[2]->Args[1];
    TypePtr T = Ctx.typeOf(In);
    if (!T || !T->isArray() || !T->Elem->isTuple() ||
        T->Elem->Elems.size() < 2 || T->Elem->Elems.size() > 4)
      return nullptr;
    // Only exactly the copies to-local-operands makes.
    std::set<std::string> Used = Ctx.Names;
    ExprPtr Expect = matmul::localCopies(In, T->Elem->Elems,
                                         [&Used](const std::string &N) {
                                           return funil::freshName(N, Used);
                                         });
    if (!matmul::alphaEqual(Expect, E->Args[2]))
      return nullptr;
    return Expr::call("reduceSeq", {E->Args[0], E->Args[1], In});
  };
  return R;
}

} // namespace

const std::vector<Rule> &memoryRules() {
  static const std::vector<Rule> Rules = {toLocalOperands(), fromLocalOperands()};
  return Rules;
}

} // namespace idiom::rewrite
