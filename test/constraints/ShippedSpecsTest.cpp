//===- ShippedSpecsTest.cpp - The built-in specs load cleanly -------------===//

#include "idiom/Constraints/BuiltinAtoms.h"
#include "idiom/Constraints/Spec.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <algorithm>

using namespace idiom::constraints;

namespace {

TEST(ShippedSpecsTest, LoadWithoutDiagnostics) {
  AtomRegistry Atoms;
  registerBuiltinAtoms(Atoms);
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(IDIOM_SPEC_DIR, EC), End;
       !EC && It != End; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".idl")
      Files.push_back(It->path());
  ASSERT_FALSE(EC) << EC.message();
  std::sort(Files.begin(), Files.end());
  EXPECT_FALSE(Files.empty());

  SpecLibrary Lib;
  for (const std::string &F : Files) {
    std::vector<Diagnostic> Diags;
    EXPECT_TRUE(Lib.addSpecFile(F, Atoms, Diags)) << F;
    for (const Diagnostic &D : Diags)
      ADD_FAILURE() << D.str();
  }
  for (const IdiomDef *I : Lib.idioms())
    EXPECT_FALSE(I->Lifts.empty()) << I->Name;
}

} // namespace
