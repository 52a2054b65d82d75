//===- Stitching.cpp - Replace an idiom's loop nest by runtime calls ------===//

#include "Stitching.h"
#include "NestWork.h"
#include "PipelinePlacement.h"
#include "StartData.h"
#include "lift/GemmLifting.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "../runtime/include/idiomrt.h"

using namespace llvm;

static cl::opt<uint64_t> FPReorderMin(
    "idiom-fp-reorder-min", cl::init(4096),
    cl::desc("Reassociated floating-point reductions (fadd, fmul) shorter "
             "than N iterations run the original loop, in its order, whatever "
             "IDIOM_MIN_TRIP says (default 4096; 0: never)"));

namespace idiom {

ExpandedArgs expandAtPreheader(const StitchInput &In, ScalarEvolution &SE) {
  const IdiomMatch &M = *In.M;
  Loop *Outer = M.Nest.Loops.front();
  BasicBlock *PH = Outer->getLoopPreheader();
  Instruction *IP = PH->getTerminator();
  const DataLayout &DL = PH->getModule()->getDataLayout();
  LLVMContext &Ctx = PH->getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  SCEVExpander Exp(SE, DL, "idiom");
  IRBuilder<> B(IP);
  ExpandedArgs A;
  // A CSR SpMV's data-dependent ranges and offsets are filled in by
  // idiom_run_csr (idiomrt.h) once the runtime decides to run the kernel:
  // here they are their SCEV parts alone (offsets from 0, empty buffers).
  if (const CsrExtent *X = In.Lifted->Csr.get()) {
    Value *First = Exp.expandCodeFor(X->PtrFirst, I64, IP);
    B.SetInsertPoint(IP);
    A.CsrPtr = B.CreateGEP(IntegerType::get(Ctx, 8 * X->PtrBytes), X->Ptr, First,
                           "idiom.ptr0");
  }
  for (const LiftedParam &P : In.Lifted->Params) {
    switch (P.K) {
    case LiftedParam::Kind::Buffer: {
      if (P.RtLo == RunTimeValue::Extent) {
        // Filled in after the extent check (stitch): the base stands for
        // the range (residency regions read its underlying objects).
        A.Values.push_back(P.Base);
        A.Bytes.push_back(ConstantInt::get(I64, 0));
        break;
      }
      Value *Lo = Exp.expandCodeFor(P.Lo, I64, IP);
      Value *Hi = Exp.expandCodeFor(P.Hi, I64, IP);
      B.SetInsertPoint(IP);
      uint64_t Size = DL.getTypeAllocSize(P.ElemTy);
      Value *Ptr = B.CreateGEP(P.ElemTy, P.Base, Lo, "idiom.lo");
      Value *Bytes = B.CreateMul(B.CreateSub(Hi, Lo), ConstantInt::get(I64, Size),
                                 "idiom.bytes");
      A.Values.push_back(Ptr);
      A.Bytes.push_back(Bytes);
      break;
    }
    case LiftedParam::Kind::Index:
      A.Values.push_back(P.RtS == RunTimeValue::Extent ? ConstantInt::get(I64, 0)
                                                       : Exp.expandCodeFor(P.S, I64, IP));
      A.Bytes.push_back(nullptr);
      break;
    case LiftedParam::Kind::Scalar:
      A.Values.push_back(P.V);
      A.Bytes.push_back(nullptr);
      break;
    }
  }
  for (const SCEV *S : In.Lifted->Sizes)
    A.Sizes.push_back(Exp.expandCodeFor(SE.getTruncateOrZeroExtend(S, I64), I64, IP));
  for (const SCEV *S : In.Lifted->NonNegative) {
    Value *V = Exp.expandCodeFor(S, I64, IP);
    B.SetInsertPoint(IP);
    A.Checks.push_back(B.CreateICmpSGE(V, ConstantInt::get(I64, 0), "idiom.check"));
  }
  // A short reassociated sum gains nothing on a device and is where another
  // rounding order shows most (a 10-term sum feeding an error estimate):
  // below FPReorderMin the loop runs in its own order.
  if (M.Kind == IdiomKind::ScalarReduction && M.FPReassociated &&
      FPReorderMin > 0 && !A.Sizes.empty()) {
    B.SetInsertPoint(IP);
    A.Checks.push_back(B.CreateICmpUGE(
        A.Sizes.front(), ConstantInt::get(I64, FPReorderMin), "idiom.fp.long"));
  }
  for (const NestGuard &G : M.Nest.Guards)
    A.Guards.push_back(G.Cond);
  // The host work of the nest, for the runtime's first call of a size class
  // (idiom_work_hint; not for a GEMV pair's idiom_run_pair).
  NestWork W = analyzeNestWork(M, In.Lifted->Sizes, SE);
  if (W.Iters && !In.Lifted->Pair && Exp.isSafeToExpandAt(W.Iters, IP)) {
    A.WorkIters = Exp.expandCodeFor(W.Iters, I64, IP);
    A.WorkFPChain = W.FPChain;
  }
  return A;
}

/// Result slots of a reduction's kernels: one per accumulator, and the
/// device-only slots after them (StitchInput::SlotBytes).
static size_t numResultSlots(const StitchInput &In) {
  return std::max(In.M->Reductions.size(), In.SlotBytes.size());
}

/// A private constant string.
static Constant *privateString(Module &Mod, StringRef S, const Twine &Name) {
  Constant *Init = ConstantDataArray::getString(Mod.getContext(), S);
  auto *GV = new GlobalVariable(Mod, Init->getType(), true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return GV;
}

/// The LLVM type of idiom_kernel_desc (idiomrt.h).
static StructType *descriptorType(LLVMContext &Ctx) {
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  return StructType::get(Ctx, {Ptr, Ptr, Ptr, Ptr, I32, I32, I32, I32, Ptr});
}

/// The descriptor of a check that runs before an idiom (\p K: the errno or
/// the extent check), a 1-D reduction with K.SlotBytes result slots, named
/// and reported as the idiom with \p Suffix appended.
static GlobalVariable *makeCheckDescriptor(const StitchInput &In, const CheckKernel &K,
                                           StringRef Suffix, Module &Mod) {
  LLVMContext &Ctx = Mod.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  const std::string &Name = K.KernelName;
  std::vector<Constant *> Sizes;
  for (unsigned B : K.SlotBytes)
    Sizes.push_back(ConstantInt::get(I32, B));
  Constant *Arr = ConstantArray::get(ArrayType::get(I32, Sizes.size()), Sizes);
  auto *ResultBytes = new GlobalVariable(Mod, Arr->getType(), true,
                                         GlobalValue::PrivateLinkage, Arr,
                                         Name + ".result_bytes");
  StructType *DescTy = descriptorType(Ctx);
  Constant *Fields[] = {
      privateString(Mod, Name, Name + ".name"),
      privateString(Mod, In.Loc, Name + ".loc"),
      privateString(Mod, In.M->SpecName + Suffix.str(), Name + ".idiom"),
      privateString(Mod, K.OpenCL, Name + ".source"),
      ConstantInt::get(I32, IDIOM_REDUCE),
      ConstantInt::get(I32, 1),
      ConstantInt::get(I32, Sizes.size()),
      ConstantInt::get(I32, K.NumVariants),
      ResultBytes};
  return new GlobalVariable(Mod, DescTy, true, GlobalValue::PrivateLinkage,
                            ConstantStruct::get(DescTy, Fields), Name + ".desc");
}

/// The runtime's descriptor constant for one idiom; with In.KernelFrom, its
/// name and source strings and variant count are that descriptor's. With
/// \p Second, that of the second program of a GEMV pair (never shared).
static GlobalVariable *makeDescriptor(const StitchInput &In, Module &Mod,
                                      bool Second = false) {
  LLVMContext &Ctx = Mod.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  StructType *DescTy = descriptorType(Ctx);
  auto Str = [&](StringRef S, const Twine &Name) -> Constant * {
    return privateString(Mod, S, Name);
  };
  const IdiomMatch &M = *In.M;
  bool IsReduce = M.Kind == IdiomKind::ScalarReduction;
  Constant *ResultBytes = ConstantPointerNull::get(cast<PointerType>(Ptr));
  if (IsReduce) {
    std::vector<Constant *> Sizes;
    const DataLayout &DL = Mod.getDataLayout();
    for (const ReductionInfo &R : M.Reductions)
      Sizes.push_back(ConstantInt::get(I32, DL.getTypeStoreSize(R.Phi->getType())));
    // Device-only slots after the accumulators (a compensated sum's
    // compensation): the runtime allocates and returns them, the host
    // ignores them.
    for (size_t K = Sizes.size(); K < In.SlotBytes.size(); ++K)
      Sizes.push_back(ConstantInt::get(I32, In.SlotBytes[K]));
    Constant *Arr = ConstantArray::get(ArrayType::get(I32, Sizes.size()), Sizes);
    ResultBytes = new GlobalVariable(Mod, Arr->getType(), true,
                                     GlobalValue::PrivateLinkage, Arr,
                                     In.KernelName + ".result_bytes");
  }
  Constant *Name, *Source, *NumVariants;
  const std::string &KernelName = Second ? In.PairKernelName : In.KernelName;
  size_t NDims = In.Lifted->Sizes.size();
  if (const LiftedPair *Pair = In.Lifted->Pair.get())
    NDims = (Second ? Pair->Second : Pair->First).Sizes.size();
  if (Second) {
    Name = Str(KernelName, KernelName + ".name");
    Source = Str(In.PairOpenCL, KernelName + ".source");
    NumVariants = ConstantInt::get(I32, In.PairNumVariants);
  } else if (In.KernelFrom) {
    auto *Shared = cast<ConstantStruct>(In.KernelFrom->getInitializer());
    Name = Shared->getOperand(0);
    Source = Shared->getOperand(3);
    NumVariants = Shared->getOperand(7);
  } else {
    Name = Str(In.KernelName, In.KernelName + ".name");
    Source = Str(In.OpenCL, In.KernelName + ".source");
    // nvariants: kernel variants in the source
    NumVariants = ConstantInt::get(I32, In.NumVariants);
  }
  Constant *Fields[] = {
      Name,
      Str(In.Loc, KernelName + ".loc"),
      Str(M.SpecName, KernelName + ".idiom"),
      Source,
      ConstantInt::get(I32, IsReduce ? IDIOM_REDUCE : IDIOM_MAP),
      ConstantInt::get(I32, NDims),
      ConstantInt::get(I32, IsReduce ? numResultSlots(In) : 0),
      NumVariants,
      ResultBytes};
  auto *GV = new GlobalVariable(Mod, DescTy, true, GlobalValue::PrivateLinkage,
                                ConstantStruct::get(DescTy, Fields),
                                KernelName + ".desc");
  return GV;
}

/// op(Init, R) for the host-side combine of a reduction's initial value with
/// the device result.
static Value *combine(IRBuilder<> &B, ReductionOp Op, Value *Init, Value *R) {
  switch (Op) {
  case ReductionOp::Add: return B.CreateAdd(Init, R);
  case ReductionOp::Mul: return B.CreateMul(Init, R);
  case ReductionOp::And: return B.CreateAnd(Init, R);
  case ReductionOp::Or: return B.CreateOr(Init, R);
  case ReductionOp::Xor: return B.CreateXor(Init, R);
  case ReductionOp::SMin: return B.CreateBinaryIntrinsic(Intrinsic::smin, Init, R);
  case ReductionOp::SMax: return B.CreateBinaryIntrinsic(Intrinsic::smax, Init, R);
  case ReductionOp::UMin: return B.CreateBinaryIntrinsic(Intrinsic::umin, Init, R);
  case ReductionOp::UMax: return B.CreateBinaryIntrinsic(Intrinsic::umax, Init, R);
  case ReductionOp::FAdd: return B.CreateFAdd(Init, R);
  case ReductionOp::FMul: return B.CreateFMul(Init, R);
  case ReductionOp::FMin: case ReductionOp::FMax: // loopCombine
  case ReductionOp::ArgIndex: // replayLink, with its value
  case ReductionOp::Other: break;
  }
  return nullptr;
}

static Value *replayLink(IRBuilder<> &B, Instruction *Link,
                         const DenseMap<Value *, Value *> &Subst);

/// The loop's own update applied once to the initial value and the device
/// result: the compare+select or llvm.minnum/maxnum of the reduction's first
/// link with the accumulator replaced by \p Init and the element by \p R.
/// Float min/max combine so, never with a select of another predicate, so
/// that a NaN start value behaves as in the loop.
static Value *loopCombine(IRBuilder<> &B, const ReductionInfo &Red, Value *Init,
                          Value *R) {
  return replayLink(B, Red.FirstLink, {{Red.Phi, Init}, {Red.Operands.front(), R}});
}

/// The loop's compare+select or binary intrinsic \p Link re-evaluated on
/// the values of \p Subst in place of its own operands.
static Value *replayLink(IRBuilder<> &B, Instruction *Link,
                         const DenseMap<Value *, Value *> &Subst) {
  auto Map = [&](Value *V) -> Value * {
    auto It = Subst.find(V);
    return It == Subst.end() ? V : It->second;
  };
  if (auto *Sel = dyn_cast<SelectInst>(Link)) {
    auto *Cmp = cast<CmpInst>(Sel->getCondition());
    Value *C = B.CreateCmp(Cmp->getPredicate(), Map(Cmp->getOperand(0)),
                           Map(Cmp->getOperand(1)));
    return B.CreateSelect(C, Map(Sel->getTrueValue()), Map(Sel->getFalseValue()));
  }
  auto *II = cast<IntrinsicInst>(Link);
  return B.CreateBinaryIntrinsic(II->getIntrinsicID(), Map(II->getArgOperand(0)),
                                 Map(II->getArgOperand(1)));
}

/// True (an i1) when a floating-point reduction's result must be recomputed
/// by the original loop: for fadd/fmul when the combined result \p Res is
/// not finite (reassociation may overflow where the loop does not, and NaN
/// or infinite inputs make the order matter); for fmin/fmax when the device
/// result \p Dev is a zero (the loop's choice between -0 and +0 depends on
/// the order), infinite or NaN (the identity, or an all-NaN input with
/// maxnum/minnum). Null when no check is needed.
static Value *needsLoop(IRBuilder<> &B, ReductionOp Op, Value *Dev, Value *Res) {
  if (Op != ReductionOp::FAdd && Op != ReductionOp::FMul &&
      Op != ReductionOp::FMin && Op != ReductionOp::FMax)
    return nullptr;
  Type *T = Dev->getType();
  Value *Inf = ConstantFP::getInfinity(T);
  switch (Op) {
  case ReductionOp::FAdd:
  case ReductionOp::FMul:
    return B.CreateFCmpUEQ(B.CreateUnaryIntrinsic(Intrinsic::fabs, Res), Inf,
                           "idiom.notfinite");
  case ReductionOp::FMin:
  case ReductionOp::FMax:
    return B.CreateOr(B.CreateFCmpUEQ(Dev, ConstantFP::get(T, 0.0)),
                      B.CreateFCmpOEQ(B.CreateUnaryIntrinsic(Intrinsic::fabs, Dev), Inf),
                      "idiom.ambiguous");
  default:
    return nullptr;
  }
}

/// The 8 bytes of an idiom_arg's value union for constant scalar \p V (i32,
/// float, i64 or double, as the call block stores it), on little-endian
/// targets; nullptr when V is not a plain constant or the target is
/// big-endian (the caller then stores V at run time).
static Constant *scalarBits(Value *V, const DataLayout &DL) {
  if (!DL.isLittleEndian())
    return nullptr;
  Type *I64 = Type::getInt64Ty(V->getContext());
  if (auto *CI = dyn_cast<ConstantInt>(V))
    return CI->getBitWidth() <= 64
               ? ConstantInt::get(I64, CI->getValue().zext(64))
               : nullptr;
  if (auto *CF = dyn_cast<ConstantFP>(V)) {
    APInt Bits = CF->getValueAPF().bitcastToAPInt();
    return Bits.getBitWidth() <= 64 ? ConstantInt::get(I64, Bits.zext(64)) : nullptr;
  }
  return nullptr;
}

/// Runtime argument kind of a scalar parameter.
static uint32_t scalarKind(Type *T) {
  if (T->isFloatTy())
    return IDIOM_ARG_F32;
  if (T->isDoubleTy())
    return IDIOM_ARG_F64;
  if (T->isIntegerTy(64))
    return IDIOM_ARG_I64;
  return IDIOM_ARG_I32;
}

/// The idiom_csr struct (idiomrt.h) of a CSR SpMV on the stack, filled
/// before the call; the argument indices are those of the parameters whose
/// values the runtime fills in (LiftedParam::RtLo, RtS).
static Value *csrDescriptor(const CsrExtent &X, const LiftedIdiom &L,
                            const ExpandedArgs &Args, IRBuilder<> &EntryB,
                            IRBuilder<> &B) {
  LLVMContext &Ctx = B.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  SmallVector<Type *, 26> Fields{Ptr, Ptr, Ptr, Ptr, I64, I64, I64};
  Fields.append(11 + 4, I32);
  Fields.append({Ptr, Ptr, Ptr, I64, I32, I32, I32, I32, I32}); // JDS
  StructType *Ty = StructType::get(Ctx, Fields);
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  unsigned ValArg = 0, ColArg = 0, XArg = 0, Nz0 = 0, C0 = 0, Nx = 0;
  unsigned PtrArg = 0, YArg = 0, Nnz = 0, Y0 = 0;
  Value *Val = nullptr, *XBase = nullptr, *YBase = nullptr;
  uint64_t ValBytes = 0, XBytes = 0, YBytes = 0;
  for (unsigned I = 0; I < L.Params.size(); ++I) {
    const LiftedParam &P = L.Params[I];
    if (P.K == LiftedParam::Kind::Buffer && P.RtLo == RunTimeValue::CsrFirstNonzero) {
      // val first, then col: the SpMV lifter's parameter order
      if (!Val)
        ValArg = I, Val = P.Base, ValBytes = DL.getTypeAllocSize(P.ElemTy);
      else
        ColArg = I;
    } else if (P.K == LiftedParam::Kind::Buffer &&
               P.RtLo == RunTimeValue::CsrFirstColumn) {
      XArg = I, XBase = P.Base, XBytes = DL.getTypeAllocSize(P.ElemTy);
    } else if (P.K == LiftedParam::Kind::Buffer &&
               P.RtLo == RunTimeValue::CsrDiagonals) {
      PtrArg = I;
    } else if (P.K == LiftedParam::Kind::Buffer &&
               P.RtLo == RunTimeValue::CsrFirstResult) {
      YArg = I, YBase = P.Base, YBytes = DL.getTypeAllocSize(P.ElemTy);
    } else if (P.K == LiftedParam::Kind::Index) {
      if (P.RtS == RunTimeValue::CsrFirstNonzero)
        Nz0 = I;
      else if (P.RtS == RunTimeValue::CsrFirstColumn)
        C0 = I;
      else if (P.RtS == RunTimeValue::CsrColumnCount)
        Nx = I;
      else if (P.RtS == RunTimeValue::CsrNonzeroCount)
        Nnz = I;
      else if (P.RtS == RunTimeValue::CsrFirstResult)
        Y0 = I;
    }
  }
  Value *Null = ConstantPointerNull::get(cast<PointerType>(Ptr));
  AllocaInst *A = EntryB.CreateAlloca(Ty, nullptr, "idiom.csr");
  Value *Vals[] = {
      Args.CsrPtr, Val, X.Col, XBase, Args.Sizes.front(),
      ConstantInt::get(I64, X.XOffset, true), ConstantInt::get(I64, X.XExtent),
      ConstantInt::get(I32, X.PtrBytes), ConstantInt::get(I32, X.ColBytes),
      ConstantInt::get(I32, ValBytes), ConstantInt::get(I32, XBytes),
      ConstantInt::get(I32, X.Flags), ConstantInt::get(I32, ValArg),
      ConstantInt::get(I32, ColArg), ConstantInt::get(I32, XArg),
      ConstantInt::get(I32, Nz0), ConstantInt::get(I32, C0),
      ConstantInt::get(I32, Nx),
      // JDS: the format, cnt and perm from the expanded buffer arguments.
      ConstantInt::get(I32, X.Format), ConstantInt::get(I32, X.CntBytes),
      ConstantInt::get(I32, X.PermBytes), ConstantInt::get(I32, YBytes),
      X.Format ? (Value *)Args.Values[X.CntParam] : Null,
      X.Format ? (Value *)Args.Values[X.PermParam] : Null, YBase ? YBase : Null,
      ConstantInt::get(I64, X.YOffset, true), ConstantInt::get(I32, PtrArg),
      ConstantInt::get(I32, YArg), ConstantInt::get(I32, Nnz),
      ConstantInt::get(I32, Y0), ConstantInt::get(I32, X.RowsPerCount)};
  for (unsigned F = 0; F < Fields.size(); ++F)
    B.CreateStore(Vals[F], B.CreateStructGEP(Ty, A, F));
  return A;
}

/// After a passed extent check: stores each run-time extent's buffer range
/// [&base[lo], &base[hi + 1)), its first index lo and its count hi - lo + 1
/// into the argument array \p ArgArr (Lifting.h, RunTimeExtent). Narrow
/// histogram bins (WholeWords) widen the range to the aligned 32-bit words
/// that hold bins lo and hi, and pass the word count: the kernel updates a
/// bin through its word, and an aligned word never crosses a page.
static void fillExtents(IRBuilder<> &B, const LiftedIdiom &L,
                        ArrayRef<std::pair<Value *, Value *>> Ranges, AllocaInst *ArgArr,
                        ArrayType *ArgArrTy, StructType *ArgTy) {
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  Type *I64 = B.getInt64Ty();
  for (size_t K = 0; K < L.Extents.size() && K < Ranges.size(); ++K) {
    const RunTimeExtent &E = L.Extents[K];
    const LiftedParam &P = L.Params[E.Buffer];
    uint64_t Size = DL.getTypeAllocSize(P.ElemTy);
    Value *Lo = Ranges[K].first, *Hi = Ranges[K].second;
    Value *Ptr = B.CreateGEP(P.ElemTy, P.Base, Lo, "idiom.extent.ptr");
    Value *Count = B.CreateAdd(B.CreateSub(Hi, Lo), ConstantInt::get(I64, 1),
                               "idiom.extent.count");
    Value *Bytes = B.CreateMul(Count, ConstantInt::get(I64, Size));
    Value *CountArg = Count;
    if (E.WholeWords && Size < 4) {
      Value *Addr = B.CreatePtrToInt(Ptr, I64);
      Value *Head = B.CreateAnd(Addr, ConstantInt::get(I64, 3));
      Ptr = B.CreateGEP(B.getInt8Ty(), Ptr, B.CreateNeg(Head), "idiom.extent.word");
      Bytes = B.CreateAnd(B.CreateAdd(B.CreateAdd(Bytes, Head), ConstantInt::get(I64, 3)),
                          ConstantInt::get(I64, ~uint64_t(3)), "idiom.extent.bytes");
      Lo = B.CreateSub(Lo, B.CreateUDiv(Head, ConstantInt::get(I64, Size)));
      CountArg = B.CreateLShr(Bytes, ConstantInt::get(I64, 2), "idiom.extent.words");
    }
    auto Store = [&](unsigned Arg, unsigned Field, Value *V) {
      Value *Slot = B.CreateConstGEP2_32(ArgArrTy, ArgArr, 0, Arg);
      B.CreateStore(V, B.CreateStructGEP(ArgTy, Slot, Field));
    };
    Store(E.Buffer, 2, Ptr);
    Store(E.Buffer, 3, Bytes);
    Store(E.FirstParam, 4, Lo);
    Store(E.CountParam, 4, CountArg);
  }
}

/// What emitHostHintCheck() made: the site's hint word and its key.
struct HostHint {
  GlobalVariable *Word;
  Value *Key;
  std::vector<BasicBlock *> Blocks; ///< the check's blocks, its first first
};

/// At \p B (a block of its own, reached when the guards hold): reads the
/// site's host hint word (idiomrt.h, idiom_host_hint) with a relaxed atomic
/// load and, when its size tag is the one of this call's key (the product
/// of the sizes) and calls are left, takes one call off the word and
/// branches to \p Fallback (the original nest, which syncs a residency
/// region first when it is in one, as a decline does) instead of \p Call.
/// The word is a zero-initialized private global \p Name, one per stitched
/// site, in the start-data section (StartData.h).
static HostHint emitHostHintCheck(IRBuilder<> &B, const ExpandedArgs &Args,
                                  BasicBlock *Call, BasicBlock *Fallback,
                                  LoopInfo &LI, Loop *Parent,
                                  const Twine &Name) {
  BasicBlock *Head = B.GetInsertBlock();
  Function &F = *Head->getParent();
  Module &Mod = *F.getParent();
  LLVMContext &Ctx = Mod.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  auto *Word = new GlobalVariable(Mod, I64, /*isConstant=*/false,
                                  GlobalValue::PrivateLinkage,
                                  ConstantInt::get(I64, 0), Name);
  Word->setAlignment(Align(8));
  placeInStartData(*Word);
  Value *Key = ConstantInt::get(I64, 1);
  for (Value *S : Args.Sizes)
    Key = B.CreateMul(Key, S, "idiom.hint.key");
  Value *Tag = B.CreateSub(ConstantInt::get(I64, 64),
                           B.CreateBinaryIntrinsic(Intrinsic::ctlz, Key,
                                                   B.getFalse()),
                           "idiom.hint.tag");
  LoadInst *H = B.CreateAlignedLoad(I64, Word, Align(8), "idiom.hint.word");
  H->setAtomic(AtomicOrdering::Monotonic);
  const uint64_t One = 1ull << IDIOM_HINT_TAG_BITS;
  // The word's tag T matches its own size class, or, with IDIOM_HINT_BELOW
  // set (a work-gate hint), every class up to T's low bits.
  Value *T = B.CreateAnd(H, ConstantInt::get(I64, One - 1), "idiom.hint.t");
  Value *Match = B.CreateOr(
      B.CreateICmpEQ(T, Tag),
      B.CreateICmpUGE(
          T, B.CreateAdd(Tag, ConstantInt::get(I64, IDIOM_HINT_BELOW))),
      "idiom.hint.match");
  Value *Hit = B.CreateAnd(Match, B.CreateICmpUGE(H, ConstantInt::get(I64, One)),
                           "idiom.hint.hit");
  BasicBlock *Skip = BasicBlock::Create(Ctx, "idiom.hint.skip", &F, Call);
  if (Parent)
    Parent->addBasicBlockToLoop(Skip, LI);
  B.CreateCondBr(Hit, Skip, Call);
  B.SetInsertPoint(Skip);
  StoreInst *St = B.CreateAlignedStore(
      B.CreateSub(H, ConstantInt::get(I64, One)), Word, Align(8));
  St->setAtomic(AtomicOrdering::Monotonic);
  B.CreateBr(Fallback);
  return {Word, Key, {Head, Skip}};
}

bool stitch(const StitchInput &In, const ExpandedArgs &Args, LoopInfo &LI,
            GlobalVariable *&Desc, std::string &Why, StitchedCall *Out) {
  Desc = nullptr;
  const IdiomMatch &M = *In.M;
  Loop *Outer = M.Nest.Loops.front();
  BasicBlock *PH = Outer->getLoopPreheader();
  BasicBlock *Header = Outer->getHeader();
  BasicBlock *Exit = Outer->getExitBlock();
  Function &F = *Header->getParent();
  Module &Mod = *F.getParent();
  LLVMContext &Ctx = F.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);

  // Every live-out must be a reduction result we can provide.
  std::vector<std::pair<PHINode *, int>> LiveOuts;
  for (PHINode &P : Exit->phis()) {
    int Which = -1;
    for (size_t K = 0; K < M.Reductions.size(); ++K)
      if (P.getIncomingValueForBlock(Outer->getExitingBlock()) == M.Reductions[K].result())
        Which = K;
    if (Which < 0) {
      Why = "loop exit has a live-out value the idiom does not compute";
      return false;
    }
    LiveOuts.push_back({&P, Which});
  }

  // Initial values now, not from detection: stitching an earlier idiom may
  // have replaced them (a reduction that starts from another's result).
  std::vector<Value *> Inits;
  for (const ReductionInfo &R : M.Reductions)
    Inits.push_back(R.entryPhi()->getIncomingValueForBlock(PH));

  BasicBlock *NewPH = SplitEdge(PH, Header, nullptr, &LI);
  NewPH->setName("idiom.fallback");
  markFallbackLoop(*Outer);
  BasicBlock *Join = SplitBlock(Exit, Exit->getFirstNonPHI(), (DominatorTree *)nullptr, &LI);
  Join->setName("idiom.join");
  BasicBlock *Call = BasicBlock::Create(Ctx, "idiom.call", &F, NewPH);
  BasicBlock *Done = BasicBlock::Create(Ctx, "idiom.done", &F, NewPH);
  if (Loop *Parent = Outer->getParentLoop()) {
    Parent->addBasicBlockToLoop(Call, LI);
    Parent->addBasicBlockToLoop(Done, LI);
  }

  // Preheader: test the inner loop's guards, else run the original nest.
  PH->getTerminator()->eraseFromParent();
  IRBuilder<> B(PH);
  Value *Guard = nullptr;
  for (size_t I = 0; I < M.Nest.Guards.size(); ++I) {
    Value *Cond = Args.Guards[I];
    Value *C = M.Nest.Guards[I].ExpectTrue ? Cond : B.CreateNot(Cond);
    Guard = Guard ? B.CreateAnd(Guard, C) : C;
  }
  for (Value *C : Args.Checks)
    Guard = Guard ? B.CreateAnd(Guard, C) : C;
  // The site's host hint (idiomrt.h, idiom_host_hint): while the runtime's
  // cost model keeps this size class on the host, the loop runs without
  // the call.
  BasicBlock *HintBB = BasicBlock::Create(Ctx, "idiom.hint", &F, Call);
  if (Guard)
    B.CreateCondBr(Guard, HintBB, NewPH);
  else
    B.CreateBr(HintBB);
  if (Loop *Parent = Outer->getParentLoop())
    Parent->addBasicBlockToLoop(HintBB, LI);
  B.SetInsertPoint(HintBB);
  HostHint Hint = emitHostHintCheck(B, Args, Call, NewPH, LI, Outer->getParentLoop(),
                                    In.KernelName + ".hint");

  // Call block: fill the argument array and call the runtime. Fields known
  // at compile time (kinds, global buffers of constant extent, constant
  // scalars and sizes) come from a private constant; when every field is
  // constant the constant itself is passed (the runtime reads args and sizes
  // only), else a stack copy of it gets the other fields. Fewer instructions
  // for the back end to compile per idiom.
  StructType *ArgTy = StructType::get(Ctx, {I32, I32, Ptr, I64, I64});
  size_t NArgs = In.Lifted->Params.size();
  ArrayType *ArgArrTy = ArrayType::get(ArgTy, NArgs ? NArgs : 1);
  const DataLayout &DL = Mod.getDataLayout();
  B.SetInsertPoint(Call);
  struct Dynamic {
    size_t Arg;
    unsigned Field;
    Value *V;
  };
  std::vector<Dynamic> Dyn;
  std::vector<Constant *> Template;
  for (size_t I = 0; I < NArgs; ++I) {
    const LiftedParam &P = In.Lifted->Params[I];
    uint32_t Kind, Flags = 0;
    Value *PtrV = ConstantPointerNull::get(cast<PointerType>(Ptr));
    Value *Bytes = ConstantInt::get(I64, 0);
    Value *Scalar = nullptr;
    switch (P.K) {
    case LiftedParam::Kind::Buffer:
      Kind = P.Written ? (P.Read ? IDIOM_ARG_BUF_INOUT : IDIOM_ARG_BUF_OUT)
                       : IDIOM_ARG_BUF_IN;
      if (P.Written && P.Dense)
        Flags |= IDIOM_ARG_DENSE;
      if (!P.Written && P.Snapshot)
        Flags |= IDIOM_ARG_SNAPSHOT;
      if (!P.Written && P.InPlace)
        Flags |= IDIOM_ARG_INPLACE;
      if (P.RtLo == RunTimeValue::Extent)
        break; // stored after the extent check
      PtrV = Args.Values[I];
      Bytes = Args.Bytes[I];
      break;
    case LiftedParam::Kind::Index:
      Kind = IDIOM_ARG_I64;
      Scalar = Args.Values[I];
      break;
    case LiftedParam::Kind::Scalar: {
      Type *T = P.V->getType();
      Kind = scalarKind(T);
      Scalar = Args.Values[I];
      if (T->isIntegerTy(1))
        Scalar = B.CreateZExt(Scalar, I32);
      else if (T->isIntegerTy(8) || T->isIntegerTy(16))
        Scalar = B.CreateSExt(Scalar, I32);
      break;
    }
    }
    // A field's constant, or Zero and a run-time store of V.
    auto Field = [&](unsigned FieldNo, Value *V, Constant *Zero) -> Constant * {
      if (auto *C = dyn_cast<Constant>(V))
        return C;
      Dyn.push_back({I, FieldNo, V});
      return Zero;
    };
    Constant *Val = ConstantInt::get(I64, 0);
    if (Scalar) {
      Val = scalarBits(Scalar, DL);
      if (!Val) {
        Dyn.push_back({I, 4, Scalar});
        Val = ConstantInt::get(I64, 0);
      }
    }
    Template.push_back(ConstantStruct::get(
        ArgTy, {ConstantInt::get(I32, Kind), ConstantInt::get(I32, Flags),
                Field(2, PtrV, ConstantPointerNull::get(cast<PointerType>(Ptr))),
                Field(3, Bytes, ConstantInt::get(I64, 0)), Val}));
  }
  if (Template.empty())
    Template.push_back(Constant::getNullValue(ArgTy));
  auto *ArgConst = new GlobalVariable(Mod, ArgArrTy, true, GlobalValue::PrivateLinkage,
                                      ConstantArray::get(ArgArrTy, Template),
                                      In.KernelName + ".args");
  ArgConst->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  ArgConst->setAlignment(DL.getABITypeAlign(ArgTy));
  Value *ArgArr = ArgConst;
  IRBuilder<> EntryB(&*F.getEntryBlock().getFirstInsertionPt());
  const std::vector<RunTimeExtent> &Extents = In.Lifted->Extents;
  bool HasExtents = !In.Extent.KernelName.empty() && !Extents.empty();
  if (!Dyn.empty() || HasExtents) {
    AllocaInst *A = EntryB.CreateAlloca(ArgArrTy, nullptr, "idiom.args");
    Align AA = A->getAlign();
    B.CreateMemCpy(A, AA, ArgConst, DL.getABITypeAlign(ArgTy),
                   DL.getTypeAllocSize(ArgArrTy));
    for (const Dynamic &D : Dyn) {
      Value *Slot = B.CreateConstGEP2_32(ArgArrTy, A, 0, D.Arg);
      B.CreateStore(D.V, B.CreateStructGEP(ArgTy, Slot, D.Field));
    }
    ArgArr = A;
  }
  ArrayType *SizeArrTy = ArrayType::get(I64, Args.Sizes.size());
  Value *SizeArr;
  if (llvm::all_of(Args.Sizes,
                   [](const WeakTrackingVH &V) { return isa<Constant>(static_cast<Value *>(V)); })) {
    std::vector<Constant *> Cs;
    for (Value *V : Args.Sizes)
      Cs.push_back(cast<Constant>(V));
    auto *GV = new GlobalVariable(Mod, SizeArrTy, true, GlobalValue::PrivateLinkage,
                                  ConstantArray::get(SizeArrTy, Cs),
                                  In.KernelName + ".sizes");
    GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    SizeArr = GV;
  } else {
    AllocaInst *A = EntryB.CreateAlloca(SizeArrTy, nullptr, "idiom.sizes");
    for (size_t D = 0; D < Args.Sizes.size(); ++D)
      B.CreateStore(Args.Sizes[D], B.CreateConstGEP2_32(SizeArrTy, A, 0, D));
    SizeArr = A;
  }
  size_t NRes = M.Reductions.size();
  size_t NSlots = M.Kind == IdiomKind::ScalarReduction ? numResultSlots(In) : NRes;
  AllocaInst *ResArr = EntryB.CreateAlloca(ArrayType::get(I64, NSlots ? NSlots : 1),
                                           nullptr, "idiom.results");
  const CsrExtent *Csr = In.Lifted->Csr.get();
  SmallVector<Type *, 6> RunParams{Ptr, Ptr, I32, Ptr, Ptr};
  if (Csr)
    RunParams.push_back(Ptr);
  FunctionCallee Run = Mod.getOrInsertFunction(
      Csr ? "idiom_run_csr" : "idiom_run", FunctionType::get(I32, RunParams, false));
  if (auto *RunF = dyn_cast<Function>(Run.getCallee()))
    RunF->setDoesNotThrow();
  Desc = In.Desc ? In.Desc : makeDescriptor(In, Mod);

  // A check runs first, on its own argument array: the main one's
  // parameters \p Which, buffers as inputs. Its result slots are zeroed
  // first so that they never read as uninitialized values when it declines.
  // The errno check (Lifting.h, ErrnoCheckFunIL) passes when it ran and
  // found no flag; the extent check (ExtentCheckFunIL) when it ran and every
  // range lies within its limits, and then fills in the ranges.
  CallInst *CheckOk = nullptr;
  GlobalVariable *CheckDesc = nullptr;
  BasicBlock *CheckFail = nullptr;
  const CheckKernel *Chk = !In.Check.KernelName.empty() ? &In.Check
                           : HasExtents                 ? &In.Extent
                                                        : nullptr;
  bool IsExtent = Chk == &In.Extent;
  if (Chk) {
    CheckDesc = makeCheckDescriptor(In, *Chk, IsExtent ? "-extent-check" : "-errno-check",
                                    Mod);
    const std::vector<unsigned> &Which =
        IsExtent ? In.Lifted->ExtentCheckParams : In.Lifted->ErrnoCheckParams;
    ArrayType *ChkArrTy = ArrayType::get(ArgTy, Which.empty() ? 1 : Which.size());
    std::vector<Constant *> ChkTemplate;
    for (unsigned I : Which) {
      Constant *C = Template[I]; // a ConstantStruct, or a zero aggregate
      if (In.Lifted->Params[I].K == LiftedParam::Kind::Buffer)
        C = ConstantStruct::get(
            ArgTy, {ConstantInt::get(I32, IDIOM_ARG_BUF_IN),
                    ConstantInt::get(I32, 0), C->getAggregateElement(2u),
                    C->getAggregateElement(3u), C->getAggregateElement(4u)});
      ChkTemplate.push_back(C);
    }
    if (ChkTemplate.empty())
      ChkTemplate.push_back(Constant::getNullValue(ArgTy));
    auto *ChkConst = new GlobalVariable(
        Mod, ChkArrTy, true, GlobalValue::PrivateLinkage,
        ConstantArray::get(ChkArrTy, ChkTemplate), Chk->KernelName + ".args");
    ChkConst->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    ChkConst->setAlignment(DL.getABITypeAlign(ArgTy));
    Value *ChkArr = ChkConst;
    bool AnyDyn = false;
    for (const Dynamic &D : Dyn)
      AnyDyn |= llvm::is_contained(Which, D.Arg);
    if (AnyDyn) {
      AllocaInst *A = EntryB.CreateAlloca(ChkArrTy, nullptr, "idiom.check.args");
      B.CreateMemCpy(A, A->getAlign(), ChkConst, DL.getABITypeAlign(ArgTy),
                     DL.getTypeAllocSize(ChkArrTy));
      for (const Dynamic &D : Dyn) {
        auto It = llvm::find(Which, D.Arg);
        if (It == Which.end())
          continue;
        Value *Slot = B.CreateConstGEP2_32(ChkArrTy, A, 0, It - Which.begin());
        B.CreateStore(D.V, B.CreateStructGEP(ArgTy, Slot, D.Field));
      }
      ChkArr = A;
    }
    size_t NSlot = Chk->SlotBytes.size();
    ArrayType *ChkResTy = ArrayType::get(I64, NSlot ? NSlot : 1);
    AllocaInst *ChkRes = EntryB.CreateAlloca(ChkResTy, nullptr, "idiom.check.result");
    for (size_t K = 0; K < NSlot; ++K)
      B.CreateStore(ConstantInt::get(I64, 0), B.CreateConstGEP2_32(ChkResTy, ChkRes, 0, K));
    // Always idiom_run: a check is a plain reduction, also before an
    // SpMV's idiom_run_csr.
    FunctionCallee CheckRun = Mod.getOrInsertFunction(
        "idiom_run", FunctionType::get(I32, {Ptr, Ptr, I32, Ptr, Ptr}, false));
    CheckOk = B.CreateCall(CheckRun, {CheckDesc, ChkArr,
                                 ConstantInt::get(I32, Which.size()), SizeArr,
                                 ChkRes},
                           IsExtent ? "idiom.extent.ok" : "idiom.errno.ok");
    Value *Pass = B.CreateICmpNE(CheckOk, ConstantInt::get(I32, 0));
    std::vector<std::pair<Value *, Value *>> Ranges; // (lo, hi) per extent
    if (!IsExtent) {
      Value *Flag = B.CreateLoad(I32, ChkRes, "idiom.errno.flag");
      Pass = B.CreateAnd(Pass, B.CreateICmpEQ(Flag, ConstantInt::get(I32, 0)),
                         "idiom.errno.pass");
    } else {
      // 0 <= lo <= hi and hi - lo < MaxCount: else the original loop runs
      // (an index the loop uses is negative, no iteration uses a bin, or the
      // range is beyond what one call moves). hi - lo cannot overflow once
      // 0 <= lo <= hi.
      for (size_t K = 0; K < Extents.size(); ++K) {
        Value *Lo = B.CreateLoad(I64, B.CreateConstGEP2_32(ChkResTy, ChkRes, 0, 2 * K),
                                 "idiom.extent.lo");
        Value *Hi = B.CreateLoad(I64, B.CreateConstGEP2_32(ChkResTy, ChkRes, 0, 2 * K + 1),
                                 "idiom.extent.hi");
        Value *Ok = B.CreateAnd(
            B.CreateAnd(B.CreateICmpSGE(Lo, ConstantInt::get(I64, 0)),
                        B.CreateICmpSLE(Lo, Hi)),
            B.CreateICmpULT(B.CreateSub(Hi, Lo),
                            ConstantInt::get(I64, Extents[K].MaxCount)));
        Pass = B.CreateAnd(Pass, Ok, "idiom.extent.pass");
        Ranges.push_back({Lo, Hi});
      }
    }
    BasicBlock *RunBB = BasicBlock::Create(Ctx, "idiom.run", &F, NewPH);
    CheckFail = BasicBlock::Create(Ctx, IsExtent ? "idiom.extent.fail" : "idiom.errno.fail",
                                   &F, NewPH);
    if (Loop *Parent = Outer->getParentLoop()) {
      Parent->addBasicBlockToLoop(RunBB, LI);
      Parent->addBasicBlockToLoop(CheckFail, LI);
    }
    B.CreateCondBr(Pass, RunBB, CheckFail);
    B.SetInsertPoint(RunBB);
    if (IsExtent)
      fillExtents(B, *In.Lifted, Ranges, cast<AllocaInst>(ArgArr), ArgArrTy, ArgTy);
  }
  SmallVector<Value *, 6> RunArgs{Desc, ArgArr, ConstantInt::get(I32, NArgs),
                                  SizeArr, ResArr};
  if (Csr)
    RunArgs.push_back(csrDescriptor(*Csr, *In.Lifted, Args, EntryB, B));
  CallInst *Ok;
  if (const LiftedPair *Pair = In.Lifted->Pair.get()) {
    // Both GEMVs of the nest or neither (idiomrt.h, idiom_run_pair): each
    // its own descriptor, the first's arguments then the second's.
    Type *Tys[] = {Ptr, Ptr, Ptr, I32, I32, Ptr};
    Value *PArgs[] = {Desc, makeDescriptor(In, Mod, true), ArgArr,
                      ConstantInt::get(I32, Pair->First.Params.size()),
                      ConstantInt::get(I32, Pair->Second.Params.size()), SizeArr};
    FunctionCallee RunPair =
        Mod.getOrInsertFunction("idiom_run_pair", FunctionType::get(I32, Tys, false));
    if (auto *RunF = dyn_cast<Function>(RunPair.getCallee()))
      RunF->setDoesNotThrow();
    Ok = B.CreateCall(RunPair, PArgs, "idiom.ok");
  } else {
    if (Value *Iters = Args.WorkIters) {
      // How much host work this call replaces (idiomrt.h, idiom_work_hint):
      // the runtime's lower bound of the loop's host time before any is
      // measured (runtime/lib/devwait.c).
      FunctionCallee WorkHint = Mod.getOrInsertFunction(
          "idiom_work_hint",
          FunctionType::get(Type::getVoidTy(Ctx), {Ptr, I64, I32}, false));
      if (auto *Fn = dyn_cast<Function>(WorkHint.getCallee()))
        Fn->setDoesNotThrow();
      B.CreateCall(WorkHint,
                   {Desc, Iters,
                    ConstantInt::get(I32, Args.WorkFPChain ? IDIOM_WORK_FP_CHAIN : 0)});
    }
    Ok = B.CreateCall(Run, RunArgs, "idiom.ok");
  }
  BasicBlock *MainBB = B.GetInsertBlock();
  if (Out) {
    Out->Call = Ok;
    Out->CheckCall = CheckOk;
    Out->Fallback = NewPH;
    Out->HintBlocks = Hint.Blocks;
    Out->SyncArgs = !Csr && !In.Lifted->Pair && !HasExtents && !IsExtent;
    Out->ArgTemplate = ArgConst;
    Out->ArgFields.clear();
    for (const Dynamic &D : Dyn)
      Out->ArgFields.push_back({D.Arg, D.Field, D.V});
    Out->Buffers.clear();
    for (size_t I = 0; I < NArgs; ++I)
      if (In.Lifted->Params[I].K == LiftedParam::Kind::Buffer)
        Out->Buffers.push_back({Args.Values[I], In.Lifted->Params[I].Written});
    // idiom_run_csr reads the row pointers on the host (csr.c).
    if (Csr)
      Out->Buffers.push_back({Args.CsrPtr, false});
  }
  // A decline runs the original loop between idiom_host_begin and
  // idiom_host_end: the runtime's cost model asks for the loop's time after
  // the declines it decided (the token is 0 otherwise, and on the paths
  // from the guards and the redo of a reduction).
  BasicBlock *HostBegin = BasicBlock::Create(Ctx, "idiom.declined", &F, NewPH);
  if (Out) // the hint's skip block (filled there, ResidencyRegions.cpp)
    Out->ArgsValidFrom = {Hint.Blocks.back(), HostBegin};
  if (Loop *Parent = Outer->getParentLoop())
    Parent->addBasicBlockToLoop(HostBegin, LI);
  B.CreateCondBr(B.CreateICmpNE(Ok, ConstantInt::get(I32, 0)), Done, HostBegin);
  B.SetInsertPoint(HostBegin);
  FunctionCallee Begin = Mod.getOrInsertFunction(
      "idiom_host_begin", FunctionType::get(I64, {Ptr}, false));
  FunctionCallee End = Mod.getOrInsertFunction(
      "idiom_host_end_site", FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false));
  for (FunctionCallee FC : {Begin, End})
    if (auto *Fn = dyn_cast<Function>(FC.getCallee()))
      Fn->setDoesNotThrow();
  Value *HostDesc = Desc;
  if (CheckFail) {
    // A declined check is timed as the check's host run; a raised flag
    // runs the loop untimed and says why in IDIOM_STATS.
    PHINode *P = B.CreatePHI(Ptr, 2, "idiom.host.desc");
    P->addIncoming(Desc, MainBB);
    P->addIncoming(CheckDesc, CheckFail);
    HostDesc = P;
    BasicBlock *Flagged = BasicBlock::Create(
        Ctx, IsExtent ? "idiom.extent.outside" : "idiom.errno.flagged", &F, NewPH);
    if (Loop *Parent = Outer->getParentLoop())
      Parent->addBasicBlockToLoop(Flagged, LI);
    IRBuilder<> FB(CheckFail);
    FB.CreateCondBr(FB.CreateICmpNE(CheckOk, ConstantInt::get(I32, 0)),
                    Flagged, HostBegin);
    FB.SetInsertPoint(Flagged);
    FunctionCallee Note = Mod.getOrInsertFunction(
        "idiom_note_fallback",
        FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false));
    if (auto *Fn = dyn_cast<Function>(Note.getCallee()))
      Fn->setDoesNotThrow();
    FB.CreateCall(Note, {Desc, privateString(Mod,
                                             IsExtent ? "index range empty, negative or "
                                                        "beyond the run-time extent limit"
                                                      : "a libm argument would set errno",
                                             Chk->KernelName + ".why")});
    FB.CreateBr(NewPH);
    if (Out)
      Out->ArgsValidFrom.push_back(Flagged);
  }
  FunctionCallee SetHint = Mod.getOrInsertFunction(
      "idiom_host_hint",
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, I64}, false));
  if (auto *Fn = dyn_cast<Function>(SetHint.getCallee()))
    Fn->setDoesNotThrow();
  B.CreateCall(SetHint, {HostDesc, Hint.Word, Hint.Key});
  B.CreateCall(Begin, {HostDesc}, "idiom.host.token");
  B.CreateBr(NewPH);
  // The loop's exit (only the original loop reaches it) ends the
  // measurement: idiom_host_end_site with the site's hint word, a constant
  // (idiomrt.h). A token and a descriptor in phis stayed in registers
  // across the loop and made the register allocator rematerialize
  // addresses inside tight host loops (nas-parboil/tpacf.c: 1% more
  // instructions with every site on the host, bench/host_overhead.sh);
  // the word keeps no descriptor alive where the guards fold the call.
  IRBuilder<>(Exit->getTerminator()).CreateCall(End, {Hint.Word});

  // Done block: combine each device result with the accumulator's initial
  // value and join the original exit.
  B.SetInsertPoint(Done);
  std::vector<Value *> Results, Devs;
  Value *Redo = nullptr;
  for (size_t K = 0; K < NRes; ++K) {
    const ReductionInfo &R = M.Reductions[K];
    Value *Slot = B.CreateConstGEP2_32(ResArr->getAllocatedType(), ResArr, 0, K);
    Devs.push_back(B.CreateLoad(R.Phi->getType(), Slot, "idiom.result"));
  }
  // argmin/argmax: the loop's own step, once, from the initial (value,
  // index) to the device's pair; the identity index (no element chosen, as
  // for a zero trip count) runs the loop.
  std::vector<Value *> ArgResults(NRes, nullptr);
  for (size_t K = 0; K < NRes; ++K) {
    const ReductionInfo &R = M.Reductions[K];
    if (R.Op != ReductionOp::ArgIndex)
      continue;
    size_t J = 0;
    while (J < NRes && M.Reductions[J].Phi != R.ArgOf)
      ++J;
    assert(J < NRes && "the lifter checked that the value is a reduction");
    const ReductionInfo &V = M.Reductions[J];
    DenseMap<Value *, Value *> Subst{{V.Phi, Inits[J]},
                                     {V.Operands.front(), Devs[J]},
                                     {R.Phi, Inits[K]},
                                     {R.Operands.front(), Devs[K]}};
    ArgResults[J] = replayLink(B, V.FirstLink, Subst);
    ArgResults[K] = replayLink(B, R.FirstLink, Subst);
    Value *None = B.CreateICmpEQ(Devs[K], argIndexSentinel(R), "idiom.argnone");
    Redo = Redo ? B.CreateOr(Redo, None) : None;
  }
  for (size_t K = 0; K < NRes; ++K) {
    const ReductionInfo &R = M.Reductions[K];
    Value *Dev = Devs[K];
    bool MinMax = R.Op == ReductionOp::FMin || R.Op == ReductionOp::FMax;
    Value *Res = ArgResults[K] ? ArgResults[K]
                 : MinMax      ? loopCombine(B, R, Inits[K], Dev)
                               : combine(B, R.Op, Inits[K], Dev);
    Results.push_back(Res);
    if (Value *Bad = needsLoop(B, R.Op, Dev, Res))
      Redo = Redo ? B.CreateOr(Redo, Bad) : Bad;
  }
  // A reduction writes no memory: when a result is not exactly the loop's,
  // run the loop instead.
  BasicBlock *ResultBB = Done;
  bool Stored = false;
  for (const ReductionInfo &R : M.Reductions)
    Stored |= !R.Stores.empty();
  if (Redo) {
    if (Stored) {
      ResultBB = BasicBlock::Create(Ctx, "idiom.store", &F, NewPH);
      if (Loop *Parent = Outer->getParentLoop())
        Parent->addBasicBlockToLoop(ResultBB, LI);
    }
    B.CreateCondBr(Redo, NewPH, Stored ? ResultBB : Join);
    if (Out)
      Out->ArgsValidFrom.push_back(B.GetInsertBlock());
    B.SetInsertPoint(ResultBB);
  }
  // Accumulators the loop also stored on every iteration
  // (ReductionInfo::Stores): memory holds the final value after the nest.
  // The call runs only where every loop of the nest runs (the guards), so
  // the loop would have stored; the lifter's run-time checks keep every
  // input the kernel read clear of these addresses.
  for (size_t K = 0; K < NRes; ++K)
    for (StoreInst *St : M.Reductions[K].Stores)
      B.CreateAlignedStore(Results[K], St->getPointerOperand(), St->getAlign());
  if (!Redo || Stored)
    B.CreateBr(Join);
  for (auto &[P, K] : LiveOuts) {
    PHINode *Q = PHINode::Create(P->getType(), 2, P->getName() + ".idiom");
    Q->insertBefore(Join->getFirstNonPHI());
    // Every use and every tracking handle (a later idiom's ExpandedArgs) of
    // the loop's result now sees the merged value; Q has no operands yet.
    P->replaceAllUsesWith(Q);
    Q->addIncoming(P, Exit);
    Q->addIncoming(Results[K], ResultBB);
  }
  // The function now calls into the runtime: drop memory attributes that
  // promised otherwise.
  F.removeFnAttr(Attribute::Memory);
  F.removeFnAttr(Attribute::NoSync);
  F.removeFnAttr(Attribute::NoFree);
  F.removeFnAttr(Attribute::WillReturn);
  return true;
}

} // namespace idiom
