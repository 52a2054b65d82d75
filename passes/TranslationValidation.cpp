//===- TranslationValidation.cpp - Lifted FunIL equals the LLVM slice -----===//
//
// Part of Idiom. The entry points of translation validation
// (TranslationValidation.h) and the validator's decision; the validator
// itself is TranslationValidationImpl.h and the Validation*.cpp files it
// lists.
//
//===----------------------------------------------------------------------===//

#include "TranslationValidation.h"
#include "TranslationValidationImpl.h"
#include "idiom/Constraints/TimeReport.h"
#include "idiom/Constraints/Z3Budget.h"
#include "idiom/Constraints/Z3Checks.h"
#include <stdexcept>
#include <z3++.h>

namespace idiom {
namespace tv {

template <class TB>
bool Validator<TB>::proveNoDifference(const TermT &Differ, unsigned TimeoutMs,
                                      const std::string &Parts,
                                      const std::string &What,
                                      std::string &Why) {
  TermT D = Differ.simplify();
  if (D.is_false())
    return true;
  switch (TB::decide(C, D, TimeoutMs)) {
  case z3::unsat:
    return true;
  case z3::sat:
    Why = "Z3 found inputs on which the lifted FunIL and the LLVM slice "
          "differ (" + Parts + ")";
    return false;
  default:
    Why = "equivalence of the lifted " + What + " and the LLVM slice not "
          "proven (" + z3UnknownText() + ")";
    return false;
  }
}

#define IDIOM_TV_DECIDE(TB)                                                   \
  template bool Validator<TB>::proveNoDifference(                              \
      const Validator<TB>::TermT &, unsigned, const std::string &,             \
      const std::string &, std::string &);
IDIOM_TV_INSTANTIATE(IDIOM_TV_DECIDE)

} // namespace tv

using tv::DecidedByEvaluation;
using tv::HashTerms;
using tv::Unsupported;
using tv::Validator;
using tv::Z3Terms;

bool validateLifting(const IdiomMatch &M, const LiftedIdiom &L,
                     const funil::Program &P, unsigned TimeoutMs,
                     std::string &Why) {
  TimeScope T("translation validation");
  switch (decideWithoutZ3(M, L, P)) {
  case NoZ3Decision::IdenticalTerms:
    TimeReport::count("translation validation: identical terms, no Z3");
    return true;
  case NoZ3Decision::ExhaustiveEvaluation:
    TimeReport::count("translation validation: exhaustive evaluation, no Z3");
    return true;
  case NoZ3Decision::None:
    break;
  }
  TimeReport::count("translation validation: Z3");
  z3::context &C = sharedZ3Context();
  try {
    Validator<Z3Terms> V(C, M, L);
    if (M.Kind == IdiomKind::Gemm)
      return V.runGemm(P, TimeoutMs, Why);
    if (M.Kind == IdiomKind::Spmv)
      return V.runSpmv(P, TimeoutMs, Why);
    if (M.Kind == IdiomKind::Accumulation)
      return V.runAccum(P, TimeoutMs, Why);
    return V.run(P, TimeoutMs, Why);
  } catch (const Unsupported &U) {
    Why = "translation validation: " + U.Why;
  } catch (const z3::exception &E) {
    Why = std::string("translation validation: Z3 error: ") + E.msg();
  } catch (const std::out_of_range &) {
    Why = "translation validation: unexpected FunIL shape";
  }
  return false;
}

NoZ3Decision decideWithoutZ3(const IdiomMatch &M, const LiftedIdiom &L,
                             const funil::Program &P) {
  tv::TermContext C;
  DecidedByEvaluation = false;
  try {
    Validator<HashTerms> V(C, M, L);
    std::string Why;
    // The timeout is unused: HashTerms::decide evaluates or gives up.
    if (M.Kind == IdiomKind::Gemm   ? V.runGemm(P, 0, Why)
        : M.Kind == IdiomKind::Spmv ? V.runSpmv(P, 0, Why)
        : M.Kind == IdiomKind::Accumulation ? V.runAccum(P, 0, Why)
                                    : V.run(P, 0, Why))
      return DecidedByEvaluation ? NoZ3Decision::ExhaustiveEvaluation
                                 : NoZ3Decision::IdenticalTerms;
  } catch (...) {
    // GiveUp, Unsupported, an unexpected shape: Z3's run decides and
    // explains.
  }
  return NoZ3Decision::None;
}

} // namespace idiom
