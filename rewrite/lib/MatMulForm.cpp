//===- MatMulForm.cpp - the matrix-product forms ---------------------------===//
//
// Part of Idiom. seeds/000, "Case Study: Matrix Multiplication" (figure 7:
// tiling, then register blocking), with the K reduction kept sequential per
// output element (the GEMM contract).
//
//===----------------------------------------------------------------------===//

#include "MatMulForm.h"

#include "idiom/FunIL/ExprUtil.h"
#include "idiom/FunIL/TypeCheck.h"

#include <map>
#include <set>

namespace idiom::rewrite::matmul {

using funil::Expr;
using funil::Param;
using funil::ScalarKind;
using funil::Size;
using funil::SizePtr;
using funil::Type;
using funil::TypePtr;

bool TileParams::valid() const {
  return TM > 0 && TN > 0 && TK > 0 && RM > 0 && RN > 0 && TM % RM == 0 && TN % RN == 0 &&
         GM >= 0 && GN >= 0 && RM % gm() == 0 && RN % gn() == 0;
}

namespace {

ExprPtr i64(int64_t V) { return Expr::intLit(ScalarKind::I64, V); }
ExprPtr call(const char *N, std::vector<ExprPtr> A, int64_t Attr = -1) {
  return Expr::call(N, std::move(A), Attr);
}
ExprPtr proj(const ExprPtr &X, unsigned I) { return Expr::proj(X, I); }
TypePtr arr(TypePtr E, int64_t N) { return Type::array(std::move(E), Size::constant(N)); }
TypePtr arrS(TypePtr E, SizePtr N) { return Type::array(std::move(E), std::move(N)); }
TypePtr tup(TypePtr A, TypePtr B) { return Type::tuple({std::move(A), std::move(B)}); }

template <typename BodyFn>
ExprPtr lam(const FreshFn &Fresh, const char *Base, TypePtr Ty, BodyFn Body) {
  std::string N = Fresh(Base);
  return Expr::lambda({{N, std::move(Ty)}}, Body(Expr::var(N)));
}

/// An i64 expression for the number of chunks of \p Len elements in rows
/// of \p Chunk: a literal when Len is one, sdiv(Len, Chunk) otherwise.
ExprPtr chunks(const ExprPtr &Len, int64_t Chunk) {
  if (Len->K == Expr::Lit)
    return i64(Len->signedValue() / Chunk);
  return call("sdiv", {Len, i64(Chunk)});
}

/// TR(x): the transposition of \p X : [[E]_n]_m by views,
/// map(\j => map(\r => at(r, j), x), iota(n)) : [[E]_m]_n; \p N is n.
ExprPtr transposeV(const ExprPtr &X, const TypePtr &XTy, const ExprPtr &N,
                   const FreshFn &Fresh) {
  TypePtr Row = XTy->Elem;
  return call("map", {lam(Fresh, "j", Type::scalar(ScalarKind::I64),
                          [&](ExprPtr J) {
                            return call("map", {lam(Fresh, "r", Row,
                                                    [&](ExprPtr R) {
                                                      return call("at", {R, J});
                                                    }),
                                                X});
                          }),
                      call("iota", {N})});
}

/// map(\row => split(C, row), X) for X : [[E]_n]_m.
ExprPtr splitRows(const ExprPtr &X, const TypePtr &XTy, int64_t C, const FreshFn &Fresh) {
  return call("map", {lam(Fresh, "row", XTy->Elem,
                          [&](ExprPtr R) { return call("split", {i64(C), R}); }),
                      X});
}

/// The per-work-item groups of \p X : [E]_(W*R): [[E]_R]_W, element (w, g*G + e)
/// = X[g*W*G + w*G + e]; split(R, X) when G = R, else
/// map(join, TR(split(W, split(G, X)))).
ExprPtr groupsOf(const ExprPtr &X, const TypePtr &E, int64_t R, int64_t G, int64_t W,
                 const FreshFn &Fresh) {
  if (G == R)
    return call("split", {i64(R), X});
  TypePtr Split = arr(arr(arr(E, G), W), R / G);
  return call("map", {lam(Fresh, "g", arr(arr(E, G), R / G),
                          [](ExprPtr Gv) { return call("join", {Gv}); }),
                      transposeV(call("split", {i64(W), call("split", {i64(G), X})}), Split,
                                 i64(W), Fresh)});
}

/// The inverse of groupsOf: \p Y : [[E]_R]_W back to [E]_(W*R); join(Y) when
/// G = R, else join(join(TR(map(\y => split(G, y), Y)))).
ExprPtr ungroup(const ExprPtr &Y, const TypePtr &E, int64_t R, int64_t G, int64_t W,
                const FreshFn &Fresh) {
  if (G == R)
    return call("join", {Y});
  ExprPtr Parts = call("map", {lam(Fresh, "y", arr(E, R),
                                   [&](ExprPtr Yv) { return call("split", {i64(G), Yv}); }),
                               Y});
  return call("join", {call("join", {transposeV(Parts, arr(arr(arr(E, G), R / G), W),
                                                i64(R / G), Fresh)})});
}

/// Replaces the node \p Node (by identity) with \p By and every q.1 with
/// \p C1, where q is \p Q.
ExprPtr replacePost(const ExprPtr &E, const Expr *Node, const ExprPtr &By,
                    const std::string &Q, const ExprPtr &C1) {
  if (E.get() == Node)
    return By;
  if (E->K == Expr::Proj && E->Index == 1 && E->Args[0]->K == Expr::Var &&
      E->Args[0]->Name == Q)
    return C1;
  std::vector<ExprPtr> Args;
  bool Changed = false;
  for (const ExprPtr &A : E->Args) {
    Args.push_back(replacePost(A, Node, By, Q, C1));
    Changed |= Args.back() != A;
  }
  return Changed ? funil::withArgs(*E, std::move(Args)) : E;
}

bool freeIn(const ExprPtr &E, const std::string &N) {
  std::set<std::string> Free;
  funil::freeVars(*E, Free);
  return Free.count(N) != 0;
}

bool isProjOf(const ExprPtr &E, const std::string &V, unsigned I) {
  return E->K == Expr::Proj && E->Index == I && E->Args[0]->K == Expr::Var &&
         E->Args[0]->Name == V;
}

/// True when \p E reads component \p I of the variable \p V.
bool usesProj(const ExprPtr &E, const std::string &V, unsigned I) {
  if (isProjOf(E, V, I))
    return true;
  for (const ExprPtr &A : E->Args)
    if (usesProj(A, V, I))
      return true;
  return false;
}

/// \p E with every V.I replaced by \p By (V not rebound inside E).
ExprPtr replaceProj(const ExprPtr &E, const std::string &V, unsigned I, const ExprPtr &By) {
  if (isProjOf(E, V, I))
    return By;
  std::vector<ExprPtr> Args;
  bool Changed = false;
  for (const ExprPtr &A : E->Args) {
    Args.push_back(replaceProj(A, V, I, By));
    Changed |= Args.back() != A;
  }
  return Changed ? funil::withArgs(*E, std::move(Args)) : E;
}

/// \p E with every V.From read as V.To (V not rebound inside E).
ExprPtr renameProj(const ExprPtr &E, const std::string &V, unsigned From, unsigned To) {
  return replaceProj(E, V, From, proj(Expr::var(V), To));
}

/// Reads a band step \(acc, x: (T, T, i64)) => select(icmp_slt(x.2, E),
/// acc, S) (upper) or select(.., S, acc) (lower): \p Lower, the mask's
/// bound E and the unmasked step \(acc, x: (T, T)) => S (S must not read
/// x.2). False for any other step.
bool readBandStep(const ExprPtr &Step, ExprPtr &Unmasked, ExprPtr &E, bool &Lower) {
  if (Step->K != Expr::Lambda || Step->Params.size() != 2)
    return false;
  const std::string &AccN = Step->Params[0].Name, &XN = Step->Params[1].Name;
  const TypePtr &XTy = Step->Params[1].Ty;
  if (!XTy->isTuple() || XTy->Elems.size() != 3 ||
      !XTy->Elems[2]->isScalar(ScalarKind::I64))
    return false;
  const ExprPtr &Sel = Step->body();
  if (!Sel->isCall("select") || Sel->Args.size() != 3 || !Sel->Args[0]->isCall("icmp_slt") ||
      !isProjOf(Sel->Args[0]->Args[0], XN, 2))
    return false;
  auto IsAcc = [&](const ExprPtr &X) { return X->K == Expr::Var && X->Name == AccN; };
  ExprPtr S;
  if (IsAcc(Sel->Args[1]) && !IsAcc(Sel->Args[2])) {
    Lower = false;
    S = Sel->Args[2];
  } else if (IsAcc(Sel->Args[2]) && !IsAcc(Sel->Args[1])) {
    Lower = true;
    S = Sel->Args[1];
  } else {
    return false;
  }
  E = Sel->Args[0]->Args[1];
  if (usesProj(S, XN, 2) || freeIn(E, AccN) || freeIn(E, XN))
    return false;
  Unmasked = Expr::lambda(
      {Step->Params[0], {XN, Type::tuple({XTy->Elems[0], XTy->Elems[1]})}}, S);
  return true;
}

/// The index zipped last, iota(n): n, or null.
ExprPtr iotaLen(const ExprPtr &E) {
  return E->isCall("iota") && E->Args.size() == 1 ? E->Args[0] : nullptr;
}

/// The reduceSeq over zip(r.0, q.0), or zip(r.0, q.0, r.2, q.2) when
/// \p Pairs (two products per step), in \p E; null when none.
const Expr *findReduction(const ExprPtr &E, const std::string &R, const std::string &Q,
                          bool Pairs) {
  if (E->isCall("reduceSeq") && E->Args[2]->isCall("zip") &&
      E->Args[2]->Args.size() == (Pairs ? 4u : 2u) && isProjOf(E->Args[2]->Args[0], R, 0) &&
      isProjOf(E->Args[2]->Args[1], Q, 0) &&
      (!Pairs || (isProjOf(E->Args[2]->Args[2], R, 2) && isProjOf(E->Args[2]->Args[3], Q, 2))))
    return E.get();
  for (const ExprPtr &A : E->Args)
    if (const Expr *F = findReduction(A, R, Q, Pairs))
      return F;
  return nullptr;
}

bool is2DView(const ExprPtr &E) { return E->isCall("view") && E->Args.size() == 6; }

std::set<std::string> namesOf(const GemmParts &G) {
  std::set<std::string> S;
  for (const ExprPtr &E : {G.A, G.B, G.C, G.Step, G.Init, G.Post, G.A2, G.B2})
    if (E)
      funil::allNames(*E, S);
  return S;
}

} // namespace

bool matchCanonicalGemm(const ExprPtr &Body, GemmParts &G) {
  if (!Body->isCall("map") || Body->Args[0]->K != Expr::Lambda ||
      Body->Args[0]->Params.size() != 1 || !Body->Args[1]->isCall("zip") ||
      (Body->Args[1]->Args.size() != 2 && Body->Args[1]->Args.size() != 3))
    return false;
  const size_t Arity = Body->Args[1]->Args.size();
  const bool Pairs = Arity == 3;
  const ExprPtr &Fo = Body->Args[0];
  const std::string &R = Fo->Params[0].Name;
  const ExprPtr &Inner = Fo->body();
  if (!Inner->isCall("map") || Inner->Args[0]->K != Expr::Lambda ||
      Inner->Args[0]->Params.size() != 1 || !Inner->Args[1]->isCall("zip") ||
      Inner->Args[1]->Args.size() != Arity || !isProjOf(Inner->Args[1]->Args[1], R, 1))
    return false;
  const ExprPtr &Fi = Inner->Args[0];
  const std::string &Q = Fi->Params[0].Name;
  TypePtr QTy = Fi->Params[0].Ty;
  if (!QTy->isTuple() || QTy->Elems.size() != Arity || !QTy->Elems[1]->isScalar() ||
      !funil::isFloat(QTy->Elems[1]->S))
    return false;
  ScalarKind T = QTy->Elems[1]->S;
  G.A = Body->Args[1]->Args[0];
  G.C = Body->Args[1]->Args[1];
  G.B = Inner->Args[1]->Args[0];
  G.A2 = Pairs ? Body->Args[1]->Args[2] : nullptr;
  G.B2 = Pairs ? Inner->Args[1]->Args[2] : nullptr;
  if (!is2DView(G.A) || !is2DView(G.B) || !is2DView(G.C) || freeIn(G.B, R))
    return false;
  // The second pair: the shapes of the first (same M, N and K).
  if (Pairs && (!is2DView(G.A2) || !is2DView(G.B2) || freeIn(G.B2, R) ||
                !funil::sameExpr(*G.A2->Args[3], *G.A->Args[3]) ||
                !funil::sameExpr(*G.A2->Args[5], *G.A->Args[5]) ||
                !funil::sameExpr(*G.B2->Args[3], *G.B->Args[3]) ||
                !funil::sameExpr(*G.B2->Args[5], *G.A->Args[5])))
    return false;
  const ExprPtr &E = Fi->body();
  const Expr *Red = findReduction(E, R, Q, Pairs);
  if (!Red || Red->Args[0]->K != Expr::Lambda || Red->Args[0]->Params.size() != 2)
    return false;
  G.Step = Red->Args[0];
  if (freeIn(G.Step, R) || freeIn(G.Step, Q) || !G.Step->Params[0].Ty->isScalar(T))
    return false;
  // Fresh names for the INIT and POST parameters: not used anywhere in Body.
  std::set<std::string> Used;
  funil::allNames(*Body, Used);
  std::string C = funil::freshName("c", Used), W = funil::freshName("w", Used);
  TypePtr TT = Type::scalar(T);
  ExprPtr InitBody = replacePost(Red->Args[1], nullptr, nullptr, Q, Expr::var(C));
  if (freeIn(InitBody, R) || freeIn(InitBody, Q))
    return false;
  G.Init = Expr::lambda({{C, TT}}, InitBody);
  ExprPtr WV = Expr::var(W);
  ExprPtr PostBody = replacePost(E, Red, proj(WV, 0), Q, proj(WV, 1));
  if (freeIn(PostBody, R) || freeIn(PostBody, Q))
    return false;
  G.Post = Expr::lambda({{W, tup(TT, TT)}}, PostBody);
  G.T = T;
  return true;
}

namespace {

TypePtr tup3(TypePtr A, TypePtr B, TypePtr C) {
  return Type::tuple({std::move(A), std::move(B), std::move(C)});
}

/// The mask of \p Tri over row index \p Row and column index \p Col.
ExprPtr triangleMask(const Triangle &Tri, const ExprPtr &Row, const ExprPtr &Col) {
  const ExprPtr &K0 = Tri.Columns ? Row : Col, &KT = Tri.Columns ? Col : Row;
  return call("icmp_slt", {KT, call("add", {i64(Tri.Base), call("mul", {i64(Tri.Slope), K0})})});
}

/// Reads \p Tri back from a mask over r.2 (\p R) and q.2 (\p Q).
bool readTriangleMask(const ExprPtr &E, const std::string &R, const std::string &Q,
                      Triangle &Tri) {
  if (!E->isCall("icmp_slt") || !E->Args[1]->isCall("add") ||
      !E->Args[1]->Args[1]->isCall("mul"))
    return false;
  const ExprPtr &B = E->Args[1]->Args[0], &S = E->Args[1]->Args[1]->Args[0];
  const ExprPtr &K0 = E->Args[1]->Args[1]->Args[1], &KT = E->Args[0];
  if (B->K != Expr::Lit || S->K != Expr::Lit || !funil::isInteger(B->LitKind) ||
      !funil::isInteger(S->LitKind) || B->signedValue() < 1 || S->signedValue() < 1)
    return false;
  Tri.Base = B->signedValue();
  Tri.Slope = S->signedValue();
  if (isProjOf(K0, R, 2) && isProjOf(KT, Q, 2))
    Tri.Columns = true;
  else if (isProjOf(K0, Q, 2) && isProjOf(KT, R, 2))
    Tri.Columns = false;
  else
    return false;
  return true;
}

/// The map(\r => map(\q => select(MASK, X, q.1), zip(P, r.1, iota(N))),
/// zip(Q0, Q1, iota(M))) shared by the triangular program and the merge:
/// its parts, or false. A program with two products per step zips a fourth
/// component each (Outer3, Inner3).
struct TriangleShape {
  ExprPtr Outer0, Outer1, Inner0, X, IotaM, IotaN, Outer3, Inner3;
  std::string R, Q;
  TypePtr RTy, QTy;
  Triangle Tri;
};

bool matchTriangleShape(const ExprPtr &Body, TriangleShape &S) {
  auto Zip3 = [](const ExprPtr &E) {
    return E->isCall("zip") && (E->Args.size() == 3 || E->Args.size() == 4) &&
           E->Args[2]->isCall("iota");
  };
  if (!Body->isCall("map") || Body->Args[0]->K != Expr::Lambda ||
      Body->Args[0]->Params.size() != 1 || !Zip3(Body->Args[1]))
    return false;
  const ExprPtr &Fo = Body->Args[0];
  S.R = Fo->Params[0].Name;
  S.RTy = Fo->Params[0].Ty;
  const ExprPtr &Inner = Fo->body();
  if (!Inner->isCall("map") || Inner->Args[0]->K != Expr::Lambda ||
      Inner->Args[0]->Params.size() != 1 || !Zip3(Inner->Args[1]) ||
      !isProjOf(Inner->Args[1]->Args[1], S.R, 1))
    return false;
  S.Q = Inner->Args[0]->Params[0].Name;
  S.QTy = Inner->Args[0]->Params[0].Ty;
  const ExprPtr &E = Inner->Args[0]->body();
  if (!E->isCall("select") || E->Args.size() != 3 || !isProjOf(E->Args[2], S.Q, 1) ||
      !readTriangleMask(E->Args[0], S.R, S.Q, S.Tri) || !S.RTy->isTuple() ||
      S.RTy->Elems.size() != Body->Args[1]->Args.size() || !S.QTy->isTuple() ||
      S.QTy->Elems.size() != Inner->Args[1]->Args.size() ||
      S.RTy->Elems.size() != S.QTy->Elems.size())
    return false;
  if (S.RTy->Elems.size() == 4) {
    S.Outer3 = Body->Args[1]->Args[3];
    S.Inner3 = Inner->Args[1]->Args[3];
  }
  S.Outer0 = Body->Args[1]->Args[0];
  S.Outer1 = Body->Args[1]->Args[1];
  S.IotaM = Body->Args[1]->Args[2];
  S.Inner0 = Inner->Args[1]->Args[0];
  S.IotaN = Inner->Args[1]->Args[2];
  S.X = E->Args[1];
  return true;
}

} // namespace

bool matchTriangularGemm(const ExprPtr &Body, GemmParts &G, Triangle &Tri) {
  TriangleShape S;
  if (!matchTriangleShape(Body, S))
    return false;
  // The canonical program over the same parts, r and q without their
  // indices: POST must not read them. A second pair moves from r.3 and q.3
  // to r.2 and q.2 (the indices, which X must then not read).
  ExprPtr X = S.X;
  std::vector<ExprPtr> Outer{S.Outer0, S.Outer1},
      InnerZ{S.Inner0, proj(Expr::var(S.R), 1)};
  std::vector<TypePtr> RE{S.RTy->Elems[0], S.RTy->Elems[1]},
      QE{S.QTy->Elems[0], S.QTy->Elems[1]};
  if (S.Outer3) {
    if (usesProj(X, S.R, 2) || usesProj(X, S.Q, 2))
      return false;
    X = renameProj(renameProj(X, S.R, 3, 2), S.Q, 3, 2);
    Outer.push_back(S.Outer3);
    InnerZ.push_back(S.Inner3);
    RE.push_back(S.RTy->Elems[3]);
    QE.push_back(S.QTy->Elems[3]);
  }
  ExprPtr Canon = call(
      "map", {Expr::lambda({{S.R, Type::tuple(RE)}},
                           call("map", {Expr::lambda({{S.Q, Type::tuple(QE)}}, X),
                                        call("zip", InnerZ)})),
              call("zip", Outer)});
  if (!matchCanonicalGemm(Canon, G) || !funil::sameExpr(*S.IotaM->Args[0], *G.A->Args[3]) ||
      !funil::sameExpr(*S.IotaN->Args[0], *G.B->Args[3]))
    return false;
  Tri = S.Tri;
  return true;
}

bool matchBandGemm(const ExprPtr &Body, GemmParts &G) {
  // map(\r => map(\q => E, zip(B, r.1)), zip(A, C, iota(M)))
  if (!Body->isCall("map") || Body->Args[0]->K != Expr::Lambda ||
      Body->Args[0]->Params.size() != 1 || !Body->Args[1]->isCall("zip") ||
      Body->Args[1]->Args.size() != 3 || !iotaLen(Body->Args[1]->Args[2]))
    return false;
  const ExprPtr &Fo = Body->Args[0];
  const std::string &R = Fo->Params[0].Name;
  const TypePtr &RTy = Fo->Params[0].Ty;
  const ExprPtr &Inner = Fo->body();
  if (!RTy->isTuple() || RTy->Elems.size() != 3 || !Inner->isCall("map") ||
      Inner->Args[0]->K != Expr::Lambda || Inner->Args[0]->Params.size() != 1 ||
      !Inner->Args[1]->isCall("zip") || Inner->Args[1]->Args.size() != 2)
    return false;
  const std::string &Q = Inner->Args[0]->Params[0].Name;
  const ExprPtr &E = Inner->Args[0]->body();
  // The reduction over zip(r.0, q.0, iota(K)) and its band step.
  std::vector<const Expr *> Stack{E.get()};
  const Expr *Red = nullptr;
  while (!Stack.empty() && !Red) {
    const Expr *X = Stack.back();
    Stack.pop_back();
    if (X->isCall("reduceSeq") && X->Args[2]->isCall("zip") && X->Args[2]->Args.size() == 3 &&
        isProjOf(X->Args[2]->Args[0], R, 0) && isProjOf(X->Args[2]->Args[1], Q, 0) &&
        iotaLen(X->Args[2]->Args[2]))
      Red = X;
    for (const ExprPtr &A : X->Args)
      Stack.push_back(A.get());
  }
  ExprPtr Unmasked, Bound;
  bool Lower = false;
  if (!Red || !readBandStep(Red->Args[0], Unmasked, Bound, Lower))
    return false;
  // E(r.2) as a function of the row's index: nothing else of r, nor q.
  std::set<std::string> Used;
  funil::allNames(*Body, Used);
  std::string I = funil::freshName("i", Used);
  ExprPtr BoundI = replaceProj(Bound, R, 2, Expr::var(I));
  if (freeIn(BoundI, R) || freeIn(BoundI, Q))
    return false;
  // The canonical program over the same parts, without the indices.
  ExprPtr Red2 = call("reduceSeq", {Unmasked, Red->Args[1],
                                    call("zip", {Red->Args[2]->Args[0], Red->Args[2]->Args[1]})});
  ExprPtr Canon = call(
      "map", {Expr::lambda({{R, tup(RTy->Elems[0], RTy->Elems[1])}},
                           call("map", {Expr::lambda(Inner->Args[0]->Params,
                                                     replacePost(E, Red, Red2, "", nullptr)),
                                        Inner->Args[1]})),
              call("zip", {Body->Args[1]->Args[0], Body->Args[1]->Args[1]})});
  if (!matchCanonicalGemm(Canon, G) ||
      !funil::sameExpr(*iotaLen(Body->Args[1]->Args[2]), *G.A->Args[3]) ||
      !funil::sameExpr(*iotaLen(Red->Args[2]->Args[2]), *G.A->Args[5]))
    return false;
  G.Band.Bound = Expr::lambda({{I, Type::scalar(ScalarKind::I64)}}, BoundI);
  G.Band.Lower = Lower;
  return true;
}

ExprPtr bandStep(const GemmParts &G, const ExprPtr &Row) {
  const ExprPtr &S = G.Step;
  const Param &X = S->Params[1];
  ExprPtr Acc = Expr::var(S->Params[0].Name);
  ExprPtr Mask = call("icmp_slt", {proj(Expr::var(X.Name), 2), funil::betaApply(G.Band.Bound, {Row})});
  ExprPtr Body = G.Band.Lower ? call("select", {Mask, S->body(), Acc})
                              : call("select", {Mask, Acc, S->body()});
  TypePtr XTy = Type::tuple({X.Ty->Elems[0], X.Ty->Elems[1], Type::scalar(ScalarKind::I64)});
  return Expr::lambda({S->Params[0], {X.Name, XTy}}, Body);
}

ExprPtr mergeTriangle(const ExprPtr &Full, const GemmParts &G, const Triangle &Tri,
                      const FreshFn &Fresh) {
  TypePtr T = Type::scalar(G.T), I = Type::scalar(ScalarKind::I64);
  SizePtr Ns = funil::sizeOfExpr(*G.B->Args[3]);
  TypePtr Row = arrS(T, Ns);
  std::string R = Fresh("r");
  ExprPtr Rv = Expr::var(R);
  ExprPtr Elem = lam(Fresh, "q", tup3(T, T, I), [&](ExprPtr Qv) {
    return call("select", {triangleMask(Tri, proj(Rv, 2), proj(Qv, 2)), proj(Qv, 0), proj(Qv, 1)});
  });
  ExprPtr Rows = Expr::lambda(
      {{R, tup3(Row, Row, I)}},
      call("map", {Elem, call("zip", {proj(Rv, 0), proj(Rv, 1), call("iota", {G.B->Args[3]})})}));
  return call("map", {Rows, call("zip", {Full, G.C, call("iota", {G.A->Args[3]})})});
}

bool matchMergeTriangle(const ExprPtr &Body, ExprPtr &Full, ExprPtr &C, Triangle &Tri) {
  TriangleShape S;
  if (!matchTriangleShape(Body, S) || S.Outer3 || !isProjOf(S.Inner0, S.R, 0) ||
      !isProjOf(S.X, S.Q, 0))
    return false;
  Full = S.Outer0;
  C = S.Outer1;
  Tri = S.Tri;
  return true;
}

ExprPtr buildCanonicalGemm(const GemmParts &G, const FreshFn &Fresh) {
  TypePtr TT = Type::scalar(G.T);
  SizePtr M = funil::sizeOfExpr(*G.A->Args[3]), K = funil::sizeOfExpr(*G.A->Args[5]);
  SizePtr N = funil::sizeOfExpr(*G.B->Args[3]);
  (void)M;
  TypePtr RTy = tup(arrS(TT, K), arrS(TT, N)), QTy = tup(arrS(TT, K), TT);
  if (G.pairs()) {
    RTy = tup3(arrS(TT, K), arrS(TT, N), arrS(TT, K));
    QTy = tup3(arrS(TT, K), TT, arrS(TT, K));
  }
  auto Zip = [&](std::vector<ExprPtr> Two, const ExprPtr &Third) {
    if (G.pairs())
      Two.push_back(Third);
    return call("zip", std::move(Two));
  };
  return call("map", {lam(Fresh, "r", RTy,
                          [&](ExprPtr Rv) {
                            return call(
                                "map",
                                {lam(Fresh, "q", QTy,
                                     [&](ExprPtr Qv) {
                                       std::vector<ExprPtr> In{proj(Rv, 0), proj(Qv, 0)};
                                       if (G.pairs()) {
                                         In.push_back(proj(Rv, 2));
                                         In.push_back(proj(Qv, 2));
                                       }
                                       ExprPtr S = call(
                                           "reduceSeq",
                                           {G.Step, funil::betaApply(G.Init, {proj(Qv, 1)}),
                                            call("zip", In)});
                                       return funil::betaApply(
                                           G.Post, {Expr::tuple({S, proj(Qv, 1)})});
                                     }),
                                 Zip({G.B, proj(Rv, 1)}, G.B2)});
                          }),
                      Zip({G.A, G.C}, G.A2)});
}

ExprPtr localCopies(const ExprPtr &In, const std::vector<TypePtr> &Tiles,
                    const FreshFn &Fresh) {
  auto Copy2D = [&](const ExprPtr &X, const TypePtr &XTy) {
    ExprPtr Rows = lam(Fresh, "r", XTy->Elem, [&](ExprPtr Rv) {
      return call("mapLocal", {lam(Fresh, "v", XTy->Elem->Elem, [](ExprPtr V) { return V; }), Rv},
                  0);
    });
    return call("toLocal", {call("mapLocal", {Rows, X}, 1)});
  };
  return call("mapSeq", {lam(Fresh, "t", Type::tuple(Tiles),
                             [&](ExprPtr Tv) {
                               std::vector<ExprPtr> Copies;
                               for (unsigned I = 0; I < Tiles.size(); ++I)
                                 Copies.push_back(Tiles[I]->Elem->isArray()
                                                      ? Copy2D(proj(Tv, I), Tiles[I])
                                                      : proj(Tv, I));
                               return Expr::tuple(Copies);
                             }),
                         In});
}

namespace {

/// The tiled form with the K-tile input transformed by \p KIn (identity or
/// localCopies).
ExprPtr buildTiled(const GemmParts &G, const TileParams &P, const FreshFn &Fresh,
                   bool Local) {
  TypePtr T = Type::scalar(G.T);
  const ExprPtr &MExp = G.A->Args[3], &KExp = G.A->Args[5], &NExp = G.B->Args[3];
  SizePtr Ms = funil::sizeOfExpr(*MExp), Ks = funil::sizeOfExpr(*KExp),
          Ns = funil::sizeOfExpr(*NExp);
  (void)Ms;
  const int64_t TM = P.TM, TN = P.TN, TK = P.TK, RM = P.RM, RN = P.RN;
  const int64_t WX = P.wgX(), WY = P.wgY(), GM = P.gm(), GN = P.gn();
  TypePtr RowA = arrS(T, Ks);                // a row of A or a column of B
  TypePtr TileA = arr(RowA, TM), TileB = arr(RowA, TN);
  TypePtr RowC = arrS(T, Ns);
  TypePtr TileC = arr(arr(T, TN), TM);
  TypePtr Blk = arr(arr(T, RN), RM);         // a work-item's block
  TypePtr BlkRow = arr(Blk, WX);             // a row of blocks
  TypePtr Acc = arr(BlkRow, WY);
  TypePtr KTa = arr(arr(T, TK), TM), KTb = arr(arr(T, TK), TN);
  // Two products per step: every tuple of operands gains the second pair
  // (A2 after A's components, B2 after B's).
  const bool Pairs = G.pairs(), Banded = G.banded();
  TypePtr I64 = Type::scalar(ScalarKind::I64);
  auto Tup = [Pairs](std::vector<TypePtr> V, std::vector<TypePtr> More) {
    if (Pairs)
      V.insert(V.end(), More.begin(), More.end());
    return Type::tuple(std::move(V));
  };
  // (More is built only for two products: it takes fresh names.)
  auto Zip = [Pairs](std::vector<ExprPtr> V,
                     const std::function<std::vector<ExprPtr>()> &More) {
    if (Pairs)
      for (ExprPtr &E : More())
        V.push_back(std::move(E));
    return call("zip", std::move(V));
  };

  // BLOCKS(tc): [[[[T]_RN]_RM]_WX]_WY, block (ly, lx) element (r, c) =
  // tc[row(ly, r)][col(lx, c)], row(ly, g*GM + e) = g*WY*GM + ly*GM + e
  // (= ly*RM + r when GM = RM), col likewise (groupsOf).
  auto Blocks = [&](const ExprPtr &Tc) {
    TypePtr RB = arr(arr(T, TN), RM);
    return call("map", {lam(Fresh, "rb", RB,
                            [&](ExprPtr Rb) {
                              ExprPtr Cols = call(
                                  "map", {lam(Fresh, "row", arr(T, TN),
                                              [&](ExprPtr Rw) {
                                                return groupsOf(Rw, T, RN, GN, WX, Fresh);
                                              }),
                                          Rb});
                              return transposeV(Cols, arr(arr(arr(T, RN), WX), RM), i64(WX),
                                                Fresh);
                            }),
                        groupsOf(Tc, arr(T, TN), RM, GM, WY, Fresh)});
  };
  // KT(t): the K tiles of the rows of t : [[T]_K]_R, [[[T]_TK]_R]_(K/TK).
  auto KTiles = [&](const ExprPtr &Tt, int64_t Rows) {
    TypePtr Split = arr(arrS(arr(T, TK), Size::div(Ks, Size::constant(TK))), Rows);
    return transposeV(splitRows(Tt, arr(RowA, Rows), TK, Fresh), Split, chunks(KExp, TK),
                      Fresh);
  };

  // A band program (G.Band): the row tiles zip their rows' indices (ti.2),
  // the K tiles their k indices (kt.2), each work-item's rows their indices
  // (p.2, then u.2), and each element's step masks with them (bandStep).
  TypePtr TiTy = Tup({TileA, arr(RowC, TM)}, {TileA});
  if (Banded)
    TiTy = tup3(TileA, arr(RowC, TM), arr(I64, TM));
  ExprPtr F1 = lam(Fresh, "ti", TiTy, [&](ExprPtr Ti) {
    ExprPtr F0 = lam(Fresh, "tj", Tup({TileB, TileC}, {TileB}), [&](ExprPtr Tj) {
      // The accumulators: INIT of C, then one K tile after the other.
      ExprPtr Init = call(
          "mapLocal",
          {lam(Fresh, "p", BlkRow,
               [&](ExprPtr Pv) {
                 return call(
                     "mapLocal",
                     {lam(Fresh, "q", Blk,
                          [&](ExprPtr Qv) {
                            return call("toPrivate",
                                        {call("mapSeq",
                                              {lam(Fresh, "u", arr(T, RN),
                                                   [&](ExprPtr U) {
                                                     return call("mapSeq", {G.Init, U});
                                                   }),
                                               Qv})});
                          }),
                      Pv},
                     0);
               }),
           Blocks(proj(Tj, 1))},
          1);
      TypePtr KT = Banded ? tup3(KTa, KTb, arr(I64, TK)) : Tup({KTa, KTb}, {KTa, KTb});
      std::string AccN = Fresh("acc"), KtN = Fresh("kt");
      ExprPtr AccV = Expr::var(AccN), KtV = Expr::var(KtN);
      TypePtr ASl = arr(arr(T, TK), RM), BSl = arr(arr(T, TK), RN);
      ExprPtr StepBody = call(
          "mapLocal",
          {lam(Fresh, "p", Banded ? tup3(BlkRow, ASl, arr(I64, RM)) : Tup({BlkRow, ASl}, {ASl}),
               [&](ExprPtr Pv) {
                 return call(
                     "mapLocal",
                     {lam(Fresh, "q", Tup({Blk, BSl}, {BSl}),
                          [&](ExprPtr Qv) {
                            ExprPtr Rows = lam(
                                Fresh, "u",
                                Banded ? tup3(arr(T, RN), arr(T, TK), I64)
                                       : Tup({arr(T, RN), arr(T, TK)}, {arr(T, TK)}),
                                [&](ExprPtr U) {
                                  ExprPtr El = lam(
                                      Fresh, "w", Tup({T, arr(T, TK)}, {arr(T, TK)}),
                                      [&](ExprPtr W) {
                                        if (Banded)
                                          return call("reduceSeq",
                                                      {bandStep(G, proj(U, 2)), proj(W, 0),
                                                       call("zip", {proj(U, 1), proj(W, 1),
                                                                    proj(KtV, 2)})});
                                        return call("reduceSeq",
                                                    {G.Step, proj(W, 0),
                                                     Zip({proj(U, 1), proj(W, 1)},
                                                         [&] { return std::vector<ExprPtr>{proj(U, 2), proj(W, 2)}; })});
                                      });
                                  return call("mapSeq",
                                              {El, Zip({proj(U, 0), proj(Qv, 1)}, [&] { return std::vector<ExprPtr>{proj(Qv, 2)}; })});
                                });
                            ExprPtr RowsIn =
                                Banded ? call("zip", {proj(Qv, 0), proj(Pv, 1), proj(Pv, 2)})
                                       : Zip({proj(Qv, 0), proj(Pv, 1)},
                                             [&] { return std::vector<ExprPtr>{proj(Pv, 2)}; });
                            return call("toPrivate", {call("mapSeq", {Rows, RowsIn})});
                          }),
                      Zip({proj(Pv, 0),
                           groupsOf(proj(KtV, 1), arr(T, TK), RN, GN, WX, Fresh)},
                          [&] { return std::vector<ExprPtr>{groupsOf(proj(KtV, 3), arr(T, TK), RN, GN, WX, Fresh)}; })},
                     0);
               }),
           Banded ? call("zip", {AccV, groupsOf(proj(KtV, 0), arr(T, TK), RM, GM, WY, Fresh),
                                 groupsOf(proj(Ti, 2), I64, RM, GM, WY, Fresh)})
                  : Zip({AccV, groupsOf(proj(KtV, 0), arr(T, TK), RM, GM, WY, Fresh)},
                        [&] { return std::vector<ExprPtr>{groupsOf(proj(KtV, 2), arr(T, TK), RM, GM, WY, Fresh)}; })},
          1);
      ExprPtr StepFn = Expr::lambda({{AccN, Acc}, {KtN, KT}}, StepBody);
      ExprPtr KIn =
          Banded ? call("zip", {KTiles(proj(Ti, 0), TM), KTiles(proj(Tj, 0), TN),
                                call("split", {i64(TK), call("iota", {KExp})})})
                 : Zip({KTiles(proj(Ti, 0), TM), KTiles(proj(Tj, 0), TN)},
                       [&] { return std::vector<ExprPtr>{KTiles(proj(Ti, 2), TM), KTiles(proj(Tj, 2), TN)}; });
      if (Local)
        KIn = localCopies(KIn,
                          Pairs    ? std::vector<TypePtr>{KTa, KTb, KTa, KTb}
                          : Banded ? std::vector<TypePtr>{KTa, KTb, arr(I64, TK)}
                                   : std::vector<TypePtr>{KTa, KTb},
                          Fresh);
      ExprPtr AccRes = call("reduceSeq", {StepFn, Init, KIn});
      // POST per element, then the blocks back into a TM x TN tile.
      ExprPtr Result = call(
          "mapLocal",
          {lam(Fresh, "p", tup(BlkRow, BlkRow),
               [&](ExprPtr Pv) {
                 return call(
                     "mapLocal",
                     {lam(Fresh, "q", tup(Blk, Blk),
                          [&](ExprPtr Qv) {
                            return call(
                                "mapSeq",
                                {lam(Fresh, "u", tup(arr(T, RN), arr(T, RN)),
                                     [&](ExprPtr U) {
                                       return call("mapSeq",
                                                   {G.Post, call("zip", {proj(U, 0), proj(U, 1)})});
                                     }),
                                 call("zip", {proj(Qv, 0), proj(Qv, 1)})});
                          }),
                      call("zip", {proj(Pv, 0), proj(Pv, 1)})},
                     0);
               }),
           call("zip", {AccRes, Blocks(proj(Tj, 1))})},
          1);
      TypePtr TBlkRow = arr(arr(arr(T, RN), WX), RM);
      return ungroup(
          call("map", {lam(Fresh, "xr", BlkRow,
                           [&](ExprPtr Xr) {
                             return call("map",
                                         {lam(Fresh, "row", TBlkRow->Elem,
                                              [&](ExprPtr Rw) {
                                                return ungroup(Rw, T, RN, GN, WX, Fresh);
                                              }),
                                          transposeV(Xr, BlkRow, i64(RM), Fresh)});
                           }),
                       Result}),
          arr(T, TN), RM, GM, WY, Fresh);
    });
    // C row tile -> column tiles [[[T]_TN]_TM]_(N/TN).
    TypePtr CSplit = arr(arrS(arr(T, TN), Size::div(Ns, Size::constant(TN))), TM);
    ExprPtr CTiles =
        transposeV(splitRows(proj(Ti, 1), arr(RowC, TM), TN, Fresh), CSplit, chunks(NExp, TN),
                   Fresh);
    ExprPtr Cols = call("mapWorkgroup",
                        {F0, Zip({call("split", {i64(TN), G.B}), CTiles},
                                 [&] { return std::vector<ExprPtr>{call("split", {i64(TN), G.B2})}; })},
                        0);
    TypePtr ColsTy = arrS(TileC, Size::div(Ns, Size::constant(TN)));
    return call("map", {lam(Fresh, "row", arrS(arr(T, TN), Size::div(Ns, Size::constant(TN))),
                            [](ExprPtr Rw) { return call("join", {Rw}); }),
                        transposeV(Cols, ColsTy, i64(TM), Fresh)});
  });
  ExprPtr RowTiles =
      Banded ? call("zip", {call("split", {i64(TM), G.A}), call("split", {i64(TM), G.C}),
                            call("split", {i64(TM), call("iota", {MExp})})})
             : Zip({call("split", {i64(TM), G.A}), call("split", {i64(TM), G.C})},
                   [&] { return std::vector<ExprPtr>{call("split", {i64(TM), G.A2})}; });
  return call("join", {call("mapWorkgroup", {F1, RowTiles}, 1)});
}

bool alphaEq(const Expr &A, const Expr &B, std::vector<std::pair<std::string, std::string>> &Bound) {
  if (A.K != B.K || A.Args.size() != B.Args.size())
    return false;
  switch (A.K) {
  case Expr::Var:
    for (auto It = Bound.rbegin(); It != Bound.rend(); ++It) {
      if (It->first == A.Name || It->second == B.Name)
        return It->first == A.Name && It->second == B.Name;
    }
    return A.Name == B.Name;
  case Expr::Lambda: {
    if (A.Params.size() != B.Params.size())
      return false;
    for (size_t I = 0; I < A.Params.size(); ++I) {
      if (!funil::sameType(*A.Params[I].Ty, *B.Params[I].Ty))
        return false;
      Bound.emplace_back(A.Params[I].Name, B.Params[I].Name);
    }
    bool Ok = alphaEq(*A.Args[0], *B.Args[0], Bound);
    Bound.resize(Bound.size() - A.Params.size());
    return Ok;
  }
  case Expr::Lit:
    return funil::sameExpr(A, B);
  case Expr::Call:
  case Expr::Cast:
    if (A.Name != B.Name || A.Attr != B.Attr || A.LitKind != B.LitKind)
      return false;
    break;
  case Expr::Proj:
    if (A.Index != B.Index)
      return false;
    break;
  case Expr::Tuple:
    break;
  }
  for (size_t I = 0; I < A.Args.size(); ++I)
    if (!alphaEq(*A.Args[I], *B.Args[I], Bound))
      return false;
  return true;
}

int64_t litOf(const ExprPtr &E) {
  return E->K == Expr::Lit && funil::isInteger(E->LitKind) ? E->signedValue() : 0;
}

/// The first mapLocal(1, .., zip(reduceSeq(..), ..)) in pre-order (the
/// blocks of results before POST), or null.
const ExprPtr *findResult(const ExprPtr &E) {
  if (E->isCall("mapLocal") && E->Args.size() == 2 && E->Args[1]->isCall("zip") &&
      E->Args[1]->Args[0]->isCall("reduceSeq"))
    return &E;
  for (const ExprPtr &A : E->Args)
    if (const ExprPtr *F = findResult(A))
      return F;
  return nullptr;
}

/// Reads R and G back from groupsOf(X, E, R, G, W): split(R, X), or
/// map(join, TR(split(W, split(G, X)))).
bool readGroups(const ExprPtr &E, int64_t &R, int64_t &G) {
  if (E->isCall("split")) {
    R = G = litOf(E->Args[0]);
    return R > 0;
  }
  if (!E->isCall("map") || !E->Args[1]->isCall("map") || !E->Args[1]->Args[1]->isCall("iota") ||
      E->Args[1]->Args[0]->K != Expr::Lambda || !E->Args[1]->Args[0]->body()->isCall("map"))
    return false;
  const ExprPtr &X = E->Args[1]->Args[0]->body()->Args[1];
  if (!X->isCall("split") || !X->Args[1]->isCall("split"))
    return false;
  // The length R/G is in the type of join's parameter, [[E]_G]_(R/G).
  if (E->Args[0]->K != Expr::Lambda || E->Args[0]->Params.size() != 1)
    return false;
  const funil::TypePtr &GT = E->Args[0]->Params[0].Ty;
  if (!GT->isArray() || GT->Len->K != Size::Const)
    return false;
  G = litOf(X->Args[1]->Args[0]);
  R = GT->Len->Value * G;
  return G > 0 && R > 0;
}

} // namespace

ExprPtr buildTiledMatMul(const GemmParts &G, const TileParams &P, const FreshFn &Fresh) {
  return buildTiled(G, P, Fresh, false);
}

bool alphaEqual(const ExprPtr &A, const ExprPtr &B) {
  std::vector<std::pair<std::string, std::string>> Bound;
  return alphaEq(*A, *B, Bound);
}

bool matchTiledMatMul(const ExprPtr &Body, GemmParts &G, TileParams &P, bool &Local) {
  // join(mapWorkgroup(1, \ti => map(join, TR(mapWorkgroup(0, \tj => ...,
  //   zip(split(TN, B), ...)))), zip(split(TM, A), split(TM, C))))
  if (!Body->isCall("join") || !Body->Args[0]->isCall("mapWorkgroup"))
    return false;
  const ExprPtr &W1 = Body->Args[0];
  const ExprPtr &Z1 = W1->Args[1];
  if (W1->Attr != 1 || !Z1->isCall("zip") || (Z1->Args.size() != 2 && Z1->Args.size() != 3) ||
      !Z1->Args[0]->isCall("split") || !Z1->Args[1]->isCall("split") ||
      W1->Args[0]->K != Expr::Lambda)
    return false;
  // A third row-tile component: A2's tiles (two products) or the rows'
  // indices split(TM, iota(M)) (a band program).
  const bool Banded = Z1->Args.size() == 3 && Z1->Args[2]->isCall("split") &&
                      iotaLen(Z1->Args[2]->Args[1]);
  const bool Pairs = Z1->Args.size() == 3 && !Banded;
  if (Pairs && !Z1->Args[2]->isCall("split"))
    return false;
  P.TM = litOf(Z1->Args[0]->Args[0]);
  G.A = Z1->Args[0]->Args[1];
  G.C = Z1->Args[1]->Args[1];
  G.A2 = Pairs ? Z1->Args[2]->Args[1] : nullptr;
  G.Band = GemmParts::BandMask();
  // TR(cols) = map(\j => map(\r => at(r, j), COLS), iota(TM))
  const ExprPtr &U = W1->Args[0]->body();
  if (!U->isCall("map") || !U->Args[1]->isCall("map") ||
      U->Args[1]->Args[0]->K != Expr::Lambda ||
      !U->Args[1]->Args[0]->body()->isCall("map"))
    return false;
  const ExprPtr &W0 = U->Args[1]->Args[0]->body()->Args[1];
  if (!W0->isCall("mapWorkgroup") || W0->Attr != 0 || !W0->Args[1]->isCall("zip") ||
      !W0->Args[1]->Args[0]->isCall("split") || W0->Args[0]->K != Expr::Lambda)
    return false;
  P.TN = litOf(W0->Args[1]->Args[0]->Args[0]);
  G.B = W0->Args[1]->Args[0]->Args[1];
  if (W0->Args[1]->Args.size() != (Pairs ? 3u : 2u) ||
      (Pairs && !W0->Args[1]->Args[2]->isCall("split")))
    return false;
  G.B2 = Pairs ? W0->Args[1]->Args[2]->Args[1] : nullptr;
  // UNGROUP(map(\xr => ..., RESULT)), RESULT = mapLocal(1, .., zip(ACC, BLOCKS))
  const ExprPtr *ResP = findResult(W0->Args[0]->body());
  if (!ResP)
    return false;
  const ExprPtr &Res = *ResP;
  if (!Res->isCall("mapLocal") || !Res->Args[1]->isCall("zip") ||
      !Res->Args[1]->Args[0]->isCall("reduceSeq") || Res->Args[0]->K != Expr::Lambda)
    return false;
  // Post: mapLocal(0, \q => mapSeq(\u => mapSeq(POST, ..), ..), ..)
  const ExprPtr &RL0 = Res->Args[0]->body();
  if (!RL0->isCall("mapLocal") || RL0->Args[0]->K != Expr::Lambda ||
      !RL0->Args[0]->body()->isCall("mapSeq") ||
      RL0->Args[0]->body()->Args[0]->K != Expr::Lambda ||
      !RL0->Args[0]->body()->Args[0]->body()->isCall("mapSeq"))
    return false;
  G.Post = RL0->Args[0]->body()->Args[0]->body()->Args[0];
  const ExprPtr &Red = Res->Args[1]->Args[0];
  const ExprPtr &StepFn = Red->Args[0], &Init = Red->Args[1];
  ExprPtr KIn = Red->Args[2];
  Local = KIn->isCall("mapSeq");
  if (Local)
    KIn = KIn->Args[1];
  if (!KIn->isCall("zip") || KIn->Args.size() != (Pairs ? 4u : Banded ? 3u : 2u) ||
      !KIn->Args[0]->isCall("map") ||
      KIn->Args[0]->Args[0]->K != Expr::Lambda)
    return false;
  // KT(ti.0) = map(\j => map(\r => at(r, j), map(\row => split(TK, row), ti.0)), iota)
  const ExprPtr &KTInner = KIn->Args[0]->Args[0]->body();
  if (!KTInner->isCall("map") || !KTInner->Args[1]->isCall("map") ||
      KTInner->Args[1]->Args[0]->K != Expr::Lambda ||
      !KTInner->Args[1]->Args[0]->body()->isCall("split"))
    return false;
  P.TK = litOf(KTInner->Args[1]->Args[0]->body()->Args[0]);
  // Step: mapLocal(1, .., zip(acc, split(RM, kt.0))) with mapLocal(0, ..,
  // zip(p.0, split(RN, kt.1))) and reduceSeq(STEP, ...) innermost.
  if (StepFn->K != Expr::Lambda || !StepFn->body()->isCall("mapLocal"))
    return false;
  const ExprPtr &S1 = StepFn->body();
  if (!S1->Args[1]->isCall("zip") || !readGroups(S1->Args[1]->Args[1], P.RM, P.GM) ||
      S1->Args[0]->K != Expr::Lambda || !S1->Args[0]->body()->isCall("mapLocal"))
    return false;
  const ExprPtr &S0 = S1->Args[0]->body();
  if (!S0->Args[1]->isCall("zip") || !readGroups(S0->Args[1]->Args[1], P.RN, P.GN) ||
      S0->Args[0]->K != Expr::Lambda || !S0->Args[0]->body()->isCall("toPrivate"))
    return false;
  if (P.GM == P.RM)
    P.GM = 0;
  if (P.GN == P.RN)
    P.GN = 0;
  const ExprPtr &Rows = S0->Args[0]->body()->Args[0];
  if (!Rows->isCall("mapSeq") || Rows->Args[0]->K != Expr::Lambda ||
      !Rows->Args[0]->body()->isCall("mapSeq") ||
      Rows->Args[0]->body()->Args[0]->K != Expr::Lambda ||
      !Rows->Args[0]->body()->Args[0]->body()->isCall("reduceSeq"))
    return false;
  G.Step = Rows->Args[0]->body()->Args[0]->body()->Args[0];
  if (Banded) {
    // bandStep(G, u.2): the unmasked STEP and E(i) with u.2 as i.
    ExprPtr Bound;
    bool Lower = false;
    ExprPtr Unmasked;
    if (Rows->Args[0]->Params.size() != 1 || !readBandStep(G.Step, Unmasked, Bound, Lower))
      return false;
    G.Step = Unmasked;
    std::set<std::string> Names;
    funil::allNames(*Body, Names);
    std::string I = funil::freshName("i", Names);
    G.Band.Bound = Expr::lambda({{I, Type::scalar(ScalarKind::I64)}},
                                replaceProj(Bound, Rows->Args[0]->Params[0].Name, 2,
                                            Expr::var(I)));
    G.Band.Lower = Lower;
  }
  // Init: mapLocal(1, \p => mapLocal(0, \q => toPrivate(mapSeq(\u => mapSeq(INIT, u), q)), p), ..)
  if (!Init->isCall("mapLocal") || Init->Args[0]->K != Expr::Lambda ||
      !Init->Args[0]->body()->isCall("mapLocal") ||
      Init->Args[0]->body()->Args[0]->K != Expr::Lambda)
    return false;
  const ExprPtr &IP = Init->Args[0]->body()->Args[0]->body();
  if (!IP->isCall("toPrivate") || !IP->Args[0]->isCall("mapSeq") ||
      IP->Args[0]->Args[0]->K != Expr::Lambda ||
      !IP->Args[0]->Args[0]->body()->isCall("mapSeq"))
    return false;
  G.Init = IP->Args[0]->Args[0]->body()->Args[0];
  if (!is2DView(G.A) || !is2DView(G.B) || !is2DView(G.C) ||
      (Pairs && (!is2DView(G.A2) || !is2DView(G.B2))) || G.Step->K != Expr::Lambda ||
      G.Step->Params.size() != 2 || !G.Step->Params[0].Ty->isScalar() ||
      !funil::isFloat(G.Step->Params[0].Ty->S) || G.Init->K != Expr::Lambda ||
      G.Post->K != Expr::Lambda || !P.valid())
    return false;
  G.T = G.Step->Params[0].Ty->S;
  // Everything else must be exactly what the builder makes of these parts.
  std::set<std::string> Used = namesOf(G);
  funil::allNames(*Body, Used);
  FreshFn Fresh = [&Used](const std::string &B) { return funil::freshName(B, Used); };
  return alphaEqual(Body, buildTiled(G, P, Fresh, Local));
}

} // namespace idiom::rewrite::matmul
