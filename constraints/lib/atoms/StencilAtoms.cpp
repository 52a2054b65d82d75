//===- StencilAtoms.cpp - Atoms for stencils and SpMV ---------------------===//
//
// The atoms of constraints/specs/stencil.idl and spmv.idl (their table is in
// docs/ConstraintLanguage.md). Each is a thin relation over the analyses of
// StencilFacts.h and SpmvFacts.h. The nest of a loop and its accesses are
// made once per function (StencilCache.h): the relations that compare one
// access with all the others run once per access.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/BuiltinAtoms.h"
#include "idiom/Constraints/FnAtom.h"
#include "idiom/Constraints/SpmvFacts.h"
#include "idiom/Constraints/StencilCache.h"
#include "idiom/Constraints/StencilFacts.h"
#include "idiom/Constraints/ValueText.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include <functional>

using namespace llvm;

namespace idiom::constraints {
namespace {

using SolveFn = FnAtom::SolveFn;

template <typename T> T *asA(const Term &X) {
  return dyn_cast_or_null<T>(asValue(X));
}

/// A test of bound arguments: \p Test returns true when they are related.
void addTest(
    AtomRegistry &R, const char *Name, unsigned Arity, const char *Doc,
    std::function<bool(MatchEnv &, ArrayRef<Term>, std::string &)> Test) {
  R.add(std::make_unique<FnAtom>(
      Name, Arity, 0, Doc,
      [Test](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
             std::string &Why) {
        if (Test(Env, A, Why))
          Y();
        else if (Why.empty())
          Why = "arguments have the wrong kind";
      }));
}

/// The perfect nest rooted at \p T (a loop term), or null with \p Why.
/// \p Scratch holds the analyses when the environment keeps none.
const StencilNest *nestOf(MatchEnv &Env, const Term &T, StencilCache &Scratch,
                          std::string &Why) {
  Loop *L = asLoop(T);
  if (!L) {
    Why = "argument is not a loop";
    return nullptr;
  }
  const StencilLoopFacts &F = stencilFacts(Env, L, Scratch);
  if (!F.Nest)
    Why = F.NestWhy;
  return F.Nest ? &*F.Nest : nullptr;
}

/// The access of stencil read \p V (a load or a forwarded-read phi).
std::optional<StencilAccess> readOf(MatchEnv &Env, Value *V,
                                    const StencilNest &N, std::string &Why) {
  if (auto *P = dyn_cast_or_null<PHINode>(V))
    return analyzeForwardedRead(P, N, Env.SE, Why);
  if (auto *L = dyn_cast_or_null<LoadInst>(V); L && N.contains(L))
    return analyzeStencilAccess(L, N, Env.SE, Why);
  Why = "not a load of the nest or a forwarded read";
  return std::nullopt;
}

/// The nest rooted at \p T with its reads and writes, for the relations
/// that compare one access with the others, or null with \p Why. Irregular
/// lists the loads and stores whose address is not affine: each relation
/// judges them itself (a non-affine read of another array does not make a
/// write less of a Jacobi write).
const StencilLoopFacts *accessesOf(MatchEnv &Env, const Term &T,
                                   StencilCache &Scratch, std::string &Why) {
  if (!nestOf(Env, T, Scratch, Why))
    return nullptr;
  const StencilLoopFacts &F = stencilFacts(Env, asLoop(T), Scratch);
  if (!F.AccessesOk) {
    Why = F.AccessesWhy;
    return nullptr;
  }
  return &F;
}

void registerStencil(AtomRegistry &R) {
  addTest(R, "StencilNest", 1,
          "loop: a perfect nest of one to three counted loops, rectangular, "
          "with no memory operation outside its innermost loop but loads",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            StencilCache Scratch;
            return nestOf(Env, A[0], Scratch, Why) != nullptr;
          });
  addTest(R, "StencilInduction", 2,
          "phi, loop: phi is an affine induction variable (constant step) of a "
          "loop of loop's stencil nest",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            StencilCache Scratch;
            const StencilNest *N = nestOf(Env, A[1], Scratch, Why);
            auto *P = asA<PHINode>(A[0]);
            if (N && P && isNestInduction(P, *N, Env.SE))
              return true;
            if (N)
              Why = "phi is not an induction variable of the nest";
            return false;
          });
  addTest(R, "ForwardedRead", 2,
          "phi, loop: phi, a header phi of a loop of the nest, holds the "
          "element its latch value read one iteration before, seeded by a "
          "read of the element before the first (LoopLoadElimination)",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            StencilCache Scratch;
            const StencilNest *N = nestOf(Env, A[1], Scratch, Why);
            auto *P = asA<PHINode>(A[0]);
            return N && P && analyzeForwardedRead(P, *N, Env.SE, Why);
          });
  R.add(std::make_unique<FnAtom>(
      "StencilReads", 2, 2,
      "loop, r: r is a read of the stencil nest: a load, or a forwarded "
      "read (a header phi), that does not only carry a read to other phis "
      "(loads whose address is not affine first)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        StencilCache Scratch;
        const StencilLoopFacts *Acc = accessesOf(Env, A[0], Scratch, Why);
        if (!Acc)
          return;
        std::vector<Term> Cands;
        for (const StencilAccess &X : Acc->Irregular)
          if (!X.IsStore)
            Cands.push_back(Term::value(X.Inst));
        for (const StencilAccess &Rd : Acc->Reads)
          Cands.push_back(Term::value(Rd.Inst));
        if (!offerTerms(A, 1, Cands, Y))
          Why = "not a read of the nest";
      }));
  addTest(R, "ConstantOffsetRead", 2,
          "r, loop: read r is affine and at a constant offset of at most 4 "
          "points per dimension from the written point (from its array's "
          "first read when the array is shaped unlike the output)",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            StencilCache Scratch;
            const StencilNest *N = nestOf(Env, A[1], Scratch, Why);
            auto Rd = N ? readOf(Env, asValue(A[0]), *N, Why) : std::nullopt;
            const StencilLoopFacts *Acc =
                Rd ? accessesOf(Env, A[1], Scratch, Why) : nullptr;
            if (!Acc)
              return false;
            for (const StencilAccess &X : Acc->Irregular)
              if (!X.IsStore && (!X.Base || X.Base == Rd->Base)) {
                Why = "read of " + operandText(Rd->Base) +
                      " is not at a constant offset from its other reads: " +
                      valueText(X.Inst) + " is not affine";
                return false;
              }
            return stencilReadOffset(*Rd, Acc->Reads, Acc->Writes, Env.SE, Why)
                .has_value();
          });
  addTest(R, "NeighbourRead", 2,
          "r, loop: another read of r's array reads a point other than r's "
          "(the array is read at a neighbourhood, not at one point)",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            StencilCache Scratch;
            const StencilNest *N = nestOf(Env, A[1], Scratch, Why);
            auto Rd = N ? readOf(Env, asValue(A[0]), *N, Why) : std::nullopt;
            const StencilLoopFacts *Acc =
                Rd ? accessesOf(Env, A[1], Scratch, Why) : nullptr;
            if (Acc && isNeighbourRead(*Rd, Acc->Reads, Env.SE))
              return true;
            if (Acc)
              Why = operandText(Rd->Base) +
                    " is read at one point only (a map's read, not a "
                    "stencil's neighbourhood)";
            return false;
          });
  addTest(R, "StencilValue", 2,
          "v, loop: v is computed in the nest only from pure scalar "
          "operations, loads, forwarded reads, induction variables and values "
          "defined outside it",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            StencilCache Scratch;
            const StencilNest *N = nestOf(Env, A[1], Scratch, Why);
            Value *V = asValue(A[0]);
            return N && V && isStencilSlice(V, *N, Env.SE, Why);
          });
  addTest(R, "JacobiWrite", 2,
          "st, loop: store st is affine, every loop of the nest moves its "
          "point, and no other access of its array touches another point "
          "(reading neighbours of the written array is a loop-carried "
          "dependence: Gauss-Seidel)",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            StencilCache Scratch;
            const StencilLoopFacts *Acc = accessesOf(Env, A[1], Scratch, Why);
            auto *St = asA<StoreInst>(A[0]);
            if (!Acc || !St)
              return false;
            for (const StencilAccess &W : Acc->Writes)
              if (W.Inst == St)
                return isJacobiWrite(W, Acc->Reads, Acc->Writes, *Acc->Nest,
                                     Env.SE, Why, Acc->Irregular);
            std::string W;
            const StencilNest *N = nestOf(Env, A[1], Scratch, W);
            if (N && !analyzeStencilAccess(St, *N, Env.SE, Why))
              return false;
            Why = "not a store of the nest";
            return false;
          });
}

void registerTimeLoop(AtomRegistry &R) {
  R.add(std::make_unique<FnAtom>(
      "BufferSwap", 3, 6,
      "loop, cur, next: cur and next are pointer header phis of loop that "
      "exchange their values every iteration (each pair both ways round)",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[0]);
        if (!L) {
          Why = "argument is not a loop";
          return;
        }
        Term SavedC = A[1], SavedN = A[2];
        bool Any = false;
        for (auto [Cur, Next] : bufferSwaps(L)) {
          Term TC = Term::value(Cur), TN = Term::value(Next);
          if ((SavedC.isBound() && SavedC != TC) ||
              (SavedN.isBound() && SavedN != TN))
            continue;
          Any = true;
          A[1] = TC;
          A[2] = TN;
          if (!Y())
            break;
        }
        A[1] = SavedC;
        A[2] = SavedN;
        if (!Any)
          Why = "loop swaps no pair of pointers";
      }));
  R.add(std::make_unique<FnAtom>(
      "TimeStepNest", 2, 2,
      "loop, nest: loop is a counted loop carrying only its counter and "
      "swapped buffers, nest is the one loop inside it, and outside nest the "
      "body has no memory operation or call but seeds of nest's forwarded "
      "reads",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[0]);
        if (!L) {
          Why = "argument is not a loop";
          return;
        }
        if (!isTimeLoop(L, Env.SE, Why))
          return;
        if (L->getSubLoops().size() != 1) {
          Why = "time loop does not contain exactly one loop nest";
          return;
        }
        Loop *Nest = L->getSubLoops().front();
        for (BasicBlock *BB : L->blocks()) {
          if (Nest->contains(BB))
            continue;
          for (Instruction &I : *BB)
            if (isMemoryWork(I) && !isForwardSeed(&I, Nest)) {
              Why = "time loop body does more than its nest and the buffer "
                    "swap: " +
                    valueText(&I);
              return;
            }
        }
        if (!offerTerms(A, 1, {Term::loop(Nest)}, Y))
          Why = "not the loop nest of the time loop";
      }));
  addTest(R, "StencilBuffers", 3,
          "nest, cur, next: every store of the stencil nest writes through "
          "next, and some read through cur is a neighbour read",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            StencilCache Scratch;
            const StencilLoopFacts *Acc = accessesOf(Env, A[0], Scratch, Why);
            Value *Cur = asValue(A[1]), *Next = asValue(A[2]);
            if (!Acc || !Cur || !Next)
              return false;
            for (const StencilAccess &W : Acc->Writes)
              if (W.Base != Next) {
                Why = "the nest writes " + operandText(W.Base) +
                      ", not the next buffer " + operandText(Next);
                return false;
              }
            for (const StencilAccess &Rd : Acc->Reads)
              if (Rd.Base == Cur && isNeighbourRead(Rd, Acc->Reads, Env.SE))
                return true;
            Why = "the nest reads no neighbourhood of the current buffer " +
                  operandText(Cur);
            return false;
          });
  R.add(std::make_unique<FnAtom>(
      "StencilCallStep", 4, 2,
      "loop, c, cur, next: loop is a time loop whose body is one call c of a "
      "function defined in the module whose body is one stencil nest, "
      "writing through the parameter c passes next to and reading neighbours "
      "through the one it passes cur to",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[0]);
        Value *Cur = asValue(A[2]), *Next = asValue(A[3]);
        if (!L || !Cur || !Next) {
          Why = "arguments are not (loop, c, value, value)";
          return;
        }
        if (!isTimeLoop(L, Env.SE, Why))
          return;
        std::vector<Term> Cands;
        std::string First;
        for (BasicBlock *BB : L->blocks())
          for (Instruction &I : *BB) {
            auto *C = dyn_cast<CallInst>(&I);
            if (!C || isa<DbgInfoIntrinsic>(C) ||
                (A[1].isBound() && asValue(A[1]) != C))
              continue;
            std::string W;
            if (isStencilCallStep(L, C, Cur, Next, W))
              Cands.push_back(Term::value(C));
            else if (First.empty())
              First = W;
          }
        if (!offerTerms(A, 1, Cands, Y))
          Why = !First.empty() ? First : "time loop body calls no function";
      }));
}

void registerSpmv(AtomRegistry &R) {
  R.add(std::make_unique<FnAtom>(
      "SparseRowLoop", 2, 2,
      "loop, inner: loop is a counted row loop whose one inner loop, inner, "
      "counts by one from a start to a bound that may change per row; loop "
      "carries only induction variables and reads forwarded from the last row",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[0]);
        if (!L) {
          Why = "argument is not a loop";
          return;
        }
        if (Loop *Inner = sparseRowInner(L, Env.SE, Why))
          if (!offerTerms(A, 1, {Term::loop(Inner)}, Y))
            Why = "not the inner loop of the row loop";
      }));
  R.add(std::make_unique<FnAtom>(
      "SparseProduct", 4, 12,
      "acc, inner, v, x: accumulator acc of inner adds one product of loads "
      "v and x per iteration (mul, fmul or fmuladd; yields both orders)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *Acc = asA<PHINode>(A[0]);
        Loop *Inner = asLoop(A[1]);
        if (!Acc || !Inner) {
          Why = "arguments are not (phi, loop, ...)";
          return;
        }
        auto F = sparseProductFactors(Acc, Inner, Env.SE, Why);
        if (!F)
          return;
        Term SavedV = A[2], SavedX = A[3];
        bool Any = false;
        for (auto [V, X] : {*F, std::make_pair(F->second, F->first)}) {
          Term TV = Term::value(V), TX = Term::value(X);
          if ((SavedV.isBound() && SavedV != TV) ||
              (SavedX.isBound() && SavedX != TX))
            continue;
          Any = true;
          A[2] = TV;
          A[3] = TX;
          if (!Y())
            break;
        }
        A[2] = SavedV;
        A[3] = SavedX;
        if (!Any)
          Why = "not the factors of the accumulated product";
      }));
  R.add(std::make_unique<FnAtom>(
      "SparseIndirectRead", 3, 4,
      "x, inner, col: load x of inner reads element col (+ a constant) of its "
      "array, col another load of inner (an indirect read)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *X = asA<LoadInst>(A[0]);
        Loop *Inner = asLoop(A[1]);
        if (!X || !Inner) {
          Why = "arguments are not (load, loop, ...)";
          return;
        }
        if (LoadInst *Col = indirectIndexLoad(X, Inner, Env.SE, Why))
          if (!offerTerms(A, 2, {Term::value(Col)}, Y))
            Why = "x is not read through that load";
      }));
  addTest(R, "SparsePosition", 2,
          "v, col: loads v and col read the same element index of their "
          "arrays (the position of one nonzero)",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            auto *V = asA<Instruction>(A[0]), *C = asA<Instruction>(A[1]);
            if (V && C && sameElementIndex(V, C, Env.SE))
              return true;
            Why = "the matrix value and the column index are read at "
                  "different positions";
            return false;
          });
  addTest(R, "CsrRange", 3,
          "inner, loop, v: inner's counter runs from ptr[i] up to ptr[i+1] "
          "(ptr read once per row i of loop) and v is read at that counter",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            Loop *Inner = asLoop(A[0]), *Row = asLoop(A[1]);
            auto *V = asA<Instruction>(A[2]);
            return Inner && Row && V && isCsrRange(Inner, Row, V, Env.SE, Why);
          });
  addTest(R, "JdsRange", 3,
          "inner, loop, v: inner's counter k runs from 0 up to cnt[i] (cnt "
          "read once per row i of loop) and v is read at ptr[k] + i",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            Loop *Inner = asLoop(A[0]), *Row = asLoop(A[1]);
            auto *V = asA<Instruction>(A[2]);
            return Inner && Row && V && isJdsRange(Inner, Row, V, Env.SE, Why);
          });
  R.add(std::make_unique<FnAtom>(
      "SparseRowResult", 4, 8,
      "loop, inner, acc, st: st is a store of row loop loop, after inner, of "
      "a value computed from the final value of inner's accumulator acc",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *Row = asLoop(A[0]), *Inner = asLoop(A[1]);
        auto *Acc = asA<PHINode>(A[2]);
        if (!Row || !Inner || !Acc) {
          Why = "arguments are not (loop, loop, phi, ...)";
          return;
        }
        std::vector<Term> Cands;
        std::string First;
        for (BasicBlock *BB : Row->blocks())
          for (Instruction &I : *BB) {
            auto *St = dyn_cast<StoreInst>(&I);
            std::string W;
            if (St && !Inner->contains(St) &&
                isRowResult(St, Row, Inner, Acc, Env.SE, W))
              Cands.push_back(Term::value(St));
            else if (St && First.empty())
              First = W;
          }
        if (!offerTerms(A, 3, Cands, Y))
          Why = First.empty() ? "the row loop stores no result" : First;
      }));
  addTest(R, "SparseRowStore", 2,
          "st, loop: st writes one element per row, at an index affine in the "
          "row loop's induction variable (not a scatter)",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            auto *St = asA<StoreInst>(A[0]);
            Loop *Row = asLoop(A[1]);
            return St && Row && isRowIndexedStore(St, Row, Env.SE, Why);
          });
  addTest(R, "JdsPermutedStore", 2,
          "st, loop: st writes element perm[i], perm read once per row i (the "
          "row permutation of JDS, assumed to be a permutation)",
          [](MatchEnv &Env, ArrayRef<Term> A, std::string &Why) {
            auto *St = asA<StoreInst>(A[0]);
            Loop *Row = asLoop(A[1]);
            return St && Row && isPermutedRowStore(St, Row, Env.SE, Why);
          });
}

} // namespace

void registerStencilAtoms(AtomRegistry &R) {
  registerStencil(R);
  registerTimeLoop(R);
  registerSpmv(R);
}

} // namespace idiom::constraints
