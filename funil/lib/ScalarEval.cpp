//===- ScalarEval.cpp - scalar operation semantics ------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "ScalarEval.h"

#include <cmath>
#include <cstring>

namespace idiom::funil {

namespace {

/// Rounds \p V to the precision of \p K.
double roundTo(ScalarKind K, double V) {
  return K == ScalarKind::F32 ? static_cast<double>(static_cast<float>(V)) : V;
}

template <typename F> double floatUnary(ScalarKind K, double X, F Op) {
  if (K == ScalarKind::F32)
    return static_cast<double>(Op(static_cast<float>(X)));
  return Op(X);
}

bool intOp(const std::string &N, const Value &A, const Value &B, Value &Out,
           std::string &Err) {
  ScalarKind K = A.S;
  unsigned W = scalarBits(K);
  uint64_t UA = A.Bits, UB = B.Bits;
  int64_t SA = A.asSigned(), SB = B.asSigned();
  auto Res = [&](uint64_t V) {
    Out = Value::ofInt(K, static_cast<int64_t>(V));
    return true;
  };
  if (N == "add")
    return Res(UA + UB);
  if (N == "sub")
    return Res(UA - UB);
  if (N == "mul")
    return Res(UA * UB);
  if (N == "and")
    return Res(UA & UB);
  if (N == "or")
    return Res(UA | UB);
  if (N == "xor")
    return Res(UA ^ UB);
  if (N == "sdiv" || N == "srem" || N == "udiv" || N == "urem") {
    if (UB == 0) {
      Err = "division by zero in '" + N + "'";
      return false;
    }
    int64_t Min = W >= 64 ? INT64_MIN : -(int64_t(1) << (W - 1));
    if ((N == "sdiv" || N == "srem") && SA == Min && SB == -1) {
      Err = "overflow in '" + N + "'";
      return false;
    }
    if (N == "sdiv")
      return Res(static_cast<uint64_t>(SA / SB));
    if (N == "srem")
      return Res(static_cast<uint64_t>(SA % SB));
    if (N == "udiv")
      return Res(UA / UB);
    return Res(UA % UB);
  }
  if (N == "shl" || N == "lshr" || N == "ashr") {
    if (UB >= W) {
      Err = "shift amount out of range in '" + N + "'";
      return false;
    }
    if (N == "shl")
      return Res(UA << UB);
    if (N == "lshr")
      return Res(UA >> UB);
    return Res(static_cast<uint64_t>(SA >> UB));
  }
  if (N == "smin")
    return Res(static_cast<uint64_t>(SA < SB ? SA : SB));
  if (N == "smax")
    return Res(static_cast<uint64_t>(SA > SB ? SA : SB));
  if (N == "umin")
    return Res(UA < UB ? UA : UB);
  if (N == "umax")
    return Res(UA > UB ? UA : UB);
  bool C;
  if (N == "icmp_eq")
    C = UA == UB;
  else if (N == "icmp_ne")
    C = UA != UB;
  else if (N == "icmp_slt")
    C = SA < SB;
  else if (N == "icmp_sle")
    C = SA <= SB;
  else if (N == "icmp_sgt")
    C = SA > SB;
  else if (N == "icmp_sge")
    C = SA >= SB;
  else if (N == "icmp_ult")
    C = UA < UB;
  else if (N == "icmp_ule")
    C = UA <= UB;
  else if (N == "icmp_ugt")
    C = UA > UB;
  else if (N == "icmp_uge")
    C = UA >= UB;
  else {
    Err = "unknown integer operation '" + N + "'";
    return false;
  }
  Out = Value::ofInt(ScalarKind::Bool, C);
  return true;
}

bool floatOp(const std::string &N, const std::vector<Value> &Args, Value &Out,
             std::string &Err) {
  ScalarKind K = Args[0].S;
  bool F32 = K == ScalarKind::F32;
  double X = Args[0].F, Y = Args.size() > 1 ? Args[1].F : 0;
  auto Res = [&](double V) {
    Out = Value::ofFloat(K, V);
    return true;
  };
  auto Bin = [&](auto Op) {
    if (F32)
      return Res(Op(static_cast<float>(X), static_cast<float>(Y)));
    return Res(Op(X, Y));
  };
  if (N == "fadd")
    return Bin([](auto A, auto B) { return A + B; });
  if (N == "fsub")
    return Bin([](auto A, auto B) { return A - B; });
  if (N == "fmul")
    return Bin([](auto A, auto B) { return A * B; });
  if (N == "fdiv")
    return Bin([](auto A, auto B) { return A / B; });
  if (N == "frem")
    return Bin([](auto A, auto B) { return std::fmod(A, B); });
  if (N == "fmin")
    return Bin([](auto A, auto B) { return std::fmin(A, B); });
  if (N == "fmax")
    return Bin([](auto A, auto B) { return std::fmax(A, B); });
  if (N == "pow")
    return Bin([](auto A, auto B) { return std::pow(A, B); });
  if (N == "fneg")
    return Res(-X);
  if (N == "sqrt")
    return Res(floatUnary(K, X, [](auto A) { return std::sqrt(A); }));
  if (N == "fabs")
    return Res(std::fabs(X));
  if (N == "exp")
    return Res(floatUnary(K, X, [](auto A) { return std::exp(A); }));
  if (N == "log")
    return Res(floatUnary(K, X, [](auto A) { return std::log(A); }));
  if (N == "sin")
    return Res(floatUnary(K, X, [](auto A) { return std::sin(A); }));
  if (N == "cos")
    return Res(floatUnary(K, X, [](auto A) { return std::cos(A); }));
  if (N == "floor")
    return Res(std::floor(X));
  if (N == "ceil")
    return Res(std::ceil(X));
  if (N == "fmuladd") { // unfused, matching the OpenCL generator
    double Z = Args[2].F;
    if (F32)
      return Res(static_cast<float>(static_cast<float>(static_cast<float>(X) *
                                                       static_cast<float>(Y)) +
                                    static_cast<float>(Z)));
    return Res(X * Y + Z);
  }
  if (N == "fma") {
    double Z = Args[2].F;
    if (F32)
      return Res(std::fma(static_cast<float>(X), static_cast<float>(Y),
                          static_cast<float>(Z)));
    return Res(std::fma(X, Y, Z));
  }
  bool Uno = std::isnan(X) || std::isnan(Y);
  bool C;
  if (N == "fcmp_oeq")
    C = !Uno && X == Y;
  else if (N == "fcmp_one")
    C = !Uno && X != Y;
  else if (N == "fcmp_olt")
    C = !Uno && X < Y;
  else if (N == "fcmp_ole")
    C = !Uno && X <= Y;
  else if (N == "fcmp_ogt")
    C = !Uno && X > Y;
  else if (N == "fcmp_oge")
    C = !Uno && X >= Y;
  else if (N == "fcmp_ueq")
    C = Uno || X == Y;
  else if (N == "fcmp_une")
    C = Uno || X != Y;
  else if (N == "fcmp_ult")
    C = Uno || X < Y;
  else if (N == "fcmp_ule")
    C = Uno || X <= Y;
  else if (N == "fcmp_ugt")
    C = Uno || X > Y;
  else if (N == "fcmp_uge")
    C = Uno || X >= Y;
  else if (N == "fcmp_ord")
    C = !Uno;
  else if (N == "fcmp_uno")
    C = Uno;
  else {
    Err = "unknown floating operation '" + N + "'";
    return false;
  }
  (void)roundTo;
  Out = Value::ofInt(ScalarKind::Bool, C);
  return true;
}

} // namespace

bool evalScalarOp(const std::string &N, const std::vector<Value> &Args,
                  Value &Out, std::string &Err) {
  if (N == "select") {
    Out = Args[0].Bits ? Args[1] : Args[2];
    return true;
  }
  if (N == "not") {
    Out = Value::ofInt(ScalarKind::Bool, !Args[0].Bits);
    return true;
  }
  const Value &A = Args[0];
  if (N == "abs") {
    int64_t V = A.asSigned();
    Out = Value::ofInt(A.S, static_cast<int64_t>(V < 0 ? 0 - static_cast<uint64_t>(V)
                                                      : static_cast<uint64_t>(V)));
    return true;
  }
  if (N == "ilog2") {
    int64_t V = A.asSigned();
    if (V <= 0) {
      Err = "'ilog2' of a non-positive value";
      return false;
    }
    int64_t L = 0;
    while (V >>= 1)
      ++L;
    Out = Value::ofInt(A.S, L);
    return true;
  }
  if (isFloat(A.S))
    return floatOp(N, Args, Out, Err);
  return intOp(N, A, Args[1], Out, Err);
}

bool evalCast(const std::string &Op, ScalarKind To, const Value &X, Value &Out,
              std::string &Err) {
  if (Op == "sext") {
    Out = Value::ofInt(To, X.S == ScalarKind::Bool ? -static_cast<int64_t>(X.Bits)
                                                   : X.asSigned());
    return true;
  }
  if (Op == "zext" || Op == "trunc") {
    Out = Value::ofInt(To, static_cast<int64_t>(X.Bits));
    return true;
  }
  if (Op == "sitofp") {
    int64_t I = X.S == ScalarKind::Bool ? -static_cast<int64_t>(X.Bits)
                                        : X.asSigned();
    // Round once, from the integer.
    double V = To == ScalarKind::F32 ? static_cast<double>(static_cast<float>(I))
                                     : static_cast<double>(I);
    Out = Value::ofFloat(To, V);
    return true;
  }
  if (Op == "uitofp") {
    double V = To == ScalarKind::F32 ? static_cast<double>(static_cast<float>(X.Bits))
                                     : static_cast<double>(X.Bits);
    Out = Value::ofFloat(To, V);
    return true;
  }
  if (Op == "fptosi" || Op == "fptoui") {
    double T = std::trunc(X.F);
    unsigned W = scalarBits(To);
    bool Ok;
    if (Op == "fptosi")
      Ok = !std::isnan(T) && T >= -std::ldexp(1.0, W - 1) &&
           T < std::ldexp(1.0, W - 1);
    else
      Ok = !std::isnan(T) && T >= 0 && T < std::ldexp(1.0, W);
    if (!Ok) {
      Err = "'" + Op + "' of an out-of-range value";
      return false;
    }
    Out = Op == "fptosi" ? Value::ofInt(To, static_cast<int64_t>(T))
                         : Value::ofInt(To, static_cast<int64_t>(static_cast<uint64_t>(T)));
    return true;
  }
  if (Op == "fpext" || Op == "fptrunc") {
    Out = Value::ofFloat(To, X.F);
    return true;
  }
  if (Op == "bitcast") {
    if (isFloat(X.S) && !isFloat(To)) {
      uint64_t B = 0;
      if (X.S == ScalarKind::F32) {
        float F = static_cast<float>(X.F);
        uint32_t U;
        std::memcpy(&U, &F, 4);
        B = U;
      } else {
        std::memcpy(&B, &X.F, 8);
      }
      Out = Value::ofInt(To, static_cast<int64_t>(B));
    } else if (!isFloat(X.S) && isFloat(To)) {
      if (To == ScalarKind::F32) {
        uint32_t U = static_cast<uint32_t>(X.Bits);
        float F;
        std::memcpy(&F, &U, 4);
        Out = Value::ofFloat(To, F);
      } else {
        double D;
        std::memcpy(&D, &X.Bits, 8);
        Out = Value::ofFloat(To, D);
      }
    } else if (isFloat(X.S)) {
      Out = Value::ofFloat(To, X.F);
    } else {
      Out = Value::ofInt(To, static_cast<int64_t>(X.Bits));
    }
    return true;
  }
  Err = "unknown cast '" + Op + "'";
  return false;
}

} // namespace idiom::funil
