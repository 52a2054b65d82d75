//===- TestAtoms.h - Small atoms for constraint tests -----------*- C++ -*-===//
#ifndef IDIOM_TEST_CONSTRAINTS_TESTATOMS_H
#define IDIOM_TEST_CONSTRAINTS_TESTATOMS_H

#include "idiom/Constraints/Atom.h"
#include <functional>
#include <string>
#include <vector>

namespace idiom::constraints::test {

/// An atom whose relation is a lambda.
class FnAtom : public AtomDef {
public:
  /// The relation; same contract as AtomDef::solve.
  using SolveFn = std::function<void(MatchEnv &, llvm::MutableArrayRef<Term>,
                                     llvm::function_ref<bool()>,
                                     std::string &)>;
  /// \p Generates[I]: whether argument I may be unbound.
  FnAtom(std::string Name, std::vector<bool> Generates, SolveFn Fn)
      : Name(std::move(Name)), Generates(std::move(Generates)),
        Fn(std::move(Fn)) {}

  llvm::StringRef name() const override { return Name; }
  unsigned arity() const override { return Generates.size(); }
  llvm::StringRef doc() const override { return "test atom"; }
  bool canGenerate(unsigned I) const override {
    return I < Generates.size() && Generates[I];
  }
  void solve(MatchEnv &Env, llvm::MutableArrayRef<Term> Args,
             llvm::function_ref<bool()> Yield,
             std::string &WhyNot) const override {
    Fn(Env, Args, Yield, WhyNot);
  }

private:
  std::string Name;
  std::vector<bool> Generates;
  SolveFn Fn;
};

/// Registers the test atoms:
///  - Range(n, x): integer x in [0, n); x may be generated.
///  - Nat(x): generates 0, 1, 2, ... without end.
///  - Even(x), Less(a, b): integer checks.
///  - NonEmpty(xs), Length(xs, n): list checks (n may be generated).
///  - InstIn(loop, i): instructions of the loop (i may be generated).
///  - HeaderPhis(loop, phi): phis of the loop header (phi generated).
///  - Opcode(i, op): op is i's opcode name (op may be generated).
///  - Operand(i, n, v): v is operand n of i (n, v may be generated).
///  - User(v, u): u uses v (u may be generated).
///  - IsConstant(v).
void addTestAtoms(AtomRegistry &R);

/// Atom calls of each kind since the last reset (calls of solve()).
extern unsigned RangeCalls;

} // namespace idiom::constraints::test

#endif // IDIOM_TEST_CONSTRAINTS_TESTATOMS_H
