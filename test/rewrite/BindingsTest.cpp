//===- BindingsTest.cpp - the flat map of pattern variables ---------------===//
//
// Part of Idiom. Bindings behaves as the std::map it replaced for what rules
// use (operator[], at, count), releases what it holds, and refuses more
// than MaxNames names.
//
//===----------------------------------------------------------------------===//

#include "idiom/Rewrite/Rule.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace idiom;
using funil::ExprPtr;
using rewrite::Bindings;

TEST(Bindings, BindLookUpRebind) {
  Bindings B;
  EXPECT_EQ(B.size(), 0u);
  EXPECT_EQ(B.count("a"), 0u);
  ExprPtr X = funil::Expr::var("x"), Y = funil::Expr::var("y");
  B["a"] = X;
  B["f"] = Y;
  EXPECT_EQ(B.size(), 2u);
  EXPECT_EQ(B.at("a"), X);
  EXPECT_EQ(B.at("f"), Y);
  B["a"] = Y; // the same name: rebinds, as std::map's operator[]
  EXPECT_EQ(B.size(), 2u);
  EXPECT_EQ(B.at("a"), Y);
  EXPECT_EQ(B["new"], nullptr); // operator[] binds an absent name to nullptr
  EXPECT_EQ(B.count("new"), 1u);
}

TEST(Bindings, AtOfAnUnboundNameThrows) {
  Bindings B;
  B["a"] = funil::Expr::var("x");
  EXPECT_THROW(B.at("b"), std::out_of_range);
  EXPECT_THROW(B.at("aa"), std::out_of_range);
}

TEST(Bindings, ReleasesItsExpressions) {
  ExprPtr X = funil::Expr::var("x");
  {
    Bindings B;
    B["a"] = X;
    B["b"] = X;
    EXPECT_EQ(X.use_count(), 3);
  }
  EXPECT_EQ(X.use_count(), 1);
}

TEST(Bindings, RefusesMoreThanMaxNames) {
  Bindings B;
  for (unsigned I = 0; I < Bindings::MaxNames; ++I)
    B["n" + std::to_string(I)] = funil::Expr::var("x");
  EXPECT_EQ(B.size(), size_t(Bindings::MaxNames));
  EXPECT_NO_THROW(B["n0"] = nullptr); // rebinding needs no room
  EXPECT_THROW(B["one-too-many"], std::length_error);
}
