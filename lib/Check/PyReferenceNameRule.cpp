//===-- PyReferenceNameRule.cpp - kevin-py-reference-name (KEVIN-PY-002) --===//
//
// No module-scope binding of, and no use resolving to module scope of, a
// top-level name of the task's reference file (`Model`, `get_inputs`,
// `get_init_inputs`, `batch_size`, ...). Without --task the KernelBench
// names Model, get_inputs and get_init_inputs are used. A local variable or
// parameter with such a name is fine.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

class ReferenceNameRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-reference-name"; }
  void check(PyRuleContext &Ctx) const override {
    std::set<std::string> Names = {"Model", "get_inputs", "get_init_inputs"};
    if (Ctx.Task)
      Names.insert(Ctx.Task->ReferenceNames.begin(),
                   Ctx.Task->ReferenceNames.end());
    for (const PyNode &S : Ctx.M.body())
      for (const std::string &B : PythonModule::boundNames(S))
        if (Names.count(B) && !Ctx.M.imports().count(B))
          Ctx.Sink.report(id(), Ctx.M.locate(S),
                          "module-level binding of the reference name '" + B +
                              "'");
    walkScoped(Ctx.M.root(), [&](const PyNode &N, const ScopeStack &Scopes) {
      if (!isNode(N, "Name") || N["ctx"] != "Load")
        return true;
      std::string Name = N["id"].get<std::string>();
      if (Names.count(Name) && !isLocalName(Name, Scopes) &&
          !Ctx.M.imports().count(Name))
        Ctx.Sink.report(id(), Ctx.M.locate(N),
                        "use of the reference name '" + Name + "'");
      return true;
    });
  }
};

} // namespace

std::unique_ptr<PythonRule> createReferenceNameRule() {
  return std::make_unique<ReferenceNameRule>();
}

} // namespace kevin
