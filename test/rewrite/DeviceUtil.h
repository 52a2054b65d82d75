//===- DeviceUtil.h - run generated kernels against the interpreter -*- C++ -*-===//
//
// Part of Idiom. Byte conversion of FunIL values for kernel arguments, and
// one-call checks that run a generated map or reduction on the OpenCL device
// (PoCL in CI) and compare every buffer or accumulator with the reference
// interpreter. The same steps as OpenCLGenTest.cpp's fixtures, shared by
// the newer device tests.
//
//===----------------------------------------------------------------------===//

#ifndef IDIOM_TEST_REWRITE_DEVICEUTIL_H
#define IDIOM_TEST_REWRITE_DEVICEUTIL_H

#include "OpenCLRunner.h"
#include "TestUtil.h"
#include "idiom/Rewrite/OpenCLGen.h"

#include <cstring>
#include <functional>

namespace idiom::rwtest {

inline size_t elemBytes(ScalarKind K) {
  return K == ScalarKind::Bool ? 1 : scalarBits(K) / 8;
}

/// The elements of array \p Arr of kind \p K as device bytes.
inline std::vector<uint8_t> toDeviceBytes(const Value &Arr, ScalarKind K) {
  std::vector<uint8_t> B;
  for (const Value &V : Arr.Elems) {
    uint8_t Tmp[8];
    if (K == ScalarKind::F32) {
      float F = static_cast<float>(V.F);
      std::memcpy(Tmp, &F, 4);
    } else if (K == ScalarKind::F64) {
      std::memcpy(Tmp, &V.F, 8);
    } else {
      std::memcpy(Tmp, &V.Bits, 8); // little endian: low bytes first
    }
    B.insert(B.end(), Tmp, Tmp + elemBytes(K));
  }
  return B;
}

/// Element \p Index of device bytes \p B as a value of kind \p K.
inline Value fromDeviceBytes(const std::vector<uint8_t> &B, size_t Index, ScalarKind K) {
  const uint8_t *P = B.data() + Index * elemBytes(K);
  if (K == ScalarKind::F32) {
    float F;
    std::memcpy(&F, P, 4);
    return Value::ofFloat(K, F);
  }
  if (K == ScalarKind::F64) {
    double D;
    std::memcpy(&D, P, 8);
    return Value::ofFloat(K, D);
  }
  uint64_t Bits = 0;
  std::memcpy(&Bits, P, elemBytes(K));
  return Value::ofInt(K, static_cast<int64_t>(Bits));
}

/// The kernel argument of scalar \p V.
inline KernelArg scalarKernelArg(const Value &V) {
  if (V.S == ScalarKind::F32)
    return KernelArg::scalar(static_cast<float>(V.F));
  if (V.S == ScalarKind::F64)
    return KernelArg::scalar(V.F);
  KernelArg A;
  A.Bytes.resize(elemBytes(V.S));
  std::memcpy(A.Bytes.data(), &V.Bits, A.Bytes.size());
  return A;
}

/// The program's parameters as kernel arguments.
inline std::vector<KernelArg> kernelArgs(const Program &P, ValueMap &Args) {
  std::vector<KernelArg> K;
  for (const funil::Param &Pa : P.Params)
    K.push_back(Pa.Ty->isBuffer() ? KernelArg::buffer(toDeviceBytes(Args[Pa.Name], Pa.Ty->Elem->S))
                                  : scalarKernelArg(Args[Pa.Name]));
  return K;
}

/// Generates kernel "k" for map program \p P (variant 0), runs it over
/// \p Global / \p Local on \p Args and compares every buffer with the
/// interpreter within \p Tol; "" or why not. \p Src receives the source.
/// With \p Lowered, P is emitted as it is (emitOpenCL), else lowered with
/// the default strategy first.
inline std::string checkMapOnDevice(OpenCLRunner &R, const Program &P, const ValueMap &Args,
                                    std::vector<size_t> Global, std::vector<size_t> Local,
                                    double Tol, std::string *Src = nullptr,
                                    bool Lowered = false) {
  rewrite::GeneratedOpenCL G;
  std::string Err;
  if (!(Lowered ? rewrite::emitOpenCL(P, "k", G, Err)
                : rewrite::generateOpenCL(P, "k", G, Err, 1)))
    return "generate: " + Err;
  if (Src)
    *Src = G.Source;
  if (!R.build(G.Source, Err))
    return "build: " + Err + "\n" + G.Source;
  ValueMap Want = Args, In = Args;
  Value Res;
  if (!runProgram(P, Want, Res, Err))
    return "interpreter: " + Err;
  std::vector<KernelArg> K = kernelArgs(P, In);
  if (!R.run("k", K, Global, Local, Err))
    return "run: " + Err;
  for (size_t I = 0; I < P.Params.size(); ++I) {
    const funil::Param &Pa = P.Params[I];
    if (!Pa.Ty->isBuffer())
      continue;
    for (size_t E = 0; E < Want[Pa.Name].Elems.size(); ++E) {
      Value Got = fromDeviceBytes(K[I].Bytes, E, Pa.Ty->Elem->S);
      if (!valuesClose(Got, Want[Pa.Name].Elems[E], Tol))
        return Pa.Name + "[" + std::to_string(E) + "]: device " + printValue(Got) +
               " vs " + printValue(Want[Pa.Name].Elems[E]) + "\n" + G.Source;
    }
  }
  return "";
}

/// Byte sizes of the result slots (part_k, out_k, scratch_k) of the
/// reduction kernels of \p P (rewrite::reductionSlotBytes: a compensated
/// sum has two, the finished sum first); the accumulator leaves'
/// sizes when it has none.
inline std::vector<size_t> reduceSlotBytes(const Program &P, const std::vector<Value> &Leaves) {
  std::vector<size_t> Out;
  for (unsigned B : rewrite::reductionSlotBytes(P))
    Out.push_back(B);
  if (Out.empty())
    for (const Value &W : Leaves)
      Out.push_back(elemBytes(W.S));
  return Out;
}

/// Generates reduction \p P (variant 0: kernels r_partial, r_final), runs
/// \p Groups groups of \p L work-items then the final kernel, and compares
/// the accumulators with the interpreter within \p Tol; "" or why not.
inline std::string checkReduceOnDevice(OpenCLRunner &R, const Program &P, const ValueMap &Args,
                                       size_t Groups, size_t L, double Tol,
                                       std::string *Src = nullptr, bool Lowered = false) {
  rewrite::GeneratedOpenCL G;
  std::string Err;
  if (!(Lowered ? rewrite::emitOpenCL(P, "r", G, Err)
                : rewrite::generateOpenCL(P, "r", G, Err, 1)))
    return "generate: " + Err;
  if (Src)
    *Src = G.Source;
  if (!R.build(G.Source, Err))
    return "build: " + Err + "\n" + G.Source;
  ValueMap Copy = Args, In = Args;
  Value Want;
  if (!runProgram(P, Copy, Want, Err))
    return "interpreter: " + Err;
  std::vector<Value> Leaves;
  std::function<void(const Value &)> Flat = [&](const Value &V) {
    if (V.K == Value::Tuple)
      for (const Value &E : V.Elems)
        Flat(E);
    else
      Leaves.push_back(V);
  };
  Flat(Want);
  std::vector<KernelArg> K = kernelArgs(P, In);
  size_t NParams = K.size();
  std::vector<size_t> Slots = reduceSlotBytes(P, Leaves);
  for (size_t B : Slots)
    K.push_back(KernelArg::buffer(std::vector<uint8_t>(Groups * B)));
  for (size_t B : Slots)
    K.push_back(KernelArg::local(L * B));
  if (!R.run("r_partial", K, {Groups * L}, {L}, Err))
    return "run partial: " + Err;
  std::vector<KernelArg> F{KernelArg::scalar<int64_t>(static_cast<int64_t>(Groups))};
  for (size_t J = 0; J < Slots.size(); ++J)
    F.push_back(K[NParams + J]);
  for (size_t B : Slots)
    F.push_back(KernelArg::buffer(std::vector<uint8_t>(B)));
  for (size_t B : Slots)
    F.push_back(KernelArg::local(L * B));
  if (!R.run("r_final", F, {L}, {L}, Err))
    return "run final: " + Err;
  for (size_t J = 0; J < Leaves.size(); ++J) {
    Value Got = fromDeviceBytes(F[1 + Slots.size() + J].Bytes, 0, Leaves[J].S);
    if (!valuesClose(Got, Leaves[J], Tol))
      return "accumulator " + std::to_string(J) + ": device " + printValue(Got) + " vs " +
             printValue(Leaves[J]) + "\n" + G.Source;
  }
  return "";
}

} // namespace idiom::rwtest

#endif // IDIOM_TEST_REWRITE_DEVICEUTIL_H
