//===- Lexer.h - FunIL tokens (private) -------------------------*- C++ -*-===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Splits FunIL text into tokens on demand. Two context rules keep the
/// grammar unambiguous without a separate size lexer: a token that starts
/// right after '.' reads digits only (so `t.0.1` is two projections), and a
/// '_' right after ']' is punctuation (the `]_n0` of an array type).
///
//===----------------------------------------------------------------------===//

#ifndef IDIOM_FUNIL_LIB_LEXER_H
#define IDIOM_FUNIL_LIB_LEXER_H

#include "idiom/FunIL/Expr.h"

#include <stdexcept>
#include <string>

namespace idiom::funil {

/// Thrown inside the parser only; parse* entry points turn it into a value.
struct ParseError : std::runtime_error {
  SourceLoc Loc;
  ParseError(SourceLoc L, const std::string &Msg)
      : std::runtime_error(Msg), Loc(L) {}
};

/// One token.
struct Token {
  enum Kind : uint8_t { Ident, Int, Float, Punct, Arrow, End };
  Kind K = End;
  std::string Text; ///< identifier, number text, or the punctuation char
  SourceLoc Loc;

  bool is(char C) const { return K == Punct && Text.size() == 1 && Text[0] == C; }
  bool isIdent(const char *S) const { return K == Ident && Text == S; }
};

/// On-demand lexer over a string.
class Lexer {
public:
  explicit Lexer(const std::string &Text) : Src(Text) {}
  /// Reads the next token; throws ParseError on a bad character.
  Token next();

private:
  char peek(size_t Ahead = 0) const {
    return Pos + Ahead < Src.size() ? Src[Pos + Ahead] : '\0';
  }
  void advance();
  void skipSpaceAndComments();
  Token lexNumber(SourceLoc L);

  const std::string &Src;
  size_t Pos = 0;
  unsigned Line = 1, Col = 1;
};

} // namespace idiom::funil

#endif // IDIOM_FUNIL_LIB_LEXER_H
