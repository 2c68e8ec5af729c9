//===-- PyMonkeyPatchRule.cpp - kevin-py-monkey-patch (KEVIN-PY-007) ------===//
//
// Attribute and item stores (and del) are allowed only on objects local to
// the function doing the store, in particular `self` inside a method of a
// class the file defines. A store whose root is an imported name, a builtin
// or a module-level object is how timers, validators, torch functions and
// the reference get patched.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

class MonkeyPatchRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-monkey-patch"; }
  void check(PyRuleContext &Ctx) const override {
    walkScoped(Ctx.M.root(), [&](const PyNode &N, const ScopeStack &Scopes) {
      if (!(isNode(N, "Attribute") || isNode(N, "Subscript")) ||
          !(N["ctx"] == "Store" || N["ctx"] == "Del"))
        return true;
      std::string Root = rootName(N);
      if (!Root.empty() && isLocalName(Root, Scopes))
        return true;
      std::string What = Root.empty() ? "an expression" : "'" + Root + "'";
      Ctx.Sink.report(id(), Ctx.M.locate(N),
                      std::string(N["ctx"] == "Del" ? "deletion" : "store") +
                          " through " + What +
                          ", which is not local to the function");
      return true;
    });
  }
};

} // namespace

std::unique_ptr<PythonRule> createMonkeyPatchRule() {
  return std::make_unique<MonkeyPatchRule>();
}

} // namespace kevin
