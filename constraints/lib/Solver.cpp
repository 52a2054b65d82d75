//===- Solver.cpp - Backtracking search for idiom instances ---------------===//

#include "idiom/Constraints/Solver.h"
#include "Search.h"

using namespace idiom::constraints;

const Term *Match::lookup(llvm::StringRef Name) const {
  auto It = Bindings.find(Name);
  return It == Bindings.end() ? nullptr : &It->second;
}

std::string NearMiss::str() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Col) +
         ": " + FailedAtom + ": " + WhyNot;
}

Solver::Solver(const SpecLibrary &Lib, const AtomRegistry &Atoms,
               SolverOptions Opts)
    : Lib(Lib), Atoms(Atoms), Opts(Opts) {
  (void)this->Lib;
  (void)this->Atoms;
}

std::optional<Match> Solver::solve(MatchEnv &Env, const IdiomDef &Idiom,
                                   const Term &Entry, NearMiss *Miss) {
  std::optional<Match> Result;
  solveAll(
      Env, Idiom, Entry,
      [&](const Match &M) {
        Result = M;
        return false;
      },
      Miss);
  return Result;
}

unsigned Solver::solveAll(MatchEnv &Env, const IdiomDef &Idiom,
                          const Term &Entry,
                          llvm::function_ref<bool(const Match &)> OnMatch,
                          NearMiss *Miss) {
  Search S(Env, Opts);
  Frame Top = S.topFrame(Idiom);
  if (!Idiom.Params.empty() && !Top.Map.empty())
    S.Slots[Top.Map[0]] = Entry;
  unsigned Count = 0;
  if (Idiom.Body)
    S.run(*Idiom.Body, Top, [&]() -> bool {
      Match M;
      M.Idiom = &Idiom;
      M.Entry = Entry;
      for (unsigned I = 0; I < Idiom.NumNamed; ++I)
        M.Bindings[Idiom.SlotNames[I]] = S.Slots[Top.Map[I]];
      ++Count;
      return !OnMatch(M);
    });
  LastAtomCalls = S.AtomCalls;
  LastExhausted = S.Aborted;
  if (!Miss || Count != 0)
    return Count;
  *Miss = NearMiss();
  Miss->Idiom = &Idiom;
  Miss->Entry = Entry;
  Miss->File = Idiom.File;
  Miss->Line = Idiom.Line;
  Miss->Col = Idiom.Col;
  if (!S.Best.Have) {
    Miss->FailedAtom = Idiom.Name;
    Miss->WhyNot = "no solution";
    return Count;
  }
  const MissRecord &B = S.Best;
  Miss->FailedAtom = printFormula(*B.F);
  Miss->File = B.Def->File;
  Miss->Line = B.F->Loc.Line;
  Miss->Col = B.F->Loc.Col;
  Miss->WhyNot = B.Why;
  Miss->Progress = B.Progress;
  Miss->Args = B.Args;
  Miss->CallChain = B.Chain;
  return Count;
}
