//===- PartialSyncTest.cpp - a fallback nest's own ranges ------------------===//
//
// Part of Idiom. emitSyncOwnRanges (passes/PartialSync.h) on loop nests
// parsed from text: the sync it emits in the nest's preheader (one range
// per pointer base read and per base written, none for a non-captured
// alloca, a captured one ranged as any memory), and the nests it refuses,
// leaving the IR as it was (the caller then keeps the whole-table sync): a
// pointer loaded inside the nest, an unknown call, a trip count that is not
// computable, steps and counts SCEV cannot bound inside 128 bits, a
// volatile access.
//
//===----------------------------------------------------------------------===//

#include "PartialSync.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>
#include <memory>
#include <string>

using namespace llvm;

namespace {

/// Pieces of the nest of @f: \p Entry runs in the entry block (after the
/// alloca %t), \p Body in the inner loop (after %va = a[i * m + j] is
/// loaded and stored to t[j] and b[i * m + j]), \p Exit is the inner
/// loop's exit condition (an i1 named %jc, true to go on).
struct Nest {
  std::string Params = "ptr %a, ptr %b, ptr %pp, i32 %n, i32 %m";
  std::string Extend = "  %n64 = zext i32 %n to i64\n"
                       "  %m64 = zext i32 %m to i64\n";
  std::string Entry;
  std::string APtr = "%a";
  std::string Body;
  std::string Load = "load double, ptr %pa";
  std::string Exit = "  %jc = icmp ult i64 %j.next, %m64\n";
};

std::string text(const Nest &N) {
  return "declare void @ext(ptr)\n"
         "define void @f(" + N.Params + ") {\n"
         "entry:\n"
         "  %t = alloca [64 x double]\n" + N.Extend + N.Entry +
         "  %c = icmp ugt i64 %n64, 0\n"
         "  br i1 %c, label %ph, label %exit\n"
         "ph:\n"
         "  br label %outer\n"
         "outer:\n"
         "  %i = phi i64 [ 0, %ph ], [ %i.next, %latch ]\n"
         "  %row = mul nuw nsw i64 %i, %m64\n"
         "  br label %inner\n"
         "inner:\n"
         "  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]\n"
         "  %idx = add nuw nsw i64 %row, %j\n"
         "  %pa = getelementptr inbounds double, ptr " + N.APtr + ", i64 %idx\n"
         "  %va = " + N.Load + "\n"
         "  %pt = getelementptr inbounds [64 x double], ptr %t, i64 0, i64 %j\n"
         "  store double %va, ptr %pt\n"
         "  %pb = getelementptr inbounds double, ptr %b, i64 %idx\n"
         "  store double %va, ptr %pb\n" + N.Body +
         "  %j.next = add nuw nsw i64 %j, 1\n" + N.Exit +
         "  br i1 %jc, label %inner, label %latch\n"
         "latch:\n"
         "  %i.next = add nuw nsw i64 %i, 1\n"
         "  %ic = icmp ult i64 %i.next, %n64\n"
         "  br i1 %ic, label %outer, label %done\n"
         "done:\n"
         "  br label %exit\n"
         "exit:\n"
         "  ret void\n"
         "}\n";
}

/// The ranges' count passed by the idiom_region_sync_args call that
/// emitSyncOwnRanges put in the nest's preheader, -1 when it refused the
/// nest (and then the IR must be unchanged), -2 when the result is
/// inconsistent (a call without success, or broken IR).
int ownRanges(const Nest &N) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(text(N), Err, Ctx);
  if (!M) {
    Err.print("PartialSyncTest", errs());
    return -3;
  }
  Function &F = *M->getFunction("f");
  DominatorTree DT(F);
  LoopInfo LI(DT);
  AssumptionCache AC(F);
  TargetLibraryInfoImpl TLII(Triple(M->getTargetTriple()));
  TargetLibraryInfo TLI(TLII);
  ScalarEvolution SE(F, TLI, AC, DT, LI);
  Loop *Outer = *LI.begin();
  std::string Before;
  raw_string_ostream(Before) << F;
  idiom::StitchedCall SC;
  bool Done = idiom::emitSyncOwnRanges(SC, *Outer, SE);
  if (verifyFunction(F, &errs()))
    return -2;
  CallInst *Sync = nullptr;
  for (Instruction &I : *Outer->getLoopPreheader())
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (CI->getCalledFunction() &&
          CI->getCalledFunction()->getName() == "idiom_region_sync_args")
        Sync = CI;
  if (!Done) {
    std::string After;
    raw_string_ostream(After) << F;
    return !Sync && After == Before ? -1 : -2;
  }
  if (!Sync)
    return -2;
  return static_cast<int>(
      cast<ConstantInt>(Sync->getArgOperand(2))->getZExtValue());
}

TEST(PartialSyncOwnRanges, ReadAndWrittenBasesNotTheLocalArray) {
  // a read (IN), b written (INOUT); t, never captured, needs none.
  EXPECT_EQ(ownRanges(Nest()), 2);
}

TEST(PartialSyncOwnRanges, SecondReadOfABaseJoinsItsHull) {
  Nest N;
  N.Body = "  %pa2 = getelementptr inbounds double, ptr %pa, i64 1\n"
           "  %va2 = load double, ptr %pa2\n"
           "  %pb2 = getelementptr inbounds double, ptr %pb, i64 -1\n"
           "  %vb2 = load double, ptr %pb2\n";
  // a's two reads: one hull; b read and written: two (IN and INOUT).
  EXPECT_EQ(ownRanges(N), 3);
}

TEST(PartialSyncOwnRanges, CapturedTemporaryIsRanged) {
  // t escapes to a function the plugin cannot see: it may be in the
  // residency table, so its writes are a range of their own.
  Nest N;
  N.Entry = "  call void @ext(ptr %t)\n";
  EXPECT_EQ(ownRanges(N), 3);
}

TEST(PartialSyncOwnRanges, PointerLoadedInsideTheNestIsRefused) {
  Nest N;
  N.Body = "  %q = load ptr, ptr %pp\n"
           "  %pq = getelementptr inbounds double, ptr %q, i64 %j\n"
           "  store double %va, ptr %pq\n";
  EXPECT_EQ(ownRanges(N), -1);
}

TEST(PartialSyncOwnRanges, UnknownCallIsRefused) {
  Nest N;
  N.Body = "  call void @ext(ptr null)\n";
  EXPECT_EQ(ownRanges(N), -1);
}

TEST(PartialSyncOwnRanges, TripCountNotComputableIsRefused) {
  Nest N;
  N.Exit = "  %jc = fcmp ogt double %va, 0.0\n";
  EXPECT_EQ(ownRanges(N), -1);
}

TEST(PartialSyncOwnRanges, UnboundedStepAndCountAreRefused) {
  // 64-bit n and m: the span (n - 1) * 8m of the outer loop may not fit
  // the 2^101 bound, so the hull could wrap in 128 bits.
  Nest N;
  N.Params = "ptr %a, ptr %b, ptr %pp, i64 %n64, i64 %m64";
  N.Extend = "";
  EXPECT_EQ(ownRanges(N), -1);
}

TEST(PartialSyncOwnRanges, VolatileAccessIsRefused) {
  Nest N;
  N.Load = "load volatile double, ptr %pa";
  EXPECT_EQ(ownRanges(N), -1);
}

} // namespace
