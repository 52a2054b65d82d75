//===- Z3BudgetTest.cpp - The time limit of a Z3 query --------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
//
// -idiom-z3-timeout limits the querying thread's CPU time (Z3Budget.cpp), so
// that a loaded machine proves what an idle one does. The query below
// (factoring a 62-bit semiprime over bit-vectors, no resource limit) never
// ends within the limit. Alone, it is interrupted after about the limit; on
// a core shared with a busy thread it gets about half the core, so the
// interrupt comes after about twice the limit in wall-clock time. With a
// wall-clock limit (before) both took the limit.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/Z3Budget.h"
#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <pthread.h>
#include <sched.h>
#include <string>
#include <thread>
#include <z3++.h>

using namespace idiom;

namespace {

using Clock = std::chrono::steady_clock;

/// Runs the unending query with a limit of \p LimitMs; returns its wall
/// time in milliseconds, and its outcome and reason in \p Out and \p Why.
double timeHardQuery(unsigned LimitMs, Z3Outcome &Out, std::string &Why) {
  z3::context C;
  z3::solver S(C);
  z3::expr X = C.bv_const("x", 64), Y = C.bv_const("y", 64);
  // 2147483647 * 2147483629: x * y without overflow, neither factor 1.
  S.add(z3::ult(X, C.bv_val(uint64_t(1) << 32, 64)));
  S.add(z3::ult(Y, C.bv_val(uint64_t(1) << 32, 64)));
  S.add(z3::ugt(X, C.bv_val(1, 64)) && z3::ugt(Y, C.bv_val(1, 64)));
  S.add(X * Y == C.bv_val(uint64_t(2147483647ull * 2147483629ull), 64));
  unsigned Old = z3ResourceLimit();
  setZ3ResourceLimit(0);
  applyZ3Limits(C, S, LimitMs);
  auto T0 = Clock::now();
  Out = checkWithinLimits(S);
  double Ms = std::chrono::duration<double, std::milli>(Clock::now() - T0)
                  .count();
  Why = lastZ3UnknownReason();
  setZ3ResourceLimit(Old);
  return Ms;
}

/// Pins the calling thread to CPU \p Cpu; false when it cannot.
bool pinTo(int Cpu) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  CPU_SET(Cpu, &Set);
  return pthread_setaffinity_np(pthread_self(), sizeof Set, &Set) == 0;
}

/// The first CPU this process may run on.
int firstCpu() {
  cpu_set_t Set;
  if (sched_getaffinity(0, sizeof Set, &Set) != 0)
    return -1;
  for (int I = 0; I < CPU_SETSIZE; ++I)
    if (CPU_ISSET(I, &Set))
      return I;
  return -1;
}

TEST(Z3Budget, TimeoutIsTheQueryingThreadsCpuTime) {
  const unsigned Limit = 400;
  int Cpu = firstCpu();
  ASSERT_GE(Cpu, 0);
  double Shared = 0, Alone = 0;
  Z3Outcome Out;
  std::string Why;
  std::thread([&] {
    ASSERT_TRUE(pinTo(Cpu));
    // Alone on its core (other processes may still share it: only a lower
    // bound is asserted).
    Alone = timeHardQuery(Limit, Out, Why);
    EXPECT_EQ(Out, Z3Outcome::Unknown);
    EXPECT_NE(Why.find("timeout of 400 ms reached (-idiom-z3-timeout)"),
              std::string::npos)
        << Why;
    // With a busy thread on the same core.
    std::atomic<bool> Stop{false};
    std::thread Busy([&] {
      pinTo(Cpu);
      while (!Stop.load(std::memory_order_relaxed))
        ;
    });
    Shared = timeHardQuery(Limit, Out, Why);
    Stop = true;
    Busy.join();
    EXPECT_EQ(Out, Z3Outcome::Unknown);
    EXPECT_NE(Why.find("timeout of 400 ms reached"), std::string::npos)
        << Why;
  }).join();
  RecordProperty("alone_ms", std::to_string(Alone));
  RecordProperty("shared_ms", std::to_string(Shared));
  EXPECT_GE(Alone, Limit * 0.95);
  // Half a core: about twice the limit (a wall-clock limit gave 400 ms).
  EXPECT_GE(Shared, Limit * 1.5) << "alone " << Alone << " ms";
  // Well before the backstop (10 x 400 ms + 60 s).
  EXPECT_LT(Shared, 60000.0);
}

} // namespace
