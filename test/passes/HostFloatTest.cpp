//===- HostFloatTest.cpp - which operations the host may contract ---------===//
//
// Part of Idiom. mayContractOnHost and hostContractionIn
// (passes/lift/HostFloat.h) on functions parsed from text: an fadd or fsub
// of an fmul, both with `contract`, on x86 with FMA and on AArch64; through
// fneg and fpext; the fma-chain and distributive folds; and the negatives:
// a flag missing on either side, x86 without FMA, a product that is not
// added, a sum of +-1.0 that is not 1.0, and integer code.
//
//===----------------------------------------------------------------------===//

#include "lift/HostFloat.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>
#include <memory>
#include <string>

using namespace llvm;
using idiom::hostContractionIn;
using idiom::mayContractOnHost;

namespace {

const char *const X86 = "x86_64-unknown-linux-gnu";
const char *const AArch64 = "aarch64-unknown-linux-gnu";

/// A module of target \p Triple whose function @f has attributes
/// "target-features"=\p Features and body \p Body over float %a, %b, %c,
/// double %d and i32 %i, %j.
std::unique_ptr<Module> parse(LLVMContext &Ctx, const std::string &Triple,
                              const std::string &Features, const std::string &Body) {
  std::string Text = "target triple = \"" + Triple + "\"\n"
                     "define float @f(float %a, float %b, float %c, double %d, "
                     "i32 %i, i32 %j) #0 {\n" +
                     Body + "}\nattributes #0 = { \"target-features\"=\"" + Features +
                     "\" }\n"
                     "declare float @llvm.fma.f32(float, float, float)\n";
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, Ctx);
  if (!M)
    ADD_FAILURE() << Err.getMessage().str() << "\n" << Text;
  return M;
}

/// mayContractOnHost of the instruction named \p Name in @f.
bool contracts(const Module &M, StringRef Name) {
  for (const Instruction &I : M.getFunction("f")->getEntryBlock())
    if (I.getName() == Name)
      return mayContractOnHost(I);
  ADD_FAILURE() << "no instruction %" << Name.str();
  return false;
}

TEST(HostFloatTest, ContractPairOnFMATargets) {
  LLVMContext Ctx;
  const char *Body = "  %m = fmul contract float %a, %b\n"
                     "  %s = fadd contract float %m, %c\n"
                     "  %t = fsub contract float %c, %m\n"
                     "  ret float %s\n";
  auto Fma = parse(Ctx, X86, "+avx,+fma", Body);
  EXPECT_TRUE(contracts(*Fma, "s"));
  EXPECT_TRUE(contracts(*Fma, "t"));
  EXPECT_FALSE(contracts(*Fma, "m")); // the product itself adds nothing
  auto Fma4 = parse(Ctx, X86, "+fma4", Body);
  EXPECT_TRUE(contracts(*Fma4, "s"));
  auto Arm = parse(Ctx, AArch64, "+neon", Body);
  EXPECT_TRUE(contracts(*Arm, "s"));
  // x86-64 without FMA: the back end cannot fuse.
  auto Plain = parse(Ctx, X86, "+sse2", Body);
  EXPECT_FALSE(contracts(*Plain, "s"));
  EXPECT_FALSE(contracts(*Plain, "t"));
  auto Off = parse(Ctx, X86, "+sse2,+fma,-fma", Body);
  EXPECT_FALSE(contracts(*Off, "s"));
}

TEST(HostFloatTest, BothFlagsNeeded) {
  LLVMContext Ctx;
  auto M = parse(Ctx, X86, "+fma",
                 "  %m = fmul float %a, %b\n"
                 "  %s = fadd contract float %m, %c\n"
                 "  %m2 = fmul contract float %a, %b\n"
                 "  %s2 = fadd float %m2, %c\n"
                 "  %s3 = fadd fast float %m2, %c\n"
                 "  ret float %s\n");
  EXPECT_FALSE(contracts(*M, "s"));
  EXPECT_FALSE(contracts(*M, "s2"));
  EXPECT_TRUE(contracts(*M, "s3")); // -ffast-math: `fast` includes contract
}

TEST(HostFloatTest, LooksThroughNegAndExt) {
  LLVMContext Ctx;
  auto M = parse(Ctx, X86, "+fma",
                 "  %m = fmul contract float %a, %b\n"
                 "  %n = fneg float %m\n"
                 "  %s = fsub contract float %n, %c\n"
                 "  %e = fpext float %m to double\n"
                 "  %x = fadd contract double %e, %d\n"
                 "  ret float %s\n");
  EXPECT_TRUE(contracts(*M, "s"));
  EXPECT_TRUE(contracts(*M, "x"));
}

TEST(HostFloatTest, ChainAndDistributiveFolds) {
  LLVMContext Ctx;
  auto M = parse(Ctx, X86, "+fma",
                 "  %m = fmul contract float %a, %b\n"
                 "  %f = call float @llvm.fma.f32(float %c, float %c, float %m)\n"
                 "  %s = fadd contract float %f, %c\n"
                 "  %g = call float @llvm.fma.f32(float %c, float %c, float %a)\n"
                 "  %s2 = fadd contract float %g, %c\n"
                 "  %p = fadd contract float %a, 1.0\n"
                 "  %u = fmul contract float %p, %b\n"
                 "  %q = fsub contract float %a, -1.0\n"
                 "  %u2 = fmul contract float %b, %q\n"
                 "  %r = fadd contract float %a, 2.0\n"
                 "  %u3 = fmul contract float %r, %b\n"
                 "  %w = fadd contract float %a, %b\n"
                 "  %u4 = fmul contract float %w, %c\n"
                 "  ret float %s\n");
  EXPECT_TRUE(contracts(*M, "s"));   // fma(c, c, a*b) + c
  EXPECT_FALSE(contracts(*M, "s2")); // an fma is one rounding already
  EXPECT_TRUE(contracts(*M, "u"));   // (a + 1) * b = fma(a, b, b)
  EXPECT_TRUE(contracts(*M, "u2"));
  EXPECT_FALSE(contracts(*M, "u3"));
  EXPECT_FALSE(contracts(*M, "u4"));
}

TEST(HostFloatTest, IntegerCodeIsNeverContracted) {
  LLVMContext Ctx;
  auto M = parse(Ctx, X86, "+fma",
                 "  %m = mul i32 %i, %j\n"
                 "  %s = add i32 %m, %i\n"
                 "  ret float %a\n");
  EXPECT_FALSE(contracts(*M, "m"));
  EXPECT_FALSE(contracts(*M, "s"));
}

TEST(HostFloatTest, FirstContractionInALoop) {
  LLVMContext Ctx;
  const char *Loop = "  br label %loop\n"
                     "loop:\n"
                     "  %k = phi i32 [ 0, %0 ], [ %k1, %loop ]\n"
                     "  %acc = phi float [ 0.0, %0 ], [ %s, %loop ]\n"
                     "  %m = fmul contract float %a, %b\n"
                     "  %s = fadd %FLAGS float %acc, %m\n"
                     "  %k1 = add i32 %k, 1\n"
                     "  %done = icmp eq i32 %k1, %i\n"
                     "  br i1 %done, label %exit, label %loop\n"
                     "exit:\n"
                     "  ret float %s\n";
  for (bool Flag : {true, false}) {
    std::string Body = Loop;
    Body.replace(Body.find("%FLAGS"), 6, Flag ? "contract" : "");
    auto M = parse(Ctx, X86, "+fma", Body);
    Function &F = *M->getFunction("f");
    DominatorTree DT(F);
    LoopInfo LI(DT);
    ASSERT_EQ(LI.end() - LI.begin(), 1);
    const Instruction *I = hostContractionIn(**LI.begin());
    if (Flag) {
      ASSERT_NE(I, nullptr);
      EXPECT_EQ(I->getName(), "s");
    } else {
      EXPECT_EQ(I, nullptr);
    }
  }
}

} // namespace
