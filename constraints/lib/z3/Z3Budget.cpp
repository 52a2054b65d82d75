//===- Z3Budget.cpp - Deterministic limits on Idiom's Z3 queries ----------===//

#include "idiom/Constraints/Z3Budget.h"
#include "idiom/Constraints/TimeReport.h"
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <list>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <time.h>
#include <z3++.h>

namespace idiom {
namespace {

/// The time limit of a query, enforced by our own watchdog thread through
/// Z3_solver_interrupt rather than by Z3's "timeout" parameter: Z3 4.8.10
/// to 4.8.12 (Debian 12) run that parameter on a pool of timer threads that
/// can deadlock (Z3Prover/z3 issues 5369-5371 and 5990), which hung a
/// compile of GSL's fft/fft.c. The interrupt is solver-local (the query's
/// fresh solver), so the shared context stays usable.
///
/// The limit is on the querying thread's CPU time (the solver runs on it),
/// so a loaded machine, where a query gets a fraction of a core, reaches
/// the same answers as an idle one (a 2 s wall-clock limit dropped NAS
/// MG's comm3 offload at load 11). A wall-clock backstop of
/// BackstopFactor times the limit plus BackstopSlack ends a query that
/// stops using the CPU (a deadlock) or one that starves.
using Clock = std::chrono::steady_clock;
constexpr unsigned BackstopFactor = 10;
constexpr std::chrono::seconds BackstopSlack(60);

/// The CPU time of the clock \p Cid (a thread's), or -1 when unreadable.
int64_t cpuNs(clockid_t Cid) {
  timespec T;
  if (clock_gettime(Cid, &T) != 0)
    return -1;
  return int64_t(T.tv_sec) * 1000000000 + T.tv_nsec;
}

/// A query being watched.
struct Armed {
  Z3_context C;
  Z3_solver S;
  clockid_t Cpu;         ///< the querying thread's CPU clock
  bool HasCpu;           ///< false: the limit is on wall-clock time
  int64_t CpuStart;      ///< its CPU time at the start (ns)
  int64_t LimitNs;       ///< the limit (ns)
  Clock::time_point Start, Backstop;
  bool Fired = false;
  bool ByBackstop = false; ///< fired by the wall-clock backstop
};

class Watchdog {
public:

  /// The only instance: never destroyed, so that a process that exits
  /// while the thread waits destroys nothing it uses.
  static Watchdog &get() {
    static Watchdog *W = new Watchdog();
    return *W;
  }

  /// Interrupts \p S (of \p C) once the calling thread has spent \p Limit
  /// of CPU time from now (or at the wall-clock backstop), unless disarmed
  /// first.
  std::list<Armed>::iterator arm(z3::context &C, z3::solver &S,
                                 std::chrono::milliseconds Limit);
  /// Disarms; after it returns the watchdog no longer touches the solver.
  /// \returns 0 when the query was not interrupted, 1 when its CPU-time
  /// limit was reached, 2 when the wall-clock backstop was.
  int disarm(std::list<Armed>::iterator It);

private:
  Watchdog() = default;
  void run();

  std::mutex M;
  std::condition_variable CV;
  std::list<Armed> Queries;
  bool Started = false;
};

std::list<Armed>::iterator Watchdog::arm(z3::context &C, z3::solver &S,
                                         std::chrono::milliseconds Limit) {
  Armed A{C, S, clockid_t(), false, 0, 0, Clock::now(), Clock::time_point()};
  A.HasCpu = pthread_getcpuclockid(pthread_self(), &A.Cpu) == 0 &&
             (A.CpuStart = cpuNs(A.Cpu)) >= 0;
  A.LimitNs = int64_t(std::chrono::nanoseconds(Limit).count());
  A.Backstop = A.Start + (A.HasCpu ? Limit * BackstopFactor + BackstopSlack
                                   : Limit);
  std::lock_guard<std::mutex> L(M);
  if (!Started) {
    Started = true;
    std::thread([this] { run(); }).detach();
  }
  Queries.push_back(A);
  CV.notify_one();
  return std::prev(Queries.end());
}

int Watchdog::disarm(std::list<Armed>::iterator It) {
  std::lock_guard<std::mutex> L(M);
  int Fired = It->Fired ? (It->ByBackstop ? 2 : 1) : 0;
  Queries.erase(It);
  return Fired;
}

void Watchdog::run() {
  std::unique_lock<std::mutex> L(M);
  while (true) {
    // A thread's CPU time grows at most as fast as the wall clock: a query
    // with R ns of its limit left cannot reach it before R ns from now.
    auto Now = Clock::now();
    auto Next = Clock::time_point::max();
    for (Armed &A : Queries) {
      if (A.Fired)
        continue;
      auto At = A.Backstop;
      if (A.HasCpu) {
        int64_t Used = cpuNs(A.Cpu) - A.CpuStart;
        At = std::min(At, Now + std::chrono::nanoseconds(
                                    std::max<int64_t>(A.LimitNs - Used, 0)));
      }
      Next = std::min(Next, At);
    }
    if (Next == Clock::time_point::max()) {
      CV.wait(L);
      continue;
    }
    CV.wait_until(L, Next);
    Now = Clock::now();
    // Under the lock: the query cannot be disarmed (and its solver
    // destroyed) while it is interrupted.
    for (Armed &A : Queries) {
      if (A.Fired)
        continue;
      bool Cpu = A.HasCpu ? cpuNs(A.Cpu) - A.CpuStart >= A.LimitNs
                          : Now >= A.Backstop;
      bool Back = A.HasCpu && Now >= A.Backstop;
      if (Cpu || Back) {
        A.Fired = true;
        A.ByBackstop = !Cpu;
        Z3_solver_interrupt(A.C, A.S);
      }
    }
  }
}

/// The query log's path (setZ3QueryLog); empty: no log.
std::string &LogPath() {
  static std::string P;
  return P;
}

/// Z3's resource units counted so far in \p S's context ("rlimit count").
double resourceUnits(z3::solver &S) {
  z3::stats St = S.statistics();
  for (unsigned I = 0; I < St.size(); ++I)
    if (St.key(I) == "rlimit count")
      return St.is_uint(I) ? St.uint_value(I) : St.double_value(I);
  return 0;
}

/// Appends \p S's query to the log: a comment line with its number in
/// this process, its outcome and the resource units it used since
/// \p Before, then its assertions as SMT-LIB 2.
void logQuery(z3::solver &S, z3::check_result R, double Before) {
  static std::mutex M;
  static unsigned N = 0;
  std::lock_guard<std::mutex> L(M);
  FILE *F = fopen(LogPath().c_str(), "a");
  if (!F)
    return;
  fprintf(F, "; idiom z3 query %u: %s, %.0f resource units%s%s\n%s", N++,
          R == z3::unsat ? "unsat" : R == z3::sat ? "sat" : "unknown",
          resourceUnits(S) - Before, R == z3::unknown ? ", " : "",
          R == z3::unknown ? S.reason_unknown().c_str() : "",
          S.to_smt2().c_str());
  fclose(F);
}

thread_local unsigned ResourceLimit = DefaultZ3ResourceLimit;
thread_local unsigned LastTimeoutMs = 0;
thread_local unsigned BudgetLimit = 0;
thread_local unsigned BudgetUsed = 0;
thread_local bool BudgetExhausted = false;
thread_local std::string LastUnknown;

} // namespace

void setZ3ResourceLimit(unsigned Limit) { ResourceLimit = Limit; }
void setZ3QueryLog(const std::string &Path) { LogPath() = Path; }
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
  double UnitsBefore = LogPath().empty() ? 0 : resourceUnits(S);
  z3::check_result Result;
  int TimedOut = 0;
  if (LastTimeoutMs) {
    Watchdog &W = Watchdog::get();
    auto It = W.arm(S.ctx(), S, std::chrono::milliseconds(LastTimeoutMs));
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
  if (!LogPath().empty())
    logQuery(S, Result, UnitsBefore);
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
    LastUnknown =
        TimedOut == 1
            ? "timeout of " + std::to_string(LastTimeoutMs) +
                  " ms reached (-idiom-z3-timeout)"
            : "wall-clock backstop of " +
                  std::to_string(uint64_t(LastTimeoutMs) * BackstopFactor +
                                 uint64_t(BackstopSlack.count()) * 1000) +
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
