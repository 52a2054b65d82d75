//===- Interpreter.cpp - FunIL reference semantics ------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Interpreter.h"

#include "ScalarEval.h"
#include "idiom/FunIL/Ops.h"

#include <deque>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <utility>
#include <vector>

namespace idiom::funil {

namespace {

struct EvalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Interp {
public:
  Interp(const ValueMap &Globals, const ExecConfig &Cfg)
      : Globals(Globals), Cfg(Cfg) {}

  Value eval(const ExprPtr &E);
  /// The value of \p E without copying it when it is a variable (a
  /// buffer of the program, or a bound parameter): a reference to the
  /// binding, valid while the binding is (Locals is a deque, so bindings
  /// pushed meanwhile move nothing); otherwise \p E evaluated into \p Tmp.
  const Value &evalRef(const ExprPtr &E, Value &Tmp) {
    if (E->K == Expr::Var)
      return lookup(E->Name);
    Tmp = eval(E);
    return Tmp;
  }
  /// \p Fn applied to one or two arguments, moved into its parameters (a
  /// braced list of arguments would copy them: an initializer_list's
  /// elements are const).
  Value apply(const ExprPtr &Fn, Value X) { return applyN(Fn, &X, 1); }
  Value apply(const ExprPtr &Fn, Value X, Value Y) {
    Value Args[2] = {std::move(X), std::move(Y)};
    return applyN(Fn, Args, 2);
  }
  /// Buffer indices addressed by an output view, shaped like its value.
  Value viewIndices(const Expr &View, std::string &Buf);

private:
  [[noreturn]] static void fail(const std::string &M) { throw EvalError(M); }
  const Value &lookup(const std::string &N) const;
  int64_t evalI64(const ExprPtr &E) { return eval(E).asSigned(); }
  const Value &array(const Value &V, const char *Who) {
    if (V.K != Value::Array)
      fail(std::string("'") + Who + "' expects an array");
    return V;
  }
  Value applyN(const ExprPtr &Fn, Value *Args, size_t N);
  Value call(const Expr &E);
  Value primitive(const Expr &E);
  Value layout(const Expr &E);

  const ValueMap &Globals;
  const ExecConfig &Cfg;
  std::deque<std::pair<std::string, Value>> Locals;
};

const Value &Interp::lookup(const std::string &N) const {
  for (auto It = Locals.rbegin(); It != Locals.rend(); ++It)
    if (It->first == N)
      return It->second;
  auto It = Globals.find(N);
  if (It == Globals.end())
    fail("unbound variable '" + N + "'");
  return It->second;
}

Value Interp::applyN(const ExprPtr &Fn, Value *Args, size_t N) {
  if (Fn->K != Expr::Lambda || Fn->Params.size() != N)
    fail("bad function application");
  for (size_t I = 0; I < N; ++I)
    Locals.emplace_back(Fn->Params[I].Name, std::move(Args[I]));
  Value R = eval(Fn->body());
  Locals.resize(Locals.size() - N);
  return R;
}

/// The nested arrays of a view with parameters \p Ps = (off, s0, n0[, s1,
/// n1[, s2, n2]]): element (i0, i1, ...) is \p Elem(off + s0*i0 + s1*i1 + ...).
template <class F>
Value viewValue(const std::vector<int64_t> &Ps, const F &Elem, size_t D = 1,
                int64_t Base = -1) {
  if (D == 1)
    Base = Ps[0];
  std::vector<Value> Xs;
  for (int64_t I = 0; I < Ps[D + 1]; ++I) {
    int64_t Idx = Base + Ps[D] * I;
    Xs.push_back(D + 2 == Ps.size() ? Value(Elem(Idx)) : viewValue(Ps, Elem, D + 2, Idx));
  }
  return Value::array(std::move(Xs));
}

Value Interp::primitive(const Expr &E) {
  const std::string &N = E.Name;
  const auto &A = E.Args;
  if (N == "view") {
    Value Tmp;
    const Value &Buf = evalRef(A[0], Tmp);
    std::vector<int64_t> Ps;
    for (size_t I = 1; I < A.size(); ++I)
      Ps.push_back(evalI64(A[I]));
    int64_t Size = static_cast<int64_t>(Buf.Elems.size());
    auto At = [&](int64_t Idx) -> const Value & {
      if (Idx < 0 || Idx >= Size)
        fail("view reads element " + std::to_string(Idx) +
             " of a buffer of " + std::to_string(Size));
      return Buf.Elems[Idx];
    };
    for (size_t D = 2; D < Ps.size(); D += 2)
      if (Ps[D] < 0)
        fail("view of negative length");
    return viewValue(Ps, [&](int64_t Idx) { return At(Idx); });
  }
  if (N == "iota") {
    int64_t Len = evalI64(A[0]);
    if (Len < 0)
      fail("iota of negative length");
    std::vector<Value> Es;
    for (int64_t I = 0; I < Len; ++I)
      Es.push_back(Value::ofInt(ScalarKind::I64, I));
    return Value::array(std::move(Es));
  }
  if (N == "zip") {
    std::vector<Value> Arrs;
    for (const ExprPtr &X : A)
      Arrs.push_back(array(eval(X), "zip"));
    std::vector<Value> Es;
    for (size_t I = 0; I < Arrs[0].Elems.size(); ++I) {
      std::vector<Value> T;
      for (Value &Arr : Arrs) {
        if (Arr.Elems.size() != Arrs[0].Elems.size())
          fail("zip of arrays of different lengths");
        T.push_back(std::move(Arr.Elems[I]));
      }
      Es.push_back(Value::tuple(std::move(T)));
    }
    return Value::array(std::move(Es));
  }
  if (N == "map" || N == "mapSeq" || N == "mapGlobal" || N == "mapWorkgroup" ||
      N == "mapLocal") {
    Value In = array(eval(A[1]), N.c_str());
    for (Value &X : In.Elems)
      X = apply(A[0], std::move(X));
    return In;
  }
  if (N == "reduce" || N == "reduceSeq") {
    Value Acc = eval(A[1]);
    Value In = array(eval(A[2]), N.c_str());
    for (Value &X : In.Elems)
      Acc = apply(A[0], std::move(Acc), std::move(X));
    return Acc;
  }
  if (N == "reduceIndexed" || N == "reduceIndexedAtomic") {
    // Folds every (bin, value) pair into the bins, in order (leaves of
    // nested pair arrays in row-major order).
    Value Bins = array(eval(A[1]), N.c_str());
    std::function<void(Value &)> Update = [&](Value &P) {
      if (P.K == Value::Array) {
        for (Value &Q : P.Elems)
          Update(Q);
        return;
      }
      int64_t K = P.Elems[0].asSigned();
      if (K < 0 || K >= static_cast<int64_t>(Bins.Elems.size()))
        fail(N + ": bin index " + std::to_string(K) + " out of range for " +
             std::to_string(Bins.Elems.size()) + " bins");
      Bins.Elems[K] = apply(A[0], std::move(Bins.Elems[K]), std::move(P.Elems[1]));
    };
    if (N == "reduceIndexed") {
      Value In = array(eval(A[3]), "reduceIndexed");
      for (Value &X : In.Elems) {
        Value P = apply(A[2], std::move(X));
        Update(P);
      }
    } else {
      Value Pairs = array(eval(A[2]), "reduceIndexedAtomic");
      Update(Pairs);
    }
    return Bins;
  }
  if (N == "split") {
    int64_t Chunk = evalI64(A[0]);
    Value In = array(eval(A[1]), "split");
    int64_t Len = static_cast<int64_t>(In.Elems.size());
    if (Chunk <= 0 || Len % Chunk)
      fail("split(" + std::to_string(Chunk) + ") of an array of " +
           std::to_string(Len));
    std::vector<Value> Rows;
    for (int64_t I = 0; I < Len; I += Chunk)
      Rows.push_back(Value::array(std::vector<Value>(
          std::make_move_iterator(In.Elems.begin() + I),
          std::make_move_iterator(In.Elems.begin() + I + Chunk))));
    return Value::array(std::move(Rows));
  }
  if (N == "join") {
    Value In = array(eval(A[0]), "join");
    std::vector<Value> Es;
    for (Value &Row : In.Elems) {
      if (Row.K != Value::Array || Row.Elems.size() != In.Elems[0].Elems.size())
        fail("join of rows of different lengths");
      for (Value &X : Row.Elems)
        Es.push_back(std::move(X));
    }
    return Value::array(std::move(Es));
  }
  if (N == "at") {
    // Row i of a view (off, s0, n0[, s1, n1, ...]) whose elements all lie
    // inside its buffer: the view (off + s0*i[, s1, n1, ...]) alone, or
    // element off + s0*i of a 1-D view; the whole view is not built. Any
    // other view takes the general path below, which builds it and reports
    // its first element outside the buffer.
    if (A[0]->isCall("view") && A[0]->Args.size() >= 4 &&
        A[0]->Args.size() % 2 == 0) {
      const auto &VA = A[0]->Args;
      Value Tmp;
      const Value &Buf = evalRef(VA[0], Tmp);
      std::vector<int64_t> Ps;
      for (size_t I = 1; I < VA.size(); ++I)
        Ps.push_back(evalI64(VA[I]));
      bool Empty = false;
      for (size_t D = 2; D < Ps.size(); D += 2) {
        if (Ps[D] < 0)
          fail("view of negative length");
        Empty |= Ps[D] == 0;
      }
      // the lowest and highest element read: corners of the index box
      __int128 Lo = Ps[0], Hi = Ps[0];
      for (size_t D = 1; D < Ps.size(); D += 2) {
        __int128 Span = static_cast<__int128>(Ps[D]) * (Ps[D + 1] - 1);
        (Span < 0 ? Lo : Hi) += Span;
      }
      int64_t Len = Ps[2];
      if (Empty || (Lo >= 0 && Hi < static_cast<__int128>(Buf.Elems.size()))) {
        int64_t I = evalI64(A[1]);
        if (I < 0 || I >= Len)
          fail("at(" + std::to_string(I) + ") of an array of " +
               std::to_string(Len));
        int64_t Row = Ps[0] + Ps[1] * I;
        if (Ps.size() == 3)
          return Buf.Elems[static_cast<size_t>(Row)];
        std::vector<int64_t> Sub{Row};
        Sub.insert(Sub.end(), Ps.begin() + 3, Ps.end());
        return viewValue(Sub, [&](int64_t Idx) -> const Value & {
          return Buf.Elems[static_cast<size_t>(Idx)];
        });
      }
    }
    Value Tmp;
    const Value &In = array(evalRef(A[0], Tmp), "at");
    int64_t I = evalI64(A[1]);
    if (I < 0 || I >= static_cast<int64_t>(In.Elems.size()))
      fail("at(" + std::to_string(I) + ") of an array of " +
           std::to_string(In.Elems.size()));
    return &In == &Tmp ? std::move(Tmp.Elems[I]) : In.Elems[I];
  }
  if (N == "strided") {
    int64_t P = evalI64(A[0]);
    Value In = array(eval(A[1]), "strided");
    if (P <= 0)
      fail("strided needs a positive stride");
    std::vector<Value> Rows(P, Value::array({}));
    for (size_t I = 0; I < In.Elems.size(); ++I)
      Rows[I % P].Elems.push_back(std::move(In.Elems[I]));
    return Value::array(std::move(Rows));
  }
  if (N == "blocks") {
    // P rows of C = ceil(n / P) consecutive elements; the last rows are
    // shorter or empty.
    int64_t P = evalI64(A[0]);
    Value In = array(eval(A[1]), "blocks");
    if (P <= 0)
      fail("blocks needs a positive row count");
    int64_t Len = static_cast<int64_t>(In.Elems.size());
    int64_t C = (Len + P - 1) / P;
    std::vector<Value> Rows(P, Value::array({}));
    for (int64_t I = 0; I < Len; ++I)
      Rows[I / C].Elems.push_back(std::move(In.Elems[I]));
    return Value::array(std::move(Rows));
  }
  if (N == "halves") {
    Value In = array(eval(A[0]), "halves");
    size_t Len = In.Elems.size();
    if (Len % 2)
      fail("halves of an array of odd length " + std::to_string(Len));
    std::vector<Value> Rows;
    for (size_t I = 0; I < Len / 2; ++I) {
      std::vector<Value> Pair;
      Pair.push_back(std::move(In.Elems[I]));
      Pair.push_back(std::move(In.Elems[I + Len / 2]));
      Rows.push_back(Value::array(std::move(Pair)));
    }
    return Value::array(std::move(Rows));
  }
  if (N == "iterate") {
    int64_t Count = evalI64(A[0]);
    Value X = eval(A[2]); // an array, or a scalar or tuple state
    for (int64_t I = 0; I < Count; ++I)
      X = apply(A[1], std::move(X));
    return X;
  }
  if (N == "apply")
    return apply(A[0], eval(A[1]));
  if (N == "toGlobal" || N == "toLocal" || N == "toPrivate")
    return eval(A[0]);
  return layout(E);
}

/// The data-layout primitives (docs/FunIL.md). A vector value is the array
/// of its lanes, so asVector is split and asScalar is join (seeds/004
/// section 5: [[splitVec]] = [[split]], [[joinVec]] = [[join]]).
Value Interp::layout(const Expr &E) {
  const std::string &N = E.Name;
  const auto &A = E.Args;
  auto Len = [](const Value &V) { return static_cast<int64_t>(V.Elems.size()); };
  if (N == "transpose") {
    Value In = array(eval(A[0]), "transpose");
    std::vector<Value> Rows;
    for (Value &Row : In.Elems) {
      if (Row.K != Value::Array || Row.Elems.size() != In.Elems[0].Elems.size())
        fail("transpose of rows of different lengths");
      for (size_t J = 0; J < Row.Elems.size(); ++J) {
        if (Rows.size() <= J)
          Rows.push_back(Value::array({}));
        Rows[J].Elems.push_back(std::move(Row.Elems[J]));
      }
    }
    return Value::array(std::move(Rows));
  }
  if (N == "reorder" || N == "scatter") {
    // reorder: element i is a[f(i)]; scatter: element f(i) is a[i].
    Value In = array(eval(A[1]), N.c_str());
    int64_t Len0 = Len(In);
    std::vector<bool> Seen(static_cast<size_t>(Len0));
    std::vector<Value> Es(static_cast<size_t>(Len0));
    for (int64_t I = 0; I < Len0; ++I) {
      int64_t J = apply(A[0], Value::ofInt(ScalarKind::I64, I)).asSigned();
      if (J < 0 || J >= Len0)
        fail(N + " maps " + std::to_string(I) + " to " + std::to_string(J) +
             ", outside an array of " + std::to_string(Len0));
      if (Seen[J])
        fail("the index function of " + N + " is not a permutation: " +
             std::to_string(J) + " is reached twice");
      Seen[J] = true;
      // (each element is read once: f is a permutation, checked above)
      if (N == "reorder")
        Es[I] = std::move(In.Elems[J]);
      else
        Es[J] = std::move(In.Elems[I]);
    }
    return Value::array(std::move(Es));
  }
  if (N == "reorderStride") {
    int64_t S = evalI64(A[0]);
    Value In = array(eval(A[1]), "reorderStride");
    int64_t Len0 = Len(In);
    if (S <= 0 || Len0 % S)
      fail("reorderStride(" + std::to_string(S) + ") of an array of " +
           std::to_string(Len0));
    int64_t K = Len0 / S;
    std::vector<Value> Es;
    for (int64_t I = 0; I < Len0; ++I)
      Es.push_back(std::move(In.Elems[I / K + S * (I % K)])); // a permutation
    return Value::array(std::move(Es));
  }
  if (N == "slide") {
    int64_t Size = evalI64(A[0]), Step = evalI64(A[1]);
    Value In = array(eval(A[2]), "slide");
    if (Size <= 0 || Step <= 0)
      fail("slide needs a positive window size and step");
    int64_t Count = Len(In) >= Size ? (Len(In) - Size) / Step + 1 : 0;
    std::vector<Value> Ws;
    for (int64_t K = 0; K < Count; ++K)
      Ws.push_back(Value::array(std::vector<Value>(In.Elems.begin() + K * Step,
                                                   In.Elems.begin() + K * Step + Size)));
    return Value::array(std::move(Ws));
  }
  if (N == "pad" || N == "padClamp") {
    int64_t L = evalI64(A[0]), R = evalI64(A[1]);
    Value Pad = N == "pad" ? eval(A[2]) : Value();
    Value In = array(eval(A.back()), N.c_str());
    int64_t Len0 = Len(In);
    if (L < 0 || R < 0)
      fail(N + " needs non-negative padding");
    if (N == "padClamp" && Len0 == 0 && L + R > 0)
      fail("padClamp of an empty array");
    std::vector<Value> Es;
    for (int64_t I = 0; I < L + Len0 + R; ++I) {
      int64_t J = I - L;
      if (N == "pad")
        Es.push_back(J >= 0 && J < Len0 ? std::move(In.Elems[J]) : Pad);
      else
        Es.push_back(In.Elems[J < 0 ? 0 : J >= Len0 ? Len0 - 1 : J]);
    }
    return Value::array(std::move(Es));
  }
  if (N == "asVector") {
    int64_t W = evalI64(A[0]);
    Value In = array(eval(A[1]), "asVector");
    if (W <= 0 || Len(In) % W)
      fail("asVector(" + std::to_string(W) + ") of an array of " +
           std::to_string(Len(In)));
    std::vector<Value> Vs;
    for (int64_t I = 0; I < Len(In); I += W)
      Vs.push_back(Value::array(
          std::vector<Value>(std::make_move_iterator(In.Elems.begin() + I),
                             std::make_move_iterator(In.Elems.begin() + I + W))));
    return Value::array(std::move(Vs));
  }
  if (N == "broadcast") {
    int64_t W = evalI64(A[0]);
    Value X = eval(A[1]);
    return Value::array(std::vector<Value>(static_cast<size_t>(W), X));
  }
  if (N == "lanes") // a vector is the array of its lanes
    return array(eval(A[0]), "lanes");
  if (N == "asScalar") {
    Value In = array(eval(A[0]), "asScalar");
    std::vector<Value> Es;
    for (Value &V : In.Elems) {
      array(V, "asScalar");
      for (Value &X : V.Elems)
        Es.push_back(std::move(X));
    }
    return Value::array(std::move(Es));
  }
  fail("cannot evaluate '" + N + "'");
}

/// A scalar operation or cast applied lane by lane when an operand is a
/// vector (the array of its lanes); scalar operands are broadcast. select
/// with vector arms picks a whole vector (its condition is a scalar).
template <typename Fn>
bool laneWise(const std::vector<Value> &Args, Value &Out, Fn PerLane) {
  size_t Lanes = 0;
  for (const Value &A : Args)
    if (A.K == Value::Array)
      Lanes = A.Elems.size();
  if (!Lanes)
    return false;
  std::vector<Value> Res;
  for (size_t L = 0; L < Lanes; ++L) {
    std::vector<Value> Lane;
    for (const Value &A : Args)
      Lane.push_back(A.K == Value::Array ? A.Elems.at(L) : A);
    Res.push_back(PerLane(Lane));
  }
  Out = Value::array(std::move(Res));
  return true;
}

Value Interp::call(const Expr &E) {
  const OpInfo *Op = lookupOp(E.Name);
  if (!Op)
    fail("unknown function '" + E.Name + "'");
  if (Op->Class == OpClass::Primitive)
    return primitive(E);
  if (Op->Class == OpClass::HwQuery) {
    int64_t V = 1;
    if (E.Attr == 0) {
      if (E.Name == "localSize")
        V = Cfg.LocalSize;
      else if (E.Name == "numGroups")
        V = Cfg.NumGroups;
      else
        V = Cfg.LocalSize * Cfg.NumGroups;
    }
    return Value::ofInt(ScalarKind::I64, V);
  }
  // select evaluates only the operand it chooses, as C's ?: (and the
  // generated OpenCL) does: the other may read outside an array.
  if (Op->Class == OpClass::Select && E.Args.size() == 3) {
    Value C = eval(E.Args[0]);
    if (C.K != Value::Array)
      return eval(E.Args[C.Bits ? 1 : 2]);
  }
  std::vector<Value> Args;
  for (const ExprPtr &X : E.Args)
    Args.push_back(eval(X));
  Value R;
  std::string Err;
  auto One = [&](const std::vector<Value> &Lane) {
    Value V;
    if (!evalScalarOp(E.Name, Lane, V, Err))
      fail(Err);
    return V;
  };
  if (Op->Class != OpClass::Select && laneWise(Args, R, One))
    return R;
  return One(Args);
}

Value Interp::eval(const ExprPtr &EP) {
  const Expr &E = *EP;
  switch (E.K) {
  case Expr::Var:
    return lookup(E.Name);
  case Expr::Lit:
    if (isFloat(E.LitKind))
      return Value::ofFloat(E.LitKind, E.F);
    return Value::ofInt(E.LitKind, static_cast<int64_t>(E.Bits));
  case Expr::Call:
    return call(E);
  case Expr::Cast: {
    Value X = eval(E.Args[0]), R;
    std::string Err;
    auto One = [&](const std::vector<Value> &Lane) {
      Value V;
      if (!evalCast(E.Name, E.LitKind, Lane[0], V, Err))
        fail(Err);
      return V;
    };
    if (laneWise({X}, R, One))
      return R;
    return One({X});
  }
  case Expr::Lambda:
    fail("a lambda is not a value");
  case Expr::Tuple: {
    std::vector<Value> Es;
    for (const ExprPtr &X : E.Args)
      Es.push_back(eval(X));
    return Value::tuple(std::move(Es));
  }
  case Expr::Proj: {
    Value Tmp;
    const Value &T = evalRef(E.Args[0], Tmp);
    if (T.K != Value::Tuple || E.Index >= T.Elems.size())
      fail("bad tuple projection");
    return &T == &Tmp ? std::move(Tmp.Elems[E.Index]) : T.Elems[E.Index];
  }
  }
  fail("unknown expression");
}

Value Interp::viewIndices(const Expr &View, std::string &Buf) {
  if (!View.isCall("view") || View.Args[0]->K != Expr::Var)
    fail("an output must be a view of a buffer parameter");
  Buf = View.Args[0]->Name;
  std::vector<int64_t> Ps;
  for (size_t I = 1; I < View.Args.size(); ++I)
    Ps.push_back(evalI64(View.Args[I]));
  return viewValue(Ps, [](int64_t Idx) { return Value::ofInt(ScalarKind::I64, Idx); });
}

/// Writes \p V through the index structures \p Idx (one per output).
void store(const Value &V, const std::vector<const Value *> &Idx,
           const std::vector<Value *> &Bufs) {
  if (Idx[0]->K == Value::Array) {
    if (V.K != Value::Array || V.Elems.size() != Idx[0]->Elems.size())
      throw EvalError("stored array and output view differ in length");
    for (size_t I = 0; I < V.Elems.size(); ++I) {
      std::vector<const Value *> Sub;
      for (const Value *X : Idx)
        Sub.push_back(&X->Elems[I]);
      store(V.Elems[I], Sub, Bufs);
    }
    return;
  }
  for (size_t K = 0; K < Idx.size(); ++K) {
    const Value &Elem = Idx.size() == 1 ? V : V.Elems[K];
    int64_t At = Idx[K]->asSigned();
    if (At < 0 || At >= static_cast<int64_t>(Bufs[K]->Elems.size()))
      throw EvalError("store to element " + std::to_string(At) +
                      " of a buffer of " + std::to_string(Bufs[K]->Elems.size()));
    Bufs[K]->Elems[At] = Elem;
  }
}

} // namespace

bool evalExpr(const ExprPtr &E, const ValueMap &Env, Value &Out,
              std::string &Err, const ExecConfig &Cfg) {
  try {
    Interp I(Env, Cfg);
    Out = I.eval(E);
    return true;
  } catch (const std::exception &X) {
    Err = X.what();
  }
  return false;
}

bool runProgram(const Program &P, ValueMap &Args, Value &Result,
                std::string &Err, const ExecConfig &Cfg) {
  for (const Param &Pa : P.Params) {
    auto It = Args.find(Pa.Name);
    if (It == Args.end()) {
      Err = "no value for parameter '" + Pa.Name + "'";
      return false;
    }
    bool Ok = Pa.Ty->isBuffer() ? It->second.K == Value::Array
                                : (It->second.K == Value::Scalar &&
                                   It->second.S == Pa.Ty->S);
    if (!Ok) {
      Err = "value of parameter '" + Pa.Name + "' does not have type '" +
            printType(*Pa.Ty) + "'";
      return false;
    }
  }
  try {
    Interp I(Args, Cfg);
    Value V = I.eval(P.Body);
    if (P.IsReturn) {
      Result = std::move(V);
      return true;
    }
    std::vector<Value> Idx;
    std::vector<std::string> Names;
    for (const ExprPtr &O : P.Outs) {
      std::string B;
      Idx.push_back(I.viewIndices(*O, B));
      Names.push_back(B);
    }
    std::vector<const Value *> IdxPtrs;
    std::vector<Value *> Bufs;
    for (size_t K = 0; K < Idx.size(); ++K) {
      IdxPtrs.push_back(&Idx[K]);
      Bufs.push_back(&Args[Names[K]]);
    }
    store(V, IdxPtrs, Bufs);
    Result = Value::tuple({});
    return true;
  } catch (const std::exception &X) {
    Err = X.what();
  }
  return false;
}

} // namespace idiom::funil
