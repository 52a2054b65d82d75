//===- LibmErrno.cpp - Which libm call sets errno for which argument ------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/LibmErrno.h"
#include "idiom/FunIL/Parser.h"

namespace idiom::funil {

namespace {

// Range bounds, with a margin (the device evaluates pow's log within a few
// ulps): exp(709) = 8.2e307 < DBL_MAX, exp(-708) = 3.3e-308 > DBL_MIN;
// expf(88) = 1.7e38 < FLT_MAX, expf(-87) = 1.6e-38 > FLT_MIN; a pow result
// e^t with |t| <= 700 (85 for float) is normal and finite. pow of a zero,
// infinite or NaN argument is exact (0, 1, inf or NaN: no range error).
#define POW_COND(T, B)                                                         \
  "or(or(and(fcmp_olt(x, 0.0:" T "), fcmp_une(y, floor(y))), "                \
  "and(fcmp_oeq(x, 0.0:" T "), fcmp_olt(y, 0.0:" T "))), "                     \
  "and(and(fcmp_one(x, 0.0:" T "), fcmp_olt(fabs(x), inf:" T ")), "           \
  "and(fcmp_olt(fabs(y), inf:" T "), "                                         \
  "fcmp_ogt(fabs(fmul(y, log(fabs(x)))), " B ":" T "))))"

const std::vector<LibmErrnoRule> Rules = {
    {"sqrt", "sqrt", ScalarKind::F64, 1, "fcmp_olt(x, 0.0:f64)",
     "EDOM for x < 0 (-0 and NaN set nothing)"},
    {"sqrtf", "sqrt", ScalarKind::F32, 1, "fcmp_olt(x, 0.0:f32)",
     "EDOM for x < 0 (-0 and NaN set nothing)"},
    {"log", "log", ScalarKind::F64, 1, "fcmp_ole(x, 0.0:f64)",
     "EDOM for x < 0, ERANGE (pole) for x = +-0"},
    {"logf", "log", ScalarKind::F32, 1, "fcmp_ole(x, 0.0:f32)",
     "EDOM for x < 0, ERANGE (pole) for x = +-0"},
    {"exp", "exp", ScalarKind::F64, 1,
     "or(fcmp_ogt(x, 709.0:f64), fcmp_olt(x, -708.0:f64))",
     "ERANGE on overflow (x > 709.78) and underflow (x < -708.39); "
     "flags +-inf too"},
    {"expf", "exp", ScalarKind::F32, 1,
     "or(fcmp_ogt(x, 88.0:f32), fcmp_olt(x, -87.0:f32))",
     "ERANGE on overflow (x > 88.72) and underflow (x < -87.33); "
     "flags +-inf too"},
    {"pow", "pow", ScalarKind::F64, 2, POW_COND("f64", "700.0"),
     "EDOM for finite x < 0 and finite non-integer y; ERANGE (pole) for "
     "x = +-0 and y < 0; ERANGE on overflow and underflow (|y ln|x|| > "
     "700, x and y finite, x != 0); flags some NaN y too"},
    {"powf", "pow", ScalarKind::F32, 2, POW_COND("f32", "85.0"),
     "EDOM for finite x < 0 and finite non-integer y; ERANGE (pole) for "
     "x = +-0 and y < 0; ERANGE on overflow and underflow (|y ln|x|| > "
     "85, x and y finite, x != 0); flags some NaN y too"},
    {"sin", "sin", ScalarKind::F64, 1, "fcmp_oeq(fabs(x), inf:f64)",
     "EDOM for x = +-inf"},
    {"sinf", "sin", ScalarKind::F32, 1, "fcmp_oeq(fabs(x), inf:f32)",
     "EDOM for x = +-inf"},
    {"cos", "cos", ScalarKind::F64, 1, "fcmp_oeq(fabs(x), inf:f64)",
     "EDOM for x = +-inf"},
    {"cosf", "cos", ScalarKind::F32, 1, "fcmp_oeq(fabs(x), inf:f32)",
     "EDOM for x = +-inf"},
};

#undef POW_COND

/// \p E with every variable named in \p Names replaced by the matching
/// expression of \p Args (the conditions have no lambdas, so nothing is
/// captured).
ExprPtr substitute(const ExprPtr &E, const std::vector<std::string> &Names,
                   const std::vector<ExprPtr> &Args) {
  if (E->K == Expr::Var) {
    for (size_t I = 0; I < Names.size(); ++I)
      if (E->Name == Names[I])
        return Args[I];
    return E;
  }
  if (E->Args.empty())
    return E;
  auto Copy = std::make_shared<Expr>(*E);
  for (ExprPtr &A : Copy->Args)
    A = substitute(A, Names, Args);
  return Copy;
}

} // namespace

const std::vector<LibmErrnoRule> &libmErrnoRules() { return Rules; }

const LibmErrnoRule *findLibmErrnoRule(const std::string &CName) {
  for (const LibmErrnoRule &R : Rules)
    if (CName == R.CName)
      return &R;
  return nullptr;
}

ExprPtr libmErrnoCondition(const LibmErrnoRule &R,
                           const std::vector<ExprPtr> &Args, std::string &Err) {
  if (Args.size() != R.Arity) {
    Err = std::string(R.CName) + " takes " + std::to_string(R.Arity) +
          " argument(s), got " + std::to_string(Args.size());
    return nullptr;
  }
  ExprPtr Cond;
  if (!parseExpr(R.Condition, Cond, Err)) {
    Err = std::string("errno rule of ") + R.CName + ": " + Err;
    return nullptr;
  }
  return substitute(Cond, {"x", "y"}, Args);
}

} // namespace idiom::funil
