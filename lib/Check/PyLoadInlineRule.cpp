//===-- PyLoadInlineRule.cpp - kevin-py-load-inline (KEVIN-PY-010) --------===//
//
// What the C++ checker inspects must be exactly what gets compiled: every
// extension comes from a module-level `name = load_inline(...)` whose
// sources and function list resolve statically, whose keyword arguments are
// in `load_inline_arguments` and whose flags match `cxx_flags` /
// `cuda_flags`. A candidate without any load_inline extension is reported
// too (there is no kernel to check).
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"
#include "kevin/Support/ShellWords.h"

namespace kevin {
namespace {

class LoadInlineRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-load-inline"; }
  void check(PyRuleContext &Ctx) const override {
    if (Ctx.Facts.LoadInlineCalls.empty()) {
      Ctx.Sink.report(id(), Ctx.M.locate(1, 0),
                      "no load_inline extension in the candidate",
                      "build your CUDA code with torch.utils.cpp_extension."
                      "load_inline at module level");
      return;
    }
    for (const LoadInlineCall &C : Ctx.Facts.LoadInlineCalls)
      checkCall(Ctx, C);
  }

private:
  void reportUnresolved(PyRuleContext &Ctx, const std::string &Arg,
                        const UnresolvedArgument &U) const {
    Ctx.Sink.report(id(), Ctx.M.locate(*U.Node),
                    "cannot resolve load_inline argument '" + Arg +
                        "' statically: " + U.Message);
  }

  void checkCall(PyRuleContext &Ctx, const LoadInlineCall &C) const {
    bool TopLevel = false;
    for (const PyNode &S : Ctx.M.body())
      if (isNode(S, "Assign") && &S["value"] == C.Call)
        TopLevel = !C.BoundName.empty();
    if (!TopLevel)
      Ctx.Sink.report(id(), Ctx.M.locate(*C.Call),
                      "load_inline must be called at module level as "
                      "'name = load_inline(...)'");
    for (const auto &[Name, Node] : C.Arguments) {
      if (Name == "*" || Name == "**") {
        Ctx.Sink.report(id(), Ctx.M.locate(*Node),
                        "unpacked arguments to load_inline");
        continue;
      }
      if (!Ctx.P.matches("load_inline_arguments", Name)) {
        Ctx.Sink.report(id(), Ctx.M.locate(*Node),
                        "load_inline argument '" + Name + "' is not allowed");
        continue;
      }
      if (Name == "cpp_sources" || Name == "cuda_sources" || Name == "name") {
        if (isNode(*Node, "Constant") && (*Node).value("vtype", "") == "NoneType")
          continue;
        ResolvedString S = resolveString(Ctx.M, *Node);
        if (S.Failure)
          reportUnresolved(Ctx, Name, *S.Failure);
      } else if (Name == "functions" || Name == "extra_cflags" ||
                 Name == "extra_cuda_cflags") {
        if (isNode(*Node, "Constant") && (*Node).value("vtype", "") == "NoneType")
          continue;
        ResolvedList L = resolveStringList(Ctx.M, *Node);
        if (L.Failure) {
          reportUnresolved(Ctx, Name, *L.Failure);
          continue;
        }
        if (Name == "functions")
          continue;
        const char *List = Name == "extra_cflags" ? "cxx_flags" : "cuda_flags";
        // Each word the compiler gets is judged: torch's build line joins
        // the flags and the shell splits them, so "-O3 -DX" is two flags and
        // an empty flag none (KernelBench's own example passes
        // extra_cflags=[""]).
        for (const auto &[Flag, FlagNode] : L.Items)
          for (const std::string &Word : shellWords({Flag}))
            if (!Ctx.P.matches(List, Word))
              Ctx.Sink.report(id(), Ctx.M.locate(*FlagNode),
                              "compiler flag '" + Word + "' is not allowed");
      } else if (!isNode(*Node, "Constant")) {
        Ctx.Sink.report(id(), Ctx.M.locate(*Node),
                        "load_inline argument '" + Name +
                            "' must be a constant");
      }
    }
    if (!C.argument("cpp_sources"))
      Ctx.Sink.report(id(), Ctx.M.locate(*C.Call),
                      "load_inline call without cpp_sources");
  }
};

} // namespace

std::unique_ptr<PythonRule> createLoadInlineRule() {
  return std::make_unique<LoadInlineRule>();
}

} // namespace kevin
