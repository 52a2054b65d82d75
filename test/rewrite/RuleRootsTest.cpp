//===- RuleRootsTest.cpp - every rule's declared root ops -----------------===//
//
// Part of Idiom. Rule::Roots lets strategies skip a rule's Match at nodes
// whose op differs (ruleMayMatch); a wrong declaration would silently stop a
// rule from applying. This test runs every rule's Match at every position of
// a corpus (the FunIL of test/lit/funil, its Inputs, bench/, the examples;
// each as given, fused, lowered for each of its explored variants, and up
// to three rule applications from each of those) and
// checks that Match never succeeds outside the declared roots. On the same
// corpus, normalize (which skips by root and resumes along its previous
// path) must rewrite exactly as the plain repeat(oncePosition(choice)).
//
//===----------------------------------------------------------------------===//

#include "Examples.h"
#include "TestUtil.h"
#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/Rules.h"
#include "idiom/Rewrite/Strategy.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace idiom;
using namespace idiom::rewrite;
using funil::Expr;

namespace {

void collect(const ExprPtr &E, std::vector<ExprPtr> &Out) {
  Out.push_back(E);
  for (const ExprPtr &A : E->Args)
    collect(A, Out);
}

void collectProgram(const funil::Program &P, std::vector<ExprPtr> &Out) {
  collect(P.Body, Out);
  for (const ExprPtr &O : P.Outs)
    collect(O, Out);
}

std::vector<std::string> funilFiles(const std::string &Dir) {
  std::vector<std::string> Fs;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *Ent = readdir(D)) {
      std::string N = Ent->d_name;
      if (N.size() > 6 && N.compare(N.size() - 6, 6, ".funil") == 0)
        Fs.push_back(Dir + "/" + N);
    }
    closedir(D);
  }
  return Fs;
}

/// Every position of the corpus: programs as given, fused, and lowered for
/// each explored variant (up to 64 of them).
const std::vector<funil::Program> &corpusPrograms() {
  static const std::vector<funil::Program> Programs = [] {
    std::vector<std::string> Texts = {funil::test::Saxpy, funil::test::DotAndMax,
                                      funil::test::Scale2D, funil::test::SumI32,
                                      funil::test::TwoOuts,
                                      funil::test::CountPositive};
    std::string Root = IDIOM_SOURCE_ROOT;
    for (const char *Dir : {"/test/lit/funil", "/test/lit/funil/Inputs", "/bench"})
      for (const std::string &F : funilFiles(Root + Dir)) {
        std::ifstream In(F);
        std::stringstream SS;
        SS << In.rdbuf();
        Texts.push_back(SS.str());
      }
    std::vector<funil::Program> Ps;
    for (const std::string &T : Texts) {
      funil::Program P;
      std::string Err;
      if (!funil::parseProgram(T, P, Err) || !funil::typeCheckProgram(P, Err))
        continue; // errors.funil
      Ps.push_back(P);
      Ps.push_back(fuseOnce(P).Fused);
      for (const VariantParams &V : exploreVariants(P, 64)) {
        funil::Program L = P;
        if (lowerVariant(L, V, Err))
          Ps.push_back(L);
      }
    }
    // The intermediate forms of lowering: up to three rewrites by any rule
    // (at its first position) from those programs.
    std::set<std::string> Seen;
    for (const funil::Program &P : Ps)
      Seen.insert(funil::printProgram(P));
    for (size_t Begin = 0, Depth = 0; Depth < 3; ++Depth) {
      size_t End = Ps.size();
      for (size_t I = Begin; I < End; ++I)
        for (const Rule &R : allRules()) {
          funil::Program Q = Ps[I];
          std::string Err;
          std::vector<std::string> Trace;
          if (rewriteProgram(Q, oncePosition(ruleStrategy(R)), Err, &Trace) &&
              !Trace.empty() && Seen.insert(funil::printProgram(Q)).second)
            Ps.push_back(Q);
        }
      Begin = End;
    }
    return Ps;
  }();
  return Programs;
}

const std::vector<ExprPtr> &corpus() {
  static const std::vector<ExprPtr> Nodes = [] {
    std::vector<ExprPtr> Out;
    for (const funil::Program &P : corpusPrograms())
      collectProgram(P, Out);
    return Out;
  }();
  return Nodes;
}

/// Positions of \p Nodes where \p R matches although ruleMayMatch says it
/// cannot, printed.
std::vector<std::string> rootViolations(const Rule &R, const std::vector<ExprPtr> &Nodes,
                                        unsigned &Matches) {
  std::vector<std::string> Bad;
  for (const ExprPtr &E : Nodes) {
    Bindings B;
    if (!R.Match(E, B))
      continue;
    ++Matches;
    if (!ruleMayMatch(R, *E))
      Bad.push_back(funil::printExpr(*E));
  }
  return Bad;
}

TEST(RuleRoots, MatchOnlyAtDeclaredRoots) {
  const std::vector<ExprPtr> &Nodes = corpus();
  ASSERT_GT(Nodes.size(), 1000u);
  unsigned Total = 0, Declared = 0;
  std::map<std::string, unsigned> PerRule;
  for (const Rule &R : allRules()) {
    unsigned Matches = 0;
    std::vector<std::string> Bad = rootViolations(R, Nodes, Matches);
    EXPECT_TRUE(Bad.empty()) << R.Name << " matches outside its roots, e.g. "
                             << (Bad.empty() ? "" : Bad[0]);
    Total += Matches;
    Declared += !R.Roots.empty();
    PerRule[R.Name] = Matches;
  }
  // The corpus exercises the rules the generator's strategies use.
  for (const char *N : {"map-fusion", "map-reduce-fusion", "map-to-mapGlobal",
                        "map-to-mapSeq", "reduce-two-stage", "split-map", "strided-map",
                        "as-vector-map", "as-vector-reduce", "transpose-map"})
    EXPECT_GT(PerRule[N], 0u) << N;
  EXPECT_GT(Total, 100u);
  // Only proj-tuple (a projection at its root) declares no roots.
  EXPECT_EQ(Declared + 1, allRules().size());
}

TEST(RuleRoots, WrongDeclarationIsCaught) {
  const std::vector<ExprPtr> &Nodes = corpus();
  Rule R = *findRule("map-fusion");
  R.Roots = {"map", "mapSeq"}; // leaves out mapGlobal, which the corpus has
  unsigned Matches = 0;
  EXPECT_FALSE(rootViolations(R, Nodes, Matches).empty());
  R.Roots = {"reduce"};
  Matches = 0;
  EXPECT_EQ(rootViolations(R, Nodes, Matches).size(), Matches);
  EXPECT_GT(Matches, 0u);
}

// normalize skips subtrees where the previous step failed (and ruleChoice
// skips Match by op): on the same corpus it must rewrite exactly as the
// plain repeat(oncePosition(s)) with a choice of ruleStrategy does.
TEST(RuleRoots, NormalizeAsRepeatOncePosition) {
  auto plain = [](std::initializer_list<const char *> Names) {
    std::vector<Strategy> Ss;
    for (const char *N : Names)
      Ss.push_back(ruleStrategy(*findRule(N)));
    return repeat(oncePosition(choice(std::move(Ss))));
  };
  std::vector<std::pair<Strategy, Strategy>> Pairs = {
      {fusionStrategy(), plain({"map-fusion", "proj-tuple", "transpose-map", "reorder-map",
                                "reorderStride-map", "padClamp-map", "slide-map"})},
      {mapToGlobalStrategy(), plain({"map-to-mapGlobal-3d", "map-to-mapGlobal-2d",
                                        "map-to-mapGlobal"})},
      {sequentialiseStrategy(),
       plain({"split-map", "strided-map", "blocks-map", "map-fusion", "map-to-mapSeq",
              "reduce-to-reduceSeq", "map-reduce-fusion", "proj-tuple"})}};
  unsigned Rewritten = 0;
  for (const funil::Program &P : corpusPrograms())
    for (auto &[Fast, Plain] : Pairs) {
      funil::Program A = P, B = P;
      std::vector<std::string> TA, TB;
      std::string EA, EB;
      bool OkA = rewriteProgram(A, Fast, EA, &TA);
      bool OkB = rewriteProgram(B, Plain, EB, &TB);
      ASSERT_EQ(OkA, OkB) << funil::printProgram(P);
      EXPECT_EQ(TA, TB) << funil::printProgram(P);
      EXPECT_EQ(funil::printProgram(A), funil::printProgram(B));
      Rewritten += !TA.empty();
    }
  EXPECT_GT(Rewritten, 50u);
}

TEST(RuleRoots, MayMatchByOp) {
  Rule R;
  ExprPtr Map = Expr::call("map", {Expr::var("f"), Expr::var("a")});
  ExprPtr Join = Expr::call("join", {Expr::var("a")});
  EXPECT_TRUE(ruleMayMatch(R, *Map)); // no declaration: every node
  EXPECT_TRUE(ruleMayMatch(R, *Expr::var("x")));
  R.Roots = {"join", "map"};
  EXPECT_TRUE(ruleMayMatch(R, *Map));
  EXPECT_TRUE(ruleMayMatch(R, *Join));
  EXPECT_FALSE(ruleMayMatch(R, *Expr::call("mapSeq", {Expr::var("f"), Expr::var("a")})));
  EXPECT_FALSE(ruleMayMatch(R, *Expr::var("map"))); // a variable named map
  EXPECT_FALSE(ruleMayMatch(R, *Expr::proj(Map, 0)));
}

} // namespace
