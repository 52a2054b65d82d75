//===- SpecResolver.cpp - Names, arities and variable slots ---------------===//

#include "SpecResolver.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace idiom::constraints;
using llvm::StringRef;

void idiom::constraints::reportError(const Definition &D, SourceLoc Loc,
                                     const std::string &Msg,
                                     std::vector<Diagnostic> &Diags) {
  Diags.push_back({D.File, Loc.Line, Loc.Col, true, Msg});
}

std::string idiom::constraints::locString(const Definition &D, SourceLoc Loc) {
  return D.File + ":" + std::to_string(Loc.Line) + ":" +
         std::to_string(Loc.Col);
}

void idiom::constraints::forEachCall(
    const Formula &F, llvm::function_ref<void(const Formula &)> Fn) {
  if (F.K == Formula::Kind::Call)
    Fn(F);
  for (const std::unique_ptr<Formula> &C : F.Children)
    forEachCall(*C, Fn);
}

namespace {

/// One pass over a definition; see resolveDefinition.
class Resolver {
public:
  Resolver(Definition &D, const NameScope &Names,
           std::vector<Diagnostic> &Diags)
      : D(D), Names(Names), Diags(Diags) {}

  bool run();

private:
  struct Scope {
    std::string Name;
    unsigned Extra; ///< index among the extra slots
    SourceLoc Loc;
  };
  struct Quantified {
    std::string Name;
    SourceLoc Loc;
  };

  void error(SourceLoc Loc, const std::string &Msg) {
    reportError(D, Loc, Msg, Diags);
    Ok = false;
  }
  void warning(SourceLoc Loc, const std::string &Msg) {
    Diags.push_back({D.File, Loc.Line, Loc.Col, false, Msg});
  }
  unsigned newExtra(Arg &A, const std::string &Name) {
    ExtraNames.push_back(Name);
    ExtraArgs.push_back({&A, unsigned(ExtraNames.size() - 1)});
    return ExtraNames.size() - 1;
  }
  void resolveArg(Arg &A);
  void resolveCall(Formula &Call, const Arg *Generated);
  void resolveFormula(Formula &F);

  Definition &D;
  const NameScope &Names;
  std::vector<Diagnostic> &Diags;
  bool Ok = true;

  llvm::StringMap<unsigned> Named; ///< definition-level name -> slot
  std::vector<std::string> NamedNames;
  std::vector<unsigned> Uses;         ///< per named slot
  std::vector<SourceLoc> FirstUse;    ///< per named slot
  std::vector<std::string> ExtraNames; ///< per extra slot
  /// Arguments that refer to extra slots, and which one.
  std::vector<std::pair<Arg *, unsigned>> ExtraArgs;
  llvm::SmallVector<Scope, 4> Scopes;
  std::vector<Quantified> AllQuantified;
};

} // namespace

void Resolver::resolveArg(Arg &A) {
  if (A.K == Arg::Kind::String || A.K == Arg::Kind::Int)
    return;
  if (A.K == Arg::Kind::Anon) {
    newExtra(A, "_");
    return;
  }
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    if (It->Name == A.Name) {
      ExtraArgs.push_back({&A, It->Extra});
      return;
    }
  }
  auto [It, Inserted] = Named.try_emplace(A.Name, unsigned(NamedNames.size()));
  if (Inserted) {
    NamedNames.push_back(A.Name);
    Uses.push_back(0);
    FirstUse.push_back(A.Loc);
  }
  A.Slot = It->second;
  if (Uses[A.Slot]++ == 0)
    FirstUse[A.Slot] = A.Loc;
}

void Resolver::resolveCall(Formula &Call, const Arg *Generated) {
  for (Arg &A : Call.Args)
    resolveArg(A);
  unsigned Expected;
  if (const AtomDef *Atom = Names.Atoms.lookup(Call.Callee)) {
    Call.Atom = Atom;
    Expected = Atom->arity();
  } else if (const Definition *C = Names.Constraint(Call.Callee)) {
    Call.Constraint = C;
    Expected = C->Params.size();
  } else if (Names.IsIdiom(Call.Callee)) {
    error(Call.Loc, "'" + Call.Callee +
                        "' is an idiom; only atoms and constraints can be "
                        "called");
    return;
  } else {
    error(Call.Loc, "unknown atom or constraint '" + Call.Callee + "'");
    return;
  }
  unsigned Given = Call.callArity(Generated != nullptr);
  if (Given == Expected)
    return;
  std::string Msg = "'" + Call.Callee + "' takes " + std::to_string(Expected) +
                    (Expected == 1 ? " argument" : " arguments") + ", but " +
                    std::to_string(Given) + (Given == 1 ? " is" : " are") +
                    " given";
  if (Generated)
    Msg += " (counting the quantified variable '" + Generated->Name + "')";
  error(Call.Loc, Msg);
}

void Resolver::resolveFormula(Formula &F) {
  switch (F.K) {
  case Formula::Kind::Call:
    resolveCall(F, nullptr);
    return;
  case Formula::Kind::Equal:
    for (Arg &A : F.Args)
      resolveArg(A);
    return;
  case Formula::Kind::And:
  case Formula::Kind::Or:
  case Formula::Kind::Not:
    for (std::unique_ptr<Formula> &C : F.Children)
      resolveFormula(*C);
    return;
  case Formula::Kind::ForAll:
  case Formula::Kind::Collect: {
    // The generator's own arguments are outside the quantifier's scope.
    resolveCall(*F.Children[0], &F.Var);
    for (const Scope &S : Scopes)
      if (S.Name == F.Var.Name)
        error(F.Var.Loc, "'" + F.Var.Name +
                             "' is already bound by the enclosing quantifier "
                             "at " + locString(D, S.Loc));
    unsigned Extra = newExtra(F.Var, F.Var.Name);
    Scopes.push_back({F.Var.Name, Extra, F.Var.Loc});
    AllQuantified.push_back({F.Var.Name, F.Var.Loc});
    resolveFormula(*F.Children[1]);
    Scopes.pop_back();
    if (F.K == Formula::Kind::Collect)
      resolveArg(F.Result);
    return;
  }
  case Formula::Kind::True:
  case Formula::Kind::False:
    return;
  }
}

bool Resolver::run() {
  for (size_t I = 0; I < D.Params.size(); ++I) {
    Named.try_emplace(D.Params[I], unsigned(I));
    NamedNames.push_back(D.Params[I]);
    Uses.push_back(0);
    FirstUse.push_back(I < D.ParamLocs.size() ? D.ParamLocs[I] : SourceLoc());
  }
  if (D.Body)
    resolveFormula(*D.Body);

  // A quantified variable is local to its body; the same name used outside
  // it would silently be a different variable.
  llvm::StringSet<> Clashing; // reported here; no usage warnings for them
  for (const Quantified &Q : AllQuantified) {
    auto It = Named.find(Q.Name);
    if (It == Named.end())
      continue;
    unsigned Slot = It->second;
    Clashing.insert(Q.Name);
    if (Slot < D.Params.size())
      error(Q.Loc, "quantified variable '" + Q.Name +
                       "' has the name of a parameter");
    else
      error(Q.Loc, "quantified variable '" + Q.Name +
                       "' is also used outside its quantifier, at " +
                       locString(D, FirstUse[Slot]) +
                       "; its scope is only the quantifier body (put "
                       "parentheses around a body with 'and' or 'or')");
  }

  for (unsigned I = 0; I < NamedNames.size(); ++I) {
    StringRef Name = NamedNames[I];
    if (Clashing.count(Name))
      continue;
    if (I < D.Params.size()) {
      if (Uses[I] == 0 && !Name.starts_with("_"))
        warning(FirstUse[I], "parameter '" + Name.str() + "' is never used");
    } else if (Uses[I] == 1 && !Name.starts_with("_")) {
      warning(FirstUse[I], "variable '" + Name.str() +
                               "' is used only once (write '_' for a "
                               "variable that does not matter)");
    }
  }

  unsigned NumNamed = NamedNames.size();
  for (auto &[A, Extra] : ExtraArgs)
    A->Slot = NumNamed + Extra;
  D.NumNamed = NumNamed;
  D.NumSlots = NumNamed + ExtraNames.size();
  D.SlotNames = NamedNames;
  D.SlotNames.insert(D.SlotNames.end(), ExtraNames.begin(), ExtraNames.end());
  return Ok;
}

bool idiom::constraints::resolveDefinition(Definition &D,
                                           const NameScope &Names,
                                           std::vector<Diagnostic> &Diags) {
  return Resolver(D, Names, Diags).run();
}
