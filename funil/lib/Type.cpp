//===- Type.cpp - FunIL types ---------------------------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Type.h"

#include <array>

namespace idiom::funil {

namespace {
struct ScalarInfo {
  const char *Name;
  unsigned Bits;
};
constexpr std::array<ScalarInfo, 11> Scalars = {{{"bool", 1},
                                                  {"i8", 8},
                                                  {"i16", 16},
                                                  {"i32", 32},
                                                  {"i64", 64},
                                                  {"u8", 8},
                                                  {"u16", 16},
                                                  {"u32", 32},
                                                  {"u64", 64},
                                                  {"f32", 32},
                                                  {"f64", 64}}};
} // namespace

const char *scalarName(ScalarKind K) {
  return Scalars[static_cast<unsigned>(K)].Name;
}

bool parseScalarName(const std::string &Name, ScalarKind &K) {
  for (unsigned I = 0; I < Scalars.size(); ++I)
    if (Name == Scalars[I].Name) {
      K = static_cast<ScalarKind>(I);
      return true;
    }
  return false;
}

unsigned scalarBits(ScalarKind K) {
  return Scalars[static_cast<unsigned>(K)].Bits;
}

bool isFloat(ScalarKind K) { return K == ScalarKind::F32 || K == ScalarKind::F64; }

bool isInteger(ScalarKind K) { return K != ScalarKind::Bool && !isFloat(K); }

bool isUnsigned(ScalarKind K) {
  return K == ScalarKind::U8 || K == ScalarKind::U16 || K == ScalarKind::U32 ||
         K == ScalarKind::U64;
}

bool parseVectorName(const std::string &Name, ScalarKind &K, unsigned &Lanes) {
  size_t X = Name.find('x');
  if (X == std::string::npos || X + 1 >= Name.size() || Name.size() - X > 3)
    return false;
  std::string W = Name.substr(X + 1);
  for (char C : W)
    if (C < '0' || C > '9')
      return false;
  if (!parseScalarName(Name.substr(0, X), K) || K == ScalarKind::Bool ||
      W[0] == '0' || !isVectorLanes(std::stoi(W)))
    return false;
  Lanes = static_cast<unsigned>(std::stoi(W));
  return true;
}

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

SizePtr Size::constant(int64_t V) {
  auto S = std::make_shared<Size>();
  S->K = Const;
  S->Value = V;
  return S;
}

SizePtr Size::var(const std::string &N) {
  auto S = std::make_shared<Size>();
  S->K = Var;
  S->Name = N;
  return S;
}

SizePtr Size::unknown() {
  static SizePtr U = std::make_shared<Size>();
  return U;
}

SizePtr Size::mul(SizePtr A, SizePtr B) {
  if (A->K == Const && B->K == Const)
    return constant(A->Value * B->Value);
  if (A->K == Const && A->Value == 1)
    return B;
  if (B->K == Const && B->Value == 1)
    return A;
  if (A->K == Unknown || B->K == Unknown)
    return unknown();
  // (x / b) * b -> x
  if (A->K == Div && sameSize(*A->R, *B))
    return A->L;
  auto S = std::make_shared<Size>();
  S->K = Mul;
  S->L = std::move(A);
  S->R = std::move(B);
  return S;
}

SizePtr Size::div(SizePtr A, SizePtr B) {
  if (A->K == Const && B->K == Const && B->Value != 0 &&
      A->Value % B->Value == 0)
    return constant(A->Value / B->Value);
  if (B->K == Const && B->Value == 1)
    return A;
  if (A->K == Unknown || B->K == Unknown)
    return unknown();
  // (x * b) / b -> x
  if (A->K == Mul && sameSize(*A->R, *B))
    return A->L;
  if (A->K == Mul && sameSize(*A->L, *B))
    return A->R;
  auto S = std::make_shared<Size>();
  S->K = Div;
  S->L = std::move(A);
  S->R = std::move(B);
  return S;
}

std::string printSize(const Size &S) {
  switch (S.K) {
  case Size::Const:
    return std::to_string(S.Value);
  case Size::Var:
    return S.Name;
  case Size::Unknown:
    return "?";
  case Size::Mul:
    return "(" + printSize(*S.L) + "*" + printSize(*S.R) + ")";
  case Size::Div:
    return "(" + printSize(*S.L) + "/" + printSize(*S.R) + ")";
  }
  return "?";
}

bool sameSize(const Size &A, const Size &B) {
  if (A.K != B.K)
    return false;
  switch (A.K) {
  case Size::Const:
    return A.Value == B.Value;
  case Size::Var:
    return A.Name == B.Name;
  case Size::Unknown:
    return true;
  case Size::Mul:
  case Size::Div:
    return sameSize(*A.L, *B.L) && sameSize(*A.R, *B.R);
  }
  return false;
}

bool compatibleSize(const Size &A, const Size &B) {
  if (A.K == Size::Const && B.K == Size::Const)
    return A.Value == B.Value;
  if (A.K == Size::Var && B.K == Size::Var)
    return A.Name == B.Name;
  return true;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

TypePtr Type::scalar(ScalarKind K) {
  static std::array<TypePtr, 11> Cache = [] {
    std::array<TypePtr, 11> C;
    for (unsigned I = 0; I < C.size(); ++I) {
      auto T = std::make_shared<Type>();
      T->K = Scalar;
      T->S = static_cast<ScalarKind>(I);
      C[I] = T;
    }
    return C;
  }();
  return Cache[static_cast<unsigned>(K)];
}

TypePtr Type::array(TypePtr Elem, SizePtr Len) {
  auto T = std::make_shared<Type>();
  T->K = Array;
  T->Elem = std::move(Elem);
  T->Len = Len ? std::move(Len) : Size::unknown();
  return T;
}

TypePtr Type::buffer(TypePtr Elem) {
  auto T = std::make_shared<Type>();
  T->K = Buffer;
  T->Elem = std::move(Elem);
  return T;
}

TypePtr Type::tuple(std::vector<TypePtr> Elems) {
  auto T = std::make_shared<Type>();
  T->K = Tuple;
  T->Elems = std::move(Elems);
  return T;
}

TypePtr Type::vector(ScalarKind K, unsigned Lanes) {
  auto T = std::make_shared<Type>();
  T->K = Vector;
  T->S = K;
  T->Lanes = Lanes;
  return T;
}

std::string printType(const Type &T) {
  switch (T.K) {
  case Type::Scalar:
    return scalarName(T.S);
  case Type::Vector:
    return std::string(scalarName(T.S)) + "x" + std::to_string(T.Lanes);
  case Type::Array:
    return "[" + printType(*T.Elem) + "]_" + printSize(*T.Len);
  case Type::Buffer:
    return "[" + printType(*T.Elem) + "]";
  case Type::Tuple: {
    std::string S = "(";
    for (size_t I = 0; I < T.Elems.size(); ++I) {
      if (I)
        S += ", ";
      S += printType(*T.Elems[I]);
    }
    return S + ")";
  }
  }
  return "?";
}

static bool typeEq(const Type &A, const Type &B, bool Exact) {
  if (A.K != B.K)
    return false;
  switch (A.K) {
  case Type::Scalar:
    return A.S == B.S;
  case Type::Vector:
    return A.S == B.S && A.Lanes == B.Lanes;
  case Type::Array:
    if (Exact ? !sameSize(*A.Len, *B.Len) : !compatibleSize(*A.Len, *B.Len))
      return false;
    return typeEq(*A.Elem, *B.Elem, Exact);
  case Type::Buffer:
    return typeEq(*A.Elem, *B.Elem, Exact);
  case Type::Tuple:
    if (A.Elems.size() != B.Elems.size())
      return false;
    for (size_t I = 0; I < A.Elems.size(); ++I)
      if (!typeEq(*A.Elems[I], *B.Elems[I], Exact))
        return false;
    return true;
  }
  return false;
}

bool sameType(const Type &A, const Type &B) { return typeEq(A, B, true); }

bool compatibleType(const Type &A, const Type &B) {
  return typeEq(A, B, false);
}

void flattenLeaves(const TypePtr &T, std::vector<TypePtr> &Out) {
  if (T->isTuple()) {
    for (const TypePtr &E : T->Elems)
      flattenLeaves(E, Out);
    return;
  }
  Out.push_back(T);
}

} // namespace idiom::funil
