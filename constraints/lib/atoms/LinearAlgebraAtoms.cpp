//===- LinearAlgebraAtoms.cpp - Atoms for GEMM and GEMV -------------------===//
//
// Atoms for dense linear-algebra idioms, backed by LinearAlgebraFacts.h:
// rectangular loop chains of a given depth, the loops that index a matrix or
// a vector access, the multiply-accumulate acc + x*y, and the scaled output
// alpha*sum + beta*C. docs/ConstraintLanguage.md ("Built-in idioms: GEMM and
// GEMV") lists them; constraints/specs/gemm.idl and gemv.idl use them.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/BuiltinAtoms.h"
#include "idiom/Constraints/FnAtom.h"
#include "idiom/Constraints/LinearAlgebraFacts.h"
#include "idiom/Constraints/ScevInt.h"
#include "idiom/Constraints/ValueText.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

using namespace llvm;

namespace idiom::constraints {
namespace {

using SolveFn = FnAtom::SolveFn;

/// Offers each of \p Tuples for the argument positions \p Pos: a tuple that
/// disagrees with a bound argument is skipped, the others are written into
/// the unbound arguments and yielded. Returns whether one was yielded.
bool yieldTuples(MutableArrayRef<Term> A, ArrayRef<unsigned> Pos,
                 ArrayRef<SmallVector<Term, 3>> Tuples,
                 function_ref<bool()> Y) {
  SmallVector<Term, 3> Saved;
  for (unsigned P : Pos)
    Saved.push_back(A[P]);
  bool Any = false;
  for (const SmallVector<Term, 3> &T : Tuples) {
    bool Agrees = true;
    for (unsigned K = 0; K < Pos.size(); ++K)
      Agrees &= !Saved[K].isBound() || Saved[K] == T[K];
    if (!Agrees)
      continue;
    Any = true;
    for (unsigned K = 0; K < Pos.size(); ++K)
      A[Pos[K]] = T[K];
    bool More = Y();
    for (unsigned K = 0; K < Pos.size(); ++K)
      A[Pos[K]] = Saved[K];
    if (!More)
      break;
  }
  return Any;
}

/// \p P is the induction variable of the chain's prologue: an integer affine
/// recurrence of that loop with a constant step.
bool isPrologueIV(PHINode *P, const NestInfo &N, ScalarEvolution &SE) {
  if (!N.Prologue || P->getParent() != N.Prologue->getHeader() ||
      !P->getType()->isIntegerTy())
    return false;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(P));
  return AR && AR->getLoop() == N.Prologue && AR->isAffine() &&
         isa<SCEVConstant>(AR->getStepRecurrence(SE));
}

/// \p P is the row count of a triangular chain (NestInfo::TriLoop): a phi of
/// the outermost loop equal to the triangle loop's count at each outer
/// iteration (SYRK's `j <= i` becomes `j != i + 1` after -O2, `i + 1` a
/// counter of its own).
bool isTriangleRowCount(PHINode *P, const NestInfo &N, ScalarEvolution &SE) {
  if (!N.TriLoop || P->getParent() != N.Loops.front()->getHeader() ||
      !SE.isSCEVable(P->getType()) || !P->getType()->isIntegerTy())
    return false;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(P));
  return AR && AR->getLoop() == N.Loops.front() && AR->isAffine() &&
         scevInt64(AR->getStart()) == N.TriBase &&
         scevInt64(AR->getStepRecurrence(SE)) == N.TriSlope;
}

/// The chain headed by \p L, as deep as it goes: rectangular or with a
/// triangular loop (NestInfo::TriLoop; RectangularNest and TriangularNest
/// tell them apart).
std::optional<NestInfo> chainOf(MatchEnv &Env, Loop *L, std::string &Why) {
  return analyzeLoopChain(L, loopChainDepth(L), Env.SE, Why, /*Triangle=*/true);
}

/// "depth 2 (%30)" for loop \p L of chain \p N, for messages.
std::string describeLoop(const NestInfo &N, const Loop *L) {
  std::string S;
  raw_string_ostream OS(S);
  for (unsigned D = 0; D < N.Loops.size(); ++D)
    if (N.Loops[D] == L) {
      OS << "depth " << D + 1 << " (" << operandText(L->getHeader()) << ")";
      return OS.str();
    }
  return "a loop outside the nest";
}

/// Analyses access \p V over the chain headed by \p L.
std::optional<ChainAccess> accessOf(MatchEnv &Env, Value *V, Loop *L,
                                    NestInfo &N, std::string &Why) {
  auto Chain = chainOf(Env, L, Why);
  auto *I = dyn_cast_or_null<Instruction>(V);
  if (!Chain)
    return std::nullopt;
  if (!I || !L->contains(I)) {
    Why = "not a memory access of the nest";
    return std::nullopt;
  }
  N = *Chain;
  return analyzeChainAccess(I, N, Env.SE, Why);
}

/// Explains why bound loop arguments \p Want do not index an access that
/// varies with the loops at positions \p Have of \p N.
std::string indexMismatch(const NestInfo &N, ArrayRef<unsigned> Have,
                          ArrayRef<Term> Want) {
  std::string S = "address varies with the loop";
  S += Have.size() == 1 ? " at " : "s at ";
  for (unsigned K = 0; K < Have.size(); ++K)
    S += (K ? " and " : "") + describeLoop(N, N.Loops[Have[K]]);
  for (const Term &T : Want)
    if (asLoop(T) && llvm::none_of(Have, [&](unsigned D) {
          return N.Loops[D] == asLoop(T);
        }))
      return S + ", not with the loop at " + describeLoop(N, asLoop(T));
  return S + ", not with the same loop twice";
}

void registerNestAtoms(AtomRegistry &R) {
  R.add(std::make_unique<FnAtom>(
      "LoopChain", 2, 0,
      "loop, d: loop heads a chain of exactly d loops, each the only loop "
      "directly inside the previous, loop itself possibly with a prologue "
      "loop before it (structure only; see RectangularNest)",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[0]);
        if (!L || A[1].K != Term::Kind::Int || A[1].I < 1 || A[1].I > 8) {
          Why = "arguments are not (loop, depth from 1 to 8)";
          return;
        }
        unsigned D = loopChainDepth(L);
        const Loop *Last = D > 1 && chainPrologue(L) ? L->getSubLoops()[1] : L;
        while (Last->getSubLoops().size() == 1)
          Last = Last->getSubLoops()[0];
        if (!Last->getSubLoops().empty()) {
          Why = "loop at depth " + std::to_string(D) +
                " of the nest contains several loops (not a chain)";
          return;
        }
        if (D != A[1].I) {
          Why = "loop nest is " + std::to_string(D) + " deep, not " +
                std::to_string(A[1].I);
          return;
        }
        Y();
      }));
  R.add(std::make_unique<FnAtom>(
      "RectangularNest", 2, 0,
      "loop, d: loop heads a chain of exactly d canonical loops (each the "
      "only loop inside the previous) whose trip counts and induction "
      "starts are invariant in the nest; work between the loops is allowed",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[0]);
        if (!L || A[1].K != Term::Kind::Int || A[1].I < 1 || A[1].I > 8) {
          Why = "arguments are not (loop, depth from 1 to 8)";
          return;
        }
        if (analyzeLoopChain(L, A[1].I, Env.SE, Why))
          Y();
      }));
  // ChainIV and ChainCounter: phi is an induction variable of the chain
  // headed by loop, or (Counters) another affine counter of one of its loops.
  auto ChainPhi = [](bool Counters) -> SolveFn {
    return [Counters](MatchEnv &Env, MutableArrayRef<Term> A,
                      function_ref<bool()> Y, std::string &Why) {
      auto *P = dyn_cast_or_null<PHINode>(asValue(A[0]));
      Loop *L = asLoop(A[1]);
      if (!P || !L) {
        Why = "arguments are not (phi, loop)";
        return;
      }
      auto N = chainOf(Env, L, Why);
      if (!N)
        return;
      if (isNestIV(P, *N) || isPrologueIV(P, *N, Env.SE) ||
          isTriangleRowCount(P, *N, Env.SE)) {
        Y();
        return;
      }
      if (!Counters) {
        Why = "phi is not an induction variable of the nest";
        return;
      }
      ScalarEvolution &SE = Env.SE;
      auto *AR = P->getType()->isIntegerTy()
                     ? dyn_cast<SCEVAddRecExpr>(SE.getSCEV(P))
                     : nullptr;
      if (AR && AR->isAffine() && is_contained(N->Loops, AR->getLoop()) &&
          P->getParent() == AR->getLoop()->getHeader() &&
          SE.isLoopInvariant(AR->getStepRecurrence(SE), N->Loops.front())) {
        Y();
        return;
      }
      Why = "phi is not an integer affine recurrence of a loop of the nest";
    };
  };
  R.add(std::make_unique<FnAtom>(
      "ChainIV", 2, 0,
      "phi, loop: phi is the induction variable of a loop of the "
      "chain headed by loop (or of its prologue loop), or a triangular "
      "chain's row count (the bound i + 1 of j <= i)",
      ChainPhi(false)));
  R.add(std::make_unique<FnAtom>(
      "ChainCounter", 2, 0,
      "phi, loop: phi is an integer affine recurrence {start,+,step} of a "
      "loop of the rectangular chain headed by loop, with step invariant in "
      "the chain: an induction variable of the nest or another counter "
      "(BLAS's `ix += incx`)",
      ChainPhi(true)));
  R.add(std::make_unique<FnAtom>(
      "RunsEveryIteration", 1, 0,
      "i: instruction i runs on every iteration of its innermost loop (its "
      "block dominates the latch)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *I = dyn_cast_or_null<Instruction>(asValue(A[0]));
        Loop *L = I ? Env.LI.getLoopFor(I->getParent()) : nullptr;
        if (!L || !L->getLoopLatch()) {
          Why = "not an instruction of a loop with one latch";
          return;
        }
        if (Env.DT.dominates(I->getParent(), L->getLoopLatch())) {
          Y();
          return;
        }
        Why = "instruction runs only on some iterations (it is conditional)";
      }));
}

void registerAccessAtoms(AtomRegistry &R) {
  R.add(std::make_unique<FnAtom>(
      "MatrixIndex", 4, 0b1100,
      "m, loop, a, b: m accesses a dense matrix indexed by exactly the loops "
      "a and b of the chain headed by loop (in either order: the layout does "
      "not matter); one index has unit stride, the other a leading dimension",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[1]);
        if (!L) {
          Why = "argument 2 is not a loop";
          return;
        }
        NestInfo N;
        auto Acc = accessOf(Env, asValue(A[0]), L, N, Why);
        unsigned Row, Col;
        if (!Acc || !isMatrixAccess(*Acc, N, Row, Col, Why))
          return;
        SmallVector<unsigned, 3> V = Acc->varyingLoops();
        Term L0 = Term::loop(N.Loops[V[0]]), L1 = Term::loop(N.Loops[V[1]]);
        SmallVector<Term, 3> T01{L0, L1}, T10{L1, L0};
        SmallVector<SmallVector<Term, 3>, 2> Tuples{T01, T10};
        if (!yieldTuples(A, {2, 3}, Tuples, Y))
          Why = indexMismatch(N, V, {A[2], A[3]});
      }));
  R.add(std::make_unique<FnAtom>(
      "VectorIndex", 3, 0b100,
      "m, loop, a: m's address varies with exactly one loop of the chain "
      "headed by loop, the loop a (any constant or invariant stride)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[1]);
        if (!L) {
          Why = "argument 2 is not a loop";
          return;
        }
        NestInfo N;
        auto Acc = accessOf(Env, asValue(A[0]), L, N, Why);
        if (!Acc)
          return;
        SmallVector<unsigned, 3> V = Acc->varyingLoops();
        if (V.size() != 1) {
          Why = V.empty() ? "address does not vary in the nest"
                          : "address varies with " + std::to_string(V.size()) +
                                " loops of the nest, not 1 (not a vector)";
          return;
        }
        SmallVector<SmallVector<Term, 3>, 1> Tuples{{Term::loop(N.Loops[V[0]])}};
        if (!yieldTuples(A, {2}, Tuples, Y))
          Why = indexMismatch(N, V, {A[2]});
      }));
  R.add(std::make_unique<FnAtom>(
      "SameElement", 2, 0,
      "m, st: load or store m accesses the element that store st writes "
      "(same type and address)",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *M = dyn_cast_or_null<Instruction>(asValue(A[0]));
        auto *St = dyn_cast_or_null<StoreInst>(asValue(A[1]));
        if (M && St && accessesSameElement(M, St, Env.SE)) {
          Y();
          return;
        }
        // Without metadata attachments (", !dbg !12").
        std::string Text = M ? valueText(M) : std::string();
        Text = Text.substr(0, Text.find(", !"));
        Why = "memory operation does not access the output element: " + Text;
      }));
  R.add(std::make_unique<FnAtom>(
      "PrologueElement", 3, 0,
      "m, st, loop: load or store m, in the prologue loop of the chain "
      "headed by loop, accesses on its t-th iteration the element that store "
      "st writes on the t-th iteration of the chain's innermost loop",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *M = dyn_cast_or_null<Instruction>(asValue(A[0]));
        auto *St = dyn_cast_or_null<StoreInst>(asValue(A[1]));
        Loop *L = asLoop(A[2]);
        if (!M || !St || !L) {
          Why = "arguments are not (memory operation, store, loop)";
          return;
        }
        auto N = chainOf(Env, L, Why);
        if (N && isPrologueElement(M, St, *N, Env.SE, Why))
          Y();
      }));
}

/// Registers atom \p Name (v, a, b): v is the binary operator \p FOp or \p
/// IOp of a and b, in either order (a commutative operator: Add, Mul).
void addBinaryAtom(AtomRegistry &R, const char *Name, const char *Doc,
                   unsigned FOp, unsigned IOp, const char *What) {
  std::string Not = std::string("value is not ") + What;
  R.add(std::make_unique<FnAtom>(
      Name, 3, 0b110, Doc,
      [FOp, IOp, Not](MatchEnv &, MutableArrayRef<Term> A,
                      function_ref<bool()> Y, std::string &Why) {
        SmallVector<SmallVector<Term, 3>, 2> Tuples;
        if (auto *I = dyn_cast_or_null<BinaryOperator>(asValue(A[0]));
            I && (I->getOpcode() == FOp || I->getOpcode() == IOp))
          for (unsigned Side = 0; Side < 2; ++Side)
            Tuples.push_back({Term::value(I->getOperand(Side)),
                              Term::value(I->getOperand(1 - Side))});
        if (Tuples.empty())
          Why = Not;
        else if (!yieldTuples(A, {1, 2}, Tuples, Y))
          Why = "operands are not the given values";
      }));
}

void registerArithmeticAtoms(AtomRegistry &R) {
  R.add(std::make_unique<FnAtom>(
      "MulAdd", 4, 0b1110,
      "v, x, y, acc: v computes acc + x*y (llvm.fmuladd, llvm.fma, fadd of "
      "an fmul, or integer add of a mul); x and y in either order",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        SmallVector<SmallVector<Term, 3>, 4> Tuples;
        for (const MulAddParts &P : matchMulAdd(asValue(A[0])))
          Tuples.push_back({Term::value(P.X), Term::value(P.Y),
                            Term::value(P.Acc)});
        if (Tuples.empty())
          Why = "value is not a multiply-add acc + x*y";
        else if (!yieldTuples(A, {1, 2, 3}, Tuples, Y))
          Why = "multiply-add does not accumulate into the given value";
      }));
  addBinaryAtom(R, "Add",
                "v, a, b: v computes a + b (fadd, or integer add); a and b in "
                "either order",
                Instruction::FAdd, Instruction::Add, "a sum a + b");
  addBinaryAtom(R, "Mul",
                "v, x, y: v computes x * y (fmul, or integer mul); x and y in "
                "either order",
                Instruction::FMul, Instruction::Mul, "a product x * y");
  R.add(std::make_unique<FnAtom>(
      "ScaledLoad", 3, 0b010,
      "v, ld, loop: v is the load ld, or ld times a factor invariant in the "
      "nest headed by loop",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[2]);
        if (!L) {
          Why = "argument 3 is not a loop";
          return;
        }
        SmallVector<SmallVector<Term, 3>, 2> Tuples;
        for (Value *Ld : scaledLoadsOf(asValue(A[0]), L))
          Tuples.push_back({Term::value(Ld)});
        if (!yieldTuples(A, {1}, Tuples, Y))
          Why = "multiplicand is not a loaded element (times an invariant "
                "factor)";
      }));
  R.add(std::make_unique<FnAtom>(
      "ScaledSum", 4, 0,
      "v, sum, st, loop: v is alpha*s or alpha*s + beta*c, where s is the "
      "value of header phi sum after its loop, c loads the element store st "
      "writes, alpha and beta are optional factors invariant in loop's nest",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *Sum = dyn_cast_or_null<PHINode>(asValue(A[1]));
        auto *St = dyn_cast_or_null<StoreInst>(asValue(A[2]));
        if (isScaledSum(asValue(A[0]), Sum, St, asLoop(A[3]), Env.LI, Env.SE,
                        Why))
          Y();
      }));
  auto PhiInput = [](bool FromLatch) {
    return [FromLatch](MatchEnv &Env, MutableArrayRef<Term> A,
                       function_ref<bool()> Y, std::string &Why) {
      auto *P = dyn_cast_or_null<PHINode>(asValue(A[0]));
      Loop *L = P ? Env.LI.getLoopFor(P->getParent()) : nullptr;
      BasicBlock *From = !L ? nullptr
                         : FromLatch ? L->getLoopLatch()
                                     : L->getLoopPreheader();
      if (!L || L->getHeader() != P->getParent() || !From ||
          P->getBasicBlockIndex(From) < 0) {
        Why = "not a header phi of a loop with a preheader and one latch";
        return;
      }
      SmallVector<SmallVector<Term, 3>, 1> Tuples{
          {Term::value(P->getIncomingValueForBlock(From))}};
      if (!yieldTuples(A, {1}, Tuples, Y))
        Why = FromLatch ? "value is not the phi's update"
                        : "value is not the phi's initial value";
    };
  };
  R.add(std::make_unique<FnAtom>(
      "BackedgeValue", 2, 0b10,
      "phi, v: v is the value header phi phi takes from its loop's latch",
      PhiInput(true)));
  R.add(std::make_unique<FnAtom>(
      "EntryValue", 2, 0b10,
      "phi, v: v is the value header phi phi takes from its loop's preheader",
      PhiInput(false)));
  R.add(std::make_unique<FnAtom>(
      "ZeroConstant", 1, 0, "v: v is the constant 0, 0.0 or -0.0",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *C = dyn_cast_or_null<Constant>(asValue(A[0]));
        auto *FP = dyn_cast_or_null<ConstantFP>(C);
        if (C && (C->isNullValue() || (FP && FP->isZero()))) {
          Y();
          return;
        }
        Why = "value is not zero";
      }));
}

} // namespace

void registerLinearAlgebraAtoms(AtomRegistry &R) {
  registerNestAtoms(R);
  registerAccessAtoms(R);
  registerArithmeticAtoms(R);
}

} // namespace idiom::constraints
