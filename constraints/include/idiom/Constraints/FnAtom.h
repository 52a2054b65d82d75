//===- FnAtom.h - An atom defined by a function -----------------*- C++ -*-===//
//
// The common way built-in atoms are written (lib/atoms/*.cpp): a name, an
// arity, which argument positions it may generate, a one-line doc, and a
// function implementing AtomDef::solve.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_FNATOM_H
#define IDIOM_CONSTRAINTS_FNATOM_H

#include "idiom/Constraints/Atom.h"
#include <functional>
#include <string>

namespace idiom::constraints {

/// An atom whose relation is \p Fn; bit I of GenMask is set when argument I
/// may be unbound on entry (AtomDef::canGenerate).
class FnAtom : public AtomDef {
public:
  /// Same contract as AtomDef::solve.
  using SolveFn = std::function<void(MatchEnv &, llvm::MutableArrayRef<Term>,
                                     llvm::function_ref<bool()>, std::string &)>;

  FnAtom(std::string Name, unsigned Arity, unsigned GenMask, std::string Doc,
         SolveFn Fn)
      : Name(std::move(Name)), Doc(std::move(Doc)), Arity(Arity),
        GenMask(GenMask), Fn(std::move(Fn)) {}
  llvm::StringRef name() const override { return Name; }
  unsigned arity() const override { return Arity; }
  llvm::StringRef doc() const override { return Doc; }
  bool canGenerate(unsigned I) const override { return GenMask & (1u << I); }
  void solve(MatchEnv &Env, llvm::MutableArrayRef<Term> Args,
             llvm::function_ref<bool()> Yield,
             std::string &WhyNot) const override {
    Fn(Env, Args, Yield, WhyNot);
  }

private:
  std::string Name, Doc;
  unsigned Arity, GenMask;
  SolveFn Fn;
};

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_FNATOM_H
