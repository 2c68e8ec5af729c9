//===-- CuEntryLaunchRule.cpp - kevin-cu-entry-launch (KEVIN-CU-002) ------===//
//
// Every function exported through `functions=` is defined in the sources and
// reaches a launch (`kernel<<<...>>>`) of a kernel defined in the candidate,
// directly, inside an AT_DISPATCH lambda, or through the candidate's own
// helper functions. An entry point that only calls ATen or returns an input
// is a bypass. (Path sensitivity — "on every return path" — is not
// implemented: a launch on one path satisfies the rule.)
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

namespace kevin {
namespace {

class EntryLaunchRule : public CudaRule {
public:
  const char *id() const override { return "kevin-cu-entry-launch"; }
  void check(CudaRuleContext &Ctx) override {
    if (Exported.empty())
      Exported = Ctx.Exported;
  }
  void finish(const ExtensionFacts &Facts, const LoadInlineCall &Call,
              const PythonModule &M, FindingSink &Sink) override {
    for (const auto &[Name, Node] : Exported) {
      if (!Facts.Defined.count(Name)) {
        Sink.report(id(), M.locate(*Node),
                    "exported function '" + Name +
                        "' is not defined in the extension's sources");
        continue;
      }
      if (!Facts.reaches(Name, Facts.Launchers))
        Sink.report(id(), M.locate(*Node),
                    "exported function '" + Name + "' launches no kernel");
    }
  }

private:
  std::vector<std::pair<std::string, const PyNode *>> Exported;
};

} // namespace

std::unique_ptr<CudaRule> createEntryLaunchRule() {
  return std::make_unique<EntryLaunchRule>();
}

} // namespace kevin
