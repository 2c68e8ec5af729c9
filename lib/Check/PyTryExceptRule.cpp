//===-- PyTryExceptRule.cpp - kevin-py-try-except (KEVIN-PY-003) ----------===//
//
// Rejects every try statement (ast.Try and ast.TryStar), the canonical
// "fall back to PyTorch when the kernel fails" hack. The word "try" in a
// comment, docstring or CUDA string is not a statement and never matches.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

class TryExceptRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-try-except"; }
  void check(PyRuleContext &Ctx) const override {
    walkNodes(Ctx.M.root(), [&](const PyNode &N) {
      if (isNode(N, "Try") || isNode(N, "TryStar"))
        Ctx.Sink.report(id(), Ctx.M.locate(N),
                        "try statement (a fallback path around the kernel)");
      return true;
    });
  }
};

} // namespace

std::unique_ptr<PythonRule> createTryExceptRule() {
  return std::make_unique<TryExceptRule>();
}

} // namespace kevin
