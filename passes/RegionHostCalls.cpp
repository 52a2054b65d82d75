//===- RegionHostCalls.cpp - Library calls inside residency regions -------===//
//
// The library and runtime functions a residency region may call, and what
// memory they touch (RegionHostCalls.h).
//
//===----------------------------------------------------------------------===//

#include "RegionHostCalls.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace idiom {
namespace {

/// A FILE * argument that is the value of libc's stdout or stderr.
bool isStdStream(const Value *V) {
  auto *LI = dyn_cast<LoadInst>(V);
  auto *G = LI ? dyn_cast<GlobalVariable>(LI->getPointerOperand()) : nullptr;
  return G && LI->isSimple() && G->isDeclaration() &&
         (G->getName() == "stdout" || G->getName() == "stderr");
}

bool isRuntimeString(StringRef Name) {
  return Name == "idiom_last_reason" || Name == "idiom_device_name";
}

} // namespace

bool neverABuffer(const Value *Obj) {
  if (auto *G = dyn_cast<GlobalVariable>(Obj))
    return G->isConstant();
  if (auto *CB = dyn_cast<CallBase>(Obj))
    if (const Function *F = CB->getCalledFunction())
      return isRuntimeString(F->getName());
  return false;
}

bool knownHostCall(const CallBase &CB, const TargetLibraryInfo *TLI,
                   std::vector<std::pair<const Value *, bool>> &Ptrs) {
  const Function *F = CB.getCalledFunction();
  if (!F || !F->isDeclaration() || !isa<CallInst>(CB))
    return false;
  Ptrs.clear();
  auto Arg = [&](unsigned I, bool Write) {
    const Value *V = CB.getArgOperand(I);
    if (!V->getType()->isPointerTy())
      return;
    SmallVector<const Value *, 4> Objs;
    getUnderlyingObjects(V, Objs);
    if (!all_of(Objs, neverABuffer))
      Ptrs.push_back({V, Write});
  };
  // Formatted output may write through a pointer argument (%n).
  auto Rest = [&](unsigned From) {
    for (unsigned I = From; I < CB.arg_size(); ++I)
      Arg(I, true);
  };
  auto Stream = [&](unsigned I) { return isStdStream(CB.getArgOperand(I)); };
  unsigned N = CB.arg_size();
  LibFunc LF;
  if (TLI && TLI->getLibFunc(*F, LF) && TLI->has(LF)) {
    switch (LF) {
    case LibFunc_printf:
      Arg(0, false);
      Rest(1);
      return true;
    case LibFunc_puts:
      Arg(0, false);
      return true;
    case LibFunc_putchar:
      return true;
    case LibFunc_fprintf:
      if (!Stream(0))
        return false;
      Arg(1, false);
      Rest(2);
      return true;
    case LibFunc_fputs:
      if (!Stream(1))
        return false;
      Arg(0, false);
      return true;
    case LibFunc_fputc:
    case LibFunc_putc:
      return Stream(1);
    case LibFunc_fwrite:
      if (!Stream(3))
        return false;
      Arg(0, false);
      return true;
    case LibFunc_fflush:
      return Stream(0) || isa<ConstantPointerNull>(CB.getArgOperand(0));
    case LibFunc_gettimeofday:
      Arg(0, true);
      Arg(1, true);
      return true;
    // libm: scalar arguments; besides the result they may only set errno,
    // which is libc's (thread-local), never an idiom's buffer.
    case LibFunc_sqrt: case LibFunc_sqrtf: case LibFunc_sqrtl:
    case LibFunc_exp: case LibFunc_expf: case LibFunc_exp2: case LibFunc_exp2f:
    case LibFunc_log: case LibFunc_logf: case LibFunc_log2: case LibFunc_log2f:
    case LibFunc_log10: case LibFunc_log10f:
    case LibFunc_pow: case LibFunc_powf:
    case LibFunc_sin: case LibFunc_sinf: case LibFunc_cos: case LibFunc_cosf:
    case LibFunc_tan: case LibFunc_tanf:
    case LibFunc_atan: case LibFunc_atanf: case LibFunc_atan2: case LibFunc_atan2f:
    case LibFunc_fmod: case LibFunc_fmodf: case LibFunc_cbrt: case LibFunc_cbrtf:
      return true;
    default:
      return false;
    }
  }
  // Not in LLVM's library function table: checked by name and prototype.
  StringRef Name = F->getName();
  Type *Ret = F->getReturnType();
  if (Name == "clock_gettime" && N == 2 && Ret->isIntegerTy(32) &&
      CB.getArgOperand(0)->getType()->isIntegerTy(32)) {
    Arg(1, true);
    return true;
  }
  // The runtime's queries (idiomrt.h) read only the runtime's own state.
  if ((isRuntimeString(Name) || Name == "idiom_last_kernel_ms" ||
       Name == "idiom_last_variant") &&
      N == 0)
    return true;
  if (Name == "idiom_transfer_bytes" && N == 2) {
    Arg(0, true);
    Arg(1, true);
    return true;
  }
  return false;
}


} // namespace idiom
