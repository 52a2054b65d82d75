//===- Parser.cpp - FunIL text reader -------------------------------------===//
//
// Part of Idiom. Recursive descent over the grammar of docs/FunIL.md.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Parser.h"

#include "Lexer.h"
#include "idiom/FunIL/Ops.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace idiom::funil {

namespace {

class Parser {
public:
  explicit Parser(const std::string &Text) : Lex(Text) { Tok = Lex.next(); }

  Program program();
  ExprPtr exprToEnd() {
    ExprPtr E = expr();
    expectEnd();
    return E;
  }
  TypePtr typeToEnd() {
    TypePtr T = type();
    expectEnd();
    return T;
  }

private:
  [[noreturn]] void fail(const std::string &Msg) { throw ParseError(Tok.Loc, Msg); }
  static std::string describe(const Token &T) {
    switch (T.K) {
    case Token::End:
      return "end of input";
    case Token::Ident:
      return "'" + T.Text + "'";
    default:
      return "'" + T.Text + "'";
    }
  }
  Token take() {
    Token T = Tok;
    Tok = Lex.next();
    return T;
  }
  void expect(char C) {
    if (!Tok.is(C))
      fail(std::string("expected '") + C + "', found " + describe(Tok));
    take();
  }
  void expectEnd() {
    if (Tok.K != Token::End)
      fail("expected end of input, found " + describe(Tok));
  }
  std::string ident(const char *What) {
    if (Tok.K != Token::Ident || Tok.Text == "-inf")
      fail(std::string("expected ") + What + ", found " + describe(Tok));
    return take().Text;
  }

  Param param();
  TypePtr type();
  SizePtr size();
  SizePtr sizeExpr();
  ExprPtr expr();
  ExprPtr primary();
  ExprPtr literal(const Token &Num);
  ExprPtr callOrCast(const Token &Name);

  Lexer Lex;
  Token Tok;
};

Param Parser::param() {
  Param P;
  P.Name = ident("a parameter name");
  expect(':');
  P.Ty = type();
  return P;
}

TypePtr Parser::type() {
  if (Tok.K == Token::Ident) {
    ScalarKind K;
    unsigned Lanes;
    if (parseVectorName(Tok.Text, K, Lanes)) {
      take();
      return Type::vector(K, Lanes);
    }
    if (!parseScalarName(Tok.Text, K))
      fail("unknown type '" + Tok.Text + "'");
    take();
    return Type::scalar(K);
  }
  if (Tok.is('[')) {
    take();
    TypePtr Elem = type();
    expect(']');
    if (!Tok.is('_'))
      return Type::buffer(Elem);
    take();
    return Type::array(Elem, size());
  }
  if (Tok.is('(')) {
    SourceLoc L = Tok.Loc;
    take();
    std::vector<TypePtr> Elems{type()};
    while (Tok.is(',')) {
      take();
      Elems.push_back(type());
    }
    expect(')');
    if (Elems.size() < 2)
      throw ParseError(L, "a tuple type needs at least two components");
    return Type::tuple(std::move(Elems));
  }
  fail("expected a type, found " + describe(Tok));
}

SizePtr Parser::size() {
  if (Tok.K == Token::Ident)
    return Size::var(take().Text);
  if (Tok.K == Token::Int) {
    Token T = take();
    errno = 0;
    long long V = std::strtoll(T.Text.c_str(), nullptr, 0);
    if (errno || V < 0)
      throw ParseError(T.Loc, "array size out of range");
    return Size::constant(V);
  }
  if (Tok.is('?')) {
    take();
    return Size::unknown();
  }
  if (Tok.is('(')) {
    take();
    SizePtr S = sizeExpr();
    expect(')');
    return S;
  }
  fail("expected an array size, found " + describe(Tok));
}

SizePtr Parser::sizeExpr() {
  SizePtr S = size();
  while (Tok.is('*') || Tok.is('/')) {
    bool IsMul = take().Text == "*";
    SizePtr R = size();
    S = IsMul ? Size::mul(S, R) : Size::div(S, R);
  }
  return S;
}

ExprPtr Parser::expr() {
  ExprPtr E = primary();
  while (Tok.is('.')) {
    SourceLoc L = Tok.Loc;
    take();
    if (Tok.K != Token::Int)
      fail("expected a tuple index after '.', found " + describe(Tok));
    Token I = take();
    E = Expr::proj(E, static_cast<unsigned>(std::strtoul(I.Text.c_str(), nullptr, 10)), L);
  }
  return E;
}

ExprPtr Parser::literal(const Token &Num) {
  expect(':');
  SourceLoc TL = Tok.Loc;
  std::string TyName = ident("a scalar type");
  ScalarKind K;
  if (!parseScalarName(TyName, K))
    throw ParseError(TL, "unknown scalar type '" + TyName + "'");
  const std::string &S = Num.Text;
  if (isFloat(K)) {
    double V;
    if (S == "inf")
      V = std::numeric_limits<double>::infinity();
    else if (S == "-inf")
      V = -std::numeric_limits<double>::infinity();
    else if (S == "nan")
      V = std::numeric_limits<double>::quiet_NaN();
    else {
      V = K == ScalarKind::F32 ? static_cast<double>(std::strtof(S.c_str(), nullptr))
                               : std::strtod(S.c_str(), nullptr);
      if (std::isinf(V))
        throw ParseError(Num.Loc, "floating literal out of range for " + TyName);
    }
    return Expr::floatLit(K, V, Num.Loc);
  }
  if (Num.K != Token::Int)
    throw ParseError(Num.Loc, "'" + S + "' is not a valid " + TyName + " literal");
  bool Neg = !S.empty() && S[0] == '-';
  errno = 0;
  unsigned long long Mag = std::strtoull(Neg ? S.c_str() + 1 : S.c_str(), nullptr, 0);
  bool Range = errno == 0;
  unsigned Bits = scalarBits(K);
  if (K == ScalarKind::Bool) {
    Range = Range && !Neg && Mag <= 1;
  } else if (isUnsigned(K)) {
    Range = Range && (!Neg || Mag == 0) &&
            (Bits == 64 || Mag <= ((1ULL << Bits) - 1));
  } else {
    unsigned long long Max = 1ULL << (Bits - 1); // magnitude of the minimum
    Range = Range && (Neg ? Mag <= Max : Mag < Max);
  }
  if (!Range)
    throw ParseError(Num.Loc, "integer literal out of range for " + TyName);
  int64_t V = Neg ? static_cast<int64_t>(0ULL - Mag) : static_cast<int64_t>(Mag);
  return Expr::intLit(K, V, Num.Loc);
}

ExprPtr Parser::callOrCast(const Token &Name) {
  if (Tok.is('.')) {
    // Cast: NAME '.' SCALAR '(' expr ')'.
    if (!isCastOp(Name.Text))
      throw ParseError(Name.Loc, "unknown cast '" + Name.Text + "'");
    take();
    SourceLoc TL = Tok.Loc;
    std::string TyName = ident("a scalar type");
    ScalarKind K;
    if (!parseScalarName(TyName, K))
      throw ParseError(TL, "unknown scalar type '" + TyName + "'");
    expect('(');
    ExprPtr X = expr();
    expect(')');
    return Expr::cast(Name.Text, K, X, Name.Loc);
  }
  const OpInfo *Op = lookupOp(Name.Text);
  if (!Op)
    throw ParseError(Name.Loc, "unknown function '" + Name.Text + "'");
  expect('(');
  int64_t Attr = -1;
  std::vector<ExprPtr> Args;
  if (Op->HasDim) {
    if (Tok.K != Token::Int || Tok.Text[0] == '-')
      fail(std::string("'") + Op->Name + "' expects a dimension (0, 1 or 2) first");
    Attr = std::strtoll(take().Text.c_str(), nullptr, 10);
    if (Attr > 2)
      throw ParseError(Name.Loc, "dimension out of range (0..2)");
    if (Op->MaxArgs > 0)
      expect(',');
  }
  if (!Tok.is(')') || Op->HasDim) {
    if (!(Op->HasDim && Op->MaxArgs == 0)) {
      Args.push_back(expr());
      while (Tok.is(',')) {
        take();
        Args.push_back(expr());
      }
    }
  }
  expect(')');
  if (Args.size() < Op->MinArgs || Args.size() > Op->MaxArgs ||
      (Name.Text == "view" && Args.size() % 2 == 1))
    throw ParseError(Name.Loc, "wrong number of arguments to '" + Name.Text +
                                   "' (" + std::to_string(Args.size()) + ")");
  return Expr::call(Name.Text, std::move(Args), Attr, Name.Loc);
}

ExprPtr Parser::primary() {
  if (Tok.is('\\')) {
    SourceLoc L = take().Loc;
    expect('(');
    std::vector<Param> Ps{param()};
    while (Tok.is(',')) {
      take();
      Ps.push_back(param());
    }
    expect(')');
    if (Tok.K != Token::Arrow)
      fail("expected '=>', found " + describe(Tok));
    take();
    ExprPtr Body = expr();
    return Expr::lambda(std::move(Ps), Body, L);
  }
  if (Tok.is('(')) {
    SourceLoc L = take().Loc;
    std::vector<ExprPtr> Elems{expr()};
    while (Tok.is(',')) {
      take();
      Elems.push_back(expr());
    }
    expect(')');
    if (Elems.size() == 1)
      return Elems[0]; // grouping
    return Expr::tuple(std::move(Elems), L);
  }
  if (Tok.K == Token::Int || Tok.K == Token::Float) {
    Token Num = take();
    if (!Tok.is(':'))
      fail("expected ':' and a type after the number '" + Num.Text + "'");
    return literal(Num);
  }
  if (Tok.K == Token::Ident) {
    Token Name = take();
    if (Name.Text == "true" || Name.Text == "false")
      return Expr::intLit(ScalarKind::Bool, Name.Text == "true", Name.Loc);
    if ((Name.Text == "inf" || Name.Text == "-inf" || Name.Text == "nan") &&
        Tok.is(':'))
      return literal(Name);
    if (Name.Text == "-inf")
      throw ParseError(Name.Loc, "expected ':' and a type after '-inf'");
    if (Tok.is('('))
      return callOrCast(Name);
    if (Tok.is('.') && isCastOp(Name.Text))
      return callOrCast(Name);
    return Expr::var(Name.Text, Name.Loc);
  }
  fail("expected an expression, found " + describe(Tok));
}

Program Parser::program() {
  Program P;
  if (!Tok.isIdent("idiom"))
    fail("expected 'idiom', found " + describe(Tok));
  take();
  P.Name = ident("the idiom's name");
  expect('(');
  if (!Tok.is(')')) {
    P.Params.push_back(param());
    while (Tok.is(',')) {
      take();
      P.Params.push_back(param());
    }
  }
  expect(')');
  expect('{');
  P.StmtLoc = Tok.Loc;
  if (Tok.isIdent("return")) {
    take();
    P.IsReturn = true;
    P.Body = expr();
  } else if (Tok.isIdent("store")) {
    take();
    ExprPtr Outs = expr();
    if (Outs->K == Expr::Tuple)
      P.Outs = Outs->Args;
    else
      P.Outs.push_back(Outs);
    expect('=');
    P.Body = expr();
  } else {
    fail("expected 'store' or 'return', found " + describe(Tok));
  }
  expect(';');
  expect('}');
  expectEnd();
  return P;
}

std::string formatError(const ParseError &E) {
  return std::to_string(E.Loc.Line) + ":" + std::to_string(E.Loc.Col) + ": " +
         E.what();
}

} // namespace

bool parseProgram(const std::string &Text, Program &Out, std::string &Err) {
  try {
    Parser P(Text);
    Out = P.program();
    return true;
  } catch (const ParseError &E) {
    Err = formatError(E);
  } catch (const std::exception &E) {
    Err = std::string("1:1: internal error: ") + E.what();
  }
  return false;
}

bool parseExpr(const std::string &Text, ExprPtr &Out, std::string &Err) {
  try {
    Parser P(Text);
    Out = P.exprToEnd();
    return true;
  } catch (const ParseError &E) {
    Err = formatError(E);
  } catch (const std::exception &E) {
    Err = std::string("1:1: internal error: ") + E.what();
  }
  return false;
}

bool parseType(const std::string &Text, TypePtr &Out, std::string &Err) {
  try {
    Parser P(Text);
    Out = P.typeToEnd();
    return true;
  } catch (const ParseError &E) {
    Err = formatError(E);
  } catch (const std::exception &E) {
    Err = std::string("1:1: internal error: ") + E.what();
  }
  return false;
}

} // namespace idiom::funil
