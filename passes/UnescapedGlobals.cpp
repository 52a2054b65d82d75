//===- UnescapedGlobals.cpp - Globals no pointer can reach ----------------===//
//
// The use walk of UnescapedGlobals.h.
//
//===----------------------------------------------------------------------===//

#include "UnescapedGlobals.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace idiom {

bool usedOnlyAsAddress(const Value &Root,
                       function_ref<bool(const Use &)> Allowed) {
  SmallVector<const Value *, 16> Work{&Root};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *Us = U.getUser();
      if (Allowed(U))
        continue;
      if (auto *LI = dyn_cast<LoadInst>(Us)) {
        if (!LI->isSimple())
          return false;
        continue; // its only pointer operand is the address
      }
      if (auto *SI = dyn_cast<StoreInst>(Us)) {
        if (U.getOperandNo() != SI->getPointerOperandIndex() || !SI->isSimple())
          return false; // the address itself is stored
        continue;
      }
      if (auto *GEP = dyn_cast<GEPOperator>(Us)) {
        if (GEP->getPointerOperand() != V)
          return false;
        Work.push_back(GEP);
        continue;
      }
      if (isa<PHINode>(Us) || isa<BitCastOperator>(Us) ||
          isa<AddrSpaceCastOperator>(Us)) {
        Work.push_back(Us);
        continue;
      }
      if (auto *Sel = dyn_cast<SelectInst>(Us)) {
        if (Sel->getCondition() == V)
          return false;
        Work.push_back(Sel);
        continue;
      }
      if (auto *MI = dyn_cast<MemIntrinsic>(Us)) {
        // The destination of a copy or fill, or the source of a copy: the
        // intrinsic reads or writes the bytes, it keeps no pointer.
        if (!MI->isVolatile() &&
            (U.getOperandNo() == 0 ||
             (isa<MemTransferInst>(MI) && U.getOperandNo() == 1)))
          continue;
        return false;
      }
      // A call, a comparison, ptrtoint, a constant (an initializer, a
      // global alias, llvm.used), an atomic: the address may escape.
      return false;
    }
  }
  return true;
}

bool isUnescapedGlobal(const Value *Obj) {
  auto *G = dyn_cast_or_null<GlobalVariable>(Obj);
  return G && G->hasLocalLinkage() && !G->isThreadLocal() &&
         !G->isExternallyInitialized() &&
         usedOnlyAsAddress(*G, [](const Use &) { return false; });
}

} // namespace idiom
