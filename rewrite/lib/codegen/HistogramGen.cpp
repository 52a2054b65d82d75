//===- HistogramGen.cpp - histogram kernels -------------------------------===//
//
// Part of Idiom. See HistogramGen.h.
//
//===----------------------------------------------------------------------===//

#include "HistogramGen.h"

#include "ScalarC.h"
#include "idiom/FunIL/TypeCheck.h"
#include "idiom/Rewrite/Histogram.h"

namespace idiom::rewrite::codegen {

using funil::Expr;
using funil::isFloat;
using funil::isInteger;
using funil::scalarBits;

namespace {

/// The unsigned maximum of 8- or 16-bit \p K as a uint literal.
std::string narrowMax(ScalarKind K) { return scalarBits(K) == 8 ? "255u" : "65535u"; }

/// `as_T(X)` reinterpreting bits of the same width (X itself when T is
/// already the type).
std::string asType(const char *T, const std::string &X) {
  return std::string("as_") + T + "(" + X + ")";
}

bool isNative32(IndexedOp Op) {
  switch (Op) {
  case IndexedOp::Add:
  case IndexedOp::And:
  case IndexedOp::Or:
  case IndexedOp::Xor:
  case IndexedOp::SMin:
  case IndexedOp::SMax:
  case IndexedOp::UMin:
  case IndexedOp::UMax:
    return true;
  default:
    return false;
  }
}

/// The OpenCL 1.2 built-in name and pointee type of a native 32-bit atomic.
std::string native32(IndexedOp Op, ScalarKind K, const char **PtrTy) {
  *PtrTy = clType(K);
  switch (Op) {
  case IndexedOp::Add:
    return "atomic_add";
  case IndexedOp::And:
    return "atomic_and";
  case IndexedOp::Or:
    return "atomic_or";
  case IndexedOp::Xor:
    return "atomic_xor";
  case IndexedOp::SMin:
    *PtrTy = "int";
    return "atomic_min";
  case IndexedOp::SMax:
    *PtrTy = "int";
    return "atomic_max";
  case IndexedOp::UMin:
    *PtrTy = "uint";
    return "atomic_min";
  case IndexedOp::UMax:
    *PtrTy = "uint";
    return "atomic_max";
  default:
    break;
  }
  throw CodegenError("no native atomic for this operator");
}

/// What one histogram kernel updates.
struct Bins {
  ExprPtr OpFn;       ///< the operator lambda
  IndexedOp Op;       ///< its classification
  ScalarKind K;       ///< the bins' element kind
  std::string Len;    ///< C expression of the bin count
  CVal Target;        ///< the bins (an array view of the output buffer)
  bool Packed = false; ///< 8/16-bit bins: cmpxchg on the aligned 32-bit word
};

class HistogramEmitter {
public:
  HistogramEmitter(Emitter &Em, Bins B) : Em(Em), B(std::move(B)) {}

  /// One atomic update of the global bin at \p Idx with value \p V.
  void globalUpdate(const std::string &Idx, const CVal &V);
  /// One atomic update of local slot \p Slot (an lvalue) with value \p V.
  void localUpdate(const std::string &Slot, const CVal &V);
  /// The local slot type of the privatised bins.
  ScalarKind slotKind() const;
  /// The value of a bin held in local slot \p Slot.
  std::string fromSlot(const std::string &Slot) const;
  /// The local slot representation of bin value \p V.
  std::string toSlot(const std::string &V) const;

private:
  /// do { assumed = old; old = cmpxchg(p, assumed, op(assumed, v)) } while
  /// (old != assumed) on a slot of unsigned type \p W at \p Ptr.
  void casLoop(const std::string &Space, const char *W, const std::string &Ptr,
               const std::string &ShiftExpr, const CVal &V, bool FromSlot);

  Emitter &Em;
  Bins B;
};

ScalarKind HistogramEmitter::slotKind() const {
  if (scalarBits(B.K) >= 32)
    return B.K;
  return B.Op == IndexedOp::SMin || B.Op == IndexedOp::SMax ? ScalarKind::I32
                                                            : ScalarKind::U32;
}

std::string HistogramEmitter::fromSlot(const std::string &Slot) const {
  if (scalarBits(B.K) >= 32)
    return Slot;
  std::string S = Slot;
  if (B.Op == IndexedOp::UAddSat) // the slot may overshoot the maximum
    S = "min(" + Slot + ", " + narrowMax(B.K) + ")";
  return asType(clType(B.K), "(" + std::string(clUnsignedType(B.K)) + ")(" + S + ")");
}

std::string HistogramEmitter::toSlot(const std::string &V) const {
  if (scalarBits(B.K) >= 32)
    return V;
  if (slotKind() == ScalarKind::I32) // sign-extend the narrow signed bits
    return "(int)" + asType(scalarBits(B.K) == 8 ? "char" : "short", V);
  return "(uint)" + asType(clUnsignedType(B.K), V);
}

void HistogramEmitter::casLoop(const std::string &Space, const char *W,
                               const std::string &Ptr, const std::string &Shift,
                               const CVal &V, bool FromSlot) {
  bool Wide = std::string(W) == "ulong";
  std::string P = Em.fresh("p"), Old = Em.fresh("old"), As = Em.fresh("assumed");
  Em.open("");
  Em.line("volatile " + Space + " " + W + " *" + P + " = (volatile " + Space + " " + W +
          " *)(" + Ptr + ");");
  Em.line(std::string(W) + " " + Old + " = *" + P + ", " + As + ";");
  Em.open("do");
  Em.line(As + " = " + Old + ";");
  // The bin's current value as T.
  std::string Cur;
  unsigned Bits = scalarBits(B.K);
  if (!Shift.empty())
    Cur = asType(clType(B.K), "(" + std::string(clUnsignedType(B.K)) + ")(" + As + " >> " + Shift + ")");
  else if (FromSlot && Bits < 32)
    Cur = asType(clType(B.K), "(" + std::string(clUnsignedType(B.K)) + ")" + As);
  else
    Cur = asType(clType(B.K), As);
  size_t D0 = Em.envDepth();
  CVal R = Em.settle(Em.apply(B.OpFn, {CVal::scalar(Cur, B.K), V}), "r");
  Em.popTo(D0);
  std::string New;
  if (!Shift.empty()) {
    std::string Mask = std::string("((uint)") + (Bits == 8 ? "0xFFu" : "0xFFFFu") +
                       " << " + Shift + ")";
    New = "(" + As + " & ~" + Mask + ") | ((uint)" + asType(clUnsignedType(B.K), R.Expr) + " << " +
          Shift + ")";
  } else if (FromSlot && Bits < 32) {
    New = "(uint)" + asType(clUnsignedType(B.K), R.Expr);
  } else {
    New = asType(W, R.Expr);
  }
  Em.line(Old + " = " + (Wide ? "atom_cmpxchg(" : "atomic_cmpxchg(") + P + ", " + As + ", " +
          New + ");");
  Em.close();
  Em.Lines.back() += " while (" + Old + " != " + As + ");";
  Em.close();
}

void HistogramEmitter::globalUpdate(const std::string &Idx, const CVal &V) {
  std::string Addr = "&(" + B.Target.Arr->At(Idx).Expr + ")";
  unsigned Bits = scalarBits(B.K);
  if (B.Packed) {
    std::string A = Em.fresh("addr"), Sh = Em.fresh("sh");
    Em.line("const ulong " + A + " = (ulong)(" + Addr + ");");
    unsigned Bytes = Bits / 8;
    Em.line("#ifdef __ENDIAN_LITTLE__");
    Em.line("const uint " + Sh + " = (uint)(" + A + " & 3UL) * 8u;");
    Em.line("#else");
    Em.line("const uint " + Sh + " = (uint)(" + std::to_string(4 - Bytes) + "UL - (" + A +
            " & 3UL)) * 8u;");
    Em.line("#endif");
    casLoop("__global", "uint", A + " & ~3UL", Sh, V, false);
    return;
  }
  if (Bits == 32 && isInteger(B.K) && isNative32(B.Op)) {
    const char *PT;
    std::string Fn = native32(B.Op, B.K, &PT);
    Em.line(Fn + "((volatile __global " + PT + " *)" + Addr + ", " + asType(PT, V.Expr) +
            ");");
    return;
  }
  if (Bits == 64 && isInteger(B.K) && B.Op == IndexedOp::Add) {
    Em.line(std::string("atom_add((volatile __global ") + clType(B.K) + " *)" + Addr + ", " +
            V.Expr + ");");
    return;
  }
  casLoop("__global", Bits == 64 ? "ulong" : "uint", Addr, "", V, false);
}

void HistogramEmitter::localUpdate(const std::string &Slot, const CVal &V) {
  std::string Addr = "&(" + Slot + ")";
  ScalarKind SK = slotKind();
  unsigned Bits = scalarBits(B.K);
  std::string SV = toSlot(V.Expr);
  if (Bits < 32 && B.Op == IndexedOp::UAddSat) {
    // Racy test, bounded overshoot: at most one add of at most the maximum
    // per work-item after the slot reached the maximum; fromSlot clamps.
    Em.open("if (" + Slot + " < " + narrowMax(B.K) + ")");
    Em.line("atomic_add((volatile __local uint *)" + Addr + ", " + SV + ");");
    Em.close();
    return;
  }
  if (scalarBits(SK) == 32 && isInteger(SK) && isNative32(B.Op)) {
    const char *PT;
    std::string Fn = native32(B.Op, SK, &PT);
    Em.line(Fn + "((volatile __local " + PT + " *)" + Addr + ", " + asType(PT, SV) + ");");
    return;
  }
  if (Bits == 64 && isInteger(B.K) && B.Op == IndexedOp::Add) {
    Em.line(std::string("atom_add((volatile __local ") + clType(B.K) + " *)" + Addr + ", " +
            V.Expr + ");");
    return;
  }
  casLoop("__local", Bits == 64 ? "ulong" : "uint", Addr, "", V, true);
}

/// True for `Var` named \p N.
bool isVarNamed(const ExprPtr &E, const std::string &N) {
  return E->K == Expr::Var && E->Name == N;
}

/// The (bin, value) pair f(x) for element \p X, settled.
std::pair<CVal, CVal> pairOf(Emitter &Em, const ExprPtr &F, const CVal &X) {
  CVal P = Em.settle(Em.apply(F, {X}), "bin");
  if (P.K != CVal::Tuple || P.Elems.size() != 2 || P.Elems[0].K != CVal::Scalar ||
      P.Elems[1].K != CVal::Scalar)
    throw CodegenError("the element function of a histogram must give scalar "
                       "(i64, T) pairs");
  return {P.Elems[0], P.Elems[1]};
}

/// `if ((ulong)(K) < (ulong)(M))`: updates of bins outside [0, m) are dropped.
void openInRange(Emitter &Em, const std::string &K, const std::string &M) {
  Em.open("if ((ulong)(" + K + ") < (ulong)(" + M + "))");
}

/// A grid-stride loop over \p Len elements: `for (long i = gid; i < Len; i += gsize)`.
std::string openGridStride(Emitter &Em, const std::string &Len) {
  std::string I = Em.fresh("i");
  Em.open("for (long " + I + " = get_global_id(0); " + I + " < " + Len + "; " + I +
          " += get_global_size(0))");
  return I;
}

/// Matches mapGlobal(0, \r => mapSeq(f, r), strided(globalSize(0), a)) or
/// mapLocal(0, ...) with the same shape over \p Rows; sets F and A.
bool matchGridStride(const ExprPtr &E, const char *Map, ExprPtr &F, ExprPtr &Rows) {
  if (!E->isCall(Map) || E->Attr != 0 || E->Args[0]->K != Expr::Lambda ||
      E->Args[0]->Params.size() != 1)
    return false;
  const ExprPtr &Body = E->Args[0]->body();
  if (!Body->isCall("mapSeq") || !isVarNamed(Body->Args[1], E->Args[0]->Params[0].Name))
    return false;
  F = Body->Args[0];
  Rows = E->Args[1];
  return true;
}

bool isStridedByGlobalSize(const ExprPtr &E, ExprPtr &A) {
  if (!E->isCall("strided") || !E->Args[0]->isCall("globalSize") || E->Args[0]->Attr != 0)
    return false;
  A = E->Args[1];
  return true;
}

/// The bins of lowered histogram program \p P (root reduceIndexedAtomic).
Bins binsOf(Emitter &Em, const funil::Program &P) {
  const ExprPtr &Root = P.Body;
  if (P.Outs.size() != 1 || !funil::sameExpr(*Root->Args[1], *P.Outs[0]))
    throw CodegenError("the bins of a histogram must be its output view, updated in place");
  funil::TypeEnv Env;
  for (const funil::Param &Pa : P.Params)
    Env.push(Pa.Name, Pa.Ty);
  Bins B;
  B.OpFn = Root->Args[0];
  if (!indexedBinKind(*Root, Env, B.K) || B.K == ScalarKind::Bool)
    throw CodegenError("histogram bins must be non-bool scalars");
  B.Op = classifyIndexedOp(B.OpFn, B.K);
  B.Target = Em.emit(P.Outs[0]);
  if (B.Target.K != CVal::Array)
    throw CodegenError("histogram bins are not an array");
  B.Len = B.Target.Arr->Len;
  if (scalarBits(B.K) < 32) {
    // The aligned 32-bit word of every bin must lie inside the buffer.
    // The count is a constant, or `mul(words, c)` (run-time bins: the
    // stitched code passes whole words), whose byte length is a multiple of 4.
    const ExprPtr &O = P.Outs[0];
    int64_t Bytes = scalarBits(B.K) / 8;
    auto WholeWords = [&](const ExprPtr &N) {
      if (N->K == Expr::Lit)
        return N->signedValue() * Bytes % 4 == 0;
      return N->isCall("mul") && N->Args.size() == 2 && N->Args[1]->K == Expr::Lit &&
             N->Args[1]->signedValue() > 0 && N->Args[1]->signedValue() * Bytes % 4 == 0;
    };
    bool Ok = O->Args.size() == 4 && O->Args[1]->K == Expr::Lit &&
              O->Args[1]->signedValue() == 0 && O->Args[2]->K == Expr::Lit &&
              O->Args[2]->signedValue() == 1 && WholeWords(O->Args[3]);
    if (!Ok)
      throw CodegenError("8- and 16-bit bins need a view at offset 0 with unit stride and "
                         "a count whose byte length is a multiple of 4 (a constant, or "
                         "mul(words, c))");
    B.Packed = true;
  }
  return B;
}

} // namespace

void emitBinUpdate(Emitter &Em, const funil::Program &P, const std::string &Idx,
                   const CVal &V) {
  if (!P.Body->isCall("reduceIndexedAtomic"))
    throw CodegenError("a histogram must be lowered to reduceIndexedAtomic at its root");
  HistogramEmitter(Em, binsOf(Em, P)).globalUpdate(Idx, V);
}

void emitHistogram(Emitter &Em, const funil::Program &P) {
  const ExprPtr &Root = P.Body;
  if (!Root->isCall("reduceIndexedAtomic"))
    throw CodegenError("a histogram must be lowered to reduceIndexedAtomic at its root");
  Bins B = binsOf(Em, P);
  HistogramEmitter H(Em, B);
  const ExprPtr &Pairs = Root->Args[2];
  ExprPtr F, Rows, A;

  // One work-item per element.
  if (Pairs->isCall("mapGlobal") && Pairs->Attr == 0 && Pairs->Args[0]->K == Expr::Lambda &&
      !Pairs->Args[0]->body()->isCall("mapSeq")) {
    CVal In = Em.emit(Pairs->Args[1]);
    if (In.K != CVal::Array)
      throw CodegenError("histogram over a non-array");
    std::string I = Em.fresh("i0");
    Em.line("const long " + I + " = get_global_id(0);");
    Em.open("if (" + I + " < " + In.Arr->Len + ")");
    auto [K, V] = pairOf(Em, Pairs->Args[0], In.Arr->At(I));
    openInRange(Em, K.Expr, B.Len);
    H.globalUpdate(K.Expr, V);
    Em.close();
    Em.close();
    return;
  }

  // Grid-stride over the elements, global atomics.
  if (matchGridStride(Pairs, "mapGlobal", F, Rows) && isStridedByGlobalSize(Rows, A)) {
    CVal In = Em.emit(A);
    if (In.K != CVal::Array)
      throw CodegenError("histogram over a non-array");
    std::string I = openGridStride(Em, In.Arr->Len);
    auto [K, V] = pairOf(Em, F, In.Arr->At(I));
    openInRange(Em, K.Expr, B.Len);
    H.globalUpdate(K.Expr, V);
    Em.close();
    Em.close();
    return;
  }

  // Privatised: per-work-group bins in local memory.
  if (!Pairs->isCall("mapWorkgroup") || Pairs->Attr != 0 ||
      Pairs->Args[0]->K != Expr::Lambda || Pairs->Args[0]->Params.size() != 1)
    throw CodegenError("unsupported lowered histogram form");
  const std::string &G = Pairs->Args[0]->Params[0].Name;
  const ExprPtr &Zip = Pairs->Args[0]->body();
  const ExprPtr &Groups = Pairs->Args[1];
  if (!Zip->isCall("zip") || Zip->Args.size() != 2 || !Zip->Args[0]->isCall("iota") ||
      !Zip->Args[1]->isCall("reduceIndexedAtomic") || !Groups->isCall("split") ||
      !Groups->Args[0]->isCall("localSize") || Groups->Args[0]->Attr != 0 ||
      !isStridedByGlobalSize(Groups->Args[1], A))
    throw CodegenError("a privatised histogram must be mapWorkgroup(0, \\g => zip(iota(m), "
                       "reduceIndexedAtomic(...)), split(localSize(0), strided(globalSize(0), "
                       "a)))");
  const ExprPtr &Local = Zip->Args[1];
  const ExprPtr &M = Zip->Args[0]->Args[0];
  const ExprPtr &Fill = Local->Args[1];
  bool ConstCount = M->K == Expr::Lit;
  if (!funil::sameExpr(*Local->Args[0], *B.OpFn) || !Fill->isCall("toLocal") ||
      !Fill->Args[0]->isCall("map") || !Fill->Args[0]->Args[1]->isCall("iota") ||
      !funil::sameExpr(*Fill->Args[0]->Args[1]->Args[0], *M) ||
      (ConstCount && M->signedValue() <= 0) || Fill->Args[0]->Args[0]->K != Expr::Lambda ||
      Fill->Args[0]->Args[0]->body()->K != Expr::Lit ||
      !matchGridStride(Local->Args[2], "mapLocal", F, Rows) || !isVarNamed(Rows, G))
    throw CodegenError("the local bins of a privatised histogram must be "
                       "reduceIndexedAtomic(op, toLocal(map(\\j => z, iota(m))), "
                       "mapLocal(0, \\r => mapSeq(f, r), g)) with the same op");
  std::string Z = Em.emit(Fill->Args[0]->Args[0]->body()).Expr;
  // A run-time count m: local bins of the capacity that local memory allows
  // (declared at kernel scope, as OpenCL requires), used when m fits; else
  // the work-group counts into the global bins (grid-stride, global
  // atomics). m is a kernel argument, so the branch is uniform and the
  // barriers inside it are reached by every work-item or by none.
  std::string Ms, Cap;
  if (ConstCount) {
    Ms = std::to_string(M->signedValue());
    Cap = Ms;
  } else {
    Ms = "(" + Em.emit(M).Expr + ")";
    Cap = std::to_string(MaxLocalBinBytes / std::max(4u, scalarBits(H.slotKind()) / 8));
  }
  std::string LB = Em.fresh("lbins"), J = Em.fresh("j");
  Em.line(std::string("__local ") + clType(H.slotKind()) + " " + LB + "[" + Cap + "];");
  CVal In = Em.emit(A);
  if (In.K != CVal::Array)
    throw CodegenError("histogram over a non-array");
  if (!ConstCount) {
    Em.open("if ((ulong)" + Ms + " > " + Cap + "UL)");
    size_t D0 = Em.envDepth();
    std::string I = openGridStride(Em, In.Arr->Len);
    auto [K, V] = pairOf(Em, F, In.Arr->At(I));
    openInRange(Em, K.Expr, B.Len);
    H.globalUpdate(K.Expr, V);
    Em.close();
    Em.close();
    Em.popTo(D0);
    Em.line("return;");
    Em.close();
  }
  Em.open("for (long " + J + " = get_local_id(0); " + J + " < " + Ms + "; " + J +
          " += get_local_size(0))");
  Em.line(LB + "[" + J + "] = " + H.toSlot(Z) + ";");
  Em.close();
  Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
  std::string I = openGridStride(Em, In.Arr->Len);
  auto [K, V] = pairOf(Em, F, In.Arr->At(I));
  openInRange(Em, K.Expr, Ms);
  H.localUpdate(LB + "[" + K.Expr + "]", V);
  Em.close();
  Em.close();
  Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
  std::string J2 = Em.fresh("j");
  Em.open("for (long " + J2 + " = get_local_id(0); " + J2 + " < " + Ms + "; " + J2 +
          " += get_local_size(0))");
  std::string Val = Em.fresh("v");
  Em.line(std::string("const ") + clType(B.K) + " " + Val + " = " +
          H.fromSlot(LB + "[" + J2 + "]") + ";");
  // Bins that only saw the identity are left alone (bit patterns compared,
  // so a -0.0 is not mistaken for the identity of fadd... and vice versa).
  const char *UT = clUnsignedType(B.K);
  Em.open("if (" + asType(UT, Val) + " != " + asType(UT, "(" + std::string(clType(B.K)) +
                                                         ")(" + Z + ")") +
          ")");
  H.globalUpdate(J2, CVal::scalar(Val, B.K));
  Em.close();
  Em.close();
}

std::string histogramPragmas(const funil::Program &P) {
  if (!P.Body || (!P.Body->isCall("reduceIndexedAtomic") && !P.Body->isCall("reduceIndexed")))
    return "";
  funil::TypeEnv Env;
  for (const funil::Param &Pa : P.Params)
    Env.push(Pa.Name, Pa.Ty);
  ScalarKind K;
  if (!indexedBinKind(*P.Body, Env, K) || scalarBits(K) != 64)
    return "";
  return "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
         "#ifndef cl_khr_int64_base_atomics\n"
         "#error \"64-bit histogram bins need cl_khr_int64_base_atomics\"\n"
         "#endif\n";
}

} // namespace idiom::rewrite::codegen
