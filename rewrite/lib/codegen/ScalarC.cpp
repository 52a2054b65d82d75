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

namespace {
const char *const ScalarOpNames[] = {
    "",          "add",       "sub",       "mul",       "sdiv",      "srem",
    "udiv",      "urem",      "shl",       "lshr",      "ashr",      "and",
    "or",        "xor",       "smin",      "smax",      "umin",      "umax",
    "abs",       "ilog2",     "icmp_eq",   "icmp_ne",   "icmp_slt",  "icmp_sle",
    "icmp_sgt",  "icmp_sge",  "icmp_ult",  "icmp_ule",  "icmp_ugt",  "icmp_uge",
    "fadd",      "fsub",      "fmul",      "fdiv",      "frem",      "fmin",
    "fmax",      "pow",       "fneg",      "sqrt",      "fabs",      "exp",
    "log",       "sin",       "cos",       "floor",     "ceil",      "fma",
    "fmuladd",   "fcmp_oeq",  "fcmp_one",  "fcmp_olt",  "fcmp_ole",  "fcmp_ogt",
    "fcmp_oge",  "fcmp_ueq",  "fcmp_une",  "fcmp_ult",  "fcmp_ule",  "fcmp_ugt",
    "fcmp_uge",  "fcmp_ord",  "fcmp_uno",  "select",    "not"};
static_assert(sizeof(ScalarOpNames) / sizeof(*ScalarOpNames) ==
                  static_cast<size_t>(ScalarOp::Not) + 1,
              "one name per ScalarOp");

/// Appends its pieces to a string, reserving once.
struct Cat {
  std::string &O;
  static std::string_view sv(std::string_view S) { return S; }
  template <typename... Ts> Cat &operator()(const Ts &...Xs) {
    O.reserve(O.size() + (0 + ... + sv(Xs).size()));
    (O.append(sv(Xs)), ...);
    return *this;
  }
};
} // namespace

ScalarOp scalarOpOf(const std::string &Name) {
  for (size_t I = 1; I < sizeof(ScalarOpNames) / sizeof(*ScalarOpNames); ++I)
    if (Name == ScalarOpNames[I])
      return static_cast<ScalarOp>(I);
  return ScalarOp::None;
}

bool clScalarOp(ScalarOp Op, const std::string &Name, ScalarKind K,
                const std::string *const *A, std::string &Out, std::string &Err) {
  const char *T = clType(K), *S = sType(K), *U = uType(K);
  bool IsBool = K == ScalarKind::Bool;
  Out.clear();
  Cat C{Out};
  // ((T)(((Ty)(A0)) O ((Ty)(A1))))
  auto Bin = [&](const char *Ty, const char *O) {
    C("((", T, ")(((", Ty, ")(", *A[0], ")) ", O, " ((", Ty, ")(", *A[1], "))))");
  };
  // ((A0) O (A1))
  auto Par2 = [&](const char *O) { C("((", *A[0], ") ", O, " (", *A[1], "))"); };
  // ((T)(((Ty)(A0)) O (A1)))
  auto Shift = [&](const char *Ty, const char *O) {
    C("((", T, ")(((", Ty, ")(", *A[0], ")) ", O, " (", *A[1], ")))");
  };
  auto MinMax = [&](const char *Ty) {
    C("((", T, ")(", Name.c_str() + 1, "(((", Ty, ")(", *A[0], ")), ((", Ty, ")(", *A[1],
      ")))))");
  };
  auto ICmp = [&](const char *Ty, const char *O, bool Plain) {
    if (IsBool || Plain)
      Par2(O);
    else
      C("(((", Ty, ")(", *A[0], ")) ", O, " ((", Ty, ")(", *A[1], ")))");
  };
  // X = (A0), Y = (A1).
  auto FCmp = [&](const char *Pre, const char *O, const char *Post) {
    C(Pre, "(", *A[0], ") ", O, " (", *A[1], ")", Post);
  };
  auto FCmp2 = [&](const char *Pre, const char *O1, const char *Mid, const char *O2,
                   const char *Post) {
    C(Pre, "(", *A[0], ") ", O1, " (", *A[1], ")", Mid, "(", *A[0], ") ", O2, " (", *A[1],
      ")", Post);
  };
  auto Self2 = [&](const char *O, const char *Mid) {
    C("((", *A[0], ") ", O, " (", *A[0], ")", Mid, "(", *A[1], ") ", O, " (", *A[1], "))");
  };
  switch (Op) {
  case ScalarOp::Add: Bin(U, "+"); break;
  case ScalarOp::Sub: Bin(U, "-"); break;
  case ScalarOp::Mul: Bin(U, "*"); break;
  case ScalarOp::SDiv: Bin(S, "/"); break;
  case ScalarOp::SRem: Bin(S, "%"); break;
  case ScalarOp::UDiv: Bin(U, "/"); break;
  case ScalarOp::URem: Bin(U, "%"); break;
  case ScalarOp::Shl: Shift(U, "<<"); break;
  case ScalarOp::LShr: Shift(U, ">>"); break;
  case ScalarOp::AShr: Shift(S, ">>"); break;
  case ScalarOp::And: Par2(IsBool ? "&&" : "&"); break;
  case ScalarOp::Or: Par2(IsBool ? "||" : "|"); break;
  case ScalarOp::Xor: Par2(IsBool ? "!=" : "^"); break;
  case ScalarOp::SMin:
  case ScalarOp::SMax: MinMax(S); break;
  case ScalarOp::UMin:
  case ScalarOp::UMax: MinMax(U); break;
  case ScalarOp::Abs: C("((", T, ")(abs(((", S, ")(", *A[0], ")))))"); break;
  case ScalarOp::ILog2:
    C("((", T, ")(", std::to_string(scalarBits(K) - 1), " - clz(((", S, ")(", *A[0],
      ")))))");
    break;
  case ScalarOp::ICmpEq: ICmp(S, "==", true); break;
  case ScalarOp::ICmpNe: ICmp(S, "!=", true); break;
  case ScalarOp::ICmpSlt: ICmp(S, "<", false); break;
  case ScalarOp::ICmpSle: ICmp(S, "<=", false); break;
  case ScalarOp::ICmpSgt: ICmp(S, ">", false); break;
  case ScalarOp::ICmpSge: ICmp(S, ">=", false); break;
  case ScalarOp::ICmpUlt: ICmp(U, "<", false); break;
  case ScalarOp::ICmpUle: ICmp(U, "<=", false); break;
  case ScalarOp::ICmpUgt: ICmp(U, ">", false); break;
  case ScalarOp::ICmpUge: ICmp(U, ">=", false); break;
  case ScalarOp::FAdd: Par2("+"); break;
  case ScalarOp::FSub: Par2("-"); break;
  case ScalarOp::FMul: Par2("*"); break;
  case ScalarOp::FDiv: Par2("/"); break;
  case ScalarOp::FRem: C("fmod(", *A[0], ", ", *A[1], ")"); break;
  case ScalarOp::FMin:
  case ScalarOp::FMax:
  case ScalarOp::Pow: C(Name, "(", *A[0], ", ", *A[1], ")"); break;
  case ScalarOp::FNeg: C("(-(", *A[0], "))"); break;
  case ScalarOp::Sqrt:
  case ScalarOp::FAbs:
  case ScalarOp::Exp:
  case ScalarOp::Log:
  case ScalarOp::Sin:
  case ScalarOp::Cos:
  case ScalarOp::Floor:
  case ScalarOp::Ceil: C(Name, "(", *A[0], ")"); break;
  case ScalarOp::Fma: C("fma(", *A[0], ", ", *A[1], ", ", *A[2], ")"); break;
  case ScalarOp::FMulAdd: // unfused, as a host without FMA evaluates it
    C("(((", *A[0], ") * (", *A[1], ")) + (", *A[2], "))");
    break;
  case ScalarOp::FCmpOeq: FCmp("(", "==", ")"); break;
  case ScalarOp::FCmpOne: FCmp2("(", "<", " || ", ">", ")"); break;
  case ScalarOp::FCmpOlt: FCmp("(", "<", ")"); break;
  case ScalarOp::FCmpOle: FCmp("(", "<=", ")"); break;
  case ScalarOp::FCmpOgt: FCmp("(", ">", ")"); break;
  case ScalarOp::FCmpOge: FCmp("(", ">=", ")"); break;
  case ScalarOp::FCmpUeq: FCmp2("(!(", "<", " || ", ">", "))"); break;
  case ScalarOp::FCmpUne: FCmp("(", "!=", ")"); break;
  case ScalarOp::FCmpUlt: FCmp("(!(", ">=", "))"); break;
  case ScalarOp::FCmpUle: FCmp("(!(", ">", "))"); break;
  case ScalarOp::FCmpUgt: FCmp("(!(", "<=", "))"); break;
  case ScalarOp::FCmpUge: FCmp("(!(", "<", "))"); break;
  case ScalarOp::FCmpOrd: Self2("==", " && "); break;
  case ScalarOp::FCmpUno: Self2("!=", " || "); break;
  case ScalarOp::Select: C("((", *A[0], ") ? (", *A[1], ") : (", *A[2], "))"); break;
  case ScalarOp::Not: C("(!(", *A[0], "))"); break;
  case ScalarOp::None:
    Err = "no OpenCL spelling for '" + Name + "'";
    return false;
  }
  return true;
}

bool clScalarOp(const std::string &Op, ScalarKind K,
                const std::vector<std::string> &A, std::string &Out,
                std::string &Err) {
  const std::string *Ptrs[3] = {};
  for (size_t I = 0; I < A.size() && I < 3; ++I)
    Ptrs[I] = &A[I];
  return clScalarOp(scalarOpOf(Op), Op, K, Ptrs, Out, Err);
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
