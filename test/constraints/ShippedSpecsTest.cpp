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
  // The two idioms with lifters name them; the others are detect-only.
  for (const char *Name : {"scalar-reduction", "map"}) {
    const IdiomDef *I = Lib.lookupIdiom(Name);
    ASSERT_NE(I, nullptr) << Name;
    EXPECT_FALSE(I->Lifts.empty()) << Name;
  }
}

TEST(ShippedSpecsTest, AtomNamesAreUnique) {
  AtomRegistry Atoms;
  registerBuiltinAtoms(Atoms);
  for (const std::string &Name : Atoms.replaced())
    ADD_FAILURE() << "two built-in atoms are called " << Name;
  EXPECT_GT(Atoms.all().size(), 30u);
}

} // namespace
