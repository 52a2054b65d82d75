//===- Value.cpp - FunIL run-time values ----------------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Value.h"

#include "idiom/FunIL/Printer.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace idiom::funil {

static uint64_t truncTo(ScalarKind K, uint64_t V) {
  unsigned B = scalarBits(K);
  return B >= 64 ? V : V & ((uint64_t(1) << B) - 1);
}

Value Value::ofInt(ScalarKind K, int64_t V) {
  Value R;
  R.S = K;
  R.Bits = truncTo(K, static_cast<uint64_t>(V));
  return R;
}

Value Value::ofFloat(ScalarKind K, double V) {
  Value R;
  R.S = K;
  R.F = K == ScalarKind::F32 ? static_cast<double>(static_cast<float>(V)) : V;
  return R;
}

Value Value::tuple(std::vector<Value> Es) {
  Value R;
  R.K = Tuple;
  R.Elems = std::move(Es);
  return R;
}

Value Value::array(std::vector<Value> Es) {
  Value R;
  R.K = Array;
  R.Elems = std::move(Es);
  return R;
}

int64_t Value::asSigned() const {
  unsigned B = scalarBits(S);
  if (B >= 64)
    return static_cast<int64_t>(Bits);
  uint64_t Sign = uint64_t(1) << (B - 1);
  return static_cast<int64_t>((Bits ^ Sign) - Sign);
}

double Value::asDouble() const {
  if (isFloat(S))
    return F;
  if (isUnsigned(S) || S == ScalarKind::Bool)
    return static_cast<double>(Bits);
  return static_cast<double>(asSigned());
}

std::string printValue(const Value &V) {
  switch (V.K) {
  case Value::Scalar:
    if (V.S == ScalarKind::Bool)
      return V.Bits ? "true" : "false";
    if (isFloat(V.S))
      return printFloat(V.F, V.S) + ":" + scalarName(V.S);
    return (isUnsigned(V.S) ? std::to_string(V.Bits)
                            : std::to_string(V.asSigned())) +
           ":" + scalarName(V.S);
  case Value::Tuple:
  case Value::Array: {
    std::string S = V.K == Value::Tuple ? "(" : "[";
    for (size_t I = 0; I < V.Elems.size(); ++I) {
      if (I)
        S += ", ";
      S += printValue(V.Elems[I]);
    }
    return S + (V.K == Value::Tuple ? ")" : "]");
  }
  }
  return "?";
}

bool parseScalarValue(const std::string &Text, ScalarKind K, Value &Out) {
  if (Text.empty())
    return false;
  if (K == ScalarKind::Bool) {
    if (Text == "true" || Text == "1")
      Out = Value::ofInt(K, 1);
    else if (Text == "false" || Text == "0")
      Out = Value::ofInt(K, 0);
    else
      return false;
    return true;
  }
  char *End = nullptr;
  errno = 0;
  if (isFloat(K)) {
    double V;
    if (Text == "inf")
      V = std::numeric_limits<double>::infinity();
    else if (Text == "-inf")
      V = -std::numeric_limits<double>::infinity();
    else if (Text == "nan")
      V = std::numeric_limits<double>::quiet_NaN();
    else {
      V = K == ScalarKind::F32 ? static_cast<double>(std::strtof(Text.c_str(), &End))
                               : std::strtod(Text.c_str(), &End);
      if (*End)
        return false;
    }
    Out = Value::ofFloat(K, V);
    return true;
  }
  unsigned B = scalarBits(K);
  if (isUnsigned(K)) {
    if (Text[0] == '-')
      return false;
    unsigned long long V = std::strtoull(Text.c_str(), &End, 0);
    if (*End || errno || (B < 64 && V >> B))
      return false;
    Out = Value::ofInt(K, static_cast<int64_t>(V));
    return true;
  }
  long long V = std::strtoll(Text.c_str(), &End, 0);
  if (*End || errno)
    return false;
  if (B < 64 && (V < -(1LL << (B - 1)) || V >= (1LL << (B - 1))))
    return false;
  Out = Value::ofInt(K, V);
  return true;
}

bool valuesClose(const Value &A, const Value &B, double RelTol) {
  if (A.K != B.K || A.Elems.size() != B.Elems.size())
    return false;
  if (A.K != Value::Scalar) {
    for (size_t I = 0; I < A.Elems.size(); ++I)
      if (!valuesClose(A.Elems[I], B.Elems[I], RelTol))
        return false;
    return true;
  }
  if (A.S != B.S)
    return false;
  if (!isFloat(A.S))
    return A.Bits == B.Bits;
  if (std::isnan(A.F) || std::isnan(B.F))
    return std::isnan(A.F) && std::isnan(B.F);
  if (A.F == B.F)
    return true;
  if (RelTol == 0 || std::isinf(A.F) || std::isinf(B.F))
    return false;
  double Scale = std::max({std::fabs(A.F), std::fabs(B.F), 1.0});
  return std::fabs(A.F - B.F) <= RelTol * Scale;
}

} // namespace idiom::funil
