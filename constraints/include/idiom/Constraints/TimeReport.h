//===- TimeReport.h - Counters behind -idiom-time-report --------*- C++ -*-===//
//
// Compile-time accounting for the plugin: named phases (spec loading, one
// solve per idiom, Z3 queries, ...) each with a call count and inclusive
// seconds of the calling thread's CPU time (so that other load on the machine
// does not count). Off by default; the hidden plugin option -idiom-time-report turns
// it on and prints the table to stderr when the process exits. When off, a
// TimeScope costs one branch.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_TIMEREPORT_H
#define IDIOM_CONSTRAINTS_TIMEREPORT_H

#include "llvm/ADT/StringRef.h"
#include <ctime>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace idiom {

/// Process-wide table of phases: name -> (calls, inclusive seconds).
class TimeReport {
public:
  /// True once enable() was called.
  static bool enabled() { return On; }
  /// Starts collecting; prints the table to stderr at process exit when
  /// \p PrintAtExit.
  static void enable(bool PrintAtExit = true);
  /// Adds one call of \p Phase lasting \p Seconds (thread-safe).
  static void add(llvm::StringRef Phase, double Seconds);
  /// Counts one event of \p Phase without a duration (e.g. a memo hit).
  static void count(llvm::StringRef Phase) { if (On) add(Phase, 0); }
  /// Calls of \p Phase so far (0 when the report is off).
  static unsigned calls(llvm::StringRef Phase);
  /// Prints "calls  seconds  phase" rows, sorted by phase name.
  static void print(llvm::raw_ostream &OS);

private:
  static bool On;
};

/// Adds the thread CPU time spent in the scope to phase \p Phase when the
/// report is on.
/// \p Phase must outlive the scope (a string literal or a spec's name).
class TimeScope {
public:
  explicit TimeScope(llvm::StringRef Phase)
      : Phase(Phase), Active(TimeReport::enabled()) {
    if (Active)
      Start = now();
  }
  ~TimeScope() {
    if (Active)
      TimeReport::add(Phase, now() - Start);
  }
  /// CPU time of the calling thread, in seconds.
  static double now() {
    timespec T;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
    return double(T.tv_sec) + double(T.tv_nsec) * 1e-9;
  }
  TimeScope(const TimeScope &) = delete;
  TimeScope &operator=(const TimeScope &) = delete;

private:
  llvm::StringRef Phase;
  bool Active; ///< the report was on when the scope began
  double Start = 0;
};

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_TIMEREPORT_H
