//===- Strategy.cpp - rewriting strategies --------------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/Strategy.h"

#include "idiom/FunIL/ExprUtil.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/Rewrite/Rules.h"

#include <algorithm>

namespace idiom::rewrite {

using funil::Expr;

Level innerLevel(const std::string &Prim, Level Outer) {
  // Every name below starts with "map" or is "reduceSeq".
  if (Prim.compare(0, 3, "map") != 0 && Prim != "reduceSeq")
    return Outer;
  if (Prim == "mapGlobal")
    return Level::Global;
  if (Prim == "mapWorkgroup")
    return Level::Workgroup;
  if (Prim == "mapLocal")
    return Level::Local;
  if ((Prim == "mapSeq" || Prim == "reduceSeq") &&
      (Outer == Level::Global || Outer == Level::Local ||
       Outer == Level::Sequential))
    return Level::Sequential;
  return Outer;
}

namespace {

/// Calls \p Fn on child \p I of \p E with the context of that child; the
/// context is restored afterwards.
template <typename F>
ExprPtr withChild(const Expr &E, size_t I, RuleContext &Ctx, F Fn) {
  Level Saved = Ctx.Where;
  size_t Depth = Ctx.Env.Vars.size();
  const ExprPtr &C = E.Args[I];
  if (E.K == Expr::Lambda) {
    for (const funil::Param &P : E.Params)
      Ctx.Env.push(P.Name, P.Ty);
  } else if (E.K == Expr::Call && C->K == Expr::Lambda) {
    Ctx.Where = innerLevel(E.Name, Ctx.Where);
  }
  ExprPtr R = Fn(C, Ctx);
  Ctx.Where = Saved;
  Ctx.Env.Vars.resize(Depth);
  return R;
}

ExprPtr replaceChild(const Expr &E, size_t I, ExprPtr New) {
  std::vector<ExprPtr> Args = E.Args;
  Args[I] = std::move(New);
  return funil::withArgs(E, std::move(Args));
}

ExprPtr once(const Strategy &S, const ExprPtr &E, RuleContext &Ctx) {
  if (ExprPtr R = S(E, Ctx))
    return R;
  for (size_t I = 0; I < E->Args.size(); ++I) {
    ExprPtr R = withChild(*E, I, Ctx, [&](const ExprPtr &C, RuleContext &CC) {
      return once(S, C, CC);
    });
    if (R)
      return replaceChild(*E, I, R);
  }
  return nullptr;
}

/// once, skipping what the previous step of normalize proved fails: the
/// left siblings of every node on \p Old, the child indices from the root
/// to the previous rewrite. Those subtrees are unchanged and see the same
/// level and environment (the ancestors keep their op and parameters), so
/// S fails there again. \p New receives the path of this step's rewrite.
ExprPtr onceFrom(const Strategy &S, const ExprPtr &E, RuleContext &Ctx,
                 const std::vector<size_t> *Old, size_t Depth,
                 std::vector<size_t> &New) {
  if (ExprPtr R = S(E, Ctx))
    return R;
  size_t Start = 0;
  if (Old && Depth < Old->size())
    Start = std::min((*Old)[Depth], E->Args.size());
  else
    Old = nullptr; // the node the previous step rewrote: search it all
  for (size_t I = Start; I < E->Args.size(); ++I) {
    New.push_back(I);
    const std::vector<size_t> *Guide = I == Start ? Old : nullptr;
    ExprPtr R = withChild(*E, I, Ctx, [&](const ExprPtr &C, RuleContext &CC) {
      return onceFrom(S, C, CC, Guide, Depth + 1, New);
    });
    if (R)
      return replaceChild(*E, I, R);
    New.pop_back();
  }
  return nullptr;
}

ExprPtr everywhere(const Strategy &S, const ExprPtr &E, RuleContext &Ctx,
                   bool &Any) {
  ExprPtr Cur = E;
  if (ExprPtr R = S(E, Ctx)) {
    Any = true;
    Cur = R;
  }
  std::vector<ExprPtr> Args = Cur->Args;
  bool Changed = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    ExprPtr R = withChild(*Cur, I, Ctx, [&](const ExprPtr &C, RuleContext &CC) {
      return everywhere(S, C, CC, Any);
    });
    if (R != Args[I]) {
      Args[I] = R;
      Changed = true;
    }
  }
  return Changed ? funil::withArgs(*Cur, std::move(Args)) : Cur;
}

} // namespace

Strategy ruleStrategy(const Rule &R) {
  return [R](const ExprPtr &E, RuleContext &Ctx) { return applyRule(R, E, Ctx); };
}

Strategy identity() {
  return [](const ExprPtr &E, RuleContext &) { return E; };
}

Strategy tryStrategy(Strategy S) {
  return [S](const ExprPtr &E, RuleContext &Ctx) {
    ExprPtr R = S(E, Ctx);
    return R ? R : E;
  };
}

Strategy sequence(std::vector<Strategy> Ss) {
  return [Ss](const ExprPtr &E, RuleContext &Ctx) -> ExprPtr {
    ExprPtr Cur = E;
    for (const Strategy &S : Ss)
      if (!(Cur = S(Cur, Ctx)))
        return nullptr;
    return Cur;
  };
}

Strategy choice(std::vector<Strategy> Ss) {
  return [Ss](const ExprPtr &E, RuleContext &Ctx) -> ExprPtr {
    for (const Strategy &S : Ss)
      if (ExprPtr R = S(E, Ctx))
        return R;
    return nullptr;
  };
}

Strategy repeat(Strategy S, unsigned MaxSteps) {
  return [S, MaxSteps](const ExprPtr &E, RuleContext &Ctx) {
    ExprPtr Cur = E;
    for (unsigned I = 0; I < MaxSteps; ++I) {
      ExprPtr R = S(Cur, Ctx);
      if (!R)
        break;
      Cur = R;
    }
    return Cur;
  };
}

Strategy oncePosition(Strategy S) {
  return [S](const ExprPtr &E, RuleContext &Ctx) { return once(S, E, Ctx); };
}

Strategy allPositions(Strategy S) {
  return [S](const ExprPtr &E, RuleContext &Ctx) -> ExprPtr {
    bool Any = false;
    ExprPtr R = everywhere(S, E, Ctx, Any);
    return Any ? R : nullptr;
  };
}

Strategy normalize(Strategy S, unsigned MaxSteps) {
  // repeat(oncePosition(S)), each step resuming along the previous path.
  return [S, MaxSteps](const ExprPtr &E, RuleContext &Ctx) {
    ExprPtr Cur = E;
    std::vector<size_t> Path, Next;
    for (unsigned I = 0; I < MaxSteps; ++I) {
      Next.clear();
      ExprPtr R = onceFrom(S, Cur, Ctx, I ? &Path : nullptr, 0, Next);
      if (!R)
        break;
      Cur = R;
      Path.swap(Next);
    }
    return Cur;
  };
}

Strategy ruleChoice(std::vector<const Rule *> Rs) {
  // Per root op, the rules that may match a call of it, in order (those
  // that declare it and those that declare no roots); Rootless for every
  // other node. Same rules tried in the same order as applyRule on each.
  struct Table {
    std::vector<std::pair<std::string, std::vector<const Rule *>>> ByRoot;
    std::vector<const Rule *> Rootless;
  };
  auto T = std::make_shared<Table>(); // shared by the strategy's copies
  for (const Rule *R : Rs)
    for (const std::string &N : R->Roots)
      if (std::none_of(T->ByRoot.begin(), T->ByRoot.end(),
                       [&](const auto &BR) { return BR.first == N; }))
        T->ByRoot.push_back({N, {}});
  for (const Rule *R : Rs) {
    if (R->Roots.empty())
      T->Rootless.push_back(R);
    for (auto &BR : T->ByRoot)
      if (R->Roots.empty() ||
          std::find(R->Roots.begin(), R->Roots.end(), BR.first) != R->Roots.end())
        BR.second.push_back(R);
  }
  return [T = std::shared_ptr<const Table>(std::move(T))](const ExprPtr &E,
                                                          RuleContext &Ctx) -> ExprPtr {
    const std::vector<const Rule *> *Cands = &T->Rootless;
    if (E->K == Expr::Call)
      for (const auto &BR : T->ByRoot)
        if (BR.first == E->Name) {
          Cands = &BR.second;
          break;
        }
    for (const Rule *R : *Cands)
      if (ExprPtr Out = applyRuleAtRoot(*R, E, Ctx))
        return Out;
    return nullptr;
  };
}

Strategy rulesChoice(const std::vector<std::string> &Names, std::string &Err) {
  std::vector<const Rule *> Rs;
  for (const std::string &N : Names) {
    const Rule *R = findRule(N);
    if (!R) {
      Err = "unknown rule '" + N + "'";
      return Strategy();
    }
    Rs.push_back(R);
  }
  return ruleChoice(std::move(Rs));
}

RuleContext programContext(const funil::Program &P) {
  RuleContext Ctx;
  for (const funil::Param &Pa : P.Params) {
    Ctx.Env.push(Pa.Name, Pa.Ty);
    Ctx.Names.insert(Pa.Name);
  }
  funil::allNames(*P.Body, Ctx.Names);
  for (const ExprPtr &O : P.Outs)
    funil::allNames(*O, Ctx.Names);
  return Ctx;
}

bool rewriteProgram(funil::Program &P, const Strategy &S, std::string &Err,
                    std::vector<std::string> *Trace) {
  RuleContext Ctx = programContext(P);
  Ctx.Trace = Trace;
  return rewriteProgramFrom(P, P.Body, S, Ctx, Err);
}

bool rewriteProgramFrom(funil::Program &P, const ExprPtr &From, const Strategy &S,
                        RuleContext &Ctx, std::string &Err) {
  try {
    if (ExprPtr R = S(From, Ctx))
      P.Body = R;
  } catch (const std::exception &X) {
    Err = std::string("rewriting failed: ") + X.what();
    return false;
  }
  std::string TErr;
  if (!funil::typeCheckProgram(P, TErr)) {
    Err = "rewritten program does not type check: " + TErr + "\n" +
          funil::printProgram(P);
    return false;
  }
  return true;
}

} // namespace idiom::rewrite
