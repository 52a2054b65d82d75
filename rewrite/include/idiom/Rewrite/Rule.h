//===- Rule.h - rewrite rules as data ---------------------------*- C++ -*-===//
//
// Part of Idiom. Plain C++17, no LLVM.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A rewrite rule is data (docs/Rewrite.md, DESIGN section 5): a name, a
/// matcher for the left side that binds pattern variables, a side
/// condition, a builder for the right side, and the context (position in
/// the OpenCL thread hierarchy) where it may apply. Rules follow seeds/004
/// section 4 (figures 6 and 7); strategies that decide where and in which
/// order to apply them live in Strategy.h.
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_REWRITE_RULE_H
#define IDIOM_REWRITE_RULE_H

#include "idiom/FunIL/Expr.h"
#include "idiom/FunIL/ExprUtil.h"
#include "idiom/FunIL/TypeCheck.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace idiom::rewrite {

using funil::ExprPtr;

/// Position in the thread hierarchy (seeds/004 section 4.2: "it is only
/// legal to nest a mapLocal inside a mapWorkgroup").
enum class Level : uint8_t {
  Host,      ///< outside every parallel primitive
  Global,    ///< inside the function of a mapGlobal: one work-item
  Workgroup, ///< inside a mapWorkgroup, outside mapLocal: one work-group
  Local,     ///< inside a mapLocal: one work-item of a group
  Sequential ///< inside mapSeq/reduceSeq under a work-item
};

/// Printable name of a level ("host", "global", ...).
const char *levelName(Level L);

/// Where a rule may apply.
enum class AppliesIn : uint8_t {
  Anywhere,  ///< every level
  Host,      ///< Level::Host only
  Thread,    ///< one work-item: Global, Local or Sequential
  Workgroup  ///< Level::Workgroup only
};

/// What a rule sees about its position. Strategies maintain it while they
/// traverse: the level, the types of the variables in scope, and the names
/// in use (for fresh lambda parameters).
struct RuleContext {
  Level Where = Level::Host;
  funil::TypeEnv Env;
  std::set<std::string> Names;      ///< every name in the program
  std::vector<std::string> *Trace = nullptr; ///< applied rule names, if set

  /// Type of \p E in this context, or nullptr when it does not type check.
  funil::TypePtr typeOf(const ExprPtr &E) const;
  /// For fresh: per base, the suffix its last probe ended at (Names only
  /// grows, so the suffixes below it are still taken).
  std::map<std::string, unsigned> FreshFrom;

  /// A fresh name starting with \p Base (recorded in Names): what
  /// funil::freshName gives, without probing Base_1, Base_2, ... again.
  std::string fresh(const std::string &Base);
};

/// Pattern variables bound by a matcher: name -> expression, in a flat
/// array of at most MaxNames entries, made only as names are bound (most
/// match attempts fail before binding anything, and then cost nothing).
class Bindings {
public:
  static constexpr unsigned MaxNames = 8;
  Bindings() = default;
  Bindings(const Bindings &) = delete;
  Bindings &operator=(const Bindings &) = delete;
  ~Bindings();
  /// The expression bound to \p Name, bound to nullptr first when absent.
  /// Throws std::length_error when a name beyond MaxNames is bound.
  ExprPtr &operator[](std::string_view Name);
  /// The expression bound to \p Name; throws std::out_of_range when \p Name
  /// is not bound (as std::map::at).
  const ExprPtr &at(std::string_view Name) const;
  /// 1 when \p Name is bound, else 0.
  size_t count(std::string_view Name) const { return find(Name) ? 1 : 0; }
  /// The number of names bound.
  size_t size() const { return N; }

private:
  struct Entry {
    std::string Name;
    ExprPtr Value;
  };
  Entry *entries() { return reinterpret_cast<Entry *>(Store); }
  const Entry *entries() const { return reinterpret_cast<const Entry *>(Store); }
  const ExprPtr *find(std::string_view Name) const;
  alignas(Entry) unsigned char Store[MaxNames * sizeof(Entry)];
  unsigned N = 0;
};

/// One rewrite rule.
struct Rule {
  std::string Name;   ///< e.g. "map-fusion"
  std::string Family; ///< "algorithmic" or "lowering"
  std::string Doc;    ///< the rule as text: "map f . map g -> map (f . g)"
  AppliesIn Context = AppliesIn::Anywhere;
  /// The call names the left side can match at its root: Match is false at
  /// every node that is not a Call of one of them. Empty when the root is
  /// not such a call (proj-tuple) or the rule does not say: every node is
  /// tried. Lets strategies skip Match by the root op (ruleMayMatch);
  /// test/rewrite/RuleRootsTest.cpp checks every rule's declaration.
  std::vector<std::string> Roots;
  /// Matches the left side at the root of an expression, binding variables.
  std::function<bool(const ExprPtr &, Bindings &)> Match;
  /// Side condition on the bindings (optional: empty means true).
  std::function<bool(const Bindings &, const RuleContext &)> Condition;
  /// Builds the right side; may return nullptr to decline (for example when
  /// a type needed for a lambda parameter cannot be inferred).
  std::function<ExprPtr(const Bindings &, RuleContext &)> Build;
};

/// True when a rule with context \p C may apply at level \p L.
bool allowedAt(AppliesIn C, Level L);

/// False when \p R declares Roots and \p E is not a call of one of them
/// (then R.Match(E) is false); true otherwise.
bool ruleMayMatch(const Rule &R, const funil::Expr &E);

/// Applies \p R at the root of \p E: the rewritten expression, or nullptr
/// when the context, the matcher, the condition or the builder declines.
/// Records R.Name in Ctx.Trace on success.
ExprPtr applyRule(const Rule &R, const ExprPtr &E, RuleContext &Ctx);

/// applyRule where ruleMayMatch(R, *E) is known to hold (a caller that
/// dispatched on the root op already).
ExprPtr applyRuleAtRoot(const Rule &R, const ExprPtr &E, RuleContext &Ctx);

} // namespace idiom::rewrite

#endif // IDIOM_REWRITE_RULE_H
