//===-- PyInitPrecomputeRule.cpp - kevin-py-init-precompute (PY-015) ------===//
//
// KEVIN-PY-015 (the reject part): ModelNew.__init__ (and what it calls in
// the file) may set up parameters, buffers and nn containers, but may not
// call extension functions or the task's input generators: an answer
// computed off the clock is a precomputation hack. Torch compute on
// parameters in __init__ (the weight-preprocessing grey zone) is not
// reported.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

class InitPrecomputeRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-init-precompute"; }
  void check(PyRuleContext &Ctx) const override {
    if (!Ctx.Facts.ModelNew)
      return;
    const PyNode *Init = nullptr;
    for (const PyNode &S : (*Ctx.Facts.ModelNew)["body"])
      if (isNode(S, "FunctionDef") && S["name"] == "__init__")
        Init = &S;
    if (!Init)
      return;
    walkNodes((*Init)["body"], [&](const PyNode &N) {
      if (!isNode(N, "Call"))
        return true;
      const PyNode &Func = N["func"];
      std::string Root = rootName(Func);
      if (isNode(Func, "Attribute") && Ctx.Facts.ExtensionNames.count(Root))
        Ctx.Sink.report(id(), Ctx.M.locate(N),
                        "extension call in ModelNew.__init__");
      if (isNode(Func, "Name") &&
          (Func["id"] == "get_inputs" || Func["id"] == "get_init_inputs"))
        Ctx.Sink.report(id(), Ctx.M.locate(N),
                        "call of the task's input generator in "
                        "ModelNew.__init__");
      return true;
    });
  }
};

} // namespace

std::unique_ptr<PythonRule> createInitPrecomputeRule() {
  return std::make_unique<InitPrecomputeRule>();
}

} // namespace kevin
