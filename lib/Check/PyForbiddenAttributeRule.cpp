//===-- PyForbiddenAttributeRule.cpp - kevin-py-forbidden-attribute -------===//
//
// KEVIN-PY-006: no dunder attributes other than __init__ (super().__init__),
// no frame, storage, version or autograd-graph attributes, and no use of
// the torch namespaces that spell lazy tensors, graphs, streams, compile
// backends, precision flags or seeds. torch.cuda.synchronize may be called
// but not referenced otherwise (a reference is the first step of a patch).
//
//===----------------------------------------------------------------------===//
#include "PythonRules.h"

namespace kevin {
namespace {

const char *const Attributes[] = {
    "f_back",   "f_locals",        "f_globals", "_getframe", "_make_subclass",
    "as_subclass", "data_ptr",     "storage",   "untyped_storage", "_version",
    "_cdata",   "_base",           "grad_fn",   "is_leaf"};

// Qualified names (and prefixes, with a trailing '.') a candidate may not use.
const char *const TorchNames[] = {
    "torch.ops",  "torch._C",       "torch._dynamo", "torch._inductor",
    "torch.compile", "torch.jit",   "torch.backends", "torch.profiler",
    "torch.autograd.profiler", "torch.cuda.Stream", "torch.cuda.stream",
    "torch.cuda.graph", "torch.cuda.CUDAGraph", "torch.cuda.Event",
    "torch.cuda.set_device", "torch.cuda.set_stream",
    "torch.cuda.graphs", "torch.cuda.make_graphed_callables",
    "torch.set_float32_matmul_precision", "torch.use_deterministic_algorithms",
    "torch.set_num_threads", "torch.set_default_dtype", "torch.manual_seed",
    "torch.Generator", "torch.random", "torch.cuda.manual_seed",
    "torch.cuda.manual_seed_all", "torch.utils.cpp_extension.load",
    "torch.utils.cpp_extension.CUDAExtension",
    "torch.utils.cpp_extension.CppExtension",
    "torch.utils.cpp_extension.BuildExtension"};

bool isForbiddenTorchName(const std::string &Q) {
  for (const char *T : TorchNames) {
    std::string Name = T;
    if (Q == Name || Q.rfind(Name + ".", 0) == 0)
      return true;
  }
  return false;
}

class ForbiddenAttributeRule : public PythonRule {
public:
  const char *id() const override { return "kevin-py-forbidden-attribute"; }
  void check(PyRuleContext &Ctx) const override {
    std::set<const PyNode *> CalledFuncs;
    walkNodes(Ctx.M.root(), [&](const PyNode &N) {
      if (isNode(N, "Call"))
        CalledFuncs.insert(&N["func"]);
      return true;
    });
    walkNodes(Ctx.M.root(), [&](const PyNode &N) {
      if (!isNode(N, "Attribute") && !isNode(N, "Name"))
        return true;
      if (isNode(N, "Attribute")) {
        std::string Attr = N["attr"].get<std::string>();
        if (Attr.size() > 4 && Attr.rfind("__", 0) == 0 &&
            Attr.compare(Attr.size() - 2, 2, "__") == 0 && Attr != "__init__") {
          Ctx.Sink.report(id(), Ctx.M.locate(N),
                          "dunder attribute '" + Attr + "'");
          return false;
        }
        for (const char *A : Attributes)
          if (Attr == A) {
            Ctx.Sink.report(id(), Ctx.M.locate(N),
                            "forbidden attribute '" + Attr + "'");
            return false;
          }
      }
      std::string Q = Ctx.M.qualifiedName(N);
      if (Q.empty())
        return true;
      if (isForbiddenTorchName(Q)) {
        Ctx.Sink.report(id(), Ctx.M.locate(N), "use of '" + Q + "'");
        return false;
      }
      if (Q == "torch.cuda.synchronize" && !CalledFuncs.count(&N)) {
        Ctx.Sink.report(id(), Ctx.M.locate(N),
                        "torch.cuda.synchronize may only be called");
        return false;
      }
      return true;
    });
  }
};

} // namespace

std::unique_ptr<PythonRule> createForbiddenAttributeRule() {
  return std::make_unique<ForbiddenAttributeRule>();
}

} // namespace kevin
