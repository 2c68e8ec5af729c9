//===-- PyPrecisionDowncastRule.cpp - kevin-py-precision-downcast (PY-016) ===//
//
// When the task is float32 (kevin-check --task: the reference names no other
// floating dtype), a candidate that converts to half or bfloat16 trades the
// task's precision for speed: `.half()`, `.bfloat16()`, `torch.float16`,
// `torch.bfloat16`, `torch.half` anywhere. A warning, not a verdict: the
// tolerance check at runtime decides whether the result is still correct.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

class PrecisionDowncastRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-precision-downcast"; }
  void check(PyRuleContext &Ctx) const override {
    if (!Ctx.Task || !Ctx.Task->Fp32)
      return;
    walkNodes(Ctx.M.root(), [&](const PyNode &N) {
      if (isNode(N, "Call") && isNode(N["func"], "Attribute")) {
        std::string Method = N["func"]["attr"].get<std::string>();
        if ((Method == "half" || Method == "bfloat16") && N["args"].empty()) {
          report(Ctx, N, "'." + Method + "()'");
          return false;
        }
      }
      if (isNode(N, "Attribute")) {
        std::string Name = Ctx.M.qualifiedName(N);
        if (Name == "torch.float16" || Name == "torch.half" ||
            Name == "torch.bfloat16") {
          report(Ctx, N, "'" + Name + "'");
          return false;
        }
      }
      return true;
    });
  }

private:
  void report(PyRuleContext &Ctx, const PyNode &N,
              const std::string &What) const {
    Ctx.Sink.report(id(), Ctx.M.locate(N),
                    What + " lowers the precision of a float32 task", "",
                    Severity::Warning);
  }
};

} // namespace

std::unique_ptr<PythonRule> createPyPrecisionDowncastRule() {
  return std::make_unique<PrecisionDowncastRule>();
}

} // namespace kevin
