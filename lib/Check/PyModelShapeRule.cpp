//===-- PyModelShapeRule.cpp - kevin-py-model-shape (KEVIN-PY-001) --------===//
//
// Exactly one top-level `class ModelNew` whose only base is nn.Module, with
// no class keywords, defining a forward that does something: this rejects
// Kevin's `class ModelNew(Model): pass` bypass and its variants.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

const char *const Rule = "kevin-py-model-shape";

// True when a body consists only of pass, `...`, a docstring, or a
// `return super().forward(...)` delegation.
bool isEmptyBody(const PyNode &Body) {
  for (const PyNode &S : Body) {
    if (isNode(S, "Pass"))
      continue;
    if (isNode(S, "Expr") && isNode(S["value"], "Constant"))
      continue;
    if (isNode(S, "Return") && isNode(S["value"], "Call") &&
        isNode(S["value"]["func"], "Attribute") &&
        isNode(S["value"]["func"]["value"], "Call") &&
        isNode(S["value"]["func"]["value"]["func"], "Name") &&
        S["value"]["func"]["value"]["func"]["id"] == "super")
      continue;
    return false;
  }
  return true;
}

class ModelShapeRule : public PythonRule {
public:
  const char *id() const override { return Rule; }
  void check(PyRuleContext &Ctx) const override {
    std::vector<const PyNode *> Classes;
    for (const PyNode &S : Ctx.M.body())
      if (isNode(S, "ClassDef") && S["name"] == "ModelNew")
        Classes.push_back(&S);
    if (Classes.empty()) {
      Ctx.Sink.report(Rule, Ctx.M.locate(1, 0),
                      "no top-level class ModelNew");
      return;
    }
    for (size_t I = 1; I < Classes.size(); ++I)
      Ctx.Sink.report(Rule, Ctx.M.locate(*Classes[I]),
                      "class ModelNew is defined more than once");
    const PyNode &C = *Classes.back();
    const PyNode &Bases = C["bases"];
    if (Bases.size() != 1 || !isNnModule(Ctx.M, Bases[0])) {
      const PyNode &At = Bases.empty() ? C : Bases[0];
      Ctx.Sink.report(Rule, Ctx.M.locate(At),
                      Bases.empty()
                          ? "ModelNew must derive from nn.Module"
                          : "ModelNew must derive from nn.Module only, not "
                            "from another class");
    }
    for (const PyNode &K : C["keywords"])
      Ctx.Sink.report(Rule, Ctx.M.locate(K),
                      "ModelNew must not pass class keywords (metaclass)");
    if (!Ctx.Facts.Forward) {
      Ctx.Sink.report(Rule, Ctx.M.locate(C), "ModelNew does not define forward");
      return;
    }
    if (isEmptyBody((*Ctx.Facts.Forward)["body"]))
      Ctx.Sink.report(Rule, Ctx.M.locate(*Ctx.Facts.Forward),
                      "ModelNew.forward does no work of its own");
  }
};

} // namespace

std::unique_ptr<PythonRule> createModelShapeRule() {
  return std::make_unique<ModelShapeRule>();
}

} // namespace kevin
