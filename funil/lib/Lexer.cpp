//===- Lexer.cpp - FunIL tokens -------------------------------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"

#include <cctype>

namespace idiom::funil {

void Lexer::advance() {
  if (Pos >= Src.size())
    return;
  if (Src[Pos] == '\n') {
    ++Line;
    Col = 1;
  } else {
    ++Col;
  }
  ++Pos;
}

void Lexer::skipSpaceAndComments() {
  for (;;) {
    char C = peek();
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      advance();
    } else if (C == '/' && peek(1) == '/') {
      while (peek() != '\n' && peek() != '\0')
        advance();
    } else {
      return;
    }
  }
}

static bool isIdentStart(char C) {
  return std::isalpha(static_cast<unsigned char>(C)) || C == '_';
}
static bool isIdentChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
}

Token Lexer::lexNumber(SourceLoc L) {
  Token T;
  T.Loc = L;
  T.K = Token::Int;
  size_t Start = Pos;
  if (peek() == '-')
    advance();
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
    advance();
    advance();
    while (std::isxdigit(static_cast<unsigned char>(peek())))
      advance();
    if (peek() == '.') {
      T.K = Token::Float;
      advance();
      while (std::isxdigit(static_cast<unsigned char>(peek())))
        advance();
    }
    if (peek() == 'p' || peek() == 'P') {
      T.K = Token::Float;
      advance();
      if (peek() == '+' || peek() == '-')
        advance();
      if (!std::isdigit(static_cast<unsigned char>(peek())))
        throw ParseError(L, "malformed hexadecimal floating literal");
      while (std::isdigit(static_cast<unsigned char>(peek())))
        advance();
    } else if (T.K == Token::Float) {
      throw ParseError(L, "hexadecimal floating literal needs an exponent");
    }
  } else {
    while (std::isdigit(static_cast<unsigned char>(peek())))
      advance();
    if (peek() == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))) {
      T.K = Token::Float;
      advance();
      while (std::isdigit(static_cast<unsigned char>(peek())))
        advance();
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (std::isdigit(static_cast<unsigned char>(peek(1))) ||
         ((peek(1) == '+' || peek(1) == '-') &&
          std::isdigit(static_cast<unsigned char>(peek(2)))))) {
      T.K = Token::Float;
      advance();
      if (peek() == '+' || peek() == '-')
        advance();
      while (std::isdigit(static_cast<unsigned char>(peek())))
        advance();
    }
  }
  T.Text = Src.substr(Start, Pos - Start);
  return T;
}

Token Lexer::next() {
  skipSpaceAndComments();
  Token T;
  T.Loc = {Line, Col};
  char C = peek();
  char Prev = Pos > 0 ? Src[Pos - 1] : '\0';
  if (C == '\0') {
    T.K = Token::End;
    return T;
  }
  // `t.0.1`: after a '.', digits form an index, never a floating literal.
  if (Prev == '.' && std::isdigit(static_cast<unsigned char>(C))) {
    size_t Start = Pos;
    while (std::isdigit(static_cast<unsigned char>(peek())))
      advance();
    T.K = Token::Int;
    T.Text = Src.substr(Start, Pos - Start);
    return T;
  }
  // `]_n0`: the '_' of an array type.
  if (C == '_' && Prev == ']') {
    advance();
    T.K = Token::Punct;
    T.Text = "_";
    return T;
  }
  if (std::isdigit(static_cast<unsigned char>(C)) ||
      (C == '-' && std::isdigit(static_cast<unsigned char>(peek(1)))))
    return lexNumber(T.Loc);
  if (C == '-' && peek(1) == 'i' && peek(2) == 'n' && peek(3) == 'f' &&
      !isIdentChar(peek(4))) {
    for (int I = 0; I < 4; ++I)
      advance();
    T.K = Token::Ident;
    T.Text = "-inf";
    return T;
  }
  if (isIdentStart(C)) {
    size_t Start = Pos;
    while (isIdentChar(peek()))
      advance();
    T.K = Token::Ident;
    T.Text = Src.substr(Start, Pos - Start);
    return T;
  }
  if (C == '=' && peek(1) == '>') {
    advance();
    advance();
    T.K = Token::Arrow;
    T.Text = "=>";
    return T;
  }
  static const std::string PunctChars = "()[]{},:;.=\\_?*/";
  if (PunctChars.find(C) != std::string::npos) {
    advance();
    T.K = Token::Punct;
    T.Text = std::string(1, C);
    return T;
  }
  throw ParseError(T.Loc, std::string("unexpected character '") + C + "'");
}

} // namespace idiom::funil
