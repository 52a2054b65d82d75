//===- OpenCLGen.cpp - OpenCL C from FunIL --------------------------------===//
//
// Part of Idiom. Kernel assembly: signatures per runtime/include/idiomrt.h,
// the map kernel (mapGlobal nest with bound guards; vector loads and stores
// for rows of as-vector-map) and the two reduction kernels (seeds/004
// section 5, two-stage because OpenCL has no global barrier); the variants
// of exploreVariants in one source, each with its reqd_work_group_size and
// the marker line the runtime reads.
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/OpenCLGen.h"

#include "GenMemo.h"
#include "codegen/Emitter.h"
#include "codegen/MatMulGen.h"
#include "codegen/RowLanesGen.h"
#include "codegen/SplitKTilesGen.h"
#include "codegen/HistogramGen.h"
#include "codegen/ScalarC.h"
#include "codegen/Views.h"
#include "idiom/FunIL/ExprUtil.h"
#include "idiom/FunIL/Printer.h"
#include "idiom/FunIL/TypeCheck.h"
#include "idiom/Rewrite/DefaultStrategies.h"
#include "idiom/Rewrite/Explore.h"
#include "idiom/Rewrite/Histogram.h"
#include "idiom/Rewrite/OpenCLGenMemo.h"

#include <algorithm>
#include <cstring>

#include <functional>
#include <set>
#include <unordered_set>

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

using genmemo::Kernel;

/// The kernels' source, separated by empty lines; \p Attr is the
/// `__attribute__((...))` between __kernel and void, or empty.
std::string printKernels(const std::vector<Kernel> &Ks, const std::string &Name,
                         const std::string &Attr) {
  size_t Size = 0;
  for (const Kernel &K : Ks) {
    Size += 64 + Attr.size() + Name.size();
    for (const std::string &P : K.Params)
      Size += P.size() + 2;
    for (const std::string &L : K.Body)
      Size += L.size() + 1;
  }
  std::string S;
  S.reserve(Size);
  for (size_t N = 0; N < Ks.size(); ++N) {
    const Kernel &K = Ks[N];
    if (N)
      S += '\n';
    S += "__kernel ";
    if (!Attr.empty())
      S.append(Attr).append(" ");
    S.append("void ").append(Name).append(K.Suffix).append("(");
    for (size_t I = 0; I < K.Params.size(); ++I)
      S.append(I ? ", " : "").append(K.Params[I]);
    S += ") {\n";
    for (const std::string &L : K.Body)
      S.append(L).append("\n");
    S += "}\n";
  }
  return S;
}

bool typeUsesF64(const Type &T) {
  if (T.isScalar() || T.isVector())
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
/// ReservedWords as a set, made once.
const std::unordered_set<std::string> &reservedSet() {
  static const std::unordered_set<std::string> R(std::begin(ReservedWords),
                                                 std::end(ReservedWords));
  return R;
}

struct ParamInfo {
  std::vector<std::string> Decls; ///< kernel parameter declarations
  std::set<std::string> Names;    ///< C names in use
};

ParamInfo bindParams(const Program &P, const std::set<std::string> &Stored,
                     Emitter *Em) {
  ParamInfo PI;
  const std::unordered_set<std::string> &Reserved = reservedSet();
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

/// A vector of one kernel with no suffix (moved in: an initializer list
/// would copy the lines).
std::vector<Kernel> oneKernel(std::vector<std::string> Params,
                              std::vector<std::string> Body) {
  std::vector<Kernel> Ks(1);
  Ks[0].Params = std::move(Params);
  Ks[0].Body = std::move(Body);
  return Ks;
}

/// Array leaves of a store target (an array or a tuple of arrays).
void targetLeaves(const CVal &T, std::vector<const View *> &Out) {
  if (T.K == CVal::Tuple) {
    for (const CVal &E : T.Elems)
      targetLeaves(E, Out);
    return;
  }
  Out.push_back(T.K == CVal::Array ? T.Arr.get() : nullptr);
}

/// A store target split into rows of \p Chunk elements, leaf by leaf.
CVal splitTarget(const CVal &T, const std::string &Chunk, int64_t Lit) {
  if (T.K == CVal::Tuple) {
    CVal R = T;
    for (CVal &E : R.Elems)
      E = splitTarget(E, Chunk, Lit);
    return R;
  }
  if (T.K != CVal::Array)
    throw CodegenError("store target is not an array");
  return CVal::array(splitView(T.Arr, Chunk, Lit));
}

/// The vector path of `mapSeq(Fn, Row)` stored through \p Target (rows of
/// a split with a literal vector-width chunk): when the row is complete and
/// every load and store is aligned, one vector load per input buffer, Fn
/// per lane, one vector store per output; emits the `if` and returns true,
/// leaving an `else` block open for the element-wise loop. Returns false
/// (nothing emitted) when the row or the target cannot be vectorised.
bool openVectorStore(Emitter &Em, const ExprPtr &Fn, const View &Row,
                     const CVal &Target) {
  if (!isVectorWidth(Row.Chunk) || !Row.VecRead || !Row.VecAligned)
    return false;
  std::vector<const View *> Outs;
  targetLeaves(Target, Outs);
  for (const View *O : Outs)
    if (!O || !O->VecWrite || !O->VecAligned)
      return false;
  unsigned N = static_cast<unsigned>(Row.Chunk);
  std::string Cond = Row.Full;
  std::set<std::string> Seen;
  auto And = [&](const std::string &P) { // P: atoms joined by " && "
    for (size_t B = 0; B <= P.size();) {
      size_t E = P.find(" && ", B);
      std::string Atom = P.substr(B, E == std::string::npos ? std::string::npos : E - B);
      if (Atom != "1" && Seen.insert(Atom).second)
        Cond += (Cond.empty() ? "" : " && ") + Atom;
      if (E == std::string::npos)
        break;
      B = E + 4;
    }
  };
  And(Row.VecAligned("0", N));
  for (const View *O : Outs)
    And(O->VecAligned("0", N));
  Em.open("if (" + (Cond.empty() ? std::string("1") : Cond) + ")");
  std::vector<std::vector<CVal>> Lanes(Outs.size());
  for (const CVal &X : Row.VecRead("0", N)) {
    std::vector<CVal> Leaves;
    leavesOf(Em.settle(Em.apply(Fn, {X})), Leaves);
    if (Leaves.size() != Outs.size())
      throw CodegenError("map result does not match its outputs");
    for (size_t K = 0; K < Leaves.size(); ++K)
      Lanes[K].push_back(Leaves[K]);
  }
  for (size_t K = 0; K < Outs.size(); ++K)
    Outs[K]->VecWrite("0", Lanes[K]);
  Em.close();
  Em.open("else");
  return true;
}

/// Emits the store of \p E through \p Target: mapGlobal levels become
/// NDRange dimensions with guards, mapSeq levels loops (vector loads and
/// stores for complete, aligned chunks), the rest values.
void emitStore(Emitter &Em, const ExprPtr &E, const CVal &Target,
               unsigned &Dims) {
  bool Global = E->isCall("mapGlobal");
  if (Global || E->isCall("mapSeq")) {
    CVal In = Em.emit(E->Args[1]);
    if (In.K != CVal::Array)
      throw CodegenError("map of a non-array");
    const ExprPtr &Fn = E->Args[0];
    const ExprPtr &Body = Fn->body();
    bool Vec = !Global && !Body->isCall("mapGlobal") && !Body->isCall("mapSeq") &&
               openVectorStore(Em, Fn, *In.Arr, Target);
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
    size_t D0 = Em.envDepth();
    Em.bind(Fn->Params[0].Name, Em.settle(In.Arr->At(I), Fn->Params[0].Name));
    emitStore(Em, Body, Em.elementOf(Target, I), Dims);
    Em.popTo(D0);
    Em.close();
    if (Vec)
      Em.close();
    return;
  }
  Em.assign(Target, Em.emit(E));
}

std::vector<Kernel> genMap(const Program &P,
                           const GemmKernelOptions &Gemm = GemmKernelOptions(),
                           bool RowBlocks = false) {
  std::set<std::string> Stored;
  for (const ExprPtr &O : P.Outs)
    Stored.insert(O->Args[0]->Name);
  ParamInfo PI = bindParams(P, Stored, nullptr);
  Emitter Em(reservedSet(), PI.Names);
  bindParams(P, Stored, &Em);
  CVal Target;
  if (P.Outs.size() == 1) {
    Target = Em.emit(P.Outs[0]);
  } else {
    Target.K = CVal::Tuple;
    for (const ExprPtr &O : P.Outs)
      Target.Elems.push_back(Em.emit(O));
  }
  if (emitMatMul(Em, P.Body, Target, Gemm)) // the matmul rules' form
    return oneKernel(std::move(PI.Decls), std::move(Em.Lines));
  if (RowBlocks) { // the load-balanced schedule of a work-group per row
    std::string Blocks = "row_blocks";
    while (PI.Names.count(Blocks))
      Blocks += "_p";
    if (!emitRowLanes(Em, P.Body, Target, Blocks))
      throw CodegenError("row blocks need the form of a work-group per row");
    PI.Decls.push_back("__global const long *" + Blocks);
    return oneKernel(std::move(PI.Decls), std::move(Em.Lines));
  }
  if (emitRowLanes(Em, P.Body, Target)) // the row-lanes rules' form
    return oneKernel(std::move(PI.Decls), std::move(Em.Lines));
  funil::TypeEnv Env;
  for (const funil::Param &Pa : P.Params)
    Env.push(Pa.Name, Pa.Ty);
  // transpose / reorderStride / asScalar at the root: store through the
  // inverse view of the outputs (codegen/Views.h).
  ExprPtr Root = peelStoreLayout(Em, P.Body, Target, Env);
  if (Root->isCall("join")) {
    // join(mapGlobal(d, \v => mapSeq(f, v), split(C, a))): work-item i
    // stores row i of the target split alike (as-vector-map).
    const ExprPtr &Inner = Root->Args[0];
    if (!Inner->isCall("mapGlobal") || !Inner->Args[1]->isCall("split") ||
        Inner->Args[0]->K != Expr::Lambda || Inner->Args[0]->Params.size() != 1 ||
        !(Inner->Args[0]->body()->isCall("mapSeq") ||
          Inner->Args[0]->body()->isCall("map")) ||
        Inner->Args[0]->body()->Args[1]->K != Expr::Var ||
        Inner->Args[0]->body()->Args[1]->Name != Inner->Args[0]->Params[0].Name)
      throw CodegenError("a joined map must be join(mapGlobal(d, \\v => mapSeq(f, v), "
                         "split(C, a)))");
    const ExprPtr &C = Inner->Args[1]->Args[0];
    int64_t Lit = C->K == Expr::Lit && C->signedValue() > 0 ? C->signedValue() : 0;
    Target = splitTarget(Target, Em.emit(C).Expr, Lit);
    Root = Inner;
  }
  if (!Root->isCall("mapGlobal"))
    throw CodegenError("a map program must be lowered to mapGlobal at its root");
  unsigned Dims = 0;
  emitStore(Em, Root, Target, Dims);
  if (Dims > 3)
    throw CodegenError("map nests deeper than three parallel dimensions");
  return oneKernel(std::move(PI.Decls), std::move(Em.Lines));
}

/// \p Ks (genMap's kernels of \p P) with an element offset per buffer
/// parameter (OffsetsMarker): `const long <b>_off` after P's parameters,
/// and `<b> += <b>_off;` first in the body.
std::vector<Kernel> withOffsets(const Program &P, std::vector<Kernel> Ks) {
  for (Kernel &K : Ks) {
    if (K.Params.size() < P.Params.size())
      throw CodegenError("a map kernel lacks the program's parameters");
    std::set<std::string> Used;
    for (const std::string &D : K.Params)
      Used.insert(D.substr(D.find_last_of(" *") + 1));
    std::vector<std::string> Decls, Moves;
    for (size_t I = 0; I < P.Params.size(); ++I) {
      if (!P.Params[I].Ty->isBuffer())
        continue;
      const std::string &D = K.Params[I];
      std::string C = D.substr(D.find_last_of(" *") + 1), Off = C + "_off";
      while (Used.count(Off))
        Off += "_p";
      Used.insert(Off);
      Decls.push_back("const long " + Off);
      Moves.push_back("  " + C + " += " + Off + ";");
    }
    K.Params.insert(K.Params.begin() + static_cast<long>(P.Params.size()), Decls.begin(),
                    Decls.end());
    K.Body.insert(K.Body.begin(), Moves.begin(), Moves.end());
  }
  return Ks;
}

/// The OffsetsMarker line of map program \p P.
std::string offsetsLine(const Program &P) {
  std::string L = OffsetsMarker;
  for (const funil::Param &Pa : P.Params)
    if (Pa.Ty->isBuffer())
      L += " " + std::to_string(std::max(1u, funil::scalarBits(Pa.Ty->Elem->S) / 8));
  return L + "\n";
}

/// A histogram program's kernel: the map convention, bins updated in place
/// (codegen/HistogramGen.h).
/// With \p TileUnroll > 0, a split-K GEMV^T's tiles (codegen/SplitKTilesGen.h).
std::vector<Kernel> genHistogram(const Program &P, unsigned TileUnroll = 0) {
  std::set<std::string> Stored{P.Outs[0]->Args[0]->Name};
  ParamInfo PI = bindParams(P, Stored, nullptr);
  Emitter Em(reservedSet(), PI.Names);
  bindParams(P, Stored, &Em);
  if (TileUnroll)
    emitSplitKTiles(Em, P, TileUnroll);
  else
    emitHistogram(Em, P);
  return oneKernel(std::move(PI.Decls), std::move(Em.Lines));
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
/// work-item 0 writing the group's value to Targets[k][group]. With a
/// finaliser \p Fin (the final stage of `apply(Fin, reduction)`), the first
/// targets get the leaves of Fin(value) and the others the remaining leaves
/// of the value (written, never read by the host).
void emitWorkgroups(Emitter &Em, const ExprPtr &MW,
                    const std::vector<std::string> &Targets,
                    const ExprPtr &Fin = nullptr) {
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
  if (Fin) {
    std::vector<CVal> Done;
    leavesOf(Em.settle(Em.apply(Fin, {V})), Done);
    if (Done.size() > Leaves.size())
      throw CodegenError("the finished reduction has more leaves than its accumulator");
    for (size_t K = 0; K < Done.size(); ++K) {
      if (Done[K].K != CVal::Scalar || Done[K].S != Leaves[K].S)
        throw CodegenError("the finished reduction's leaf " + std::to_string(K) +
                           " does not have its accumulator's type");
      Leaves[K] = Done[K];
    }
  }
  for (size_t K = 0; K < Leaves.size(); ++K)
    Em.line(Targets[K] + "[" + WG + "] = " + Leaves[K].Expr + ";");
  Em.close();
  Em.line("barrier(CLK_LOCAL_MEM_FENCE);");
  Em.close();
}

std::vector<Kernel> genReduce(const Program &P, TypePtr ResTy) {
  // apply(Fin, at(mapWorkgroup(...), 0)): a finished reduction (compensated
  // sum); the kernels reduce Fin's parameter type, the final one applies Fin.
  ExprPtr Body = P.Body, Fin;
  if (Body->isCall("apply")) {
    Fin = Body->Args[0];
    if (Fin->K != Expr::Lambda || Fin->Params.size() != 1)
      throw CodegenError("apply at the root needs a one-parameter lambda");
    ResTy = Fin->Params[0].Ty;
    Body = Body->Args[1];
  }
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
  Emitter Em1(reservedSet(), Extra);
  bindParams(P, {}, &Em1);
  for (size_t K = 0; K < Leaves.size(); ++K)
    Em1.LocalPool.push_back({Scratch[K], Leaves[K]->S});
  emitWorkgroups(Em1, MW1, Part);
  Kernel K1{"_partial", PI.Decls, std::move(Em1.Lines)};
  K1.Params.insert(K1.Params.end(), PartDecls.begin(), PartDecls.end());
  K1.Params.insert(K1.Params.end(), ScratchDecls.begin(), ScratchDecls.end());

  // Stage two: m partials in part_k, one work-group, into out_k[0].
  const std::string PartialsVar = "$partials";
  ExprPtr MW2b = funil::replaceSubterm(MW2, Boundary, Expr::var(PartialsVar));
  std::set<std::string> Free;
  funil::freeVars(*MW2b, Free);
  Free.erase(PartialsVar);
  if (!Free.empty())
    throw CodegenError("the final stage uses parameter '" + *Free.begin() +
                       "', which the final kernel does not receive");
  std::set<std::string> Extra2(Part.begin(), Part.end());
  Extra2.insert(Out.begin(), Out.end());
  Extra2.insert(Scratch.begin(), Scratch.end());
  Emitter Em2(reservedSet(), Extra2);
  auto Partials = std::make_shared<View>();
  Partials->Len = "m";
  Partials->At = [ResTy, Part](const std::string &I) {
    size_t Next = 0;
    return leavesAt(ResTy, Part, I, Next);
  };
  Em2.bind(PartialsVar, CVal::array(Partials));
  for (size_t K = 0; K < Leaves.size(); ++K)
    Em2.LocalPool.push_back({Scratch[K], Leaves[K]->S});
  emitWorkgroups(Em2, MW2b, Out, Fin);
  Kernel K2{"_final", {"const long m"}, std::move(Em2.Lines)};
  K2.Params.insert(K2.Params.end(), PartDecls.begin(), PartDecls.end());
  K2.Params.insert(K2.Params.end(), OutDecls.begin(), OutDecls.end());
  K2.Params.insert(K2.Params.end(), ScratchDecls.begin(), ScratchDecls.end());
  std::vector<Kernel> Ks;
  Ks.reserve(2);
  Ks.push_back(std::move(K1));
  Ks.push_back(std::move(K2));
  return Ks;
}

bool validKernelName(const std::string &N) {
  if (N.empty() || std::isdigit(static_cast<unsigned char>(N[0])))
    return false;
  for (char C : N)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
      return false;
  return true;
}

/// The comment that starts every generated source (the one line that names
/// the program).
std::string headerLine(const std::string &ProgName) {
  return "// Generated by Idiom from FunIL program '" + ProgName +
         "'; conventions of runtime/include/idiomrt.h.\n";
}

/// True when reduction program \p P has a floating-point accumulator: its
/// result then depends on the order of combination (a sum's rounding, which
/// operand a min/max keeps on NaN or signed zeros), so every run must use
/// the same variant (FixedOrderMarker).
bool hasFloatAccumulator(const Program &P) {
  std::string Err;
  TypePtr T;
  if (!funil::typeCheckProgram(P, Err, &T) || !T)
    return false;
  std::vector<TypePtr> Leaves;
  funil::flattenLeaves(T, Leaves);
  for (const TypePtr &L : Leaves)
    if ((L->isScalar() || L->isVector()) && funil::isFloat(L->S))
      return true;
  return false;
}

/// The `#pragma`s that follow headerLine.
std::string sourcePragmas(const Program &P) {
  bool F64 = exprUsesF64(*P.Body);
  for (const funil::Param &Pa : P.Params)
    F64 |= typeUsesF64(*Pa.Ty);
  std::string Src;
  if (F64)
    Src += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  // fmul then fadd stays two roundings, as in the source; fmuladd is
  // emitted unfused too (a * b + c), fma as fma (DESIGN section 7).
  Src += "#pragma OPENCL FP_CONTRACT OFF\n";
  Src += histogramPragmas(P);
  return Src;
}

/// `#pragma`s and the comment that start every generated source.
std::string sourceHeader(const Program &P) {
  return headerLine(P.Name) + sourcePragmas(P);
}

/// The FixedOrderMarker line of a reduction with a floating-point
/// accumulator ("" otherwise), naming the variant a CPU and a GPU device
/// run: the first one-block-per-work-item variant for CPUs, the
/// (256, 8) grid-stride one for GPUs (docs/Benchmarks.md: the fastest on
/// PoCL and on the H200), variant 0 where there is none.
std::string fixedOrderLine(const Program &P, const std::vector<VariantParams> &Vs) {
  if (!P.IsReturn || !hasFloatAccumulator(P))
    return "";
  unsigned Cpu = 0, Gpu = 0;
  for (size_t K = Vs.size(); K-- > 1;) {
    if (Vs[K].Blocked)
      Cpu = static_cast<unsigned>(K);
    if (!Vs[K].Blocked && Vs[K].WorkGroup[0] == 256 && Vs[K].Elems == 8)
      Gpu = static_cast<unsigned>(K);
  }
  return std::string(FixedOrderMarker) + " cpu=" + std::to_string(Cpu) +
         " gpu=" + std::to_string(Gpu) + "\n";
}

std::string workGroupAttr(const VariantParams &V) {
  if (V.WorkGroup[0] == 0)
    return "";
  return "__attribute__((reqd_work_group_size(" + std::to_string(V.WorkGroup[0]) + ", " +
         std::to_string(std::max(1u, V.WorkGroup[1])) + ", 1)))";
}

/// The kernels of lowered program \p P; sets Err and returns false when P
/// is outside what the generator supports. \p Checked: P is known to type
/// check (lowerVariant succeeded on it), so only a reduction, whose body
/// type the generator needs, is checked again.
bool genKernels(const Program &P, std::vector<Kernel> &Out, std::string &Err,
                const GemmKernelOptions &Gemm = GemmKernelOptions(),
                bool Checked = false, bool RowBlocks = false, bool Offsets = false,
                unsigned TileUnroll = 0) {
  TypePtr BodyTy;
  if ((!Checked || P.IsReturn) && !funil::typeCheckProgram(P, Err, &BodyTy))
    return false;
  try {
    Out = P.IsReturn              ? genReduce(P, BodyTy)
          : isHistogramProgram(P) ? genHistogram(P, TileUnroll)
                                  : genMap(P, Gemm, RowBlocks);
    if (Offsets && !P.IsReturn) // the caller's: the unlowered program's ABI
      Out = withOffsets(P, std::move(Out));
    return true;
  } catch (const CodegenError &E) {
    Err = std::string("OpenCL generation: ") + E.what();
  } catch (const std::exception &E) {
    Err = std::string("OpenCL generation: internal error: ") + E.what();
  }
  return false;
}

} // namespace

std::string variantKernelName(const std::string &Name, unsigned K) {
  return K == 0 ? Name : Name + "_v" + std::to_string(K);
}

bool emitOpenCL(const Program &P, const std::string &KernelName,
                GeneratedOpenCL &Out, std::string &Err) {
  if (!validKernelName(KernelName)) {
    Err = "invalid kernel name '" + KernelName + "'";
    return false;
  }
  std::vector<Kernel> Kernels;
  if (!genKernels(P, Kernels, Err))
    return false;
  Out = GeneratedOpenCL();
  Out.Source = sourceHeader(P) + fixedOrderLine(P, {VariantParams()}) +
               printKernels(Kernels, KernelName, "");
  Out.LoweredFunIL = funil::printProgram(P);
  Out.VariantDescs = {"as given"};
  Out.VariantFunIL = {Out.LoweredFunIL};
  return true;
}

namespace {

/// True when variants \p A and \p B lower to the same program and kernels:
/// they differ at most in WorkGroup, which variantStrategy, lowerVariant and
/// genKernels do not read (it becomes the kernels' attribute only).
/// RowBlocks changes only the kernel, which genKernels reads.
bool lowersAlike(const VariantParams &A, const VariantParams &B) {
  const GemmKernelOptions &KA = A.Kernel, &KB = B.Kernel;
  return A.Elems == B.Elems && A.Blocked == B.Blocked && std::equal(A.Tile, A.Tile + 3, B.Tile) &&
         std::equal(A.Block, A.Block + 2, B.Block) &&
         std::equal(A.Group, A.Group + 2, B.Group) && KA.Pad == KB.Pad &&
         KA.VectorFill == KB.VectorFill && KA.DoubleBuffer == KB.DoubleBuffer &&
         KA.UnrollLoop == KB.UnrollLoop && A.Local == B.Local && A.Gemm == B.Gemm &&
         A.Bins == B.Bins && A.RowLanes == B.RowLanes && A.RowsPerGroup == B.RowsPerGroup &&
         A.RowBlocks == B.RowBlocks && A.LaneDim == B.LaneDim && A.Planes == B.Planes &&
         A.LaneVec == B.LaneVec && A.SplitK == B.SplitK &&
         A.RowWalk == B.RowWalk && A.SplitKUnroll == B.SplitKUnroll;
}

/// Lowers and emits the variants \p Vs of \p P (a program that type
/// checks) into \p G, without names. Each distinct lowering (lowersAlike)
/// is rewritten, printed and emitted once.
bool lowerVariants(const Program &P, const std::vector<VariantParams> &Vs,
                   genmemo::Nameless &G, std::string &Err,
                   const FusedProgram *Fused = nullptr, bool Offsets = false) {
  if (Vs.empty()) {
    Err = "no variants";
    return false;
  }
  struct Lowering {
    VariantParams V;
    bool Good;
    std::string Err;
    std::shared_ptr<genmemo::Lowered> L;
  };
  std::vector<Lowering> Memo;
  for (size_t I = 0; I < Vs.size(); ++I) {
    const Lowering *Found = nullptr;
    for (const Lowering &M : Memo)
      if (lowersAlike(M.V, Vs[I]))
        Found = &M;
    if (!Found) {
      Lowering M{Vs[I], false, "", std::make_shared<genmemo::Lowered>()};
      Program L = P;
      M.Good = (Fused ? lowerVariant(*Fused, Vs[I], L, M.Err) : lowerVariant(L, Vs[I], M.Err)) &&
               genKernels(L, M.L->Kernels, M.Err, Vs[I].Kernel, /*Checked=*/true,
                          Vs[I].RowBlocks, Offsets && !isHistogramProgram(P),
                          Vs[I].SplitKUnroll);
      if (M.Good) { // printed without its name, which assemble adds
        L.Name.clear();
        M.L->FunILTail = funil::printProgram(L).substr(std::strlen("idiom "));
      }
      Memo.push_back(std::move(M));
      Found = &Memo.back();
    }
    if (!Found->Good) {
      if (I == 0) { // the default lowering: its error is the answer
        Err = Found->Err;
        return false;
      }
      continue; // a variant the generator cannot emit is left out
    }
    G.Variants.push_back({Vs[I], describeVariant(Vs[I]), Found->L});
  }
  std::vector<VariantParams> Kept;
  for (const auto &V : G.Variants)
    Kept.push_back(V.V);
  G.Pragmas = sourcePragmas(P) + fixedOrderLine(P, Kept);
  if (Offsets && !P.IsReturn && !isHistogramProgram(P))
    G.Pragmas += offsetsLine(P);
  return true;
}

/// generateOpenCL's result from the nameless \p G for program \p ProgName
/// and kernel base name \p KernelName.
void assemble(const genmemo::Nameless &G, const std::string &ProgName,
              const std::string &KernelName, GeneratedOpenCL &Out) {
  const auto &Ok = G.Variants;
  Out = GeneratedOpenCL();
  Out.Source = headerLine(ProgName) + G.Pragmas;
  Out.NumVariants = static_cast<unsigned>(Ok.size());
  std::string FunILHead = "idiom " + ProgName;
  for (size_t K = 0; K < Ok.size(); ++K) {
    const VariantParams &V = Ok[K].V;
    const std::string &Desc = Ok[K].Desc;
    if (Ok.size() > 1) {
      std::string WG = std::to_string(V.WorkGroup[0]);
      if (V.WorkGroup[1] > 1)
        WG += "x" + std::to_string(V.WorkGroup[1]);
      Out.Source += (K ? "\n" : "") + std::string(VariantMarker) + " " +
                    std::to_string(K) + " wg=" + WG + " ept=" + variantEpt(V) +
                    ": " + Desc + "\n";
    }
    Out.Source += printKernels(Ok[K].L->Kernels, variantKernelName(KernelName, K),
                               workGroupAttr(V));
    Out.VariantDescs.push_back(Desc);
    Out.VariantFunIL.push_back(FunILHead + Ok[K].L->FunILTail);
  }
  Out.LoweredFunIL = Out.VariantFunIL[0];
}

/// generateOpenCLVariants on a program that type checks, with a valid
/// kernel name.
bool emitVariants(const Program &P, const std::string &KernelName,
                  const std::vector<VariantParams> &Vs, GeneratedOpenCL &Out,
                  std::string &Err) {
  genmemo::Nameless G;
  if (!lowerVariants(P, Vs, G, Err))
    return false;
  assemble(G, P.Name, KernelName, Out);
  return true;
}

} // namespace

bool generateOpenCL(const Program &P, const std::string &KernelName,
                    GeneratedOpenCL &Out, std::string &Err, unsigned Max) {
  return generateOpenCL(P, KernelName, Out, Err, Max, ExploreOptions());
}

bool generateOpenCL(const Program &P, const std::string &KernelName,
                    GeneratedOpenCL &Out, std::string &Err, unsigned Max,
                    const ExploreOptions &Opts) {
  try {
    if (!funil::typeCheckProgram(P, Err))
      return false;
    if (!validKernelName(KernelName)) {
      Err = "invalid kernel name '" + KernelName + "'";
      return false;
    }
    std::string Key = genmemo::keyOf(P, Max) + (Opts.FPReassoc ? "" : " exact") +
                      (Opts.BufferOffsets ? " offsets" : "");
    std::shared_ptr<const genmemo::Nameless> G = genmemo::lookup(Key, P);
    if (!G) {
      auto New = std::make_shared<genmemo::Nameless>();
      FusedProgram F = fuseOnce(P); // once for exploration and every variant
      if (!lowerVariants(P, exploreVariants(P, Max, &F.Fused, Opts), *New, Err, &F,
                         Opts.BufferOffsets))
        return false;
      genmemo::insert(Key, P, New);
      G = std::move(New);
    }
    assemble(*G, P.Name, KernelName, Out);
    return true;
  } catch (const std::exception &E) {
    Err = std::string("internal error: ") + E.what();
  }
  return false;
}

bool generateOpenCLVariants(const Program &P, const std::string &KernelName,
                            const std::vector<VariantParams> &Vs, GeneratedOpenCL &Out,
                            std::string &Err) {
  try {
    if (!funil::typeCheckProgram(P, Err))
      return false;
    if (!validKernelName(KernelName)) {
      Err = "invalid kernel name '" + KernelName + "'";
      return false;
    }
    return emitVariants(P, KernelName, Vs, Out, Err);
  } catch (const std::exception &E) {
    Err = std::string("internal error: ") + E.what();
  }
  return false;
}

bool generateOpenCL(const Program &P, const std::string &KernelName,
                    GeneratedOpenCL &Out, std::string &Err) {
  return generateOpenCL(P, KernelName, Out, Err, MaxVariants);
}

std::vector<unsigned> reductionSlotBytes(const Program &P) {
  std::vector<unsigned> Bytes;
  if (!P.IsReturn)
    return Bytes;
  try {
    std::string Err;
    TypePtr T;
    if (!funil::typeCheckProgram(P, Err, &T) || !T)
      return Bytes;
    RuleContext Ctx = programContext(P);
    ExprPtr B = compensationStrategy()(P.Body, Ctx);
    if (B->isCall("apply") && B->Args[0]->K == Expr::Lambda &&
        B->Args[0]->Params.size() == 1)
      T = B->Args[0]->Params[0].Ty;
    std::vector<TypePtr> Leaves;
    funil::flattenLeaves(T, Leaves);
    for (const TypePtr &L : Leaves) {
      if (!L->isScalar())
        return {};
      Bytes.push_back(std::max(1u, funil::scalarBits(L->S) / 8));
    }
  } catch (const std::exception &) {
    Bytes.clear();
  }
  return Bytes;
}

} // namespace idiom::rewrite
