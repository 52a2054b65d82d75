//===- OpenCLGen.cpp - OpenCL C from FunIL --------------------------------===//
//
// Part of Idiom. Kernel assembly: signatures per runtime/include/idiomrt.h,
// the map kernel (mapGlobal nest with bound guards) and the two reduction
// kernels (seeds/004 section 5, two-stage because OpenCL has no global
// barrier).
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/OpenCLGen.h"

#include "codegen/Emitter.h"
#include "codegen/ScalarC.h"
#include "idiom/FunIL/ExprUtil.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/FunIL/TypeCheck.h"
#include "idiom/Rewrite/DefaultStrategies.h"

#include <functional>
#include <set>

namespace idiom::rewrite {

using namespace codegen;
using funil::Expr;
using funil::Program;
using funil::Type;
using funil::TypePtr;

namespace {

const char *const ReservedWords[] = {
    "auto", "bool", "break", "case", "char", "const", "constant", "continue",
    "default", "do", "double", "else", "enum", "extern", "float", "for",
    "global", "goto", "half", "if", "inline", "int", "kernel", "local", "long",
    "private", "register", "restrict", "return", "short", "signed", "sizeof",
    "static", "struct", "switch", "typedef", "uchar", "uint", "ulong", "union",
    "unsigned", "ushort", "void", "volatile", "while", "true", "false",
    "read_only", "write_only", "read_write", "size_t", "ptrdiff_t", "min",
    "max", "fmin", "fmax", "fma", "fmod", "sqrt", "exp", "log", "sin", "cos",
    "pow", "floor", "ceil", "fabs", "abs", "clz", "mad", "barrier",
    "get_global_id", "get_local_id", "get_group_id", "get_global_size",
    "get_local_size", "get_num_groups", "INFINITY", "NAN", "as_int",
    "as_uint", "as_long", "as_ulong", "as_float", "as_double", "m"};

struct Kernel {
  std::string Name;
  std::vector<std::string> Params;
  std::vector<std::string> Body;
};

std::string printKernel(const Kernel &K) {
  std::string S = "__kernel void " + K.Name + "(";
  for (size_t I = 0; I < K.Params.size(); ++I)
    S += (I ? ", " : "") + K.Params[I];
  S += ") {\n";
  for (const std::string &L : K.Body)
    S += L + "\n";
  return S + "}\n";
}

bool typeUsesF64(const Type &T) {
  if (T.isScalar())
    return T.S == funil::ScalarKind::F64;
  if (T.Elem && typeUsesF64(*T.Elem))
    return true;
  for (const TypePtr &E : T.Elems)
    if (typeUsesF64(*E))
      return true;
  return false;
}

bool exprUsesF64(const Expr &E) {
  if ((E.K == Expr::Lit || E.K == Expr::Cast) && E.LitKind == funil::ScalarKind::F64)
    return true;
  for (const funil::Param &P : E.Params)
    if (typeUsesF64(*P.Ty))
      return true;
  for (const ExprPtr &A : E.Args)
    if (exprUsesF64(*A))
      return true;
  return false;
}

/// Kernel-side names and values of the program parameters.
struct ParamInfo {
  std::vector<std::string> Decls; ///< kernel parameter declarations
  std::set<std::string> Names;    ///< C names in use
};

ParamInfo bindParams(const Program &P, const std::set<std::string> &Stored,
                     Emitter *Em) {
  ParamInfo PI;
  std::set<std::string> Reserved(std::begin(ReservedWords), std::end(ReservedWords));
  for (const funil::Param &Pa : P.Params) {
    std::string C = Pa.Name;
    while (Reserved.count(C) || PI.Names.count(C) || C.rfind("__", 0) == 0)
      C += "_p";
    PI.Names.insert(C);
    if (Pa.Ty->isBuffer()) {
      ScalarKind K = Pa.Ty->Elem->S;
      PI.Decls.push_back(std::string("__global ") +
                         (Stored.count(Pa.Name) ? "" : "const ") + clType(K) +
                         " *" + C);
      if (Em) {
        CVal B;
        B.K = CVal::Buffer;
        B.Expr = C;
        B.S = K;
        Em->bind(Pa.Name, B);
      }
    } else {
      if (Pa.Ty->S == ScalarKind::Bool)
        throw CodegenError("parameter '" + Pa.Name +
                           "' is bool, which OpenCL kernels cannot take");
      PI.Decls.push_back(std::string("const ") + clType(Pa.Ty->S) + " " + C);
      if (Em)
        Em->bind(Pa.Name, CVal::scalar(C, Pa.Ty->S));
    }
  }
  return PI;
}

std::set<std::string> reservedWith(const std::set<std::string> &Extra) {
  std::set<std::string> R(std::begin(ReservedWords), std::end(ReservedWords));
  R.insert(Extra.begin(), Extra.end());
  return R;
}

/// Emits the store of \p E through \p Target: mapGlobal levels become
/// NDRange dimensions with guards, mapSeq levels loops, the rest values.
void emitStore(Emitter &Em, const ExprPtr &E, const CVal &Target,
               unsigned &Dims) {
  bool Global = E->isCall("mapGlobal");
  if (Global || E->isCall("mapSeq")) {
    CVal In = Em.emit(E->Args[1]);
    if (In.K != CVal::Array)
      throw CodegenError("map of a non-array");
    std::string I;
    if (Global) {
      std::string D = std::to_string(E->Attr);
      Dims = std::max<unsigned>(Dims, static_cast<unsigned>(E->Attr) + 1);
      I = Em.fresh("i" + D);
      Em.line("const long " + I + " = get_global_id(" + D + ");");
      Em.open("if (" + I + " < " + In.Arr->Len + ")");
    } else {
      I = Em.fresh("j");
      Em.open("for (long " + I + " = 0; " + I + " < " + In.Arr->Len + "; ++" + I + ")");
    }
    const ExprPtr &Fn = E->Args[0];
    size_t D0 = Em.envDepth();
    Em.bind(Fn->Params[0].Name, Em.settle(In.Arr->At(I), Fn->Params[0].Name));
    emitStore(Em, Fn->body(), Em.elementOf(Target, I), Dims);
    Em.popTo(D0);
    Em.close();
    return;
  }
  Em.assign(Target, Em.emit(E));
}

std::string genMap(const Program &P, const std::string &Name) {
  std::set<std::string> Stored;
  for (const ExprPtr &O : P.Outs)
    Stored.insert(O->Args[0]->Name);
  ParamInfo PI = bindParams(P, Stored, nullptr);
  Emitter Em(reservedWith(PI.Names));
  bindParams(P, Stored, &Em);
  CVal Target;
  if (P.Outs.size() == 1) {
    Target = Em.emit(P.Outs[0]);
  } else {
    Target.K = CVal::Tuple;
    for (const ExprPtr &O : P.Outs)
      Target.Elems.push_back(Em.emit(O));
  }
  if (!P.Body->isCall("mapGlobal"))
    throw CodegenError("a map program must be lowered to mapGlobal at its root");
  unsigned Dims = 0;
  emitStore(Em, P.Body, Target, Dims);
  if (Dims > 2)
    throw CodegenError("map nests deeper than two parallel dimensions");
  Kernel K{Name, PI.Decls, Em.Lines};
  return printKernel(K);
}

/// Finds toGlobal(mapWorkgroup(...)) under \p E.
ExprPtr findStageBoundary(const ExprPtr &E) {
  if (E->isCall("toGlobal") && E->Args[0]->isCall("mapWorkgroup"))
    return E;
  for (const ExprPtr &A : E->Args)
    if (ExprPtr R = findStageBoundary(A))
      return R;
  return nullptr;
}

ExprPtr replaceNode(const ExprPtr &E, const ExprPtr &Old, const ExprPtr &New) {
  if (E == Old)
    return New;
  std::vector<ExprPtr> Args;
  bool Changed = false;
  for (const ExprPtr &A : E->Args) {
    Args.push_back(replaceNode(A, Old, New));
    Changed |= Args.back() != A;
  }
  return Changed ? funil::withArgs(*E, std::move(Args)) : E;
}

/// A CVal shaped like \p T whose leaf k is `Names[k][Idx]`.
CVal leavesAt(const TypePtr &T, const std::vector<std::string> &Names,
              const std::string &Idx, size_t &Next) {
  if (T->isTuple()) {
    CVal V;
    V.K = CVal::Tuple;
    for (const TypePtr &E : T->Elems)
      V.Elems.push_back(leavesAt(E, Names, Idx, Next));
    return V;
  }
  return CVal::scalar(Names[Next++] + "[" + Idx + "]", T->S);
}

/// The body of one reduction kernel: the work-group loop of \p MW, with
/// work-item 0 writing the group's value to Targets[k][group].
void emitWorkgroups(Emitter &Em, const ExprPtr &MW,
                    const std::vector<std::string> &Targets) {
  if (MW->Attr != 0)
    throw CodegenError("reductions use NDRange dimension 0 only");
  CVal In = Em.emit(MW->Args[1]);
  if (In.K != CVal::Array)
    throw CodegenError("mapWorkgroup of a non-array");
  std::string WG = Em.fresh("wg");
  Em.open("for (long " + WG + " = get_group_id(0); " + WG + " < " + In.Arr->Len +
          "; " + WG + " += get_num_groups(0))");
  CVal V = Em.apply(MW->Args[0], {In.Arr->At(WG)});
  std::vector<CVal> Leaves;
  leavesOf(V, Leaves);
  if (Leaves.size() != Targets.size())
    throw CodegenError("work-group result does not match the accumulators");
  Em.open("if (get_local_id(0) == 0)");
  for (size_t K = 0; K < Leaves.size(); ++K)
    Em.line(Targets[K] + "[" + WG + "] = " + Leaves[K].Expr + ";");
  Em.close();
  Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
  Em.close();
}

std::string genReduce(const Program &P, const TypePtr &ResTy,
                      const std::string &Name) {
  const ExprPtr &Body = P.Body;
  if (!Body->isCall("at") || !Body->Args[0]->isCall("mapWorkgroup"))
    throw CodegenError("a reduction must be lowered to the two-stage form "
                       "at(mapWorkgroup(...), 0)");
  ExprPtr MW2 = Body->Args[0];
  ExprPtr Boundary = findStageBoundary(MW2->Args[1]);
  if (!Boundary)
    throw CodegenError("the final stage does not read a toGlobal(mapWorkgroup) "
                       "partial stage");
  ExprPtr MW1 = Boundary->Args[0];

  std::vector<TypePtr> Leaves;
  funil::flattenLeaves(ResTy, Leaves);
  std::vector<std::string> Part, Out, Scratch;
  std::vector<std::string> PartDecls, OutDecls, ScratchDecls;
  for (size_t K = 0; K < Leaves.size(); ++K) {
    if (!Leaves[K]->isScalar() || Leaves[K]->S == ScalarKind::Bool)
      throw CodegenError("accumulator " + std::to_string(K) +
                         " must be a non-bool scalar");
    std::string T = clType(Leaves[K]->S), S = std::to_string(K);
    Part.push_back("part_" + S);
    Out.push_back("out_" + S);
    Scratch.push_back("scratch_" + S);
    PartDecls.push_back("__global " + T + " *part_" + S);
    OutDecls.push_back("__global " + T + " *out_" + S);
    ScratchDecls.push_back("__local " + T + " *scratch_" + S);
  }

  // Stage one: the program's parameters, then part_k and scratch_k.
  ParamInfo PI = bindParams(P, {}, nullptr);
  std::set<std::string> Extra = PI.Names;
  Extra.insert(Part.begin(), Part.end());
  Extra.insert(Scratch.begin(), Scratch.end());
  Emitter Em1(reservedWith(Extra));
  bindParams(P, {}, &Em1);
  for (size_t K = 0; K < Leaves.size(); ++K)
    Em1.LocalPool.push_back({Scratch[K], Leaves[K]->S});
  emitWorkgroups(Em1, MW1, Part);
  Kernel K1{Name + "_partial", PI.Decls, Em1.Lines};
  K1.Params.insert(K1.Params.end(), PartDecls.begin(), PartDecls.end());
  K1.Params.insert(K1.Params.end(), ScratchDecls.begin(), ScratchDecls.end());

  // Stage two: m partials in part_k, one work-group, into out_k[0].
  const std::string PartialsVar = "$partials";
  ExprPtr MW2b = replaceNode(MW2, Boundary, Expr::var(PartialsVar));
  std::set<std::string> Free;
  funil::freeVars(*MW2b, Free);
  Free.erase(PartialsVar);
  if (!Free.empty())
    throw CodegenError("the final stage uses parameter '" + *Free.begin() +
                       "', which the final kernel does not receive");
  std::set<std::string> Extra2(Part.begin(), Part.end());
  Extra2.insert(Out.begin(), Out.end());
  Extra2.insert(Scratch.begin(), Scratch.end());
  Emitter Em2(reservedWith(Extra2));
  auto Partials = std::make_shared<View>();
  Partials->Len = "m";
  Partials->At = [ResTy, Part](const std::string &I) {
    size_t Next = 0;
    return leavesAt(ResTy, Part, I, Next);
  };
  Em2.bind(PartialsVar, CVal::array(Partials));
  for (size_t K = 0; K < Leaves.size(); ++K)
    Em2.LocalPool.push_back({Scratch[K], Leaves[K]->S});
  emitWorkgroups(Em2, MW2b, Out);
  Kernel K2{Name + "_final", {"const long m"}, Em2.Lines};
  K2.Params.insert(K2.Params.end(), PartDecls.begin(), PartDecls.end());
  K2.Params.insert(K2.Params.end(), OutDecls.begin(), OutDecls.end());
  K2.Params.insert(K2.Params.end(), ScratchDecls.begin(), ScratchDecls.end());
  return printKernel(K1) + "\n" + printKernel(K2);
}

bool validKernelName(const std::string &N) {
  if (N.empty() || std::isdigit(static_cast<unsigned char>(N[0])))
    return false;
  for (char C : N)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
      return false;
  return true;
}

} // namespace

bool emitOpenCL(const Program &P, const std::string &KernelName,
                GeneratedOpenCL &Out, std::string &Err) {
  if (!validKernelName(KernelName)) {
    Err = "invalid kernel name '" + KernelName + "'";
    return false;
  }
  TypePtr BodyTy;
  if (!funil::typeCheckProgram(P, Err, &BodyTy))
    return false;
  try {
    bool F64 = exprUsesF64(*P.Body);
    for (const funil::Param &Pa : P.Params)
      F64 |= typeUsesF64(*Pa.Ty);
    std::string Src = "// Generated by Idiom from FunIL program '" + P.Name +
                      "'; conventions of runtime/include/idiomrt.h.\n";
    if (F64)
      Src += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    // fmul then fadd stays two roundings, as in the source; fmuladd is
    // emitted as fma (DESIGN section 7).
    Src += "#pragma OPENCL FP_CONTRACT OFF\n";
    Src += P.IsReturn ? genReduce(P, BodyTy, KernelName) : genMap(P, KernelName);
    Out.Source = Src;
    Out.LoweredFunIL = funil::printProgram(P);
    return true;
  } catch (const CodegenError &E) {
    Err = std::string("OpenCL generation: ") + E.what();
  } catch (const std::exception &E) {
    Err = std::string("OpenCL generation: internal error: ") + E.what();
  }
  return false;
}

bool generateOpenCL(const Program &P, const std::string &KernelName,
                    GeneratedOpenCL &Out, std::string &Err) {
  try {
    if (!funil::typeCheckProgram(P, Err))
      return false;
    Program L = P;
    if (!lowerProgram(L, Err))
      return false;
    return emitOpenCL(L, KernelName, Out, Err);
  } catch (const std::exception &E) {
    Err = std::string("internal error: ") + E.what();
  }
  return false;
}

} // namespace idiom::rewrite
