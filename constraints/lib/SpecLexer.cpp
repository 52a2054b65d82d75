//===- SpecLexer.cpp - Tokens of spec texts -------------------------------===//

#include "SpecLexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace idiom::constraints;

const char *idiom::constraints::tokName(Tok K) {
  switch (K) {
  case Tok::Eof: return "end of file";
  case Tok::Error: return "invalid token";
  case Tok::Ident: return "identifier";
  case Tok::String: return "string";
  case Tok::Int: return "integer";
  case Tok::LParen: return "'('";
  case Tok::RParen: return "')'";
  case Tok::Comma: return "','";
  case Tok::Colon: return "':'";
  case Tok::Semi: return "';'";
  case Tok::Equal: return "'='";
  case Tok::KwConstraint: return "'constraint'";
  case Tok::KwIdiom: return "'idiom'";
  case Tok::KwLifts: return "'lifts'";
  case Tok::KwForall: return "'forall'";
  case Tok::KwCollect: return "'collect'";
  case Tok::KwIn: return "'in'";
  case Tok::KwAs: return "'as'";
  case Tok::KwAnd: return "'and'";
  case Tok::KwOr: return "'or'";
  case Tok::KwNot: return "'not'";
  case Tok::KwTrue: return "'true'";
  case Tok::KwFalse: return "'false'";
  }
  return "token";
}

static bool isIdentStart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_';
}
static bool isIdentChar(char C) { return isIdentStart(C) || llvm::isDigit(C); }

void SpecLexer::advance() {
  if (Pos >= Text.size())
    return;
  if (Text[Pos] == '\n') {
    ++Line;
    Col = 1;
  } else {
    ++Col;
  }
  ++Pos;
}

void SpecLexer::skipSpaceAndComments() {
  while (Pos < Text.size()) {
    char C = Text[Pos];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' ||
        C == '\v') {
      advance();
    } else if (C == '#') {
      while (Pos < Text.size() && Text[Pos] != '\n')
        advance();
    } else {
      return;
    }
  }
}

Token SpecLexer::make(Tok K, size_t Start, SourceLoc Loc) const {
  Token T;
  T.K = K;
  T.Text = Text.slice(Start, Pos);
  T.Loc = Loc;
  return T;
}

Token SpecLexer::error(SourceLoc Loc, size_t Start, const std::string &Msg) {
  Diags.push_back({File.str(), Loc.Line, Loc.Col, true, Msg});
  return make(Tok::Error, Start, Loc);
}

Token SpecLexer::lexString(size_t Start, SourceLoc Loc) {
  advance(); // opening quote
  std::string Value;
  bool BadEscape = false;
  SourceLoc BadLoc;
  while (true) {
    char C = peek();
    if (Pos >= Text.size() || C == '\n')
      return error(Loc, Start, "unterminated string literal");
    if (C == '"') {
      advance();
      break;
    }
    if (C == '\\') {
      SourceLoc EscLoc{Line, Col};
      advance();
      if (Pos >= Text.size() || peek() == '\n')
        return error(Loc, Start, "unterminated string literal");
      switch (peek()) {
      case '"': Value += '"'; break;
      case '\\': Value += '\\'; break;
      case 'n': Value += '\n'; break;
      case 't': Value += '\t'; break;
      default:
        if (!BadEscape) {
          BadEscape = true;
          BadLoc = EscLoc;
        }
        break;
      }
      advance();
      continue;
    }
    Value += C;
    advance();
  }
  if (BadEscape)
    return error(BadLoc, Start, "unknown escape sequence in string literal");
  Token T = make(Tok::String, Start, Loc);
  T.Str = std::move(Value);
  return T;
}

Token SpecLexer::lexInt(size_t Start, SourceLoc Loc) {
  bool Negative = peek() == '-';
  if (Negative)
    advance();
  uint64_t Magnitude = 0;
  bool Overflow = false;
  const uint64_t Limit = Negative ? uint64_t(INT64_MAX) + 1 : INT64_MAX;
  while (llvm::isDigit(peek())) {
    uint64_t D = uint64_t(peek() - '0');
    if (Magnitude > (Limit - D) / 10)
      Overflow = true;
    else
      Magnitude = Magnitude * 10 + D;
    advance();
  }
  if (isIdentStart(peek()))
    return error(Loc, Start, "invalid integer literal");
  if (Overflow)
    return error(Loc, Start, "integer literal does not fit in 64 bits");
  Token T = make(Tok::Int, Start, Loc);
  T.Int = Negative ? int64_t(0 - Magnitude) : int64_t(Magnitude);
  return T;
}

Token SpecLexer::lex() {
  skipSpaceAndComments();
  SourceLoc Loc{Line, Col};
  size_t Start = Pos;
  if (Pos >= Text.size())
    return make(Tok::Eof, Start, Loc);
  char C = peek();
  if (isIdentStart(C)) {
    while (isIdentChar(peek()))
      advance();
    Token T = make(Tok::Ident, Start, Loc);
    T.K = llvm::StringSwitch<Tok>(T.Text)
              .Case("constraint", Tok::KwConstraint)
              .Case("idiom", Tok::KwIdiom)
              .Case("lifts", Tok::KwLifts)
              .Case("forall", Tok::KwForall)
              .Case("collect", Tok::KwCollect)
              .Case("in", Tok::KwIn)
              .Case("as", Tok::KwAs)
              .Case("and", Tok::KwAnd)
              .Case("or", Tok::KwOr)
              .Case("not", Tok::KwNot)
              .Case("true", Tok::KwTrue)
              .Case("false", Tok::KwFalse)
              .Default(Tok::Ident);
    return T;
  }
  if (llvm::isDigit(C) || (C == '-' && llvm::isDigit(peek(1))))
    return lexInt(Start, Loc);
  if (C == '"')
    return lexString(Start, Loc);
  Tok K = Tok::Error;
  switch (C) {
  case '(': K = Tok::LParen; break;
  case ')': K = Tok::RParen; break;
  case ',': K = Tok::Comma; break;
  case ':': K = Tok::Colon; break;
  case ';': K = Tok::Semi; break;
  case '=': K = Tok::Equal; break;
  default: break;
  }
  advance();
  if (K != Tok::Error)
    return make(K, Start, Loc);
  std::string Msg = "invalid character ";
  unsigned char U = static_cast<unsigned char>(C);
  if (U >= 0x20 && U < 0x7f) {
    Msg += '\'';
    Msg += C;
    Msg += '\'';
  } else {
    llvm::raw_string_ostream OS(Msg);
    OS << "0x";
    OS.write_hex(U);
  }
  return error(Loc, Start, Msg);
}

Token SpecLexer::lexDashedName() {
  skipSpaceAndComments();
  if (!isIdentStart(peek()))
    return lex();
  SourceLoc Loc{Line, Col};
  size_t Start = Pos;
  while (isIdentChar(peek()) || (peek() == '-' && isIdentChar(peek(1))))
    advance();
  return make(Tok::Ident, Start, Loc);
}
