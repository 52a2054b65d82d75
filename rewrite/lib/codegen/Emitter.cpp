//===- Emitter.cpp - FunIL to OpenCL C statements -------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "OpCache.h"
#include "ScalarC.h"
#include "Views.h"
#include "idiom/FunIL/Ops.h"

#include <cctype>

namespace idiom::rewrite::codegen {

using funil::Expr;

namespace {
/// std::isalnum in the C locale.
bool isAsciiAlnum(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9');
}
} // namespace

bool isIdentOrNumber(const std::string &S) {
  if (S.empty())
    return false;
  for (char C : S)
    if (!isAsciiAlnum(C) && C != '_' && C != '.')
      return false;
  return true;
}

namespace {
std::string paren(const std::string &S) {
  return isIdentOrNumber(S) ? S : "(" + S + ")";
}
const char *const HwLong[] = {"((long)get_global_size(", "((long)get_local_size(",
                              "((long)get_num_groups("};
} // namespace

std::string mulS(const std::string &A, const std::string &B) {
  if (A == "0" || B == "0" || A == "0L" || B == "0L")
    return "0";
  if (A == "1" || A == "1L")
    return B;
  if (B == "1" || B == "1L")
    return A;
  return paren(A) + " * " + paren(B);
}

std::string addS(const std::string &A, const std::string &B) {
  if (A == "0" || A == "0L")
    return B;
  if (B == "0" || B == "0L")
    return A;
  return paren(A) + " + " + paren(B);
}

std::string divS(const std::string &A, const std::string &B) {
  if (A == B)
    return "1";
  if (B == "1" || B == "1L")
    return A;
  return paren(A) + " / " + paren(B);
}

void leavesOf(const CVal &V, std::vector<CVal> &Out) {
  if (V.K == CVal::Tuple) {
    for (const CVal &E : V.Elems)
      leavesOf(E, Out);
    return;
  }
  Out.push_back(V);
}

namespace {
const char *const Components = "0123456789abcdef";

unsigned byteSize(ScalarKind K) { return funil::scalarBits(K) / 8; }

bool isIntLiteral(const std::string &S, int64_t &V) {
  std::string T = S;
  if (!T.empty() && T.back() == 'L')
    T.pop_back();
  if (T.empty() || T.size() > 18)
    return false;
  for (char C : T)
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return false;
  V = std::stoll(T);
  return true;
}
} // namespace

std::vector<CVal> Emitter::vecLoad(const std::string &Ptr, ScalarKind K, unsigned N) {
  std::string VT = std::string(clType(K)) + std::to_string(N);
  std::string V = fresh("vec");
  line("const " + VT + " " + V + " = *((const __global " + VT + " *)(" + Ptr + "));");
  std::vector<CVal> Out;
  for (unsigned J = 0; J < N; ++J)
    Out.push_back(CVal::scalar(V + ".s" + Components[J], K));
  return Out;
}

void Emitter::vecStore(const std::string &Ptr, ScalarKind K, const std::vector<CVal> &Vals) {
  std::string VT = std::string(clType(K)) + std::to_string(Vals.size());
  std::string L = "(" + VT + ")(";
  for (size_t J = 0; J < Vals.size(); ++J) {
    if (Vals[J].K != CVal::Scalar)
      throw CodegenError("vector store of a non-scalar");
    L += (J ? ", " : "") + Vals[J].Expr;
  }
  line("*((__global " + VT + " *)(" + Ptr + ")) = " + L + ");");
}

std::shared_ptr<const View> splitView(std::shared_ptr<const View> Base,
                                      const std::string &Chunk, int64_t Lit) {
  int64_t BaseLit = 0;
  bool Ragged = Lit > 0 && !(isIntLiteral(Base->Len, BaseLit) && BaseLit % Lit == 0);
  auto V = std::make_shared<View>();
  std::string BaseLen = Base->Len;
  V->Len = Ragged ? "((" + paren(BaseLen) + " + " + std::to_string(Lit - 1) + ") / " +
                        std::to_string(Lit) + ")"
                  : divS(BaseLen, Chunk);
  V->At = [Base, Chunk, Lit, Ragged, BaseLen](const std::string &I) {
    auto Row = std::make_shared<View>();
    std::string Start = mulS(I, Chunk);
    Row->Len = Chunk;
    if (Ragged) {
      Row->Len = "min((long)" + Chunk + ", " + paren(BaseLen) + " - " + paren(Start) + ")";
      Row->Full = "((" + addS(Start, Chunk) + ") <= " + paren(BaseLen) + ")";
    }
    Row->Chunk = Lit;
    Row->At = [Base, Start](const std::string &J) { return Base->At(addS(Start, J)); };
    if (Base->Addr)
      Row->Addr = [Base, Start](const std::string &J) { return Base->Addr(addS(Start, J)); };
    if (Base->VecRead) {
      Row->VecRead = [Base, Start](const std::string &S, unsigned N) {
        return Base->VecRead(addS(Start, S), N);
      };
      Row->VecAligned = [Base, Start](const std::string &S, unsigned N) {
        return Base->VecAligned(addS(Start, S), N);
      };
    }
    if (Base->VecWrite) {
      Row->VecWrite = [Base, Start](const std::string &S, const std::vector<CVal> &Vs) {
        Base->VecWrite(addS(Start, S), Vs);
      };
      if (!Row->VecAligned && Base->VecAligned)
        Row->VecAligned = [Base, Start](const std::string &S, unsigned N) {
          return Base->VecAligned(addS(Start, S), N);
        };
    }
    return CVal::array(Row);
  };
  return V;
}

void Emitter::foldRow(const ExprPtr &Fn, const CVal &Acc, const View &A,
                      const std::string &Start, const std::string &End) {
  auto Step = [&](CVal X) {
    std::vector<CVal> Args;
    Args.reserve(2);
    Args.push_back(Acc);
    Args.push_back(std::move(X));
    CVal R = apply(Fn, std::move(Args));
    if (Acc.K == CVal::Tuple)
      R = settle(R, "next"); // all new values before any accumulator changes
    assign(Acc, R);
  };
  bool Vec = isVectorWidth(A.Chunk) && A.VecRead && A.VecAligned;
  if (Vec && (Start != "0" || !End.empty()))
    Vec = false; // a band's start or end: the scalar loop only
  if (Vec) {
    unsigned N = static_cast<unsigned>(A.Chunk);
    std::string Cond = A.VecAligned("0", N);
    if (!A.Full.empty())
      Cond = A.Full + " && " + Cond;
    open("if (" + Cond + ")");
    for (CVal &X : A.VecRead("0", N))
      Step(std::move(X));
    close();
    open("else");
  }
  if (A.StrideBase && (Start != "0" || !End.empty()))
    throw CodegenError("a band's start or end on a strided row");
  if (A.StrideBase) {
    std::string I = fresh("i");
    open("for (long " + I + " = " + A.StrideStart + "; " + I + " < " +
         A.StrideBase->Len + "; " + I + " += " + A.StrideStep + ")");
    Step(A.StrideBase->At(I));
  } else {
    std::string J = fresh("j");
    std::string Len = End.empty() ? A.Len : "min((long)(" + A.Len + "), (long)(" + End + "))";
    open("for (long " + J + " = " + Start + "; " + J + " < " + Len + "; ++" +
         J + ")");
    Step(A.At(J));
  }
  close();
  if (Vec)
    close();
}

std::string Emitter::fresh(const std::string &Base) {
  std::string B = Base;
  for (char &C : B)
    if (!isAsciiAlnum(C) && C != '_')
      C = '_';
  if (B.empty() || std::isdigit(static_cast<unsigned char>(B[0])))
    B = "v" + B;
  // The first of B, B_1, B_2, ... not taken; taken names only grow, so the
  // search resumes at the suffix returned last time.
  auto [Last, New] = LastSuffix.try_emplace(B, 0);
  unsigned I = Last->second;
  std::string N = I ? B + "_" + std::to_string(I) : B;
  if (!New || taken(N))
    for (I = std::max(1u, I); taken(N = B + "_" + std::to_string(I)); ++I)
      ;
  Last->second = I;
  Used.insert(N);
  return N;
}

const CVal *Emitter::find(const std::string &Name) const {
  for (auto It = Env.rbegin(); It != Env.rend(); ++It)
    if (It->first == Name)
      return &It->second;
  for (const EnvFrame *F = Outer.get(); F; F = F->Parent.get())
    for (auto It = F->Vars.rbegin(); It != F->Vars.rend(); ++It)
      if (It->first == Name)
        return &It->second;
  return nullptr;
}

const CVal &Emitter::lookup(const std::string &Name) const {
  if (const CVal *V = find(Name))
    return *V;
  throw CodegenError("unbound variable '" + Name + "'");
}

Emitter::Scope Emitter::scope() const {
  if (Env.empty())
    return Outer;
  return std::make_shared<const EnvFrame>(EnvFrame{Env, Outer});
}

CVal Emitter::applyIn(const Scope &S, const ExprPtr &Fn, std::vector<CVal> Args) {
  // The caller's bindings are set aside and put back, also on an exception.
  struct Restore {
    Emitter &Em;
    std::vector<std::pair<std::string, CVal>> Env;
    Scope Outer;
    ~Restore() {
      Em.Env = std::move(Env);
      Em.Outer = std::move(Outer);
    }
  } R{*this, std::move(Env), Outer};
  Env.clear();
  Outer = S;
  return apply(Fn, std::move(Args));
}

namespace {
/// True when settle would bind \p V (or a leaf of it) to a temporary.
bool needsSettling(const CVal &V) {
  if (V.K == CVal::Tuple) {
    for (const CVal &E : V.Elems)
      if (needsSettling(E))
        return true;
    return false;
  }
  return V.K == CVal::Scalar && !isIdentOrNumber(V.Expr);
}
const std::string DefaultSettleBase = "v";
} // namespace

CVal Emitter::settle(CVal V) { return settle(std::move(V), DefaultSettleBase); }

CVal Emitter::settle(CVal V, const std::string &Base) {
  if (V.K == CVal::Tuple) {
    for (size_t I = 0; I < V.Elems.size(); ++I)
      if (needsSettling(V.Elems[I]))
        V.Elems[I] = settle(std::move(V.Elems[I]), Base + "_" + std::to_string(I));
    return V;
  }
  if (V.K != CVal::Scalar || isIdentOrNumber(V.Expr))
    return V;
  std::string N = fresh(Base);
  std::string L = "const ";
  L.append(clValueType(V.S, V.Lanes)).append(" ").append(N).append(" = ").append(V.Expr).append(
      ";");
  line(L);
  V.Expr = std::move(N);
  V.K = CVal::Scalar;
  return V;
}

void Emitter::assign(const CVal &Dst, const CVal &Src) {
  std::vector<CVal> D, S;
  leavesOf(Dst, D);
  leavesOf(Src, S);
  if (D.size() != S.size())
    throw CodegenError("shape mismatch in an assignment");
  for (size_t I = 0; I < D.size(); ++I) {
    if (D[I].K == CVal::VecSlot) {
      storeVector(*this, D[I], S[I]);
      continue;
    }
    if (D[I].K != CVal::Scalar || S[I].K != CVal::Scalar)
      throw CodegenError("cannot assign an array value");
    line(D[I].Expr + " = " + S[I].Expr + ";");
  }
}

CVal Emitter::elementOf(const CVal &V, const std::string &Idx) {
  if (V.K == CVal::Array)
    return V.Arr->At(Idx);
  if (V.K == CVal::Tuple) {
    CVal R = V;
    for (CVal &E : R.Elems)
      E = elementOf(E, Idx);
    return R;
  }
  throw CodegenError("indexing a non-array value");
}

CVal Emitter::apply(const ExprPtr &Fn, std::vector<CVal> Args) {
  if (Fn->K != Expr::Lambda || Fn->Params.size() != Args.size())
    throw CodegenError("expected a lambda");
  size_t Depth0 = Env.size();
  for (size_t I = 0; I < Args.size(); ++I)
    bind(Fn->Params[I].Name, settle(std::move(Args[I]), Fn->Params[I].Name));
  CVal R = emit(Fn->body());
  Env.resize(Depth0);
  return R;
}

std::string Emitter::rowLen(const View &A) {
  size_t Mark = Lines.size();
  CVal Row = A.At("0");
  Lines.resize(Mark);
  if (Row.K != CVal::Array)
    throw CodegenError("'join' of an array whose elements are not arrays");
  return Row.Arr->Len;
}

CVal Emitter::emit(const ExprPtr &EP) {
  const Expr &E = *EP;
  switch (E.K) {
  case Expr::Var:
    return lookup(E.Name);
  case Expr::Lit:
    return CVal::scalar(clLiteral(E), E.LitKind);
  case Expr::Cast: {
    CVal X = emit(E.Args[0]);
    if (X.Lanes > 1)
      return emitLaneWise(E, {X});
    return CVal::scalar(clCast(E.Name, X.S, E.LitKind, X.Expr), E.LitKind);
  }
  case Expr::Tuple: {
    CVal T;
    T.K = CVal::Tuple;
    for (const ExprPtr &A : E.Args)
      T.Elems.push_back(emit(A));
    return T;
  }
  case Expr::Proj: {
    if (E.Args[0]->K == Expr::Var) { // without copying the whole tuple
      const CVal &T = lookup(E.Args[0]->Name);
      if (T.K != CVal::Tuple || E.Index >= T.Elems.size())
        throw CodegenError("bad tuple projection");
      return T.Elems[E.Index];
    }
    CVal T = emit(E.Args[0]);
    if (T.K != CVal::Tuple || E.Index >= T.Elems.size())
      throw CodegenError("bad tuple projection");
    return T.Elems[E.Index];
  }
  case Expr::Lambda:
    throw CodegenError("a lambda outside a primitive");
  case Expr::Call:
    return emitCall(E);
  }
  throw CodegenError("unknown expression");
}

namespace {
/// \p E holds a sequential reduction (reduceSeq) and no work-group
/// primitive (mapLocal, mapWorkgroup, toLocal, iterate: barriers), so it
/// may run under a condition that differs between work-items.
bool isPrivateLoop(const Expr &E, bool &Loop) {
  if (E.K == Expr::Call) {
    if (E.Name == "mapLocal" || E.Name == "mapWorkgroup" || E.Name == "toLocal" ||
        E.Name == "iterate")
      return false;
    Loop |= E.Name == "reduceSeq";
  }
  for (const ExprPtr &A : E.Args)
    if (!isPrivateLoop(*A, Loop))
      return false;
  return true;
}
} // namespace

CVal Emitter::emitScalarOp(const Expr &E) {
  const OpEntry &Entry = cachedOpEntry(E.Name);
  const funil::OpInfo *Op = Entry.Info;
  bool Loop = false;
  if (Op->Class == funil::OpClass::Select && E.Args.size() == 3 &&
      isPrivateLoop(*E.Args[1], Loop) && Loop) {
    // select(c, x, y) whose x is a sequential reduction (a triangular
    // product's element, docs/FunIL.md "GEMM programs with two products"):
    // x is computed only where c holds, `v = y; if (c) { ...; v = x; }`.
    // Pure operands: the value is the select's.
    CVal C = emit(E.Args[0]);
    if (C.K == CVal::Scalar && C.Lanes <= 1) {
      CVal Else = emit(E.Args[2]);
      if (Else.K == CVal::Scalar && Else.Lanes <= 1) {
        CVal R = mutableCopy(Else, "sel");
        open("if (" + C.Expr + ")");
        assign(R, emit(E.Args[1]));
        close();
        return R;
      }
    }
  }
  std::vector<CVal> Args;
  Args.reserve(E.Args.size());
  for (const ExprPtr &A : E.Args)
    Args.push_back(emit(A));
  for (const CVal &A : Args)
    if (A.Lanes > 1)
      return emitLaneWise(E, Args);
  if (Op->Class == funil::OpClass::Select && Args[1].K == CVal::Tuple) {
    // Component-wise select of tuples.
    CVal C = settle(Args[0]);
    CVal R = Args[1];
    for (size_t I = 0; I < R.Elems.size(); ++I) {
      R.Elems[I] = CVal::scalar("((" + C.Expr + ") ? (" + Args[1].Elems[I].Expr +
                                    ") : (" + Args[2].Elems[I].Expr + "))",
                                Args[1].Elems[I].S);
      if (Args[1].Elems[I].K != CVal::Scalar)
        throw CodegenError("'select' of nested tuples is not supported");
    }
    return R;
  }
  const std::string *Strs[3] = {};
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I].K != CVal::Scalar)
      throw CodegenError("operand of '" + E.Name + "' is not a scalar");
    if (I < 3)
      Strs[I] = &Args[I].Expr;
  }
  ScalarKind K = Op->Class == funil::OpClass::Select ? Args[1].S : Args[0].S;
  std::string Out, Err;
  if (!clScalarOp(Entry.Scalar, E.Name, K, Strs, Out, Err))
    throw CodegenError(Err);
  bool Cmp = Op->Class == funil::OpClass::IntCompare ||
             Op->Class == funil::OpClass::FloatCompare;
  return CVal::scalar(std::move(Out), Cmp ? ScalarKind::Bool : K);
}

namespace {
/// True when \p E reads a variable named \p A or \p B.
bool mentions(const Expr &E, const std::string &A, const std::string &B) {
  if (E.K == Expr::Var)
    return E.Name == A || E.Name == B;
  for (const ExprPtr &X : E.Args)
    if (mentions(*X, A, B))
      return true;
  return false;
}

/// A band's lower end (docs/FunIL.md, "TRMM programs: a band on the
/// reduction"): for reduceSeq(\(acc, x) => select(icmp_slt(x.I, E), acc,
/// F), init, zip(..., iota(n), ...)), x.I the iota's component and E free
/// of acc and x, the steps before E leave acc as it is; returns E, else
/// null. With \p Upper, its upper end (a lower TRMV's triangle, "TRMV
/// programs"): for select(icmp_slt(x.I, E), F, acc) the steps from E on
/// leave acc as it is.
ExprPtr bandBound(const Expr &Red, bool Upper) {
  const Expr &Fn = *Red.Args[0];
  if (Fn.K != Expr::Lambda || Fn.Params.size() != 2 || !Red.Args[2]->isCall("zip"))
    return nullptr;
  const std::string &Acc = Fn.Params[0].Name, &X = Fn.Params[1].Name;
  const Expr &Sel = *Fn.body();
  const unsigned Kept = Upper ? 2 : 1; // the select's operand that is acc
  if (!Sel.isCall("select") || Sel.Args.size() != 3 ||
      Sel.Args[Kept]->K != Expr::Var || Sel.Args[Kept]->Name != Acc ||
      !Sel.Args[0]->isCall("icmp_slt") || Sel.Args[0]->Args.size() != 2)
    return nullptr;
  const Expr &Idx = *Sel.Args[0]->Args[0];
  const ExprPtr &Lo = Sel.Args[0]->Args[1];
  if (Idx.K != Expr::Proj || Idx.Args[0]->K != Expr::Var || Idx.Args[0]->Name != X ||
      Idx.Index >= Red.Args[2]->Args.size() ||
      !Red.Args[2]->Args[Idx.Index]->isCall("iota") || mentions(*Lo, Acc, X))
    return nullptr;
  return Lo;
}
} // namespace

CVal Emitter::emitReduceSeq(const Expr &E) {
  CVal Init = emit(E.Args[1]);
  CVal In = emit(E.Args[2]);
  if (In.K != CVal::Array)
    throw CodegenError("'reduceSeq' of a non-array");
  // Mutable accumulators, one per leaf.
  CVal Acc = mutableCopy(Init, "acc");
  // A band: the loop starts at its lower end (the steps before it add
  // nothing), or stops at its upper end (the steps from it add nothing),
  // unless the row is strided or vectorised.
  std::string Start = "0", End;
  if (ExprPtr Lo = bandBound(E, false); Lo && !In.Arr->StrideBase) {
    CVal S = emit(Lo);
    if (S.K == CVal::Scalar && S.S == ScalarKind::I64)
      Start = "max(0L, " + S.Expr + ")";
  }
  if (ExprPtr Hi = bandBound(E, true); Hi && !In.Arr->StrideBase) {
    CVal S = emit(Hi);
    if (S.K == CVal::Scalar && S.S == ScalarKind::I64)
      End = S.Expr;
  }
  foldRow(E.Args[0], Acc, *In.Arr, Start, End);
  return Acc;
}

CVal Emitter::emitToLocal(const Expr &E) {
  const ExprPtr &M = E.Args[0];
  if (!M->isCall("mapLocal"))
    throw CodegenError("'toLocal' is supported around mapLocal only");
  std::vector<std::string> Storage;
  if (!InPlace.empty()) {
    Storage = InPlace;
    InPlace.clear();
  } else {
    if (PoolTaken || LocalPool.empty())
      throw CodegenError("no __local memory left for 'toLocal'");
    PoolTaken = true;
    for (const auto &P : LocalPool)
      Storage.push_back(P.first);
  }
  CVal In = emit(M->Args[1]);
  if (In.K != CVal::Array)
    throw CodegenError("'mapLocal' of a non-array");
  std::string D = std::to_string(M->Attr);
  std::string L = fresh("l");
  open("for (long " + L + " = get_local_id(" + D + "); " + L + " < " +
       In.Arr->Len + "; " + L + " += get_local_size(" + D + "))");
  CVal V = settle(apply(M->Args[0], {In.Arr->At(L)}));
  std::vector<CVal> Leaves;
  leavesOf(V, Leaves);
  if (Leaves.size() != Storage.size())
    throw CodegenError("__local storage does not match the element type");
  for (size_t I = 0; I < Leaves.size(); ++I)
    line(Storage[I] + "[" + L + "] = " + Leaves[I].Expr + ";");
  close();
  line("barrier(CLK_LOCAL_MEM_FENCE);");
  auto Out = std::make_shared<View>();
  Out->Len = In.Arr->Len;
  Out->LocalLeaves = Storage;
  CVal Shape = V;
  Out->At = [Shape, Storage](const std::string &Idx) {
    size_t Next = 0;
    std::function<CVal(const CVal &)> Build = [&](const CVal &S) {
      if (S.K == CVal::Tuple) {
        CVal T = S;
        for (CVal &C : T.Elems)
          C = Build(C);
        return T;
      }
      return CVal::scalar(Storage[Next++] + "[" + Idx + "]", S.S);
    };
    return Build(Shape);
  };
  return CVal::array(Out);
}

CVal Emitter::mutableCopy(const CVal &Init, const std::string &Base) {
  std::vector<CVal> InitLeaves;
  leavesOf(Init, InitLeaves);
  std::vector<std::string> Names;
  for (const CVal &L : InitLeaves) {
    if (L.K != CVal::Scalar)
      throw CodegenError("a mutable state with an array leaf");
    Names.push_back(fresh(Base));
    line(clValueType(L.S, L.Lanes) + " " + Names.back() + " = " + L.Expr + ";");
  }
  size_t Next = 0;
  std::function<CVal(const CVal &)> Rebuild = [&](const CVal &V) {
    if (V.K == CVal::Tuple) {
      CVal T = V;
      for (CVal &C : T.Elems)
        C = Rebuild(C);
      return T;
    }
    CVal R = CVal::scalar(Names[Next++], V.S);
    R.Lanes = V.Lanes;
    return R;
  };
  return Rebuild(Init);
}

CVal Emitter::emitIterate(const Expr &E) {
  CVal N = emit(E.Args[0]);
  CVal In = emit(E.Args[2]);
  const ExprPtr &Step = E.Args[1];
  if (In.K == CVal::Scalar || In.K == CVal::Tuple) {
    // A scalar or tuple state in private variables: `for (it < N) s = f(s)`,
    // every new component computed before any is assigned.
    CVal State = mutableCopy(In, "st");
    std::string It = fresh("it");
    CVal Count = settle(N, "count");
    open("for (long " + It + " = 0; " + It + " < " + Count.Expr + "; ++" + It + ")");
    const ExprPtr &Body = Step->K == Expr::Lambda ? Step->body() : Step;
    if (Step->K == Expr::Lambda && Step->Params.size() == 1 && Body->isCall("select") &&
        Body->Args[2]->K == Expr::Var && Body->Args[2]->Name == Step->Params[0].Name) {
      // f = \s => select(c, x, s) is the identity once c fails, and stays
      // so: leave the loop there (the same state), and evaluate x only
      // under c, as ?: would (it may read what is valid only under c).
      size_t Depth0 = Env.size();
      bind(Step->Params[0].Name, State);
      CVal C = emit(Body->Args[0]);
      if (C.K != CVal::Scalar)
        throw CodegenError("'iterate' condition is not a scalar");
      line("if (!(" + C.Expr + ")) break;");
      CVal R = settle(emit(Body->Args[1]), "next");
      Env.resize(Depth0);
      assign(State, R);
    } else {
      CVal R = settle(apply(Step, {State}), "next");
      assign(State, R);
    }
    close();
    return State;
  }
  if (In.K != CVal::Array || In.Arr->LocalLeaves.empty())
    throw CodegenError("'iterate' is supported over a __local array only");
  const ExprPtr &Fn = E.Args[1];
  const ExprPtr &Body = Fn->body();
  // The step must be toLocal(mapLocal(d, f, halves(p))): in place is then
  // safe, work-item l reads p[l] and p[l + m/2] and writes p[l] only.
  if (!Body->isCall("toLocal") || !Body->Args[0]->isCall("mapLocal") ||
      !Body->Args[0]->Args[1]->isCall("halves") ||
      Body->Args[0]->Args[1]->Args[0]->K != Expr::Var ||
      Body->Args[0]->Args[1]->Args[0]->Name != Fn->Params[0].Name)
    throw CodegenError("'iterate' step must be toLocal(mapLocal(d, f, halves(p)))");
  std::string M = fresh("m");
  line("long " + M + " = " + In.Arr->Len + ";");
  std::string It = fresh("it");
  open("for (long " + It + " = 0; " + It + " < " + N.Expr + "; ++" + It + ")");
  auto P = std::make_shared<View>(*In.Arr);
  P->Len = M;
  InPlace = In.Arr->LocalLeaves;
  CVal R = apply(Fn, {CVal::array(P)});
  line(M + " = " + R.Arr->Len + ";");
  close();
  auto Out = std::make_shared<View>(*R.Arr);
  Out->Len = M;
  return CVal::array(Out);
}

/// A view of 2 or 3 dimensions over buffer \p Buf with parameters \p Ps =
/// (off, s0, n0, s1, n1[, s2, n2]): the dimensions from (Ps[D], Ps[D+1])
/// on, whose element i starts at \p Base + Ps[D] * i (an array of the next
/// dimension, or a scalar in the last).
/// Vector reads of the elements Off + S, Off + S + 1, ... of buffer \p Buf
/// (a row with a literal unit stride).
static void setVectorReads(Emitter *Em, View &V, const std::string &Buf, ScalarKind K,
                           const std::string &Off) {
  V.VecRead = [Em, Buf, K, Off](const std::string &S, unsigned N) {
    return Em->vecLoad(Buf + " + " + paren(addS(Off, S)), K, N);
  };
  V.VecAligned = [Buf, K, Off](const std::string &S, unsigned N) {
    return "((((ulong)(" + Buf + " + " + paren(addS(Off, S)) + ")) & " +
           std::to_string(N * byteSize(K) - 1) + "UL) == 0)";
  };
}

/// Level D of a multi-dimensional view; its innermost rows with a literal
/// unit stride read vectors (a row-major matrix row, for the vector-load
/// row lanes of a GEMV).
static std::shared_ptr<View> nestedView(Emitter *Em, const std::string &Buf, ScalarKind K,
                                        const std::string &Base,
                                        const std::vector<std::string> &Ps, size_t D) {
  auto V = std::make_shared<View>();
  V->Len = Ps[D + 1];
  V->At = [Em, Buf, K, Base, Ps, D](const std::string &I) {
    std::string Idx = addS(Base, mulS(Ps[D], I));
    if (D + 2 == Ps.size())
      return CVal::scalar(Buf + "[" + Idx + "]", K);
    return CVal::array(nestedView(Em, Buf, K, Idx, Ps, D + 2));
  };
  if (D + 2 == Ps.size() && D > 1 && (Ps[D] == "1" || Ps[D] == "1L"))
    setVectorReads(Em, *V, Buf, K, Base);
  return V;
}

CVal Emitter::emitCall(const Expr &E) {
  const OpEntry &Entry = cachedOpEntry(E.Name);
  const funil::OpInfo *Op = Entry.Info;
  if (!Op)
    throw CodegenError("unknown function '" + E.Name + "'");
  if (Op->Class == funil::OpClass::HwQuery) {
    int W = E.Name == "globalSize" ? 0 : E.Name == "localSize" ? 1 : 2;
    return CVal::scalar(std::string(HwLong[W]) + std::to_string(E.Attr) + "))",
                        ScalarKind::I64);
  }
  if (Op->Class != funil::OpClass::Primitive)
    return emitScalarOp(E);
  const std::string &N = E.Name;
  const auto &A = E.Args;
  const EmitPrim Prim = Entry.Prim;
  if (Prim == EmitPrim::View) {
    CVal B = emit(A[0]);
    if (B.K != CVal::Buffer)
      throw CodegenError("'view' of a non-buffer");
    std::vector<std::string> Ps;
    for (size_t I = 1; I < A.size(); ++I) {
      CVal P = emit(A[I]);
      Ps.push_back(P.Expr);
    }
    std::string Buf = B.Expr;
    ScalarKind K = B.S;
    auto V = std::make_shared<View>();
    V->Len = Ps[2];
    if (Ps.size() == 3) {
      V->At = [Buf, K, Ps](const std::string &I) {
        return CVal::scalar(Buf + "[" + addS(Ps[0], mulS(Ps[1], I)) + "]", K);
      };
      if (Ps[1] == "1" || Ps[1] == "1L") {
        std::string Off = Ps[0];
        setVectorReads(this, *V, Buf, K, Off);
        V->VecWrite = [this, Buf, K, Off](const std::string &S, const std::vector<CVal> &Vs) {
          vecStore(Buf + " + " + paren(addS(Off, S)), K, Vs);
        };
        V->Addr = [Buf, Off](const std::string &S) { return Buf + " + " + paren(addS(Off, S)); };
      }
    } else {
      return CVal::array(nestedView(this, Buf, K, Ps[0], Ps, 1));
    }
    return CVal::array(V);
  }
  if (Prim == EmitPrim::Iota) {
    auto V = std::make_shared<View>();
    V->Len = emit(A[0]).Expr;
    V->At = [](const std::string &I) { return CVal::scalar(I, ScalarKind::I64); };
    V->VecRead = [](const std::string &S, unsigned N) {
      std::vector<CVal> Out;
      for (unsigned J = 0; J < N; ++J)
        Out.push_back(CVal::scalar(paren(addS(S, std::to_string(J))), ScalarKind::I64));
      return Out;
    };
    V->VecAligned = [](const std::string &, unsigned) { return std::string("1"); };
    return CVal::array(V);
  }
  if (Prim == EmitPrim::Zip) {
    std::vector<CVal> Arrs;
    for (const ExprPtr &X : A) {
      Arrs.push_back(emit(X));
      if (Arrs.back().K != CVal::Array)
        throw CodegenError("'zip' of a non-array");
    }
    auto V = std::make_shared<View>();
    V->Len = Arrs[0].Arr->Len;
    V->At = [Arrs](const std::string &I) {
      CVal T;
      T.K = CVal::Tuple;
      for (const CVal &X : Arrs)
        T.Elems.push_back(X.Arr->At(I));
      return T;
    };
    bool AllVec = true;
    for (const CVal &X : Arrs)
      AllVec &= X.Arr->VecRead && X.Arr->VecAligned;
    if (AllVec) {
      V->VecRead = [Arrs](const std::string &S, unsigned N) {
        std::vector<CVal> Out(N);
        for (CVal &T : Out)
          T.K = CVal::Tuple;
        for (const CVal &X : Arrs) {
          std::vector<CVal> Xs = X.Arr->VecRead(S, N);
          for (unsigned J = 0; J < N; ++J)
            Out[J].Elems.push_back(Xs[J]);
        }
        return Out;
      };
      V->VecAligned = [Arrs](const std::string &S, unsigned N) {
        std::string C;
        std::set<std::string> Seen;
        for (const CVal &X : Arrs) {
          std::string P = X.Arr->VecAligned(S, N);
          if (P != "1" && Seen.insert(P).second)
            C += (C.empty() ? "" : " && ") + P;
        }
        return C.empty() ? std::string("1") : C;
      };
    }
    return CVal::array(V);
  }
  if (Prim == EmitPrim::Map || Prim == EmitPrim::MapSeq) {
    // Consumed element by element: a view that applies f at each access, in
    // the lexical environment of the map.
    CVal In = emit(A[1]);
    if (In.K != CVal::Array)
      throw CodegenError("'" + N + "' of a non-array");
    auto V = std::make_shared<View>();
    V->Len = In.Arr->Len;
    ExprPtr Fn = A[0];
    Scope Saved = scope();
    V->At = [this, Fn, In, Saved](const std::string &I) {
      std::vector<CVal> Args;
      Args.push_back(In.Arr->At(I));
      return applyIn(Saved, Fn, std::move(Args));
    };
    if (In.Arr->VecRead && In.Arr->VecAligned) {
      V->VecRead = [this, Fn, In, Saved](const std::string &S, unsigned N) {
        std::vector<CVal> Xs = In.Arr->VecRead(S, N);
        std::vector<CVal> Out;
        for (CVal &X : Xs) {
          std::vector<CVal> Args;
          Args.push_back(std::move(X));
          Out.push_back(applyIn(Saved, Fn, std::move(Args)));
        }
        return Out;
      };
      V->VecAligned = In.Arr->VecAligned;
    }
    return CVal::array(V);
  }
  if (Prim == EmitPrim::Split) {
    std::string Chunk = emit(A[0]).Expr;
    CVal In = emit(A[1]);
    if (In.K != CVal::Array)
      throw CodegenError("'split' of a non-array");
    int64_t Lit = A[0]->K == Expr::Lit && A[0]->signedValue() > 0 ? A[0]->signedValue() : 0;
    return CVal::array(splitView(In.Arr, Chunk, Lit));
  }
  if (Prim == EmitPrim::Join) {
    CVal In = emit(A[0]);
    auto Base = In.Arr;
    std::string RowLen = rowLen(*Base);
    auto V = std::make_shared<View>();
    V->Len = mulS(Base->Len, RowLen);
    V->At = [Base, RowLen](const std::string &I) {
      CVal Row = Base->At(divS(I, RowLen));
      return Row.Arr->At(paren(I) + " % " + paren(RowLen));
    };
    return CVal::array(V);
  }
  if (Prim == EmitPrim::At) {
    CVal In = emit(A[0]);
    CVal I = emit(A[1]);
    if (In.K != CVal::Array)
      throw CodegenError("'at' of a non-array");
    return In.Arr->At(I.Expr);
  }
  if (Prim == EmitPrim::Strided) {
    std::string Step = emit(A[0]).Expr;
    CVal In = emit(A[1]);
    auto Base = In.Arr;
    auto V = std::make_shared<View>();
    V->Len = Step;
    V->At = [Base, Step](const std::string &K) {
      auto Row = std::make_shared<View>();
      Row->Len = "((" + Base->Len + " - " + paren(K) + " + " + paren(Step) +
                 " - 1) / " + paren(Step) + ")";
      Row->StrideBase = Base;
      Row->StrideStart = K;
      Row->StrideStep = Step;
      Row->At = [Base, K, Step](const std::string &J) {
        return Base->At(addS(K, mulS(Step, J)));
      };
      return CVal::array(Row);
    };
    return CVal::array(V);
  }
  if (Prim == EmitPrim::Blocks) {
    // Row K is Base[K*C .. min(n, (K+1)*C)), C = ceil(n / P): a loop over
    // it reads consecutive elements.
    std::string P = emit(A[0]).Expr;
    CVal In = emit(A[1]);
    if (In.K != CVal::Array)
      throw CodegenError("'blocks' of a non-array");
    auto Base = In.Arr;
    std::string C = "((" + paren(Base->Len) + " + " + paren(P) + " - 1) / " + paren(P) + ")";
    auto V = std::make_shared<View>();
    V->Len = P;
    V->At = [Base, C](const std::string &K) {
      auto Row = std::make_shared<View>();
      std::string Start = mulS(K, C);
      Row->Len = "max(0L, min((long)" + C + ", " + paren(Base->Len) + " - " + paren(Start) + "))";
      Row->At = [Base, Start](const std::string &J) { return Base->At(addS(Start, J)); };
      return CVal::array(Row);
    };
    return CVal::array(V);
  }
  if (Prim == EmitPrim::Halves) {
    CVal In = emit(A[0]);
    auto Base = In.Arr;
    std::string Half = divS(Base->Len, "2");
    auto V = std::make_shared<View>();
    V->Len = Half;
    V->At = [Base, Half](const std::string &I) {
      auto Pair = std::make_shared<View>();
      Pair->Len = "2";
      Pair->At = [Base, Half, I](const std::string &J) {
        return Base->At(addS(I, mulS(J, Half)));
      };
      return CVal::array(Pair);
    };
    return CVal::array(V);
  }
  if (Prim == EmitPrim::ReduceSeq)
    return emitReduceSeq(E);
  if (Prim == EmitPrim::ToLocal)
    return emitToLocal(E);
  if (Prim == EmitPrim::Iterate)
    return emitIterate(E);
  if (Prim == EmitPrim::ToGlobal || Prim == EmitPrim::ToPrivate)
    return emit(A[0]);
  if (Prim == EmitPrim::Apply) // apply(f, x): f's body with x bound
    return apply(A[0], {emit(A[1])});
  return emitLayout(E);
}

} // namespace idiom::rewrite::codegen
