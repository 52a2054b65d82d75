//===- ScalarC.cpp - scalar FunIL to OpenCL C -----------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "ScalarC.h"

#include "idiom/FunIL/Printer.h"

#include <cmath>

namespace idiom::rewrite::codegen {

using funil::isFloat;
using funil::isUnsigned;
using funil::scalarBits;

const char *clType(ScalarKind K) {
  switch (K) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::I8:
    return "char";
  case ScalarKind::I16:
    return "short";
  case ScalarKind::I32:
    return "int";
  case ScalarKind::I64:
    return "long";
  case ScalarKind::U8:
    return "uchar";
  case ScalarKind::U16:
    return "ushort";
  case ScalarKind::U32:
    return "uint";
  case ScalarKind::U64:
    return "ulong";
  case ScalarKind::F32:
    return "float";
  case ScalarKind::F64:
    return "double";
  }
  return "int";
}

namespace {
/// The signed type of the same width (bool stays bool).
const char *sType(ScalarKind K) {
  switch (scalarBits(K)) {
  case 8:
    return "char";
  case 16:
    return "short";
  case 32:
    return "int";
  case 64:
    return "long";
  }
  return "bool";
}
/// The unsigned type of the same width.
const char *uType(ScalarKind K) {
  switch (scalarBits(K)) {
  case 8:
    return "uchar";
  case 16:
    return "ushort";
  case 32:
    return "uint";
  case 64:
    return "ulong";
  }
  return "bool";
}
std::string cast(const char *T, const std::string &X) {
  return std::string("((") + T + ")(" + X + "))";
}
} // namespace

std::string clLiteral(const funil::Expr &L) {
  ScalarKind K = L.LitKind;
  if (K == ScalarKind::Bool)
    return L.Bits ? "true" : "false";
  if (isFloat(K)) {
    bool F32 = K == ScalarKind::F32;
    if (std::isnan(L.F))
      return F32 ? "NAN" : "((double)NAN)";
    if (std::isinf(L.F))
      return std::string(L.F < 0 ? "(-" : "(") +
             (F32 ? "INFINITY" : "(double)INFINITY") + ")";
    std::string S = funil::printFloat(L.F, K);
    if (S[0] == '-')
      S = "(" + S + (F32 ? "f)" : ")");
    else if (F32)
      S += "f";
    return S;
  }
  if (isUnsigned(K)) {
    std::string S = std::to_string(L.Bits) + (scalarBits(K) == 64 ? "UL" : "U");
    return scalarBits(K) >= 32 ? S : cast(clType(K), S);
  }
  int64_t V = L.signedValue();
  std::string S;
  if (V == INT64_MIN)
    S = "(-9223372036854775807L-1L)";
  else if (scalarBits(K) == 32 && V == INT32_MIN)
    S = "(-2147483647-1)";
  else
    S = std::to_string(V) + (scalarBits(K) == 64 ? "L" : "");
  if (V < 0 && S[0] == '-')
    S = "(" + S + ")";
  return scalarBits(K) >= 32 ? S : cast(clType(K), S);
}

bool clScalarOp(const std::string &Op, ScalarKind K,
                const std::vector<std::string> &A, std::string &Out,
                std::string &Err) {
  const char *T = clType(K), *S = sType(K), *U = uType(K);
  auto P = [](const std::string &X) { return "(" + X + ")"; };
  auto Bin = [&](const char *Ty, const char *O) {
    return cast(T, cast(Ty, A[0]) + " " + O + " " + cast(Ty, A[1]));
  };
  bool IsBool = K == ScalarKind::Bool;
  if (Op == "add")
    Out = Bin(U, "+");
  else if (Op == "sub")
    Out = Bin(U, "-");
  else if (Op == "mul")
    Out = Bin(U, "*");
  else if (Op == "sdiv")
    Out = Bin(S, "/");
  else if (Op == "srem")
    Out = Bin(S, "%");
  else if (Op == "udiv")
    Out = Bin(U, "/");
  else if (Op == "urem")
    Out = Bin(U, "%");
  else if (Op == "shl")
    Out = cast(T, cast(U, A[0]) + " << " + P(A[1]));
  else if (Op == "lshr")
    Out = cast(T, cast(U, A[0]) + " >> " + P(A[1]));
  else if (Op == "ashr")
    Out = cast(T, cast(S, A[0]) + " >> " + P(A[1]));
  else if (Op == "and")
    Out = IsBool ? P(P(A[0]) + " && " + P(A[1])) : P(P(A[0]) + " & " + P(A[1]));
  else if (Op == "or")
    Out = IsBool ? P(P(A[0]) + " || " + P(A[1])) : P(P(A[0]) + " | " + P(A[1]));
  else if (Op == "xor")
    Out = IsBool ? P(P(A[0]) + " != " + P(A[1])) : P(P(A[0]) + " ^ " + P(A[1]));
  else if (Op == "smin" || Op == "smax" || Op == "umin" || Op == "umax") {
    const char *Ty = Op[0] == 's' ? S : U;
    Out = cast(T, std::string(Op.substr(1)) + "(" + cast(Ty, A[0]) + ", " +
                      cast(Ty, A[1]) + ")");
  } else if (Op == "abs")
    Out = cast(T, "abs(" + cast(S, A[0]) + ")");
  else if (Op == "ilog2")
    Out = cast(T, std::to_string(scalarBits(K) - 1) + " - clz(" + cast(S, A[0]) + ")");
  else if (Op.rfind("icmp_", 0) == 0) {
    std::string C = Op.substr(5);
    const char *Ty = C[0] == 'u' ? U : S;
    std::string O = C == "eq" ? "==" : C == "ne" ? "!=" :
                    C.substr(1) == "lt" ? "<" : C.substr(1) == "le" ? "<=" :
                    C.substr(1) == "gt" ? ">" : ">=";
    if (IsBool || C == "eq" || C == "ne")
      Out = P(P(A[0]) + " " + O + " " + P(A[1]));
    else
      Out = P(cast(Ty, A[0]) + " " + O + " " + cast(Ty, A[1]));
  } else if (Op == "fadd")
    Out = P(P(A[0]) + " + " + P(A[1]));
  else if (Op == "fsub")
    Out = P(P(A[0]) + " - " + P(A[1]));
  else if (Op == "fmul")
    Out = P(P(A[0]) + " * " + P(A[1]));
  else if (Op == "fdiv")
    Out = P(P(A[0]) + " / " + P(A[1]));
  else if (Op == "frem")
    Out = "fmod(" + A[0] + ", " + A[1] + ")";
  else if (Op == "fmin" || Op == "fmax" || Op == "pow")
    Out = Op + "(" + A[0] + ", " + A[1] + ")";
  else if (Op == "fneg")
    Out = "(-" + P(A[0]) + ")";
  else if (Op == "sqrt" || Op == "fabs" || Op == "exp" || Op == "log" ||
           Op == "sin" || Op == "cos" || Op == "floor" || Op == "ceil")
    Out = Op + "(" + A[0] + ")";
  else if (Op == "fma")
    Out = "fma(" + A[0] + ", " + A[1] + ", " + A[2] + ")";
  else if (Op == "fmuladd") // unfused, as a host without FMA evaluates it
    Out = P(P(P(A[0]) + " * " + P(A[1])) + " + " + P(A[2]));
  else if (Op.rfind("fcmp_", 0) == 0) {
    std::string C = Op.substr(5), X = P(A[0]), Y = P(A[1]);
    if (C == "oeq")
      Out = P(X + " == " + Y);
    else if (C == "one")
      Out = P(X + " < " + Y + " || " + X + " > " + Y);
    else if (C == "olt")
      Out = P(X + " < " + Y);
    else if (C == "ole")
      Out = P(X + " <= " + Y);
    else if (C == "ogt")
      Out = P(X + " > " + Y);
    else if (C == "oge")
      Out = P(X + " >= " + Y);
    else if (C == "ueq")
      Out = "(!(" + X + " < " + Y + " || " + X + " > " + Y + "))";
    else if (C == "une")
      Out = P(X + " != " + Y);
    else if (C == "ult")
      Out = "(!(" + X + " >= " + Y + "))";
    else if (C == "ule")
      Out = "(!(" + X + " > " + Y + "))";
    else if (C == "ugt")
      Out = "(!(" + X + " <= " + Y + "))";
    else if (C == "uge")
      Out = "(!(" + X + " < " + Y + "))";
    else if (C == "ord")
      Out = P(X + " == " + X + " && " + Y + " == " + Y);
    else if (C == "uno")
      Out = P(X + " != " + X + " || " + Y + " != " + Y);
    else {
      Err = "no OpenCL spelling for '" + Op + "'";
      return false;
    }
  } else if (Op == "select")
    Out = P(P(A[0]) + " ? " + P(A[1]) + " : " + P(A[2]));
  else if (Op == "not")
    Out = "(!" + P(A[0]) + ")";
  else {
    Err = "no OpenCL spelling for '" + Op + "'";
    return false;
  }
  return true;
}

std::string clCast(const std::string &Op, ScalarKind From, ScalarKind To,
                   const std::string &X) {
  const char *T = clType(To);
  bool FromBool = From == ScalarKind::Bool;
  if (Op == "sext")
    return FromBool ? cast(T, "(" + X + ") ? -1 : 0") : cast(T, cast(sType(From), X));
  if (Op == "zext")
    return FromBool ? cast(T, "(" + X + ") ? 1 : 0") : cast(T, cast(uType(From), X));
  if (Op == "trunc")
    return To == ScalarKind::Bool ? "(((" + X + ") & 1) != 0)" : cast(T, X);
  if (Op == "sitofp")
    return FromBool ? cast(T, "(" + X + ") ? -1 : 0") : cast(T, cast(sType(From), X));
  if (Op == "uitofp")
    return FromBool ? cast(T, "(" + X + ") ? 1 : 0") : cast(T, cast(uType(From), X));
  if (Op == "fptosi")
    return cast(T, cast(sType(To), X));
  if (Op == "fptoui")
    return cast(T, cast(uType(To), X));
  if (Op == "bitcast") {
    if (isFloat(From) != isFloat(To))
      return std::string("as_") + T + "(" + X + ")";
    return cast(T, X);
  }
  return cast(T, X); // fpext, fptrunc
}

const char *clUnsignedType(ScalarKind K) { return uType(K); }

} // namespace idiom::rewrite::codegen
