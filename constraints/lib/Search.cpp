//===- Search.cpp - The backtracking engine behind Solver -----------------===//

#include "Search.h"
#include "SpecResolver.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

using namespace idiom::constraints;
using llvm::ArrayRef;

Frame Search::topFrame(const Definition &D) {
  Frame Fr;
  Fr.Def = &D;
  for (unsigned I = 0; I < D.NumSlots; ++I) {
    Fr.Map.push_back(Slots.size());
    Slots.emplace_back();
  }
  return Fr;
}

void Search::recordMiss(const Formula &F, const Frame &Fr,
                        ArrayRef<const Arg *> Args, std::string Why,
                        bool Force) {
  if (!Force && (Suppress || (Best.Have && Progress <= Best.Progress)))
    return;
  Best.Have = true;
  Best.F = &F;
  Best.Def = Fr.Def;
  Best.Why = std::move(Why);
  Best.Progress = Progress;
  Best.Args.clear();
  for (const Arg *A : Args)
    Best.Args.push_back({printArg(*A), valueOf(*A, Fr)});
  Best.Chain.clear();
  for (const Frame *P = &Fr; P && P->CallSite; P = P->Parent)
    Best.Chain.insert(Best.Chain.begin(),
                      printFormula(*P->CallSite) + " at " +
                          locString(*P->Parent->Def, P->CallSite->Loc));
}

bool Search::advance(unsigned N, Cont K) {
  Progress += N;
  bool Stop = K();
  Progress -= N;
  return Stop;
}

bool Search::step(const Formula &F, const Frame &Fr) {
  if (++Steps <= Opts.MaxSteps)
    return true;
  if (!Aborted)
    recordMiss(F, Fr, {}, "search budget exhausted", /*Force=*/true);
  Aborted = true;
  return false;
}

bool Search::run(const Formula &F, const Frame &Fr, Cont K) {
  if (Aborted || !step(F, Fr))
    return true;
  switch (F.K) {
  case Formula::Kind::Call:
    return call(F, nullptr, Fr, K);
  case Formula::Kind::And:
    return runAnd(F, 0, Fr, K);
  case Formula::Kind::Or:
    for (const std::unique_ptr<Formula> &C : F.Children)
      if (run(*C, Fr, K))
        return true;
    return false;
  case Formula::Kind::Not:
    return runNot(F, Fr, K);
  case Formula::Kind::ForAll:
    return runForAll(F, Fr, K);
  case Formula::Kind::Collect:
    return runCollect(F, Fr, K);
  case Formula::Kind::Equal:
    return runEqual(F, Fr, K);
  case Formula::Kind::True:
    return K();
  case Formula::Kind::False:
    recordMiss(F, Fr, {}, "'false' never holds");
    return false;
  }
  return false;
}

bool Search::runAnd(const Formula &F, size_t I, const Frame &Fr, Cont K) {
  if (I == F.Children.size())
    return K();
  return run(*F.Children[I], Fr, [&] { return runAnd(F, I + 1, Fr, K); });
}

bool Search::call(const Formula &Call, const Arg *Extra, const Frame &Fr,
                  Cont K) {
  llvm::SmallVector<const Arg *, 6> Args;
  for (const Arg &A : Call.Args)
    Args.push_back(&A);
  if (Extra)
    Args.push_back(Extra);
  if (Call.Atom)
    return callAtom(Call, Args, Fr, K);
  if (Call.Constraint)
    return callConstraint(Call, Args, Fr, K);
  recordMiss(Call, Fr, Args, "unresolved call");
  return false;
}

bool Search::callAtom(const Formula &Call, ArrayRef<const Arg *> Args,
                      const Frame &Fr, Cont K) {
  const AtomDef &Atom = *Call.Atom;
  if (AtomCalls >= Opts.MaxAtomCalls) {
    Aborted = true;
    recordMiss(Call, Fr, Args, "search budget exhausted", /*Force=*/true);
    return true;
  }
  ++AtomCalls;
  if (Args.size() != Atom.arity()) {
    recordMiss(Call, Fr, Args, "wrong number of arguments");
    return false;
  }
  llvm::SmallVector<Term, 6> Vals, Given;
  llvm::SmallVector<unsigned, 6> Abs;
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Arg &A = *Args[I];
    Abs.push_back(A.isVariable() ? Fr.Map[A.Slot] : NoSlot);
    Vals.push_back(valueOf(A, Fr));
    if (!Vals.back().isBound() && !Atom.canGenerate(I)) {
      recordMiss(Call, Fr, Args,
                 "argument " + std::to_string(I + 1) + " is unbound");
      return false;
    }
  }
  Given = Vals;

  unsigned Accepted = 0;
  bool Stop = false;
  std::string Why;
  Atom.solve(Env, Vals, [&]() -> bool {
    if (Stop || Aborted)
      return false;
    llvm::SmallVector<unsigned, 6> Written;
    bool Ok = true;
    for (unsigned I = 0; I < Vals.size() && Ok; ++I) {
      if (Given[I].isBound()) {
        Ok = Vals[I] == Given[I];
        continue;
      }
      if (!Vals[I].isBound()) {
        Ok = false;
        continue;
      }
      Term &Slot = Slots[Abs[I]];
      if (Slot.isBound()) { // the same variable twice in one call
        Ok = Slot == Vals[I];
        continue;
      }
      Slot = Vals[I];
      Written.push_back(Abs[I]);
    }
    if (Ok && step(Call, Fr)) {
      ++Accepted;
      Stop = advance(1, K);
    }
    for (unsigned S : Written)
      Slots[S] = Term();
    return !Stop && !Aborted;
  }, Why);
  if (Stop || Aborted)
    return true;
  if (Accepted == 0)
    recordMiss(Call, Fr, Args, Why.empty() ? "no match" : Why);
  return false;
}

bool Search::callConstraint(const Formula &Call, ArrayRef<const Arg *> Args,
                            const Frame &Fr, Cont K) {
  const Definition &C = *Call.Constraint;
  if (Args.size() != C.Params.size() || !C.Body) {
    recordMiss(Call, Fr, Args, "wrong number of arguments");
    return false;
  }
  size_t Base = Slots.size();
  Frame Callee;
  Callee.Def = &C;
  Callee.CallSite = &Call;
  Callee.Parent = &Fr;
  for (unsigned I = 0; I < C.NumSlots; ++I) {
    if (I < Args.size() && Args[I]->isVariable()) {
      Callee.Map.push_back(Fr.Map[Args[I]->Slot]);
      continue;
    }
    Callee.Map.push_back(Slots.size());
    Slots.push_back(I < Args.size() ? Args[I]->Const : Term());
  }
  bool Stop = run(*C.Body, Callee, K);
  Slots.resize(Base);
  return Stop;
}

bool Search::runNot(const Formula &F, const Frame &Fr, Cont K) {
  ++Suppress;
  bool Holds = run(*F.Children[0], Fr, [] { return true; });
  --Suppress;
  if (Aborted)
    return true;
  if (!Holds)
    return advance(1, K);
  llvm::SmallVector<const Arg *, 6> Args;
  const Formula &Inner = *F.Children[0];
  if (Inner.K == Formula::Kind::Call || Inner.K == Formula::Kind::Equal)
    for (const Arg &A : Inner.Args)
      Args.push_back(&A);
  recordMiss(F, Fr, Args, "'" + printFormula(Inner) + "' holds");
  return false;
}

bool Search::runForAll(const Formula &F, const Frame &Fr, Cont K) {
  const Formula &Gen = *F.Children[0];
  const Formula &Body = *F.Children[1];
  unsigned Done = 0; // constructs satisfied by completed iterations
  bool Failed = false;
  ++Suppress; // running out of candidates is not a failure
  call(Gen, &F.Var, Fr, [&]() -> bool {
    --Suppress;
    Progress += Done;
    unsigned Before = Progress, Got = 0;
    bool Holds = run(Body, Fr, [&] {
      Got = Progress - Before;
      return true;
    });
    Progress -= Done;
    ++Suppress;
    if (Aborted)
      return true;
    if (!Holds) {
      Failed = true;
      return true;
    }
    Done += Got + 1; // the body's constructs and the generated candidate
    return false;
  });
  --Suppress;
  if (Aborted)
    return true;
  if (Failed)
    return false;
  return advance(Done, K);
}

bool Search::runCollect(const Formula &F, const Frame &Fr, Cont K) {
  const Formula &Gen = *F.Children[0];
  const Formula &Body = *F.Children[1];
  std::vector<Term> Items;
  unsigned Done = 0;
  unsigned VarSlot = Fr.Map[F.Var.Slot];
  ++Suppress; // neither the generator nor the body can make collect fail
  call(Gen, &F.Var, Fr, [&]() -> bool {
    Progress += Done;
    unsigned Before = Progress, Got = 0;
    bool Holds = run(Body, Fr, [&] {
      Got = Progress - Before;
      return true;
    });
    Progress -= Done;
    if (Aborted)
      return true;
    if (Holds) {
      const Term &X = Slots[VarSlot];
      if (std::find(Items.begin(), Items.end(), X) == Items.end()) {
        Items.push_back(X);
        Done += Got + 1;
      }
    }
    return false;
  });
  --Suppress;
  if (Aborted)
    return true;
  Term List = Term::list(std::move(Items));
  unsigned ResultSlot = Fr.Map[F.Result.Slot];
  if (Slots[ResultSlot].isBound()) {
    if (Slots[ResultSlot] == List)
      return advance(Done + 1, K);
    const Arg *Res = &F.Result;
    recordMiss(F, Fr, ArrayRef<const Arg *>(Res),
               "the collected list differs from the value of '" +
                   F.Result.Name + "'");
    return false;
  }
  Slots[ResultSlot] = std::move(List);
  bool Stop = advance(Done + 1, K);
  Slots[ResultSlot] = Term();
  return Stop;
}

bool Search::runEqual(const Formula &F, const Frame &Fr, Cont K) {
  const Arg &A = F.Args[0], &B = F.Args[1];
  const Arg *Both[] = {&A, &B};
  Term VA = valueOf(A, Fr), VB = valueOf(B, Fr);
  if (VA.isBound() && VB.isBound()) {
    if (VA == VB)
      return advance(1, K);
    recordMiss(F, Fr, Both, "'" + printArg(A) + "' is " + printTerm(VA) +
                                ", '" + printArg(B) + "' is " +
                                printTerm(VB));
    return false;
  }
  if (!VA.isBound() && !VB.isBound()) {
    recordMiss(F, Fr, Both, "both sides are unbound");
    return false;
  }
  unsigned S = Fr.Map[(VA.isBound() ? B : A).Slot];
  Slots[S] = VA.isBound() ? VA : VB;
  bool Stop = advance(1, K);
  Slots[S] = Term();
  return Stop;
}
