//===- Printer.cpp - FunIL text form --------------------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Printer.h"

#include "idiom/FunIL/Ops.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace idiom::funil {

std::string printFloat(double V, ScalarKind K) {
  if (std::isnan(V))
    return "nan";
  if (std::isinf(V))
    return V < 0 ? "-inf" : "inf";
  char Buf[64];
  bool IsF32 = K == ScalarKind::F32;
  for (int Prec = 1; Prec <= 17; ++Prec) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Prec, V);
    bool Exact = IsF32 ? std::strtof(Buf, nullptr) == static_cast<float>(V)
                       : std::strtod(Buf, nullptr) == V;
    if (Exact)
      break;
  }
  std::string S = Buf;
  if (S.find_first_of(".en") == std::string::npos)
    S += ".0";
  return S;
}

std::string printLiteral(const Expr &L) {
  if (L.LitKind == ScalarKind::Bool)
    return L.Bits ? "true" : "false";
  std::string S;
  if (isFloat(L.LitKind))
    S = printFloat(L.F, L.LitKind);
  else if (isUnsigned(L.LitKind))
    S = std::to_string(L.Bits);
  else
    S = std::to_string(L.signedValue());
  return S + ":" + scalarName(L.LitKind);
}

static void printArgs(const std::vector<ExprPtr> &Args, std::string &Out,
                      size_t From = 0) {
  for (size_t I = From; I < Args.size(); ++I) {
    if (I != From)
      Out += ", ";
    Out += printExpr(*Args[I]);
  }
}

std::string printExpr(const Expr &E) {
  std::string Out;
  switch (E.K) {
  case Expr::Var:
    return E.Name;
  case Expr::Lit:
    return printLiteral(E);
  case Expr::Call:
    Out = E.Name + "(";
    if (E.Attr >= 0) {
      Out += std::to_string(E.Attr);
      if (!E.Args.empty())
        Out += ", ";
    }
    printArgs(E.Args, Out);
    return Out + ")";
  case Expr::Cast:
    Out = E.Name + "." + scalarName(E.LitKind) + "(";
    printArgs(E.Args, Out);
    return Out + ")";
  case Expr::Lambda:
    Out = "\\(";
    for (size_t I = 0; I < E.Params.size(); ++I) {
      if (I)
        Out += ", ";
      Out += E.Params[I].Name + ": " + printType(*E.Params[I].Ty);
    }
    return Out + ") => " + printExpr(*E.body());
  case Expr::Tuple:
    Out = "(";
    printArgs(E.Args, Out);
    return Out + ")";
  case Expr::Proj: {
    const Expr &X = *E.Args[0];
    // A lambda operand needs parentheses; everything else binds tighter.
    if (X.K == Expr::Lambda)
      return "(" + printExpr(X) + ")." + std::to_string(E.Index);
    return printExpr(X) + "." + std::to_string(E.Index);
  }
  }
  return Out;
}

std::string printProgram(const Program &P) {
  std::string Out = "idiom " + P.Name + "(";
  for (size_t I = 0; I < P.Params.size(); ++I) {
    if (I)
      Out += ", ";
    Out += P.Params[I].Name + ": " + printType(*P.Params[I].Ty);
  }
  Out += ") {\n  ";
  if (P.IsReturn) {
    Out += "return ";
  } else {
    Out += "store ";
    if (P.Outs.size() == 1) {
      Out += printExpr(*P.Outs[0]);
    } else {
      Out += "(";
      printArgs(P.Outs, Out);
      Out += ")";
    }
    Out += " = ";
  }
  Out += P.Body ? printExpr(*P.Body) : std::string("?");
  Out += ";\n}\n";
  return Out;
}

} // namespace idiom::funil
