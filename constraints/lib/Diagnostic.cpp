//===- Diagnostic.cpp - Errors and warnings about spec files --------------===//

#include "idiom/Constraints/Diagnostic.h"

using namespace idiom::constraints;

std::string Diagnostic::str() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Col) +
         (IsError ? ": error: " : ": warning: ") + Message;
}
