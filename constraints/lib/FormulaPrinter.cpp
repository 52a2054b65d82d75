//===- FormulaPrinter.cpp - Formulas back to spec syntax ------------------===//

#include "idiom/Constraints/Formula.h"
#include "idiom/Constraints/Spec.h"

using namespace idiom::constraints;

std::string idiom::constraints::printArg(const Arg &A) {
  switch (A.K) {
  case Arg::Kind::Var:
  case Arg::Kind::Anon:
    return A.Name;
  case Arg::Kind::Int:
    return std::to_string(A.Const.I);
  case Arg::Kind::String: {
    std::string S = "\"";
    for (char C : A.Const.S) {
      switch (C) {
      case '"': S += "\\\""; break;
      case '\\': S += "\\\\"; break;
      case '\n': S += "\\n"; break;
      case '\t': S += "\\t"; break;
      default: S += C; break;
      }
    }
    return S + "\"";
  }
  }
  return "?";
}

static std::string printCall(const Formula &F) {
  std::string S = F.Callee + "(";
  for (size_t I = 0; I < F.Args.size(); ++I) {
    if (I)
      S += ", ";
    S += printArg(F.Args[I]);
  }
  return S + ")";
}

/// Prints \p F, parenthesized when it is an `and` or `or` (used for operands
/// whose own precedence is tighter).
static std::string printOperand(const Formula &F, bool ParenAnd) {
  bool Paren = F.K == Formula::Kind::Or ||
               (ParenAnd && F.K == Formula::Kind::And);
  std::string S = printFormula(F);
  return Paren ? "(" + S + ")" : S;
}

std::string idiom::constraints::printFormula(const Formula &F) {
  switch (F.K) {
  case Formula::Kind::Call:
    return printCall(F);
  case Formula::Kind::And:
  case Formula::Kind::Or: {
    bool IsAnd = F.K == Formula::Kind::And;
    std::string S;
    for (size_t I = 0; I < F.Children.size(); ++I) {
      if (I)
        S += IsAnd ? " and " : " or ";
      S += printOperand(*F.Children[I], /*ParenAnd=*/false);
    }
    return S;
  }
  case Formula::Kind::Not:
    return "not " + printOperand(*F.Children[0], /*ParenAnd=*/true);
  case Formula::Kind::ForAll:
  case Formula::Kind::Collect: {
    bool IsCollect = F.K == Formula::Kind::Collect;
    std::string S = IsCollect ? "collect " : "forall ";
    S += F.Var.Name + " in " + printCall(*F.Children[0]) + " : " +
         printOperand(*F.Children[1], /*ParenAnd=*/true);
    if (IsCollect)
      S += " as " + F.Result.Name;
    return S;
  }
  case Formula::Kind::Equal:
    return printArg(F.Args[0]) + " = " + printArg(F.Args[1]);
  case Formula::Kind::True:
    return "true";
  case Formula::Kind::False:
    return "false";
  }
  return "?";
}

std::string idiom::constraints::printDefinition(const Definition &D) {
  std::string S = D.isIdiom() ? "idiom " : "constraint ";
  S += D.Name + "(";
  for (size_t I = 0; I < D.Params.size(); ++I) {
    if (I)
      S += ", ";
    S += D.Params[I];
  }
  S += ")";
  if (!D.Lifts.empty())
    S += " lifts " + D.Lifts;
  S += " = ";
  if (D.Body)
    S += printFormula(*D.Body);
  return S + ";";
}
