//===- Z3Budget.cpp - Deterministic limits on Idiom's Z3 queries ----------===//

#include "idiom/Constraints/Z3Budget.h"
#include "idiom/Constraints/TimeReport.h"
#include <chrono>
#include <condition_variable>
#include <list>
#include <mutex>
#include <thread>
#include <z3++.h>

namespace idiom {
namespace {

/// The wall-clock limit of a query, enforced by our own watchdog thread
/// through Z3_solver_interrupt rather than by Z3's "timeout" parameter:
/// Z3 4.8.10 to 4.8.12 (Debian 12) run that parameter on a pool of timer
/// threads that can deadlock (Z3Prover/z3 issues 5369-5371 and 5990), which
/// hung a compile of GSL's fft/fft.c. The interrupt is solver-local (the
/// query's fresh solver), so the shared context stays usable.
using Clock = std::chrono::steady_clock;

/// A query being watched.
struct Armed {
  Z3_context C;
  Z3_solver S;
  Clock::time_point Deadline;
  bool Fired = false;
};

class Watchdog {
public:

  /// The only instance: never destroyed, so that a process that exits
  /// while the thread waits destroys nothing it uses.
  static Watchdog &get() {
    static Watchdog *W = new Watchdog();
    return *W;
  }

  /// Interrupts \p S (of \p C) at \p Deadline unless disarmed first.
  std::list<Armed>::iterator arm(z3::context &C, z3::solver &S,
                                        Clock::time_point Deadline);
  /// Disarms; after it returns the watchdog no longer touches the solver.
  /// \returns true when the deadline had passed and the query was
  /// interrupted.
  bool disarm(std::list<Armed>::iterator It);

private:
  Watchdog() = default;
  void run();

  std::mutex M;
  std::condition_variable CV;
  std::list<Armed> Queries;
  bool Started = false;
};

std::list<Armed>::iterator Watchdog::arm(z3::context &C, z3::solver &S,
                                         Clock::time_point Deadline) {
  std::lock_guard<std::mutex> L(M);
  if (!Started) {
    Started = true;
    std::thread([this] { run(); }).detach();
  }
  Queries.push_back({C, S, Deadline});
  CV.notify_one();
  return std::prev(Queries.end());
}

bool Watchdog::disarm(std::list<Armed>::iterator It) {
  std::lock_guard<std::mutex> L(M);
  bool Fired = It->Fired;
  Queries.erase(It);
  return Fired;
}

void Watchdog::run() {
  std::unique_lock<std::mutex> L(M);
  while (true) {
    auto Next = Clock::time_point::max();
    for (Armed &A : Queries)
      if (!A.Fired && A.Deadline < Next)
        Next = A.Deadline;
    if (Next == Clock::time_point::max()) {
      CV.wait(L);
      continue;
    }
    CV.wait_until(L, Next);
    auto Now = Clock::now();
    // Under the lock: the query cannot be disarmed (and its solver
    // destroyed) while it is interrupted.
    for (Armed &A : Queries)
      if (!A.Fired && A.Deadline <= Now) {
        A.Fired = true;
        Z3_solver_interrupt(A.C, A.S);
      }
  }
}

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
  P.set("rlimit", ResourceLimit);
  S.set(P);
  LastTimeoutMs = TimeoutMs; // enforced by checkWithinLimits's watchdog
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
  z3::check_result Result;
  bool TimedOut = false;
  if (LastTimeoutMs) {
    Watchdog &W = Watchdog::get();
    auto It = W.arm(S.ctx(), S,
                    Start + std::chrono::milliseconds(LastTimeoutMs));
    try {
      Result = S.check();
    } catch (...) {
      W.disarm(It);
      throw;
    }
    TimedOut = W.disarm(It);
  } else {
    Result = S.check();
  }
  if (Result == z3::unsat)
    return Z3Outcome::Unsat;
  if (Result == z3::sat)
    return Z3Outcome::Sat;
  // Z3 says "max. resource limit exceeded" for the resource limit, but
  // "canceled" (or "sat.canceled") from some of its solvers; the watchdog's
  // interrupt says "interrupted" or "canceled", and the watchdog knows.
  std::string R = S.reason_unknown();
  bool Resource = R.find("resource") != std::string::npos;
  bool Cancelled = R.find("cancel") != std::string::npos;
  if (!TimedOut && ResourceLimit && (Resource || Cancelled)) {
    TimeReport::count("z3: unknown, resource limit");
    LastUnknown = "resource limit of " + std::to_string(ResourceLimit) +
                  " reached (-idiom-z3-rlimit)";
  } else if (TimedOut) {
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
