//===- TermPrinter.cpp - Terms as text for messages and tests -------------===//

#include "idiom/Constraints/Solver.h"
#include "idiom/Constraints/ValueText.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Value.h"
#include "llvm/Support/raw_ostream.h"

using namespace idiom::constraints;

std::string idiom::constraints::printTerm(const Term &T) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  switch (T.K) {
  case Term::Kind::Unbound:
    OS << "_";
    break;
  case Term::Kind::Value:
    if (!T.V)
      OS << "null";
    else
      OS << idiom::operandText(T.V);
    break;
  case Term::Kind::Loop:
    OS << "loop ";
    if (T.L && T.L->getHeader())
      OS << idiom::operandText(T.L->getHeader());
    else
      OS << "null";
    break;
  case Term::Kind::List:
    OS << "[";
    for (size_t I = 0; I < T.Items.size(); ++I)
      OS << (I ? ", " : "") << printTerm(T.Items[I]);
    OS << "]";
    break;
  case Term::Kind::String:
    OS << '"';
    OS.write_escaped(T.S);
    OS << '"';
    break;
  case Term::Kind::Int:
    OS << T.I;
    break;
  }
  return S;
}
