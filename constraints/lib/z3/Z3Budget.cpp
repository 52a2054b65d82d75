//===- Z3Budget.cpp - Deterministic limits on Idiom's Z3 queries ----------===//

#include "idiom/Constraints/Z3Budget.h"
#include "idiom/Constraints/TimeReport.h"
#include <chrono>
#include <z3++.h>

namespace idiom {
namespace {

thread_local unsigned ResourceLimit = DefaultZ3ResourceLimit;
thread_local unsigned LastTimeoutMs = 0;
thread_local unsigned BudgetLimit = 0;
thread_local unsigned BudgetUsed = 0;
thread_local bool BudgetExhausted = false;
thread_local std::string LastUnknown;

} // namespace

void setZ3ResourceLimit(unsigned Limit) { ResourceLimit = Limit; }
unsigned z3ResourceLimit() { return ResourceLimit; }

void applyZ3Limits(z3::context &C, z3::solver &S, unsigned TimeoutMs) {
  z3::params P(C);
  P.set("timeout", TimeoutMs);
  P.set("rlimit", ResourceLimit);
  S.set(P);
  LastTimeoutMs = TimeoutMs;
}

void beginLoopBudget(unsigned MaxQueries) {
  BudgetLimit = MaxQueries;
  BudgetUsed = 0;
  BudgetExhausted = false;
  LastUnknown.clear();
}

bool loopBudgetExhausted() { return BudgetExhausted; }
unsigned loopBudgetLimit() { return BudgetLimit; }

Z3Outcome checkWithinLimits(z3::solver &S) {
  if (BudgetLimit && BudgetUsed >= BudgetLimit) {
    BudgetExhausted = true;
    TimeReport::count("z3: refused, per-loop budget spent");
    LastUnknown = "per-loop budget of " + std::to_string(BudgetLimit) +
                  " solver queries spent (-idiom-loop-z3-queries)";
    return Z3Outcome::Unknown;
  }
  ++BudgetUsed;
  auto Start = std::chrono::steady_clock::now();
  z3::check_result Result = S.check();
  if (Result == z3::unsat)
    return Z3Outcome::Unsat;
  if (Result == z3::sat)
    return Z3Outcome::Sat;
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - Start)
                  .count();
  // Z3 says "max. resource limit exceeded" for the resource limit, but
  // "canceled" (or "sat.canceled") for both limits from some of its
  // solvers, and "timeout" for the timeout; a cancellation well before the
  // timeout is the resource limit.
  std::string R = S.reason_unknown();
  bool Resource = R.find("resource") != std::string::npos;
  bool Cancelled = R.find("cancel") != std::string::npos;
  bool BeforeTimeout = LastTimeoutMs == 0 || Ms < 0.9 * LastTimeoutMs;
  if (ResourceLimit && (Resource || (Cancelled && BeforeTimeout))) {
    TimeReport::count("z3: unknown, resource limit");
    LastUnknown = "resource limit of " + std::to_string(ResourceLimit) +
                  " reached (-idiom-z3-rlimit)";
  } else if (R.find("timeout") != std::string::npos || Cancelled) {
    TimeReport::count("z3: unknown, timeout");
    LastUnknown = "timeout of " + std::to_string(LastTimeoutMs) +
                  " ms reached (-idiom-z3-timeout)";
  } else {
    LastUnknown = R.empty() ? std::string("no reason given") : R;
  }
  return Z3Outcome::Unknown;
}

std::string lastZ3UnknownReason() { return LastUnknown; }

std::string z3UnknownText() {
  return LastUnknown.empty() ? std::string("Z3 unknown")
                             : "Z3 unknown: " + LastUnknown;
}

} // namespace idiom
