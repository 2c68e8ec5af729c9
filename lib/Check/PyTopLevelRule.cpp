//===-- PyTopLevelRule.cpp - kevin-py-top-level (KEVIN-PY-014) ------------===//
//
// The module top level is declarative: imports, assignments of constant
// expressions (no calls other than load_inline), def, class and a module
// docstring. Loops, conditionals, with, expression statements and other
// calls at import time are where precomputation, file writes and patching
// would hide.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

// True when Expr has no calls, lambdas, comprehensions, walrus or awaits.
bool isConstantExpression(const PyNode &Expr) {
  bool Constant = true;
  walkNodes(Expr, [&](const PyNode &N) {
    const std::string &T = nodeType(N);
    if (T == "Call" || T == "Lambda" || T == "ListComp" || T == "SetComp" ||
        T == "DictComp" || T == "GeneratorExp" || T == "NamedExpr" ||
        T == "Await" || T == "Yield" || T == "YieldFrom")
      Constant = false;
    return Constant;
  });
  return Constant;
}

class TopLevelRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-top-level"; }
  void check(PyRuleContext &Ctx) const override {
    std::set<const PyNode *> LoadInlineCalls;
    for (const LoadInlineCall &C : Ctx.Facts.LoadInlineCalls)
      LoadInlineCalls.insert(C.Call);
    bool First = true;
    for (const PyNode &S : Ctx.M.body()) {
      const std::string &T = nodeType(S);
      bool Docstring = First && T == "Expr" && isNode(S["value"], "Constant");
      First = false;
      if (Docstring || T == "Import" || T == "ImportFrom" ||
          T == "FunctionDef" || T == "ClassDef" || T == "AsyncFunctionDef")
        continue;
      if (T == "Assign" || T == "AnnAssign") {
        if (!S["value"].is_object())
          continue;
        const PyNode &V = S["value"];
        if (LoadInlineCalls.count(&V)) {
          for (const PyNode &A : V["args"])
            if (!isConstantExpression(A))
              Ctx.Sink.report(id(), Ctx.M.locate(A),
                              "computed load_inline argument at module level");
          for (const PyNode &K : V["keywords"])
            if (!isConstantExpression(K["value"]))
              Ctx.Sink.report(id(), Ctx.M.locate(K["value"]),
                              "computed load_inline argument at module level");
          continue;
        }
        if (isConstantExpression(V))
          continue;
        Ctx.Sink.report(id(), Ctx.M.locate(S),
                        "module-level assignment of a computed value");
        continue;
      }
      Ctx.Sink.report(id(), Ctx.M.locate(S), describe(T) + " at module level");
    }
  }

private:
  static std::string describe(const std::string &T) {
    if (T == "Expr")
      return "expression statement";
    if (T == "If")
      return "conditional";
    if (T == "For" || T == "While" || T == "AsyncFor")
      return "loop";
    if (T == "With" || T == "AsyncWith")
      return "with statement";
    if (T == "AugAssign")
      return "augmented assignment";
    return "'" + T + "' statement";
  }
};

} // namespace

std::unique_ptr<PythonRule> createTopLevelRule() {
  return std::make_unique<TopLevelRule>();
}

} // namespace kevin
