//===- TestUtil.h - helpers for rewrite tests -------------------*- C++ -*-===//
//
// Part of Idiom. Random arguments for FunIL programs and comparison of two
// programs' results in the reference interpreter.
//
//===----------------------------------------------------------------------===//

#ifndef IDIOM_TEST_REWRITE_TESTUTIL_H
#define IDIOM_TEST_REWRITE_TESTUTIL_H

#include "idiom/FunIL/Interpreter.h"
#include "idiom/FunIL/Parser.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/FunIL/TypeCheck.h"

#include <map>
#include <random>
#include <string>

namespace idiom::rwtest {

using namespace idiom::funil;

/// Parses and type checks \p Text; aborts the test on error.
inline Program parseOrDie(const std::string &Text) {
  Program P;
  std::string Err;
  if (!parseProgram(Text, P, Err) || !typeCheckProgram(P, Err)) {
    fprintf(stderr, "bad test program: %s\n%s\n", Err.c_str(), Text.c_str());
    abort();
  }
  return P;
}

/// A random scalar of kind \p K: small integers, floats in [-4, 4).
inline Value randomScalar(ScalarKind K, std::mt19937_64 &Rng) {
  if (isFloat(K)) {
    std::uniform_real_distribution<double> D(-4, 4);
    return Value::ofFloat(K, D(Rng));
  }
  if (K == ScalarKind::Bool)
    return Value::ofInt(K, Rng() & 1);
  std::uniform_int_distribution<int64_t> D(-50, 50);
  int64_t V = D(Rng);
  return Value::ofInt(K, isUnsigned(K) ? (V < 0 ? -V : V) : V);
}

/// Arguments for \p P: the i64 parameters named in \p Sizes get those
/// values, other scalars random values, buffers \p BufLen random elements.
inline ValueMap randomArgs(const Program &P,
                           const std::map<std::string, int64_t> &Sizes,
                           int64_t BufLen, std::mt19937_64 &Rng) {
  ValueMap Args;
  for (const Param &Pa : P.Params) {
    auto It = Sizes.find(Pa.Name);
    if (It != Sizes.end()) {
      Args[Pa.Name] = Value::ofInt(ScalarKind::I64, It->second);
    } else if (Pa.Ty->isBuffer()) {
      std::vector<Value> Es;
      for (int64_t I = 0; I < BufLen; ++I)
        Es.push_back(randomScalar(Pa.Ty->Elem->S, Rng));
      Args[Pa.Name] = Value::array(Es);
    } else {
      Args[Pa.Name] = randomScalar(Pa.Ty->S, Rng);
    }
  }
  return Args;
}

/// Runs \p A and \p B on copies of \p Args; empty string when results (the
/// returned value, or every buffer) agree within \p Tol, else why not.
inline std::string compareRuns(const Program &A, const Program &B,
                               const ValueMap &Args, double Tol,
                               const ExecConfig &CfgA = {},
                               const ExecConfig &CfgB = {}) {
  ValueMap AA = Args, BA = Args;
  Value RA, RB;
  std::string Err;
  if (!runProgram(A, AA, RA, Err, CfgA))
    return "before: " + Err;
  if (!runProgram(B, BA, RB, Err, CfgB))
    return "after: " + Err;
  if (!valuesClose(RA, RB, Tol))
    return "results differ: " + printValue(RA) + " vs " + printValue(RB);
  for (const auto &KV : AA)
    if (!valuesClose(KV.second, BA[KV.first], Tol))
      return "buffer '" + KV.first + "' differs: " + printValue(KV.second) +
             " vs " + printValue(BA[KV.first]);
  return "";
}

} // namespace idiom::rwtest

#endif // IDIOM_TEST_REWRITE_TESTUTIL_H
