//===- CompileCacheTest.cpp - On-disk memo shared by compiles -------------===//

#include "idiom/Constraints/CompileCache.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "gtest/gtest.h"
#include <cstdlib>

using namespace idiom;
using namespace llvm;

namespace {

/// A fresh IDIOM_CACHE_DIR for the test (kinds are resolved once per
/// process, so each test uses its own kind name).
class CompileCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    SmallString<128> Dir;
    ASSERT_FALSE(sys::fs::createUniqueDirectory("idiom-cache-test", Dir));
    Base = std::string(Dir);
    setenv("IDIOM_CACHE_DIR", Base.c_str(), 1);
  }
  void TearDown() override {
    sys::fs::remove_directories(Base);
    setenv("IDIOM_CACHE_DIR", "off", 1);
  }
  /// The file a key is stored in.
  std::string fileOf(StringRef Kind, StringRef Key) {
    return compileCacheDir(Kind) + "/" + utohexstr(xxh3_64bits(Key));
  }
  void overwrite(const std::string &File, StringRef Text) {
    std::error_code EC;
    raw_fd_ostream Out(File, EC);
    ASSERT_FALSE(EC);
    Out << Text;
  }
  std::string Base;
};

TEST_F(CompileCacheTest, RoundTripsValues) {
  EXPECT_EQ(compileCacheDir("rt"), Base + "/rt");
  EXPECT_EQ(readCompileCache("rt", "k"), std::nullopt);
  std::string Value("line1\nline2\n12\n", 15);
  Value += '\0';
  Value += "tail";
  writeCompileCache("rt", "k", Value);
  EXPECT_EQ(readCompileCache("rt", "k"), Value);
  EXPECT_EQ(readCompileCache("rt", "k2"), std::nullopt);
  writeCompileCache("rt", "k", "");
  EXPECT_EQ(readCompileCache("rt", "k"), std::string());
}

TEST_F(CompileCacheTest, KeyMismatchAndGarbageAreMisses) {
  writeCompileCache("bad", "key-a", "value-a");
  // A file holding another key (as after a hash collision) is a miss.
  ASSERT_FALSE(sys::fs::copy_file(fileOf("bad", "key-a"), fileOf("bad", "key-b")));
  EXPECT_EQ(readCompileCache("bad", "key-b"), std::nullopt);
  EXPECT_EQ(readCompileCache("bad", "key-a"), std::string("value-a"));
  for (StringRef Garbage : {"", "garbage", "99\nshort", "7\nvalue-akey-a-and-more",
                            "-1\nkey-a"}) {
    overwrite(fileOf("bad", "key-a"), Garbage);
    EXPECT_EQ(readCompileCache("bad", "key-a"), std::nullopt) << Garbage.str();
  }
}

TEST_F(CompileCacheTest, OffDisablesEverything) {
  setenv("IDIOM_CACHE_DIR", "off", 1);
  EXPECT_EQ(compileCacheDir("off-kind"), "");
  writeCompileCache("off-kind", "k", "v");
  EXPECT_EQ(readCompileCache("off-kind", "k"), std::nullopt);
  EXPECT_FALSE(sys::fs::exists(Base + "/off-kind"));
}

} // namespace
