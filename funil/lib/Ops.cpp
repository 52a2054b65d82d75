//===- Ops.cpp - FunIL primitives and scalar operations -------------------===//
//
// Part of Idiom.
//
//===----------------------------------------------------------------------===//

#include "idiom/FunIL/Ops.h"

#include <string_view>
#include <unordered_map>

#include <cstring>

namespace idiom::funil {

namespace {
constexpr unsigned Many = 64;
const OpInfo Table[] = {
    // Array primitives (high level, seeds/004 figure 4) and views.
    {"view", OpClass::Primitive, 4, 8, false},
    {"iota", OpClass::Primitive, 1, 1, false},
    {"zip", OpClass::Primitive, 2, Many, false},
    {"map", OpClass::Primitive, 2, 2, false},
    {"reduce", OpClass::Primitive, 3, 3, false},
    {"split", OpClass::Primitive, 2, 2, false},
    {"join", OpClass::Primitive, 1, 1, false},
    {"at", OpClass::Primitive, 2, 2, false},
    {"strided", OpClass::Primitive, 2, 2, false},
    {"blocks", OpClass::Primitive, 2, 2, false},
    {"halves", OpClass::Primitive, 1, 1, false},
    {"iterate", OpClass::Primitive, 3, 3, false},
    {"apply", OpClass::Primitive, 2, 2, false},
    {"reduceIndexed", OpClass::Primitive, 4, 4, false},
    // Data layout (seeds/004 figures 4-5; stencils): views, no arithmetic.
    {"transpose", OpClass::Primitive, 1, 1, false},
    {"reorder", OpClass::Primitive, 2, 2, false},
    {"scatter", OpClass::Primitive, 2, 2, false},
    {"reorderStride", OpClass::Primitive, 2, 2, false},
    {"slide", OpClass::Primitive, 3, 3, false},
    {"pad", OpClass::Primitive, 4, 4, false},
    {"padClamp", OpClass::Primitive, 3, 3, false},
    {"asVector", OpClass::Primitive, 2, 2, false},
    {"asScalar", OpClass::Primitive, 1, 1, false},
    {"broadcast", OpClass::Primitive, 2, 2, false},
    {"lanes", OpClass::Primitive, 1, 1, false},
    // OpenCL-level primitives (seeds/004 figure 5).
    {"mapGlobal", OpClass::Primitive, 2, 2, true},
    {"mapWorkgroup", OpClass::Primitive, 2, 2, true},
    {"mapLocal", OpClass::Primitive, 2, 2, true},
    {"mapSeq", OpClass::Primitive, 2, 2, false},
    {"reduceSeq", OpClass::Primitive, 3, 3, false},
    {"reduceIndexedAtomic", OpClass::Primitive, 3, 3, false},
    {"toGlobal", OpClass::Primitive, 1, 1, false},
    {"toLocal", OpClass::Primitive, 1, 1, false},
    {"toPrivate", OpClass::Primitive, 1, 1, false},
    {"globalSize", OpClass::HwQuery, 0, 0, true},
    {"localSize", OpClass::HwQuery, 0, 0, true},
    {"numGroups", OpClass::HwQuery, 0, 0, true},
    // Integer arithmetic.
    {"add", OpClass::IntBinary, 2, 2, false},
    {"sub", OpClass::IntBinary, 2, 2, false},
    {"mul", OpClass::IntBinary, 2, 2, false},
    {"sdiv", OpClass::IntBinary, 2, 2, false},
    {"udiv", OpClass::IntBinary, 2, 2, false},
    {"srem", OpClass::IntBinary, 2, 2, false},
    {"urem", OpClass::IntBinary, 2, 2, false},
    {"shl", OpClass::IntBinary, 2, 2, false},
    {"lshr", OpClass::IntBinary, 2, 2, false},
    {"ashr", OpClass::IntBinary, 2, 2, false},
    {"smin", OpClass::IntBinary, 2, 2, false},
    {"smax", OpClass::IntBinary, 2, 2, false},
    {"umin", OpClass::IntBinary, 2, 2, false},
    {"umax", OpClass::IntBinary, 2, 2, false},
    {"and", OpClass::LogicBinary, 2, 2, false},
    {"or", OpClass::LogicBinary, 2, 2, false},
    {"xor", OpClass::LogicBinary, 2, 2, false},
    {"abs", OpClass::IntUnary, 1, 1, false},
    {"ilog2", OpClass::IntUnary, 1, 1, false},
    // Floating point.
    {"fadd", OpClass::FloatBinary, 2, 2, false},
    {"fsub", OpClass::FloatBinary, 2, 2, false},
    {"fmul", OpClass::FloatBinary, 2, 2, false},
    {"fdiv", OpClass::FloatBinary, 2, 2, false},
    {"frem", OpClass::FloatBinary, 2, 2, false},
    {"fmin", OpClass::FloatBinary, 2, 2, false},
    {"fmax", OpClass::FloatBinary, 2, 2, false},
    {"pow", OpClass::FloatBinary, 2, 2, false},
    {"fneg", OpClass::FloatUnary, 1, 1, false},
    {"sqrt", OpClass::FloatUnary, 1, 1, false},
    {"fabs", OpClass::FloatUnary, 1, 1, false},
    {"exp", OpClass::FloatUnary, 1, 1, false},
    {"log", OpClass::FloatUnary, 1, 1, false},
    {"sin", OpClass::FloatUnary, 1, 1, false},
    {"cos", OpClass::FloatUnary, 1, 1, false},
    {"floor", OpClass::FloatUnary, 1, 1, false},
    {"ceil", OpClass::FloatUnary, 1, 1, false},
    {"fma", OpClass::FloatTernary, 3, 3, false},
    {"fmuladd", OpClass::FloatTernary, 3, 3, false},
    // Comparisons.
    {"icmp_eq", OpClass::IntCompare, 2, 2, false},
    {"icmp_ne", OpClass::IntCompare, 2, 2, false},
    {"icmp_slt", OpClass::IntCompare, 2, 2, false},
    {"icmp_sle", OpClass::IntCompare, 2, 2, false},
    {"icmp_sgt", OpClass::IntCompare, 2, 2, false},
    {"icmp_sge", OpClass::IntCompare, 2, 2, false},
    {"icmp_ult", OpClass::IntCompare, 2, 2, false},
    {"icmp_ule", OpClass::IntCompare, 2, 2, false},
    {"icmp_ugt", OpClass::IntCompare, 2, 2, false},
    {"icmp_uge", OpClass::IntCompare, 2, 2, false},
    {"fcmp_oeq", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_one", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_olt", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_ole", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_ogt", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_oge", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_ueq", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_une", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_ult", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_ule", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_ugt", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_uge", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_ord", OpClass::FloatCompare, 2, 2, false},
    {"fcmp_uno", OpClass::FloatCompare, 2, 2, false},
    {"select", OpClass::Select, 3, 3, false},
    {"not", OpClass::Not, 1, 1, false},
};

const char *const CastOps[] = {"sext",   "zext",   "trunc",  "sitofp",
                               "uitofp", "fptosi", "fptoui", "fpext",
                               "fptrunc", "bitcast"};
} // namespace

const OpInfo *lookupOp(const std::string &Name) {
  // Built once (thread-safe static initialisation); the parser, the type
  // checker and the generator look up every call node.
  static const std::unordered_map<std::string_view, const OpInfo *> Index = [] {
    std::unordered_map<std::string_view, const OpInfo *> M;
    for (const OpInfo &I : Table)
      M.emplace(I.Name, &I);
    return M;
  }();
  auto It = Index.find(Name);
  return It == Index.end() ? nullptr : It->second;
}

bool isCastOp(const std::string &Name) {
  for (const char *C : CastOps)
    if (Name == C)
      return true;
  return false;
}

bool checkCast(const std::string &Op, ScalarKind From, ScalarKind To,
               std::string &Why) {
  bool FInt = isInteger(From) || From == ScalarKind::Bool;
  unsigned FB = scalarBits(From), TB = scalarBits(To);
  bool Ok = false;
  if (Op == "sext" || Op == "zext")
    Ok = FInt && isInteger(To) && TB > FB;
  else if (Op == "trunc")
    Ok = isInteger(From) && (isInteger(To) || To == ScalarKind::Bool) &&
         TB < FB;
  else if (Op == "sitofp" || Op == "uitofp")
    Ok = FInt && isFloat(To);
  else if (Op == "fptosi" || Op == "fptoui")
    Ok = isFloat(From) && isInteger(To);
  else if (Op == "fpext")
    Ok = From == ScalarKind::F32 && To == ScalarKind::F64;
  else if (Op == "fptrunc")
    Ok = From == ScalarKind::F64 && To == ScalarKind::F32;
  else if (Op == "bitcast")
    Ok = From != ScalarKind::Bool && To != ScalarKind::Bool && FB == TB;
  if (!Ok)
    Why = std::string("cannot ") + Op + " " + scalarName(From) + " to " +
          scalarName(To);
  return Ok;
}

} // namespace idiom::funil
