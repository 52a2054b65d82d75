//===- LibmErrnoTest.cpp - The errno rules against the host's libm --------===//
//
// Each rule of funil/LibmErrno.h, evaluated by the interpreter, must hold
// for every argument on which the host's libm sets errno (soundness: the
// offloaded loop falls back for them), and must not hold on ordinary
// arguments (otherwise nothing would ever be offloaded).
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Interpreter.h"
#include "idiom/FunIL/LibmErrno.h"
#include "idiom/FunIL/Printer.h"

#include <cerrno>
#include <cfloat>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <math.h>

using namespace idiom::funil;

namespace {

using D1 = double (*)(double);
using D2 = double (*)(double, double);
using F1 = float (*)(float);
using F2 = float (*)(float, float);

// Through volatile pointers, so that the compiler calls the library.
D1 volatile SqrtD = ::sqrt, LogD = ::log, ExpD = ::exp, SinD = ::sin,
             CosD = ::cos;
D2 volatile PowD = ::pow;
F1 volatile SqrtF = ::sqrtf, LogF = ::logf, ExpF = ::expf, SinF = ::sinf,
            CosF = ::cosf;
F2 volatile PowF = ::powf;

/// errno after calling C function \p Name on (x, y), from errno = 0.
int hostErrno(const std::string &Name, double X, double Y) {
  errno = 0;
  volatile double R = 0;
  volatile float RF = 0;
  if (Name == "sqrt") R = SqrtD(X);
  else if (Name == "log") R = LogD(X);
  else if (Name == "exp") R = ExpD(X);
  else if (Name == "sin") R = SinD(X);
  else if (Name == "cos") R = CosD(X);
  else if (Name == "pow") R = PowD(X, Y);
  else if (Name == "sqrtf") RF = SqrtF((float)X);
  else if (Name == "logf") RF = LogF((float)X);
  else if (Name == "expf") RF = ExpF((float)X);
  else if (Name == "sinf") RF = SinF((float)X);
  else if (Name == "cosf") RF = CosF((float)X);
  else if (Name == "powf") RF = PowF((float)X, (float)Y);
  else ADD_FAILURE() << "no host function for " << Name;
  (void)R;
  (void)RF;
  return errno;
}

/// The rule's condition on (x, y), evaluated by the interpreter.
bool flagged(const LibmErrnoRule &R, double X, double Y) {
  std::vector<ExprPtr> Args = {Expr::var("x")};
  if (R.Arity == 2)
    Args.push_back(Expr::var("y"));
  std::string Err;
  ExprPtr C = libmErrnoCondition(R, Args, Err);
  EXPECT_TRUE(C) << Err;
  if (!C)
    return true;
  ValueMap Env;
  Env["x"] = Value::ofFloat(R.Ty, X);
  Env["y"] = Value::ofFloat(R.Ty, Y);
  Value V;
  EXPECT_TRUE(evalExpr(C, Env, V, Err)) << Err;
  return V.Bits != 0;
}

const double Inf = std::numeric_limits<double>::infinity();
const double NaN = std::numeric_limits<double>::quiet_NaN();

/// Boundary arguments: signs, zeros, infinities, NaNs, subnormals, and the
/// overflow and underflow thresholds of exp and expf on both sides.
std::vector<double> boundaryValues() {
  std::vector<double> V = {
      -Inf, -1e300, -1e10, -2.5, -1, -0.5, -DBL_MIN, -4.9e-324, -0.0, 0.0,
      4.9e-324, DBL_MIN, FLT_MIN, 1e-45, 0.5, 1, 2, 3, 10, 1e10, 1e300, Inf,
      NaN, -NaN, 700, 708, 709, 709.78, 709.79, 710, 1000, -700, -708,
      -708.3, -708.4, -709, -745, -745.2, -746, -1000, 85, 88, 88.72, 88.73,
      89, 100, -87, -87.3, -87.4, -88, -103, -103.98, -104, -150, 1e38,
      3.4e38, 1e39, -0.333, 0.333};
  return V;
}

TEST(LibmErrnoTest, EveryRuleParses) {
  for (const LibmErrnoRule &R : libmErrnoRules()) {
    std::vector<ExprPtr> Args(R.Arity, Expr::var("a"));
    std::string Err;
    EXPECT_TRUE(libmErrnoCondition(R, Args, Err)) << R.CName << ": " << Err;
    Args.push_back(Expr::var("b"));
    EXPECT_FALSE(libmErrnoCondition(R, Args, Err)) << R.CName;
  }
  EXPECT_EQ(libmErrnoRules().size(), 12u);
  EXPECT_TRUE(findLibmErrnoRule("powf"));
  EXPECT_FALSE(findLibmErrnoRule("tan"));
}

TEST(LibmErrnoTest, FlagsEveryArgumentThatSetsErrnoOnTheHost) {
  std::vector<double> V = boundaryValues();
  unsigned Setting = 0;
  for (const LibmErrnoRule &R : libmErrnoRules()) {
    std::vector<double> Ys = R.Arity == 2 ? V : std::vector<double>{0.0};
    for (double X : V)
      for (double Y : Ys) {
        int E = hostErrno(R.CName, X, Y);
        if (E == 0)
          continue;
        ++Setting;
        EXPECT_TRUE(flagged(R, X, Y))
            << R.CName << "(" << printFloat(X, R.Ty)
            << (R.Arity == 2 ? ", " + printFloat(Y, R.Ty) : std::string())
            << ") sets errno " << E << " on the host but is not flagged";
      }
  }
  // The list really reaches the error cases of every function.
  EXPECT_GT(Setting, 100u);
}

TEST(LibmErrnoTest, EachFunctionSetsErrnoOnSomeBoundaryArgument) {
  std::vector<double> V = boundaryValues();
  for (const LibmErrnoRule &R : libmErrnoRules()) {
    bool Any = false;
    for (double X : V)
      for (double Y : R.Arity == 2 ? V : std::vector<double>{0.0})
        Any |= hostErrno(R.CName, X, Y) != 0;
    EXPECT_TRUE(Any) << R.CName;
  }
}

TEST(LibmErrnoTest, OrdinaryArgumentsAreNotFlagged) {
  struct Case {
    const char *Name;
    double X, Y;
  } Cases[] = {
      {"sqrt", 4, 0},       {"sqrt", -0.0, 0},    {"sqrt", NaN, 0},
      {"sqrt", Inf, 0},     {"sqrtf", 2, 0},      {"sqrtf", -0.0, 0},
      {"log", 1, 0},        {"log", 1e-300, 0},   {"log", Inf, 0},
      {"log", NaN, 0},      {"logf", 0.5, 0},     {"exp", 1, 0},
      {"exp", 700, 0},      {"exp", -700, 0},     {"exp", NaN, 0},
      {"expf", 80, 0},      {"expf", -80, 0},     {"pow", 2, 10},
      {"pow", -2, 3},       {"pow", 0.5, 2},      {"pow", 0, 2},
      {"pow", 1e10, 20},    {"pow", NaN, 2},      {"powf", 2, 100},
      {"powf", -3, 5},      {"sin", 1e10, 0},     {"sin", NaN, 0},
      {"sinf", 3, 0},       {"cos", 0, 0},        {"cosf", -1e30, 0}};
  for (const Case &C : Cases) {
    const LibmErrnoRule *R = findLibmErrnoRule(C.Name);
    ASSERT_TRUE(R) << C.Name;
    EXPECT_EQ(hostErrno(C.Name, C.X, C.Y), 0) << C.Name << "(" << C.X << ")";
    EXPECT_FALSE(flagged(*R, C.X, C.Y)) << C.Name << "(" << C.X << ", " << C.Y << ")";
  }
}

} // namespace
