//===-- PyForwardComputeRule.cpp - kevin-py-forward-compute (KEVIN-PY-009) ===//
//
// On the forward path (ModelNew.forward and the in-file functions and
// methods it calls) PyTorch may allocate but not compute: calls rooted at
// torch (torch.*, F.*, torch.Tensor.*) outside the policy's
// `forward_torch_calls`, methods named in `compute_methods` on any receiver
// that is not an extension module, the `@` operator, and calls of nn layers
// held in self are rejected. Python arithmetic operators are left to the
// runtime coverage check (their operand types are unknown statically).
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

class ForwardComputeRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-forward-compute"; }
  void check(PyRuleContext &Ctx) const override {
    for (const PyNode *F : Ctx.Facts.ForwardPath)
      walkNodes((*F)["body"], [&](const PyNode &N) {
        checkNode(Ctx, N);
        return true;
      });
  }

private:
  void checkNode(PyRuleContext &Ctx, const PyNode &N) const {
    if (isNode(N, "BinOp") && isNode(N["op"], "MatMult")) {
      Ctx.Sink.report(id(), Ctx.M.locate(N),
                      "matrix multiplication with '@' in the forward path");
      return;
    }
    if (!isNode(N, "Call"))
      return;
    const PyNode &Func = N["func"];
    std::string Q = Ctx.M.qualifiedName(Func);
    if (!Q.empty()) {
      if (Q.rfind("torch", 0) == 0 && !Ctx.P.matches("forward_torch_calls", Q))
        Ctx.Sink.report(id(), Ctx.M.locate(N),
                        "PyTorch call '" + Q + "' in the forward path");
      return;
    }
    if (!isNode(Func, "Attribute"))
      return;
    std::string Method = Func["attr"].get<std::string>();
    const PyNode &Receiver = Func["value"];
    if (isNode(Receiver, "Name") &&
        Ctx.Facts.ExtensionNames.count(Receiver["id"].get<std::string>()))
      return;
    // self.<layer>(...) and self.<layer>.forward(...)
    if (isNode(Receiver, "Name") && Receiver["id"] == "self" &&
        Ctx.Facts.LayerAttributes.count(Method)) {
      Ctx.Sink.report(id(), Ctx.M.locate(N),
                      "call of the nn layer 'self." + Method +
                          "' in the forward path");
      return;
    }
    if (Method == "forward" && isNode(Receiver, "Attribute") &&
        isNode(Receiver["value"], "Name") && Receiver["value"]["id"] == "self" &&
        Ctx.Facts.LayerAttributes.count(Receiver["attr"].get<std::string>())) {
      Ctx.Sink.report(id(), Ctx.M.locate(N),
                      "call of the nn layer 'self." +
                          Receiver["attr"].get<std::string>() +
                          ".forward' in the forward path");
      return;
    }
    if (Ctx.P.matches("compute_methods", Method))
      Ctx.Sink.report(id(), Ctx.M.locate(N),
                      "tensor compute method '." + Method +
                          "()' in the forward path");
  }
};

} // namespace

std::unique_ptr<PythonRule> createForwardComputeRule() {
  return std::make_unique<ForwardComputeRule>();
}

} // namespace kevin
