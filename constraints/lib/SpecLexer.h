//===- SpecLexer.h - Tokens of spec texts -----------------------*- C++ -*-===//
//
// Internal to the constraints library: splits a spec text into tokens and
// tracks line and column. Comments run from '#' to the end of the line.
//
//===----------------------------------------------------------------------===//
#ifndef IDIOM_CONSTRAINTS_LIB_SPECLEXER_H
#define IDIOM_CONSTRAINTS_LIB_SPECLEXER_H

#include "idiom/Constraints/Diagnostic.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace idiom::constraints {

/// Kinds of tokens.
enum class Tok {
  Eof,
  Error, ///< a lexical error, already reported
  Ident,
  String,
  Int,
  LParen,
  RParen,
  Comma,
  Colon,
  Semi,
  Equal,
  KwConstraint,
  KwIdiom,
  KwLifts,
  KwForall,
  KwCollect,
  KwIn,
  KwAs,
  KwAnd,
  KwOr,
  KwNot,
  KwTrue,
  KwFalse,
};

/// One token.
struct Token {
  Tok K = Tok::Eof;
  llvm::StringRef Text; ///< the spelling in the source
  std::string Str;      ///< String: the value with escapes decoded
  int64_t Int = 0;      ///< Int: the value
  SourceLoc Loc;        ///< first character
};

/// Spelling of a token kind for messages, e.g. "')'" or "identifier".
const char *tokName(Tok K);

/// A cursor over a spec text.
class SpecLexer {
public:
  /// Lexes \p Text; errors go to \p Diags under the name \p File.
  SpecLexer(llvm::StringRef File, llvm::StringRef Text,
            std::vector<Diagnostic> &Diags)
      : File(File), Text(Text), Diags(Diags) {}

  /// The next token.
  Token lex();
  /// The next token, reading a name that may contain '-' between letters or
  /// digits (idiom and lifter names): `scalar-reduction`, `gemm-2d`.
  Token lexDashedName();

private:
  void skipSpaceAndComments();
  char peek(unsigned Ahead = 0) const {
    return Pos + Ahead < Text.size() ? Text[Pos + Ahead] : '\0';
  }
  void advance();
  Token make(Tok K, size_t Start, SourceLoc Loc) const;
  Token error(SourceLoc Loc, size_t Start, const std::string &Msg);
  Token lexString(size_t Start, SourceLoc Loc);
  Token lexInt(size_t Start, SourceLoc Loc);

  llvm::StringRef File;
  llvm::StringRef Text;
  std::vector<Diagnostic> &Diags;
  size_t Pos = 0;
  unsigned Line = 1;
  unsigned Col = 1;
};

} // namespace idiom::constraints

#endif // IDIOM_CONSTRAINTS_LIB_SPECLEXER_H
