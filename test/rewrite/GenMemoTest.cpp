//===- GenMemoTest.cpp - the in-process memo of generateOpenCL ------------===//
//
// Part of Idiom. A program generated under a second name, answered from the
// memo, must give exactly what a cold generation under that name gives;
// programs that differ must not share an entry.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "idiom/Rewrite/OpenCLGen.h"
#include "idiom/Rewrite/OpenCLGenMemo.h"

#include <gtest/gtest.h>

using namespace idiom;
using namespace idiom::rwtest;

namespace {

// A map and a reduction as the plugin lifts them (nas-parboil cg.c).
const char *Map =
    "idiom NAME(b0: [f64]) {\n"
    "  store view(b0, 0:i64, 1:i64, 1024:i64) = map(\\(t: i64) => "
    "fmuladd(uitofp.f64(urem(trunc.i32(t), 7:i32)), 0x1p-2:f64, 0x1p+2:f64), "
    "iota(1024:i64));\n}\n";
const char *Dot =
    "idiom NAME(b0: [f64]) {\n"
    "  return reduce(\\(a: f64, b: f64) => fadd(a, b), -0x0p+0:f64, "
    "map(\\(t: f64) => fmul(t, t), view(b0, 0:i64, 1:i64, 1024:i64)));\n}\n";

Program named(const char *Text, const std::string &Name) {
  Program P = parseOrDie(Text);
  P.Name = Name;
  return P;
}

rewrite::GeneratedOpenCL gen(const Program &P, const std::string &Kernel,
                             unsigned Max = rewrite::MaxVariants) {
  rewrite::GeneratedOpenCL G;
  std::string Err;
  EXPECT_TRUE(rewrite::generateOpenCL(P, Kernel, G, Err, Max)) << Err;
  return G;
}

/// generateOpenCL with the memo disabled.
rewrite::GeneratedOpenCL cold(const Program &P, const std::string &Kernel,
                              unsigned Max = rewrite::MaxVariants) {
  rewrite::setOpenCLGenMemoCapacity(0);
  rewrite::GeneratedOpenCL G = gen(P, Kernel, Max);
  rewrite::setOpenCLGenMemoCapacity(rewrite::DefaultOpenCLGenMemoCapacity);
  return G;
}

void expectSame(const rewrite::GeneratedOpenCL &A, const rewrite::GeneratedOpenCL &B) {
  EXPECT_EQ(A.Source, B.Source);
  EXPECT_EQ(A.LoweredFunIL, B.LoweredFunIL);
  EXPECT_EQ(A.NumVariants, B.NumVariants);
  EXPECT_EQ(A.VariantDescs, B.VariantDescs);
  EXPECT_EQ(A.VariantFunIL, B.VariantFunIL);
}

class GenMemo : public ::testing::Test {
protected:
  void SetUp() override {
    rewrite::setOpenCLGenMemoCapacity(rewrite::DefaultOpenCLGenMemoCapacity);
    rewrite::clearOpenCLGenMemo();
  }
  void TearDown() override {
    rewrite::setOpenCLGenMemoCapacity(rewrite::DefaultOpenCLGenMemoCapacity);
    rewrite::clearOpenCLGenMemo();
  }
};

TEST_F(GenMemo, SecondNameGivesWhatColdGenerationGives) {
  for (const char *Text : {Map, Dot}) {
    SCOPED_TRACE(Text);
    rewrite::clearOpenCLGenMemo();
    Program A = named(Text, "idiom_main_0"), B = named(Text, "idiom_main_7");
    rewrite::GeneratedOpenCL ColdA = cold(A, "k0"), ColdB = cold(B, "kern_7");
    rewrite::GeneratedOpenCL MemoA = gen(A, "k0");
    EXPECT_EQ(rewrite::openCLGenMemoStats().Misses, 1u);
    rewrite::GeneratedOpenCL MemoB = gen(B, "kern_7");
    EXPECT_EQ(rewrite::openCLGenMemoStats().Hits, 1u);
    expectSame(MemoA, ColdA);
    expectSame(MemoB, ColdB);
    // The names really are in the output, and only the new ones.
    ASSERT_GT(MemoB.NumVariants, 1u);
    EXPECT_NE(MemoB.Source.find("program 'idiom_main_7'"), std::string::npos);
    EXPECT_NE(MemoB.Source.find("void kern_7_v1"), std::string::npos);
    EXPECT_EQ(MemoB.Source.find("idiom_main_0"), std::string::npos);
    EXPECT_EQ(MemoB.Source.find(" k0"), std::string::npos);
    EXPECT_EQ(MemoB.LoweredFunIL.rfind("idiom idiom_main_7(", 0), 0u);
  }
}

TEST_F(GenMemo, NameThatIsAlsoAParameterOrKernel) {
  // Only the name positions change: a program called like its parameter.
  Program A = named(Map, "idiom_x"), B = named(Map, "b0");
  gen(A, "k");
  rewrite::GeneratedOpenCL MemoB = gen(B, "b0");
  EXPECT_EQ(rewrite::openCLGenMemoStats().Hits, 1u);
  expectSame(MemoB, cold(B, "b0"));
}

TEST_F(GenMemo, DifferentProgramsDoNotCollide) {
  std::string Other = Map;
  Other.replace(Other.find("7:i32"), 5, "9:i32");
  Program A = named(Map, "p"), B = named(Other.c_str(), "p");
  rewrite::GeneratedOpenCL GA = gen(A, "k"), GB = gen(B, "k");
  EXPECT_EQ(rewrite::openCLGenMemoStats().Hits, 0u);
  EXPECT_EQ(rewrite::openCLGenMemoStats().Entries, 2u);
  EXPECT_NE(GA.Source, GB.Source);
  expectSame(GB, cold(B, "k"));
  expectSame(GA, cold(A, "k"));
  // A map and a reduction under one name.
  rewrite::GeneratedOpenCL GD = gen(named(Dot, "p"), "k");
  EXPECT_EQ(rewrite::openCLGenMemoStats().Hits, 0u);
  EXPECT_NE(GD.Source, GA.Source);
}

TEST_F(GenMemo, MaxVariantsIsPartOfTheKey) {
  Program P = named(Dot, "p");
  rewrite::GeneratedOpenCL One = gen(P, "k", 1), All = gen(P, "k");
  EXPECT_EQ(rewrite::openCLGenMemoStats().Hits, 0u);
  EXPECT_EQ(One.NumVariants, 1u);
  EXPECT_GT(All.NumVariants, 1u);
  expectSame(One, cold(P, "k", 1));
  expectSame(All, cold(P, "k"));
}

TEST_F(GenMemo, BoundedAndDisabled) {
  rewrite::setOpenCLGenMemoCapacity(1);
  Program A = named(Map, "a"), B = named(Dot, "b");
  gen(A, "k");
  gen(B, "k"); // drops A
  EXPECT_EQ(rewrite::openCLGenMemoStats().Entries, 1u);
  gen(A, "k");
  EXPECT_EQ(rewrite::openCLGenMemoStats().Hits, 0u);
  gen(A, "k2");
  EXPECT_EQ(rewrite::openCLGenMemoStats().Hits, 1u);
  rewrite::setOpenCLGenMemoCapacity(0);
  EXPECT_EQ(rewrite::openCLGenMemoStats().Entries, 0u);
  gen(A, "k3");
  EXPECT_EQ(rewrite::openCLGenMemoStats().Hits, 1u);
  EXPECT_EQ(rewrite::openCLGenMemoStats().Entries, 0u);
}

TEST_F(GenMemo, FailuresAreNotKeptAndNameTheirProgram) {
  // A bool parameter: OpenCL kernels cannot take it.
  const char *Bad = "idiom NAME(b0: [f64], c: bool) {\n"
                    "  store view(b0, 0:i64, 1:i64, 16:i64) = map(\\(t: i64) => "
                    "select(c, 1.0:f64, 2.0:f64), iota(16:i64));\n}\n";
  for (const char *Name : {"first", "second"}) {
    rewrite::GeneratedOpenCL G;
    std::string Err;
    EXPECT_FALSE(rewrite::generateOpenCL(named(Bad, Name), "k", G, Err));
    EXPECT_NE(Err.find("bool"), std::string::npos) << Err;
  }
  EXPECT_EQ(rewrite::openCLGenMemoStats().Hits, 0u);
  EXPECT_EQ(rewrite::openCLGenMemoStats().Entries, 0u);
}

} // namespace
