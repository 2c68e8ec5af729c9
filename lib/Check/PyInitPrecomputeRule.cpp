//===-- PyInitPrecomputeRule.cpp - kevin-py-init-precompute (PY-015) ------===//
//
// KEVIN-PY-015: ModelNew.__init__ may set up parameters, buffers and nn
// containers, but may not call extension functions or the task's input
// generators: an answer computed off the clock is a precomputation hack
// (an error). Torch compute on parameters in __init__ (arithmetic, `@`,
// compute methods, torch functions applied to a parameter: the
// weight-preprocessing grey zone of ANTI-HACKING.md §4.2) is a warning.
// Layout-only transforms of a parameter (views, `.t().contiguous()`,
// clones) are not reported: they compute nothing, and kevin fixes the
// parameters after construction, so a transposed copy cannot go stale.
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

#include <cctype>

namespace kevin {
namespace {

const char *const Id = "kevin-py-init-precompute";

/// Methods that only change a tensor's layout, dtype or device.
bool isLayoutMethod(const std::string &Name) {
  static const std::set<std::string> Names = {
      "view",      "view_as", "reshape",       "reshape_as", "t",
      "T",         "mT",      "transpose",     "permute",    "contiguous",
      "clone",     "detach",  "unsqueeze",     "squeeze",    "flatten",
      "unflatten", "expand",  "expand_as",     "narrow",     "select",
      "flip",      "repeat",  "movedim",       "to",         "float",
      "double",    "data",    "requires_grad_"};
  return Names.count(Name) != 0;
}

/// torch calls of a constructor: parameters, layers, init and factories.
bool isSetupCall(const PyRuleContext &Ctx, const std::string &Q) {
  static const std::set<std::string> Factories = {
      "torch.ones",    "torch.ones_like",    "torch.full",   "torch.full_like",
      "torch.randn",   "torch.randn_like",   "torch.rand",   "torch.rand_like",
      "torch.randint", "torch.randint_like", "torch.tensor", "torch.arange",
      "torch.eye"};
  if (Q.rfind("torch.nn.init.", 0) == 0 || Q == "torch.nn.Parameter" ||
      Factories.count(Q) || Ctx.P.matches("forward_torch_calls", Q))
    return true;
  // nn layers: torch.nn.Conv2d, torch.nn.Linear, ...
  return Q.rfind("torch.nn.", 0) == 0 && Q.size() > 9 &&
         Q.find('.', 9) == std::string::npos &&
         std::isupper(static_cast<unsigned char>(Q[9]));
}

/// The tensors a ModelNew.__init__ holds: parameters and buffers in self
/// (`self.w = nn.Parameter(...)`, register_buffer, a torch call), the
/// weights of nn layers (`self.conv.weight`), and what is derived from them.
class ParameterTensors {
public:
  ParameterTensors(const PyRuleContext &Ctx, const PyNode &Init) : Ctx(Ctx) {
    walkNodes(Init["body"], [&](const PyNode &N) {
      if (isNode(N, "Call") && isNode(N["func"], "Attribute") &&
          rootName(N["func"]) == "self" && !N["args"].empty() &&
          isNode(N["args"][0], "Constant") &&
          N["args"][0]["value"].is_string() &&
          (N["func"]["attr"] == "register_buffer" ||
           N["func"]["attr"] == "register_parameter"))
        Attributes.insert(N["args"][0]["value"].get<std::string>());
      return true;
    });
    // Bindings from parameter tensors, to a fixpoint (flow-insensitive).
    for (bool Changed = true; Changed;) {
      Changed = false;
      walkNodes(Init["body"], [&](const PyNode &N) {
        if (!isNode(N, "Assign"))
          return true;
        const PyNode &V = N["value"];
        bool Derived = isTensor(V);
        // Module state: a parameter, or a tensor from torch (not a layer).
        std::string Q = isNode(V, "Call") ? Ctx.M.qualifiedName(V["func"]) : "";
        bool State = Derived || Q == "torch.nn.Parameter" ||
                     (Q.rfind("torch.", 0) == 0 &&
                      (Q.rfind("torch.nn.", 0) != 0 || !isSetupCall(Ctx, Q)));
        for (const PyNode &T : N["targets"]) {
          if (isNode(T, "Name") && Derived)
            Changed |= Locals.insert(T["id"].get<std::string>()).second;
          else if (isNode(T, "Attribute") && isNode(T["value"], "Name") &&
                   T["value"]["id"] == "self" && State)
            Changed |= Attributes.insert(T["attr"].get<std::string>()).second;
        }
        return true;
      });
    }
  }

  /// The parameter tensor E is or is derived from ("self.weight"), or "".
  std::string source(const PyNode &E) const {
    const std::string &T = nodeType(E);
    if (T == "Name")
      return Locals.count(E["id"].get<std::string>())
                 ? E["id"].get<std::string>()
                 : "";
    if (T == "Attribute") {
      std::string Attr = E["attr"].get<std::string>();
      const PyNode &Base = E["value"];
      if (isNode(Base, "Name") && Base["id"] == "self")
        return Attributes.count(Attr) ? "self." + Attr : "";
      // self.<layer>.weight, .bias, .running_mean, .weight_ih_l0, ...
      if (isNode(Base, "Attribute") && isNode(Base["value"], "Name") &&
          Base["value"]["id"] == "self" &&
          Ctx.Facts.LayerAttributes.count(Base["attr"].get<std::string>()) &&
          (Attr.rfind("weight", 0) == 0 || Attr.rfind("bias", 0) == 0 ||
           Attr == "running_mean" || Attr == "running_var"))
        return "self." + Base["attr"].get<std::string>() + "." + Attr;
      return isLayoutMethod(Attr) ? source(Base) : "";
    }
    if (T == "Subscript")
      return source(E["value"]);
    if (T == "BinOp") {
      std::string L = source(E["left"]);
      return L.empty() ? source(E["right"]) : L;
    }
    if (T == "UnaryOp")
      return source(E["operand"]);
    if (T == "Call") {
      const PyNode &Func = E["func"];
      std::string Q = Ctx.M.qualifiedName(Func);
      if (!Q.empty()) {
        if (Q.rfind("torch.", 0) != 0 ||
            (isSetupCall(Ctx, Q) && Q != "torch.nn.Parameter"))
          return "";
        for (const PyNode &A : E["args"]) {
          std::string S = source(A);
          if (!S.empty())
            return S;
        }
        return "";
      }
      if (isNode(Func, "Attribute") &&
          (isLayoutMethod(Func["attr"].get<std::string>()) ||
           Ctx.P.matches("compute_methods", Func["attr"].get<std::string>())))
        return source(Func["value"]);
    }
    return "";
  }
  bool isTensor(const PyNode &E) const { return !source(E).empty(); }

private:
  const PyRuleContext &Ctx;
  std::set<std::string> Attributes;
  std::set<std::string> Locals;
};

class InitPrecomputeRule : public PythonRule {
public:
  const char *id() const override { return Id; }
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
    ParameterTensors Params(Ctx, *Init);
    walkNodes((*Init)["body"], [&](const PyNode &N) {
      return !checkCompute(Ctx, Params, N); // one warning per expression
    });
  }

private:
  /// Warns about torch compute on a parameter tensor; true when it did.
  bool checkCompute(PyRuleContext &Ctx, const ParameterTensors &Params,
                    const PyNode &N) const {
    std::string Source;
    if (isNode(N, "BinOp")) {
      Source = Params.source(N);
    } else if (isNode(N, "UnaryOp") && !isNode(N["op"], "Not")) {
      Source = Params.source(N["operand"]);
    } else if (isNode(N, "Call")) {
      const PyNode &Func = N["func"];
      std::string Q = Ctx.M.qualifiedName(Func);
      if (!Q.empty() && Q.rfind("torch.", 0) == 0 && !isSetupCall(Ctx, Q)) {
        for (const PyNode &A : N["args"])
          if (Source.empty())
            Source = Params.source(A);
      } else if (Q.empty() && isNode(Func, "Attribute")) {
        std::string Method = Func["attr"].get<std::string>();
        if (!isLayoutMethod(Method) && Ctx.P.matches("compute_methods", Method))
          Source = Params.source(Func["value"]);
      }
    }
    if (Source.empty())
      return false;
    Ctx.Sink.report(id(), Ctx.M.locate(N),
                    "torch compute on the parameter '" + Source +
                        "' in ModelNew.__init__ (weight preprocessing, a grey "
                        "zone)",
                    "transform the weights in your kernel, or keep this only "
                    "if they never change after construction",
                    Severity::Warning);
    return true;
  }
};

} // namespace

std::unique_ptr<PythonRule> createInitPrecomputeRule() {
  return std::make_unique<InitPrecomputeRule>();
}

} // namespace kevin
