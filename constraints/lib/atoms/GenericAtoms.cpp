//===- GenericAtoms.cpp - Structural atoms over single values -------------===//
//
// The vocabulary for user-written specs: opcode, type, operand position, data
// and control flow, dominance, loop membership and nesting, loop invariance,
// calls. Each atom checks its arguments when they are bound and generates
// the positions documented as generated.
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/BuiltinAtoms.h"
#include "idiom/Constraints/FnAtom.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include <functional>

using namespace llvm;

namespace idiom::constraints {

bool offerTerms(MutableArrayRef<Term> Args, unsigned I,
                ArrayRef<Term> Candidates, function_ref<bool()> Yield) {
  Term Saved = Args[I];
  bool Any = false;
  for (const Term &C : Candidates) {
    if (Saved.isBound() && Saved != C)
      continue;
    Any = true;
    Args[I] = C;
    if (!Yield())
      break;
  }
  Args[I] = Saved;
  return Any;
}

namespace {

using SolveFn = FnAtom::SolveFn;

/// FunIL-style spelling of a type: i1..i64, f32, f64, ptr, or the LLVM text.
std::string typeName(Type *T) {
  if (T->isIntegerTy())
    return "i" + std::to_string(T->getIntegerBitWidth());
  if (T->isFloatTy())
    return "f32";
  if (T->isDoubleTy())
    return "f64";
  if (T->isPointerTy())
    return "ptr";
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return OS.str();
}

/// Name of the callee: "sqrt", or the intrinsic's base name ("llvm.fabs").
std::string calleeName(const CallBase *CB) {
  if (auto *II = dyn_cast<IntrinsicInst>(CB))
    return Intrinsic::getBaseName(II->getIntrinsicID()).str();
  if (const Function *F = CB->getCalledFunction())
    return F->getName().str();
  return "";
}

} // namespace

void registerGenericAtoms(AtomRegistry &R) {
  R.add(std::make_unique<FnAtom>(
      "Opcode", 2, 2,
      "i, name: instruction i has LLVM opcode name (\"fadd\", \"select\", \"call\", ...)",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *I = dyn_cast_or_null<Instruction>(asValue(A[0]));
        if (!I || !offerTerms(A, 1, {Term::string(I->getOpcodeName())}, Y))
          Why = "instruction has another opcode";
      }));
  R.add(std::make_unique<FnAtom>(
      "Type", 2, 2, "v, t: v has type t (\"i32\", \"f32\", \"f64\", \"ptr\", ...)",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Value *V = asValue(A[0]);
        if (!V || !offerTerms(A, 1, {Term::string(typeName(V->getType()))}, Y))
          Why = "value has another type";
      }));
  R.add(std::make_unique<FnAtom>(
      "Operand", 3, 6,
      "i, k, v: v is operand k (0-based) of instruction i (k and v generated)",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *I = dyn_cast_or_null<Instruction>(asValue(A[0]));
        if (!I) {
          Why = "not an instruction";
          return;
        }
        Term SavedK = A[1], SavedV = A[2];
        bool Any = false;
        for (unsigned K = 0; K < I->getNumOperands(); ++K) {
          Term KT = Term::integer(K), VT = Term::value(I->getOperand(K));
          if ((SavedK.isBound() && SavedK != KT) || (SavedV.isBound() && SavedV != VT))
            continue;
          Any = true;
          A[1] = KT;
          A[2] = VT;
          if (!Y())
            break;
        }
        A[1] = SavedK;
        A[2] = SavedV;
        if (!Any)
          Why = "no such operand";
      }));
  R.add(std::make_unique<FnAtom>(
      "User", 2, 2, "v, u: instruction u uses v as an operand (u generated)",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Value *V = asValue(A[0]);
        std::vector<Term> Us;
        if (V)
          for (User *U : V->users())
            if (isa<Instruction>(U))
              Us.push_back(Term::value(U));
        if (!offerTerms(A, 1, Us, Y))
          Why = "value has no such user";
      }));
  R.add(std::make_unique<FnAtom>(
      "FlowsTo", 2, 0,
      "a, b: b is computed from a through a chain of operands (data flow)",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Value *From = asValue(A[0]), *To = asValue(A[1]);
        SmallVector<Value *, 16> Work{To};
        SmallPtrSet<Value *, 32> Seen;
        while (From && !Work.empty()) {
          Value *X = Work.pop_back_val();
          if (X == From) {
            Y();
            return;
          }
          auto *I = dyn_cast<Instruction>(X);
          if (!I || !Seen.insert(X).second || Seen.size() > 256)
            continue;
          for (Value *Op : I->operands())
            Work.push_back(Op);
        }
        Why = "no data flow between the values";
      }));
  R.add(std::make_unique<FnAtom>(
      "Calls", 2, 2,
      "c, name: c calls the function or intrinsic name (\"sqrt\", \"llvm.fabs\")",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *CB = dyn_cast_or_null<CallBase>(asValue(A[0]));
        if (!CB || !offerTerms(A, 1, {Term::string(calleeName(CB))}, Y))
          Why = "not a call of that function";
      }));
  R.add(std::make_unique<FnAtom>(
      "Constant", 1, 0, "v: v is a constant",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        if (isa_and_nonnull<Constant>(asValue(A[0])))
          Y();
        else
          Why = "not a constant";
      }));
  R.add(std::make_unique<FnAtom>(
      "InLoop", 2, 0, "v, loop: instruction v is inside loop",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *I = dyn_cast_or_null<Instruction>(asValue(A[0]));
        Loop *L = asLoop(A[1]);
        if (I && L && L->contains(I))
          Y();
        else
          Why = "value is not inside the loop";
      }));
  R.add(std::make_unique<FnAtom>(
      "Invariant", 2, 0, "v, loop: v does not change while loop runs",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Value *V = asValue(A[0]);
        Loop *L = asLoop(A[1]);
        if (V && L && L->isLoopInvariant(V))
          Y();
        else
          Why = "value varies in the loop";
      }));
  R.add(std::make_unique<FnAtom>(
      "SubLoop", 2, 2, "loop, inner: inner is a loop directly inside loop (generated)",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Loop *L = asLoop(A[0]);
        std::vector<Term> Subs;
        if (L)
          for (Loop *S : L->getSubLoops())
            Subs.push_back(Term::loop(S));
        if (!offerTerms(A, 1, Subs, Y))
          Why = "loop has no such inner loop";
      }));
  R.add(std::make_unique<FnAtom>(
      "LatchValue", 3, 4,
      "phi, loop, v: v is the value phi receives from the latch of loop",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *P = dyn_cast_or_null<PHINode>(asValue(A[0]));
        Loop *L = asLoop(A[1]);
        BasicBlock *Latch = L ? L->getLoopLatch() : nullptr;
        if (!P || !Latch || P->getBasicBlockIndex(Latch) < 0 ||
            !offerTerms(A, 2,
                        {Term::value(P->getIncomingValueForBlock(Latch))}, Y))
          Why = "phi has no such value from the latch";
      }));
  R.add(std::make_unique<FnAtom>(
      "InitValue", 3, 4,
      "phi, loop, v: v is the value phi receives from the preheader of loop",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        auto *P = dyn_cast_or_null<PHINode>(asValue(A[0]));
        Loop *L = asLoop(A[1]);
        BasicBlock *PH = L ? L->getLoopPreheader() : nullptr;
        if (!P || !PH || P->getBasicBlockIndex(PH) < 0 ||
            !offerTerms(A, 2,
                        {Term::value(P->getIncomingValueForBlock(PH))}, Y))
          Why = "phi has no such value from the preheader";
      }));
  R.add(std::make_unique<FnAtom>(
      "Dominates", 2, 0,
      "a, b: instruction (or block) a dominates instruction (or block) b",
      [](MatchEnv &Env, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Value *X = asValue(A[0]), *Z = asValue(A[1]);
        bool Dom = false;
        if (auto *BX = dyn_cast_or_null<BasicBlock>(X)) {
          if (auto *BZ = dyn_cast_or_null<BasicBlock>(Z))
            Dom = Env.DT.dominates(BX, BZ);
          else if (auto *IZ = dyn_cast_or_null<Instruction>(Z))
            Dom = Env.DT.dominates(BX, IZ->getParent());
        } else if (auto *IX = dyn_cast_or_null<Instruction>(X)) {
          if (auto *IZ = dyn_cast_or_null<Instruction>(Z))
            Dom = Env.DT.dominates(IX, IZ);
        }
        if (Dom)
          Y();
        else
          Why = "does not dominate";
      }));
  R.add(std::make_unique<FnAtom>(
      "ControlFlowTo", 2, 2,
      "a, b: block b is a successor of block a (or of the block of instruction a)",
      [](MatchEnv &, MutableArrayRef<Term> A, function_ref<bool()> Y,
         std::string &Why) {
        Value *X = asValue(A[0]);
        BasicBlock *BB = dyn_cast_or_null<BasicBlock>(X);
        if (auto *I = dyn_cast_or_null<Instruction>(X))
          BB = I->getParent();
        std::vector<Term> Succs;
        if (BB)
          for (BasicBlock *S : successors(BB))
            Succs.push_back(Term::value(S));
        if (!offerTerms(A, 1, Succs, Y))
          Why = "no such control-flow edge";
      }));
}

} // namespace idiom::constraints
