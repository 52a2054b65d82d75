//===- OffloadRemarksTest.cpp - one remark per source loop ----------------===//
//
// Part of Idiom. RemarkSink and flushRemarks (passes/OffloadRemarks.h) on a
// module parsed from text, with a diagnostic handler that keeps what it is
// given: copies of one remark at one location become one remark with their
// count; other outcomes, other locations and remarks without a location stay
// apart; copies whose function was deleted before the flush are not
// counted, and a remark without any is dropped; without deferral each copy
// is emitted at once with a count of 1 that only the record shows.
//
//===----------------------------------------------------------------------===//

#include "OffloadRemarks.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace llvm;
using idiom::RemarkPass;

namespace {

/// A remark as the handler saw it.
struct Seen {
  int Kind;
  std::string Name, Function, Msg;
  unsigned Line;
  std::vector<std::pair<std::string, std::string>> Args;

  std::string arg(StringRef Key) const {
    for (const auto &[K, V] : Args)
      if (K == Key)
        return V;
    return "<none>";
  }
};

/// Keeps every remark; all remarks are enabled.
struct Capture : DiagnosticHandler {
  std::vector<Seen> *Out;
  explicit Capture(std::vector<Seen> *Out) : Out(Out) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    auto *R = dyn_cast<DiagnosticInfoOptimizationBase>(&DI);
    if (!R)
      return false;
    Seen S{R->getKind(), R->getRemarkName().str(), "", R->getMsg(), 0, {}};
    if (auto *IR = dyn_cast<DiagnosticInfoIROptimization>(R)) {
      S.Function = IR->getFunction().getName().str();
      S.Line = IR->getLocation().getLine();
    }
    for (const auto &A : R->getArgs())
      S.Args.push_back({A.Key, A.Val});
    Out->push_back(std::move(S));
    return true;
  }
  bool isAnalysisRemarkEnabled(StringRef) const override { return true; }
  bool isMissedOptRemarkEnabled(StringRef) const override { return true; }
  bool isPassedOptRemarkEnabled(StringRef) const override { return true; }
  bool isAnyRemarkEnabled() const override { return true; }
};

/// Three callers of an inlined loop of `total` (!10, named by !test.total).
const char *ModuleText = R"(
define void @f1() !dbg !4 {
entry:
  ret void
}
define void @f2() !dbg !5 {
entry:
  ret void
}
define void @f3() !dbg !6 {
entry:
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!test.total = !{!10}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = distinct !DISubprogram(name: "f1", scope: !1, file: !1, line: 20, unit: !0, spFlags: DISPFlagDefinition)
!5 = distinct !DISubprogram(name: "f2", scope: !1, file: !1, line: 21, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "f3", scope: !1, file: !1, line: 22, unit: !0, spFlags: DISPFlagDefinition)
!10 = distinct !DISubprogram(name: "total", scope: !1, file: !1, line: 8, unit: !0, spFlags: DISPFlagDefinition)
)";

class OffloadRemarksTest : public ::testing::Test {
protected:
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  std::vector<Seen> Out;

  void SetUp() override {
    Ctx.setDiagnosticHandler(std::make_unique<Capture>(&Out));
    SMDiagnostic Err;
    M = parseAssemblyString(ModuleText, Err, Ctx);
    ASSERT_TRUE(M) << Err.getMessage().str();
  }

  void TearDown() override {
    // Nothing may stay pending for a later test's module.
    if (M)
      idiom::flushRemarks(*M);
  }

  Function &fn(const char *Name) { return *M->getFunction(Name); }

  /// Line \p Line, column 3, of `total`, inlined into \p F.
  DebugLoc loopLoc(Function &F, unsigned Line) {
    auto *Total =
        cast<DISubprogram>(M->getNamedMetadata("test.total")->getOperand(0));
    return DILocation::get(Ctx, Line, 3, Total,
                           DILocation::get(Ctx, 1, 1, F.getSubprogram()));
  }

  /// Records (or, without \p Defer, emits) an Offloaded remark of \p Idiom
  /// in \p F at line \p Line of `total` (0: no location).
  void offloaded(Function &F, unsigned Line, StringRef Idiom,
                 bool Defer = true) {
    OptimizationRemarkEmitter ORE(&F);
    idiom::RemarkSink Sink(F, ORE, Defer);
    Sink.emit([&] {
      return OptimizationRemark(RemarkPass, "Offloaded",
                                Line ? DiagnosticLocation(loopLoc(F, Line))
                                     : DiagnosticLocation(),
                                &F.getEntryBlock())
             << "offloaded " << ore::NV("Idiom", Idiom) << ore::setExtraArgs()
             << ore::NV("Site", "t.c:10");
    });
  }
};

} // namespace

TEST_F(OffloadRemarksTest, CopiesOfOneLoopAreOneRemark) {
  for (const char *F : {"f1", "f2", "f3"})
    offloaded(fn(F), 10, "map");
  EXPECT_TRUE(Out.empty()) << "deferred remarks were emitted early";
  idiom::flushRemarks(*M);
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out[0].Kind, DK_OptimizationRemark);
  EXPECT_EQ(Out[0].Name, "Offloaded");
  EXPECT_EQ(Out[0].Function, "f1");
  EXPECT_EQ(Out[0].Line, 10u);
  EXPECT_EQ(Out[0].Msg, "offloaded map (3 inlined copies)");
  EXPECT_EQ(Out[0].arg("InlinedCopies"), "3");
  EXPECT_EQ(Out[0].arg("Site"), "t.c:10");
  // A second flush has nothing left.
  idiom::flushRemarks(*M);
  EXPECT_EQ(Out.size(), 1u);
}

TEST_F(OffloadRemarksTest, OtherOutcomesAndLocationsStayApart) {
  offloaded(fn("f1"), 10, "map");
  offloaded(fn("f2"), 10, "other");
  offloaded(fn("f3"), 10, "map");
  offloaded(fn("f3"), 12, "map");
  idiom::flushRemarks(*M);
  ASSERT_EQ(Out.size(), 3u);
  EXPECT_EQ(Out[0].Msg, "offloaded map (2 inlined copies)");
  EXPECT_EQ(Out[0].Function, "f1");
  EXPECT_EQ(Out[1].Msg, "offloaded other");
  EXPECT_EQ(Out[1].Function, "f2");
  EXPECT_EQ(Out[1].arg("InlinedCopies"), "1");
  EXPECT_EQ(Out[2].Msg, "offloaded map");
  EXPECT_EQ(Out[2].Line, 12u);
}

TEST_F(OffloadRemarksTest, RemarksWithoutLocationAreNeverMerged) {
  offloaded(fn("f1"), 0, "map");
  offloaded(fn("f2"), 0, "map");
  idiom::flushRemarks(*M);
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_EQ(Out[0].Msg, "offloaded map");
  EXPECT_EQ(Out[1].Msg, "offloaded map");
  EXPECT_EQ(Out[1].Function, "f2");
}

TEST_F(OffloadRemarksTest, DeletedFunctionsAreNotCounted) {
  for (const char *F : {"f1", "f2", "f3"})
    offloaded(fn(F), 10, "map");
  offloaded(fn("f1"), 12, "map");
  fn("f1").eraseFromParent(); // as GlobalDCE may, before OptimizerLast
  idiom::flushRemarks(*M);
  // Line 12 had its only copy in f1: no remark.
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out[0].Function, "f2");
  EXPECT_EQ(Out[0].Msg, "offloaded map (2 inlined copies)");
}

TEST_F(OffloadRemarksTest, WithoutDeferralEachCopyIsEmittedAtOnce) {
  offloaded(fn("f1"), 10, "map", /*Defer=*/false);
  offloaded(fn("f2"), 10, "map", /*Defer=*/false);
  ASSERT_EQ(Out.size(), 2u);
  // The count is a record-only argument; Site stays one too.
  EXPECT_EQ(Out[0].Msg, "offloaded map");
  EXPECT_EQ(Out[0].arg("InlinedCopies"), "1");
  EXPECT_EQ(Out[0].arg("Site"), "t.c:10");
  idiom::flushRemarks(*M);
  EXPECT_EQ(Out.size(), 2u);
}
