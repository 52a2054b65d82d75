//===- KernelSharing.cpp - One kernel per source loop ---------------------===//

#include "KernelSharing.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/FunIL/Expr.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MD5.h"

using namespace llvm;

namespace idiom {
namespace {

constexpr const char *KernelPrefix = "idiom.kernel.";
constexpr const char *DescPrefix = "idiom.desc.";
constexpr const char *CountName = "idiom.kernel.count";

std::string indexName(const char *Prefix, StringRef Key) {
  MD5 Hash;
  Hash.update(Key);
  MD5::MD5Result R;
  Hash.final(R);
  return Prefix + R.digest().str().str();
}

GlobalVariable *lookup(Module &M, const char *Prefix, StringRef Key) {
  NamedMDNode *N = M.getNamedMetadata(indexName(Prefix, Key));
  if (!N || N->getNumOperands() == 0 || N->getOperand(0)->getNumOperands() == 0)
    return nullptr;
  auto *V = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0)->getOperand(0).get());
  return V ? dyn_cast<GlobalVariable>(V->getValue()) : nullptr;
}

/// The descriptors emitted into \p M so far: the kept count, else (none
/// emitted yet, or IR written by an older plugin) the ".desc" globals.
unsigned countDescriptors(Module &M) {
  if (NamedMDNode *N = M.getNamedMetadata(CountName))
    if (N->getNumOperands() && N->getOperand(0)->getNumOperands())
      if (auto *C = mdconst::dyn_extract_or_null<ConstantInt>(
              N->getOperand(0)->getOperand(0)))
        return C->getZExtValue();
  unsigned N = 0;
  for (GlobalVariable &G : M.globals())
    N += G.getName().ends_with(".desc");
  return N;
}

void record(Module &M, const char *Prefix, StringRef Key, GlobalVariable *GV) {
  NamedMDNode *N = M.getOrInsertNamedMetadata(indexName(Prefix, Key));
  MDNode *Op = MDTuple::get(M.getContext(), {ValueAsMetadata::get(GV)});
  if (N->getNumOperands())
    N->setOperand(0, Op);
  else
    N->addOperand(Op);
}

} // namespace

std::string kernelKey(const funil::Program &P) {
  funil::Program Q = P;
  Q.Name.clear();
  return funil::printProgram(Q);
}

std::string descriptorKey(StringRef KernelKey, StringRef Loc, StringRef Spec) {
  return (KernelKey + "\nloc " + Loc + "\nidiom " + Spec).str();
}

GlobalVariable *KernelIndex::findKernel(StringRef KernelKey) const {
  return lookup(M, KernelPrefix, KernelKey);
}

GlobalVariable *KernelIndex::findDescriptor(StringRef DescKey) const {
  return lookup(M, DescPrefix, DescKey);
}

void KernelIndex::add(StringRef KernelKey, StringRef DescKey,
                      GlobalVariable *Desc) {
  if (!findKernel(KernelKey))
    record(M, KernelPrefix, KernelKey, Desc);
  record(M, DescPrefix, DescKey, Desc);
}

unsigned KernelIndex::nextKernelId() const {
  if (!HaveFirstId) {
    FirstId = countDescriptors(M);
    HaveFirstId = true;
  }
  return FirstId;
}

void KernelIndex::addKernelIds(unsigned N) {
  // Written also for N = 0 so that nextKernelId counts the descriptors at
  // most once per module.
  if (!N && M.getNamedMetadata(CountName))
    return;
  unsigned Next = nextKernelId() + N;
  LLVMContext &Ctx = M.getContext();
  NamedMDNode *Count = M.getOrInsertNamedMetadata(CountName);
  MDNode *Op = MDTuple::get(
      Ctx, {ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), Next))});
  if (Count->getNumOperands())
    Count->setOperand(0, Op);
  else
    Count->addOperand(Op);
}

StringRef descriptorKernelName(const GlobalVariable &Desc) {
  return Desc.getName().drop_back(StringRef(".desc").size());
}

} // namespace idiom
