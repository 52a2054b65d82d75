//===- Z3Budget.h - Deterministic limits on Idiom's Z3 queries --*- C++ -*-===//
//
// Every Z3 query Idiom makes runs under two limits besides its wall-clock
// timeout: Z3's deterministic resource limit ("rlimit", counted in Z3's own
// units of work, the same on every machine and under any load), and a
// per-loop budget of solver queries, so that a loop whose facts need many
// queries cannot take the compile hostage. A query stopped by either limit
// answers `unknown` ("not proven"); the reason is kept so that the missed
// remark names the limit that stopped it.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_Z3BUDGET_H
#define IDIOM_CONSTRAINTS_Z3BUDGET_H

#include <string>

namespace z3 {
class context;
class solver;
} // namespace z3

namespace idiom {

/// Default of -idiom-z3-rlimit: Z3 resource units per query (the units are
/// Z3's own, roughly 2 to 5 million per second of CPU). Measured over the lit
/// suite and nas-parboil (460 queries): every proof (unsat) took under
/// 80000, every refutation (sat) under 620000; the ten queries about the
/// bucket update `h = (h*w) % p + (h | w)` take 320000 to 1400000 each.
/// Reaching the limit only turns "proven" or "refuted" into "not proven".
constexpr unsigned DefaultZ3ResourceLimit = 1000000;

/// Default of -idiom-loop-z3-queries: solver queries per loop.
constexpr unsigned DefaultLoopQueryBudget = 1000;

/// Sets the resource limit of every later query on this thread (0: none).
void setZ3ResourceLimit(unsigned Limit);
/// The current resource limit (DefaultZ3ResourceLimit unless set).
unsigned z3ResourceLimit();

/// Appends every later query of this process to the file \p Path (empty:
/// none; -idiom-z3-log): per query a comment line with its number, its
/// outcome and the Z3 resource units it used, then its assertions as
/// SMT-LIB 2. Two compiles of one input write the same log: the queries'
/// expressions are built and released in an order that does not depend on
/// addresses (MapVector, not pointer-keyed maps, for Z3 terms), since Z3
/// numbers its terms in creation order and its search follows the numbers
/// (a pointer-ordered map made one query take 0.53 or 0.97 million units
/// from run to run, and another reach the limit once in ten compiles).
void setZ3QueryLog(const std::string &Path);

/// Sets the timeout (milliseconds of the querying thread's CPU time, with a
/// wall-clock backstop of ten times that plus 60 s; 0: none) and the
/// current resource limit on \p S.
void applyZ3Limits(z3::context &C, z3::solver &S, unsigned TimeoutMs);

/// Starts the budget of one loop: at most \p MaxQueries solver queries
/// (0: no limit) until the next call.
void beginLoopBudget(unsigned MaxQueries);
/// True when a query of the current loop was refused for want of budget.
bool loopBudgetExhausted();
/// The limit given to the last beginLoopBudget (0: none).
unsigned loopBudgetLimit();

/// Outcome of checkWithinLimits, as Z3's check_result.
enum class Z3Outcome { Unsat, Sat, Unknown };

/// Checks \p S when the loop's budget allows one more query (counting it);
/// otherwise answers Unknown without asking Z3. After an Unknown,
/// lastZ3UnknownReason() says why.
Z3Outcome checkWithinLimits(z3::solver &S);

/// Why the last Unknown of this thread since the last beginLoopBudget (empty
/// when none): the resource limit, the timeout, the per-loop budget, or
/// Z3's own reason.
std::string lastZ3UnknownReason();

/// "Z3 unknown: <reason>", for remarks.
std::string z3UnknownText();

} // namespace idiom

#endif // IDIOM_CONSTRAINTS_Z3BUDGET_H
