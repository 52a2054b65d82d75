//===- SpecParser.cpp - Parser of spec texts ------------------------------===//
//
// Recursive descent over the grammar of docs/ConstraintLanguage.md:
//
//   file       ::= definition*
//   definition ::= 'constraint' IDENT '(' params? ')' '=' formula ';'
//                | 'idiom' NAME '(' params ')' ('lifts' NAME)? '=' formula ';'
//   formula    ::= conj ('or' conj)*
//   conj       ::= unary ('and' unary)*
//   unary      ::= 'not' unary
//                | 'forall' IDENT 'in' call ':' unary
//                | 'collect' IDENT 'in' call ':' unary 'as' IDENT
//                | primary
//   primary    ::= '(' formula ')' | 'true' | 'false' | call | arg '=' arg
//   call       ::= IDENT '(' (arg (',' arg)*)? ')'
//   arg        ::= IDENT | '_' | STRING | INT
//
//===----------------------------------------------------------------------===//

#include "idiom/Constraints/SpecParser.h"
#include "SpecLexer.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

using namespace idiom::constraints;
using llvm::StringRef;
using llvm::Twine;

namespace {

class Parser {
public:
  Parser(StringRef File, StringRef Text, std::vector<Diagnostic> &Diags)
      : File(File), Lex(File, Text, Diags), Diags(Diags) {
    consume();
  }

  std::vector<std::unique_ptr<Definition>> parseFile();

private:
  void consume() { Cur = Lex.lex(); }
  void consumeDashed() { Cur = Lex.lexDashedName(); }
  bool at(Tok K) const { return Cur.K == K; }
  /// Reports \p Msg at \p Loc unless the current token is a lexical error
  /// (already reported). Returns null for convenience.
  std::nullptr_t error(SourceLoc Loc, const Twine &Msg);
  /// Reports "expected WHAT, found TOKEN" at the current token.
  std::nullptr_t expected(const Twine &What);
  /// Skips to just after the next ';', or to the next definition keyword.
  void recover();

  std::unique_ptr<Definition> parseDefinition();
  bool parseParams(Definition &D);
  std::unique_ptr<Formula> parseFormula(unsigned Depth);
  std::unique_ptr<Formula> parseConj(unsigned Depth);
  std::unique_ptr<Formula> parseUnary(unsigned Depth);
  std::unique_ptr<Formula> parsePrimary(unsigned Depth);
  std::unique_ptr<Formula> parseQuantifier(unsigned Depth);
  /// Parses the argument list of a call whose name was \p Name; the current
  /// token must be '('.
  std::unique_ptr<Formula> parseCallArgs(const Token &Name);
  /// Parses a plain variable name (not '_', not a keyword) into \p A.
  bool parseVarName(Arg &A, const Twine &What);
  bool parseArg(Arg &A);
  static Arg argFromToken(const Token &T);

  StringRef File;
  SpecLexer Lex;
  std::vector<Diagnostic> &Diags;
  Token Cur;
};

} // namespace

std::nullptr_t Parser::error(SourceLoc Loc, const Twine &Msg) {
  if (!at(Tok::Error))
    Diags.push_back({File.str(), Loc.Line, Loc.Col, true, Msg.str()});
  return nullptr;
}

std::nullptr_t Parser::expected(const Twine &What) {
  std::string Found;
  if (at(Tok::Eof))
    Found = "end of file";
  else
    Found = ("'" + Cur.Text + "'").str();
  return error(Cur.Loc, "expected " + What + ", found " + Found);
}

void Parser::recover() {
  while (!at(Tok::Eof) && !at(Tok::Semi) && !at(Tok::KwConstraint) &&
         !at(Tok::KwIdiom))
    consume();
  if (at(Tok::Semi))
    consume();
}

std::vector<std::unique_ptr<Definition>> Parser::parseFile() {
  std::vector<std::unique_ptr<Definition>> Defs;
  while (!at(Tok::Eof)) {
    if (!at(Tok::KwConstraint) && !at(Tok::KwIdiom)) {
      expected("'constraint' or 'idiom'");
      if (at(Tok::Semi))
        consume();
      else
        recover();
      continue;
    }
    if (std::unique_ptr<Definition> D = parseDefinition())
      Defs.push_back(std::move(D));
    else
      recover();
  }
  return Defs;
}

static bool isKeyword(StringRef S) {
  return S == "constraint" || S == "idiom" || S == "lifts" ||
         S == "forall" || S == "collect" || S == "in" || S == "as" ||
         S == "and" || S == "or" || S == "not" || S == "true" ||
         S == "false";
}

std::unique_ptr<Definition> Parser::parseDefinition() {
  auto D = std::make_unique<Definition>();
  D->K = at(Tok::KwIdiom) ? Definition::Kind::Idiom
                          : Definition::Kind::Constraint;
  D->File = File.str();
  const char *KindName = D->isIdiom() ? "idiom" : "constraint";
  if (D->isIdiom())
    consumeDashed();
  else
    consume();
  if (!at(Tok::Ident) || isKeyword(Cur.Text) || Cur.Text == "_")
    return expected(Twine("a name after '") + KindName + "'");
  D->Name = Cur.Text.str();
  D->Line = Cur.Loc.Line;
  D->Col = Cur.Loc.Col;
  SourceLoc NameLoc = Cur.Loc;
  consume();
  if (!parseParams(*D))
    return nullptr;
  if (D->isIdiom() && D->Params.empty())
    return error(NameLoc, "idiom '" + D->Name +
                              "' needs at least one parameter (its entry)");
  if (at(Tok::KwLifts)) {
    if (!D->isIdiom())
      return error(Cur.Loc, "only an idiom can name a lifter with 'lifts'");
    consumeDashed();
    if (!at(Tok::Ident) || isKeyword(Cur.Text) || Cur.Text == "_")
      return expected("a lifter name after 'lifts'");
    D->Lifts = Cur.Text.str();
    consume();
  }
  if (!at(Tok::Equal))
    return expected(D->isIdiom() ? "'lifts' or '='" : "'='");
  consume();
  D->Body = parseFormula(0);
  if (!D->Body)
    return nullptr;
  if (!at(Tok::Semi))
    return expected("'and', 'or' or ';'");
  consume();
  return D;
}

bool Parser::parseParams(Definition &D) {
  if (!at(Tok::LParen))
    return expected("'(' after the name"), false;
  consume();
  if (at(Tok::RParen)) {
    consume();
    return true;
  }
  llvm::StringSet<> Seen;
  while (true) {
    Arg A;
    if (!parseVarName(A, "a parameter name"))
      return false;
    if (!Seen.insert(A.Name).second)
      return error(A.Loc, "duplicate parameter '" + A.Name + "'"), false;
    D.Params.push_back(A.Name);
    D.ParamLocs.push_back(A.Loc);
    if (at(Tok::Comma)) {
      consume();
      continue;
    }
    if (!at(Tok::RParen))
      return expected("',' or ')'"), false;
    consume();
    return true;
  }
}

std::unique_ptr<Formula> Parser::parseFormula(unsigned Depth) {
  std::unique_ptr<Formula> First = parseConj(Depth);
  if (!First || !at(Tok::KwOr))
    return First;
  auto Or = std::make_unique<Formula>();
  Or->K = Formula::Kind::Or;
  Or->Loc = First->Loc;
  Or->Children.push_back(std::move(First));
  while (at(Tok::KwOr)) {
    consume();
    std::unique_ptr<Formula> Next = parseConj(Depth);
    if (!Next)
      return nullptr;
    Or->Children.push_back(std::move(Next));
  }
  return Or;
}

std::unique_ptr<Formula> Parser::parseConj(unsigned Depth) {
  std::unique_ptr<Formula> First = parseUnary(Depth);
  if (!First || !at(Tok::KwAnd))
    return First;
  auto And = std::make_unique<Formula>();
  And->K = Formula::Kind::And;
  And->Loc = First->Loc;
  And->Children.push_back(std::move(First));
  while (at(Tok::KwAnd)) {
    consume();
    std::unique_ptr<Formula> Next = parseUnary(Depth);
    if (!Next)
      return nullptr;
    And->Children.push_back(std::move(Next));
  }
  return And;
}

std::unique_ptr<Formula> Parser::parseUnary(unsigned Depth) {
  if (Depth > MaxFormulaDepth)
    return error(Cur.Loc, "formula nested too deeply (more than " +
                              Twine(MaxFormulaDepth) + " levels)");
  if (at(Tok::KwNot)) {
    auto Not = std::make_unique<Formula>();
    Not->K = Formula::Kind::Not;
    Not->Loc = Cur.Loc;
    consume();
    std::unique_ptr<Formula> Inner = parseUnary(Depth + 1);
    if (!Inner)
      return nullptr;
    Not->Children.push_back(std::move(Inner));
    return Not;
  }
  if (at(Tok::KwForall) || at(Tok::KwCollect))
    return parseQuantifier(Depth);
  return parsePrimary(Depth);
}

std::unique_ptr<Formula> Parser::parseQuantifier(unsigned Depth) {
  auto Q = std::make_unique<Formula>();
  bool IsCollect = at(Tok::KwCollect);
  Q->K = IsCollect ? Formula::Kind::Collect : Formula::Kind::ForAll;
  Q->Loc = Cur.Loc;
  consume();
  if (!parseVarName(Q->Var, "a variable name"))
    return nullptr;
  if (!at(Tok::KwIn))
    return expected("'in'");
  consume();
  if (!at(Tok::Ident) || Cur.Text == "_")
    return expected("a generator call after 'in'");
  Token Name = Cur;
  consume();
  if (!at(Tok::LParen))
    return expected("'(' after the generator name");
  std::unique_ptr<Formula> Gen = parseCallArgs(Name);
  if (!Gen)
    return nullptr;
  if (!at(Tok::Colon))
    return expected("':' after the generator");
  consume();
  std::unique_ptr<Formula> Body = parseUnary(Depth + 1);
  if (!Body)
    return nullptr;
  Q->Children.push_back(std::move(Gen));
  Q->Children.push_back(std::move(Body));
  if (IsCollect) {
    if (!at(Tok::KwAs))
      return expected("'as' after the body of 'collect' (parenthesize a "
                      "body with 'and' or 'or')");
    consume();
    if (!parseVarName(Q->Result, "a variable name after 'as'"))
      return nullptr;
  }
  return Q;
}

std::unique_ptr<Formula> Parser::parsePrimary(unsigned Depth) {
  switch (Cur.K) {
  case Tok::LParen: {
    consume();
    std::unique_ptr<Formula> Inner = parseFormula(Depth + 1);
    if (!Inner)
      return nullptr;
    if (!at(Tok::RParen))
      return expected("')'");
    consume();
    return Inner;
  }
  case Tok::KwTrue:
  case Tok::KwFalse: {
    auto F = std::make_unique<Formula>();
    F->K = at(Tok::KwTrue) ? Formula::Kind::True : Formula::Kind::False;
    F->Loc = Cur.Loc;
    consume();
    return F;
  }
  case Tok::Ident:
  case Tok::String:
  case Tok::Int: {
    Token First = Cur;
    consume();
    if (First.K == Tok::Ident && First.Text != "_" && at(Tok::LParen))
      return parseCallArgs(First);
    if (!at(Tok::Equal))
      return expected(First.K == Tok::Ident && First.Text != "_"
                          ? Twine("'(' or '=' after '") + First.Text + "'"
                          : Twine("'='"));
    consume();
    auto Eq = std::make_unique<Formula>();
    Eq->K = Formula::Kind::Equal;
    Eq->Loc = First.Loc;
    Eq->Args.push_back(argFromToken(First));
    Arg Right;
    if (!parseArg(Right))
      return nullptr;
    Eq->Args.push_back(std::move(Right));
    return Eq;
  }
  default:
    return expected("a formula");
  }
}

std::unique_ptr<Formula> Parser::parseCallArgs(const Token &Name) {
  auto Call = std::make_unique<Formula>();
  Call->K = Formula::Kind::Call;
  Call->Loc = Name.Loc;
  Call->Callee = Name.Text.str();
  consume(); // '('
  if (at(Tok::RParen)) {
    consume();
    return Call;
  }
  while (true) {
    Arg A;
    if (!parseArg(A))
      return nullptr;
    Call->Args.push_back(std::move(A));
    if (at(Tok::Comma)) {
      consume();
      continue;
    }
    if (!at(Tok::RParen))
      return expected("',' or ')'");
    consume();
    return Call;
  }
}

Arg Parser::argFromToken(const Token &T) {
  Arg A;
  A.Loc = T.Loc;
  if (T.K == Tok::String) {
    A.K = Arg::Kind::String;
    A.Const = Term::string(T.Str);
  } else if (T.K == Tok::Int) {
    A.K = Arg::Kind::Int;
    A.Const = Term::integer(T.Int);
  } else {
    A.K = T.Text == "_" ? Arg::Kind::Anon : Arg::Kind::Var;
    A.Name = T.Text.str();
  }
  return A;
}

bool Parser::parseArg(Arg &A) {
  if (!at(Tok::Ident) && !at(Tok::String) && !at(Tok::Int))
    return expected("an argument (variable, '_', string or integer)"), false;
  A = argFromToken(Cur);
  consume();
  return true;
}

bool Parser::parseVarName(Arg &A, const Twine &What) {
  if (!at(Tok::Ident) || Cur.Text == "_")
    return expected(What), false;
  A = argFromToken(Cur);
  consume();
  return true;
}

std::vector<std::unique_ptr<Definition>>
idiom::constraints::parseSpecText(StringRef File, StringRef Text,
                                  std::vector<Diagnostic> &Diags) {
  return Parser(File, Text, Diags).parseFile();
}
