//===-- PyMagicMethodRule.cpp - kevin-py-magic-method (KEVIN-PY-008) ------===//
//
// Closes lazy and always-equal outputs: every class derives from nn.Module
// only, no class defines comparison, conversion, attribute-hook, torch
// dispatch or construction magic methods, and no function or lambda is
// assigned onto an object attribute (per-instance method overrides).
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

const char *const MagicMethods[] = {
    "__eq__",    "__ne__",       "__lt__",           "__le__",
    "__gt__",    "__ge__",       "__bool__",         "__float__",
    "__int__",   "__index__",    "__getattr__",      "__getattribute__",
    "__setattr__", "__torch_function__", "__torch_dispatch__", "__array__",
    "__new__",   "__del__",      "__call__",         "__init_subclass__",
    "__hash__",  "__class_getitem__", "__instancecheck__"};

class MagicMethodRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-magic-method"; }
  void check(PyRuleContext &Ctx) const override {
    std::set<std::string> FunctionNames;
    walkNodes(Ctx.M.root(), [&](const PyNode &N) {
      if (isNode(N, "FunctionDef") || isNode(N, "AsyncFunctionDef"))
        FunctionNames.insert(N["name"].get<std::string>());
      return true;
    });
    walkNodes(Ctx.M.root(), [&](const PyNode &N) {
      if (isNode(N, "ClassDef")) {
        const PyNode &Bases = N["bases"];
        if (N["name"] != "ModelNew" &&
            (Bases.size() != 1 || !isNnModule(Ctx.M, Bases[0])))
          Ctx.Sink.report(id(), Ctx.M.locate(N),
                          "class '" + N["name"].get<std::string>() +
                              "' must derive from nn.Module only");
        for (const PyNode &S : N["body"]) {
          if (!isNode(S, "FunctionDef") && !isNode(S, "AsyncFunctionDef"))
            continue;
          std::string Name = S["name"].get<std::string>();
          for (const char *M : MagicMethods)
            if (Name == M)
              Ctx.Sink.report(id(), Ctx.M.locate(S),
                              "class defines the magic method '" + Name + "'");
        }
      }
      if (isNode(N, "Assign")) {
        const PyNode &V = N["value"];
        bool IsFunction =
            isNode(V, "Lambda") ||
            (isNode(V, "Name") && FunctionNames.count(V["id"].get<std::string>()));
        if (IsFunction)
          for (const PyNode &T : N["targets"])
            if (isNode(T, "Attribute"))
              Ctx.Sink.report(id(), Ctx.M.locate(T),
                              "function assigned onto an object attribute");
      }
      return true;
    });
  }
};

} // namespace

std::unique_ptr<PythonRule> createMagicMethodRule() {
  return std::make_unique<MagicMethodRule>();
}

} // namespace kevin
