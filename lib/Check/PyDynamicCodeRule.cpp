//===-- PyDynamicCodeRule.cpp - kevin-py-dynamic-code (KEVIN-PY-005) ------===//
//
// No references to the builtins that run or reach code dynamically (exec,
// eval, compile, __import__, getattr and friends, globals/locals/vars, open,
// id, ...) and no three-argument type(): dynamic code and reflection defeat
// every other static rule, and id() is a replay key. A name the file binds
// itself is not the builtin and is not reported.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

const char *const Builtins[] = {
    "exec",   "eval",  "compile",    "__import__", "getattr", "setattr",
    "delattr", "globals", "locals",     "vars",    "open",
    "input",  "breakpoint", "exit",  "quit",       "id",      "memoryview",
    "__builtins__", "__loader__", "__spec__"};

class DynamicCodeRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-dynamic-code"; }
  void check(PyRuleContext &Ctx) const override {
    walkScoped(Ctx.M.root(), [&](const PyNode &N, const ScopeStack &Scopes) {
      if (isNode(N, "Call") && isNode(N["func"], "Name") &&
          N["func"]["id"] == "type" && N["args"].size() == 3 &&
          !bound("type", Ctx, Scopes))
        Ctx.Sink.report(id(), Ctx.M.locate(N),
                        "three-argument type() creates a class dynamically");
      if (!isNode(N, "Name"))
        return true;
      std::string Name = N["id"].get<std::string>();
      for (const char *B : Builtins)
        if (Name == B && !bound(Name, Ctx, Scopes))
          Ctx.Sink.report(id(), Ctx.M.locate(N),
                          "use of the builtin '" + Name + "'");
      return true;
    });
  }

private:
  static bool bound(const std::string &Name, PyRuleContext &Ctx,
                    const ScopeStack &Scopes) {
    return Ctx.M.moduleBindings().count(Name) || isLocalName(Name, Scopes);
  }
};

} // namespace

std::unique_ptr<PythonRule> createDynamicCodeRule() {
  return std::make_unique<DynamicCodeRule>();
}

} // namespace kevin
