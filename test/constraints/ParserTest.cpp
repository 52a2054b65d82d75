//===- ParserTest.cpp - Syntax of spec texts ------------------------------===//

#include "TestAtoms.h"
#include "idiom/Constraints/Spec.h"
#include "idiom/Constraints/SpecParser.h"
#include "gtest/gtest.h"

using namespace idiom::constraints;
using namespace idiom::constraints::test;

namespace {

std::string allDiags(const std::vector<Diagnostic> &Diags) {
  std::string S;
  for (const Diagnostic &D : Diags)
    S += D.str() + "\n";
  return S;
}

/// Parses a text that must have no syntax error; returns the body of its
/// only definition, printed.
std::string printOnly(llvm::StringRef Text) {
  std::vector<Diagnostic> Diags;
  auto Defs = parseSpecText("t.idiom", Text, Diags);
  EXPECT_TRUE(Diags.empty()) << allDiags(Diags);
  if (Defs.size() != 1)
    return "<" + std::to_string(Defs.size()) + " definitions>";
  return printFormula(*Defs[0]->Body);
}

const char *const Example = R"(
# The example of docs/ConstraintLanguage.md, over test atoms.
constraint AffineLoads(loop) =
    forall ld in InstIn(loop) : Opcode(ld, "load")
;
constraint ReductionPhi(phi, loop) =
    Operand(phi, 1, upd) and Opcode(upd, "fadd")   # comment
    and InstIn(loop, upd)
;
idiom scalar-reduction(loop) lifts reduction =
        not IsConstant(loop)
    and forall phi in HeaderPhis(loop) : ( Opcode(phi, "phi") or ReductionPhi(phi, loop) )
    and collect acc in HeaderPhis(loop) : ReductionPhi(acc, loop) as accs
    and NonEmpty(accs)
    and AffineLoads(loop)
;
)";

TEST(ParserTest, ParsesTheExample) {
  std::vector<Diagnostic> Diags;
  auto Defs = parseSpecText("ex.idiom", Example, Diags);
  EXPECT_TRUE(Diags.empty()) << allDiags(Diags);
  ASSERT_EQ(Defs.size(), 3u);
  EXPECT_EQ(Defs[0]->Name, "AffineLoads");
  EXPECT_FALSE(Defs[0]->isIdiom());
  EXPECT_EQ(Defs[0]->Line, 3u); // the line of the name
  EXPECT_EQ(Defs[0]->Col, 12u);
  const Definition &I = *Defs[2];
  EXPECT_TRUE(I.isIdiom());
  EXPECT_EQ(I.Name, "scalar-reduction");
  EXPECT_EQ(I.Lifts, "reduction");
  EXPECT_EQ(I.Params, std::vector<std::string>{"loop"});
  EXPECT_EQ(I.File, "ex.idiom");
  EXPECT_EQ(printDefinition(I),
            "idiom scalar-reduction(loop) lifts reduction = not "
            "IsConstant(loop) and forall phi in HeaderPhis(loop) : "
            "(Opcode(phi, \"phi\") or ReductionPhi(phi, loop)) and collect "
            "acc in HeaderPhis(loop) : ReductionPhi(acc, loop) as accs and "
            "NonEmpty(accs) and AffineLoads(loop);");
}

TEST(ParserTest, LoadsTheExample) {
  AtomRegistry Atoms;
  addTestAtoms(Atoms);
  SpecLibrary Lib;
  std::vector<Diagnostic> Diags;
  EXPECT_TRUE(Lib.addSpecText("ex.idiom", Example, Atoms, Diags))
      << allDiags(Diags);
  EXPECT_TRUE(Diags.empty()) << allDiags(Diags);
  ASSERT_EQ(Lib.idioms().size(), 1u);
  EXPECT_EQ(Lib.constraints().size(), 2u);
  EXPECT_EQ(Lib.lookupIdiom("scalar-reduction"), Lib.idioms()[0]);
  EXPECT_NE(Lib.lookupConstraint("ReductionPhi"), nullptr);
  EXPECT_EQ(Lib.lookupConstraint("scalar-reduction"), nullptr);
}

TEST(ParserTest, Precedence) {
  EXPECT_EQ(printOnly("constraint C(a) = A(a) or B(a) and C(a);"),
            "A(a) or B(a) and C(a)");
  auto Defs = [](llvm::StringRef T) {
    std::vector<Diagnostic> D;
    return parseSpecText("t", T, D);
  };
  auto D1 = Defs("constraint C(a) = A(a) or B(a) and C(a);");
  ASSERT_EQ(D1.size(), 1u);
  EXPECT_EQ(D1[0]->Body->K, Formula::Kind::Or);
  EXPECT_EQ(D1[0]->Body->Children[1]->K, Formula::Kind::And);
  // `not` and quantifier bodies bind tighter than `and`.
  auto D2 = Defs("constraint C(a) = not A(a) and B(a);");
  EXPECT_EQ(D2[0]->Body->K, Formula::Kind::And);
  EXPECT_EQ(D2[0]->Body->Children[0]->K, Formula::Kind::Not);
  auto D3 = Defs("constraint C(a) = forall x in G(a) : A(x) and B(a);");
  EXPECT_EQ(D3[0]->Body->K, Formula::Kind::And);
  EXPECT_EQ(D3[0]->Body->Children[0]->K, Formula::Kind::ForAll);
  EXPECT_EQ(printOnly("constraint C(a) = not (A(a) and B(a));"),
            "not (A(a) and B(a))");
  EXPECT_EQ(printOnly("constraint C(a) = (A(a) or B(a)) and C(a);"),
            "(A(a) or B(a)) and C(a)");
}

TEST(ParserTest, ArgumentsAndLiterals) {
  EXPECT_EQ(printOnly("constraint C(a) = F(a, _, \"x\\\"y\\n\", -42, 7);"),
            "F(a, _, \"x\\\"y\\n\", -42, 7)");
  EXPECT_EQ(printOnly("constraint C(a, b) = a = b and \"s\" = a;"),
            "a = b and \"s\" = a");
  EXPECT_EQ(printOnly("constraint C() = true or false;"), "true or false");
  std::vector<Diagnostic> Diags;
  auto Defs = parseSpecText("t", "constraint C(a) = F(a, \"op\", 3);", Diags);
  ASSERT_EQ(Defs.size(), 1u);
  const Formula &Call = *Defs[0]->Body;
  ASSERT_EQ(Call.Args.size(), 3u);
  EXPECT_EQ(Call.Args[1].K, Arg::Kind::String);
  EXPECT_EQ(Call.Args[1].Const, Term::string("op"));
  EXPECT_EQ(Call.Args[2].Const, Term::integer(3));
  EXPECT_EQ(Call.Args[2].Loc.Col, 30u);
}

TEST(ParserTest, DashedNames) {
  std::vector<Diagnostic> Diags;
  auto Defs = parseSpecText(
      "t", "idiom gemm-2d(l) lifts gemm-tiled = true;\n"
           "idiom plain(l) = true;",
      Diags);
  EXPECT_TRUE(Diags.empty()) << allDiags(Diags);
  ASSERT_EQ(Defs.size(), 2u);
  EXPECT_EQ(Defs[0]->Name, "gemm-2d");
  EXPECT_EQ(Defs[0]->Lifts, "gemm-tiled");
  EXPECT_EQ(Defs[1]->Lifts, "");
}

struct SyntaxCase {
  const char *Text;
  const char *Expected; ///< the first diagnostic
};

class SyntaxErrorTest : public ::testing::TestWithParam<SyntaxCase> {};

TEST_P(SyntaxErrorTest, ReportsPosition) {
  std::vector<Diagnostic> Diags;
  auto Defs = parseSpecText("s.idiom", GetParam().Text, Diags);
  ASSERT_FALSE(Diags.empty());
  EXPECT_EQ(Diags[0].str(), GetParam().Expected) << allDiags(Diags);
  EXPECT_TRUE(Diags[0].IsError);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SyntaxErrorTest,
    ::testing::Values(
        SyntaxCase{"constraint C(a) = A(a;",
                   "s.idiom:1:22: error: expected ',' or ')', found ';'"},
        SyntaxCase{"constraint C(a) =\n  A(a) B(a);",
                   "s.idiom:2:8: error: expected 'and', 'or' or ';', found "
                   "'B'"},
        SyntaxCase{"constraint C(a) = A(\"abc);",
                   "s.idiom:1:21: error: unterminated string literal"},
        SyntaxCase{"constraint C(a) = A(a) & B(a);",
                   "s.idiom:1:24: error: invalid character '&'"},
        SyntaxCase{"constraint C(a) = A(\"\\q\");",
                   "s.idiom:1:22: error: unknown escape sequence in string "
                   "literal"},
        SyntaxCase{"constraint C(a) = A(99999999999999999999);",
                   "s.idiom:1:21: error: integer literal does not fit in 64 "
                   "bits"},
        SyntaxCase{"constraint C(a) A(a);",
                   "s.idiom:1:17: error: expected '=', found 'A'"},
        SyntaxCase{"idiom i() = true;",
                   "s.idiom:1:7: error: idiom 'i' needs at least one "
                   "parameter (its entry)"},
        SyntaxCase{"constraint C(a, a) = true;",
                   "s.idiom:1:17: error: duplicate parameter 'a'"},
        SyntaxCase{"constraint C(a) lifts x = true;",
                   "s.idiom:1:17: error: only an idiom can name a lifter "
                   "with 'lifts'"},
        SyntaxCase{"constraint C(a) = collect x in G(a) : A(x) and B(x) as "
                   "xs;",
                   "s.idiom:1:44: error: expected 'as' after the body of "
                   "'collect' (parenthesize a body with 'and' or 'or'), "
                   "found 'and'"},
        SyntaxCase{"constraint C(a) = forall _ in G(a) : A(a);",
                   "s.idiom:1:26: error: expected a variable name, found "
                   "'_'"},
        SyntaxCase{"constraint C(a) = A(a) and ;",
                   "s.idiom:1:28: error: expected a formula, found ';'"},
        SyntaxCase{"constraint C(a) = x;",
                   "s.idiom:1:20: error: expected '(' or '=' after 'x', "
                   "found ';'"},
        SyntaxCase{"foo C(a) = true;",
                   "s.idiom:1:1: error: expected 'constraint' or 'idiom', "
                   "found 'foo'"},
        SyntaxCase{"constraint not(a) = true;",
                   "s.idiom:1:12: error: expected a name after "
                   "'constraint', found 'not'"},
        SyntaxCase{"constraint C(a) = A(a)",
                   "s.idiom:1:23: error: expected 'and', 'or' or ';', found "
                   "end of file"}));

TEST(ParserTest, RecoversAtNextDefinition) {
  std::vector<Diagnostic> Diags;
  auto Defs = parseSpecText("r.idiom",
                            "constraint A(x) = F(x\n"    // missing ')' and ';'
                            "constraint B(x) = G(x);\n"  // fine
                            "constraint C(x) = (G(x);\n" // missing ')'
                            "constraint D(x) = H(x);\n",
                            Diags);
  ASSERT_EQ(Diags.size(), 2u) << allDiags(Diags);
  EXPECT_EQ(Diags[0].str(),
            "r.idiom:2:1: error: expected ',' or ')', found 'constraint'");
  EXPECT_EQ(Diags[1].str(), "r.idiom:3:24: error: expected ')', found ';'");
  ASSERT_EQ(Defs.size(), 2u);
  EXPECT_EQ(Defs[0]->Name, "B");
  EXPECT_EQ(Defs[1]->Name, "D");
}

TEST(ParserTest, DeepNestingIsAnErrorNotACrash) {
  std::string Deep = "constraint C(a) = ";
  for (int I = 0; I < 100000; ++I)
    Deep += "(";
  Deep += "A(a)";
  std::vector<Diagnostic> Diags;
  auto Defs = parseSpecText("d", Deep, Diags);
  EXPECT_TRUE(Defs.empty());
  ASSERT_FALSE(Diags.empty());
  EXPECT_NE(Diags[0].Message.find("nested too deeply"), std::string::npos);
  std::string Nots = "constraint C(a) = ";
  for (int I = 0; I < 100000; ++I)
    Nots += "not ";
  Diags.clear();
  parseSpecText("d", Nots + "A(a);", Diags);
  ASSERT_FALSE(Diags.empty());
  EXPECT_NE(Diags[0].Message.find("nested too deeply"), std::string::npos);
}

TEST(ParserTest, RoundTrip) {
  std::vector<Diagnostic> Diags;
  auto Defs = parseSpecText("ex", Example, Diags);
  for (const auto &D : Defs) {
    std::string Printed = printDefinition(*D);
    std::vector<Diagnostic> Again;
    auto Re = parseSpecText("re", Printed, Again);
    EXPECT_TRUE(Again.empty()) << allDiags(Again);
    ASSERT_EQ(Re.size(), 1u);
    EXPECT_EQ(printDefinition(*Re[0]), Printed);
  }
}

TEST(ParserTest, DiagnosticFormat) {
  Diagnostic E{"a.idiom", 3, 14, true, "bad"};
  Diagnostic W{"a.idiom", 1, 2, false, "meh"};
  EXPECT_EQ(E.str(), "a.idiom:3:14: error: bad");
  EXPECT_EQ(W.str(), "a.idiom:1:2: warning: meh");
}

} // namespace
