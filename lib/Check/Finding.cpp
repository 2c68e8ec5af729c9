//===-- Finding.cpp - findings and the rule catalog -----------------------===//
//
// The table of implemented rules and the text/JSON forms of a finding.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/Finding.h"

namespace kevin {

const std::vector<RuleInfo> &ruleCatalog() {
  static const std::vector<RuleInfo> Rules = {
      {"kevin-py-parse-failure", "KEVIN-PY-001",
       "the candidate is not a readable, parseable python file", "", false},
      {"kevin-py-model-shape", "KEVIN-PY-001",
       "exactly one class ModelNew(nn.Module) with a real forward",
       "define 'class ModelNew(nn.Module)' with a forward that calls your "
       "extension",
       false},
      {"kevin-py-reference-name", "KEVIN-PY-002",
       "no binding or use of the reference file's top-level names",
       "do not use or redefine the reference's names; write your own module",
       false},
      {"kevin-py-try-except", "KEVIN-PY-003", "no try/except statements",
       "remove the try/except; let errors surface instead of falling back",
       false},
      {"kevin-py-import", "KEVIN-PY-004", "imports only from the allowlist",
       "import only torch, torch.nn, torch.nn.functional, load_inline, math "
       "and typing",
       false},
      {"kevin-py-dynamic-code", "KEVIN-PY-005",
       "no dynamic code or reflective builtins", "", false},
      {"kevin-py-forbidden-attribute", "KEVIN-PY-006",
       "no dunder/frame/storage attributes or forbidden torch namespaces", "",
       false},
      {"kevin-py-monkey-patch", "KEVIN-PY-007",
       "no attribute or item stores outside self",
       "store state only on self inside your own classes", false},
      {"kevin-py-magic-method", "KEVIN-PY-008",
       "no tensor subclasses, comparison/conversion overrides or method "
       "injection",
       "", false},
      {"kevin-py-forward-compute", "KEVIN-PY-009",
       "no PyTorch compute on the forward path",
       "do the computation in your CUDA kernel; only allocate outputs with "
       "torch.empty/torch.zeros in forward",
       false},
      {"kevin-py-load-inline", "KEVIN-PY-010",
       "extensions come from module-level load_inline calls with static "
       "sources and allowlisted flags",
       "pass cpp_sources/cuda_sources as string literals or names bound once "
       "to them",
       false},
      {"kevin-py-return-provenance", "KEVIN-PY-011",
       "forward returns extension output and passes every tensor input to "
       "the extension",
       "return what your extension computed (or a view of it) and pass every "
       "input tensor to the extension",
       false},
      {"kevin-py-cross-call-state", "KEVIN-PY-012",
       "no state carried across forward calls", "", false},
      {"kevin-py-top-level", "KEVIN-PY-014",
       "the top level only imports, assigns constants, calls load_inline and "
       "defines functions and classes",
       "move the statement into ModelNew.__init__ or forward", false},
      {"kevin-py-init-precompute", "KEVIN-PY-015",
       "no extension calls in ModelNew.__init__ (torch compute on parameters "
       "there: a warning)",
       "call extension functions only from forward", false},
      {"kevin-py-precision-downcast", "KEVIN-PY-016",
       "half/bfloat16 conversions in a float32 task (a warning)",
       "compute in float32, or accept that the tolerance check decides",
       false},
      {"kevin-cu-parse-failure", "KEVIN-CU-014",
       "every translation unit load_inline builds parses", "", true},
      {"kevin-cu-no-kernel", "KEVIN-CU-001",
       "a __global__ kernel that writes memory is defined",
       "define a __global__ kernel that writes its output through a pointer",
       true},
      {"kevin-cu-entry-launch", "KEVIN-CU-002",
       "every exported function launches a kernel of the submission on every "
       "path and returns a tensor a launch writes",
       "launch your __global__ kernel from the exported function on every "
       "path, and return the tensor it writes",
       true},
      {"kevin-cu-aten-compute", "KEVIN-CU-003",
       "no ATen/torch compute calls, tensor compute methods or tensor "
       "operators",
       "compute in your own kernel; use torch::empty* only to allocate", true},
      {"kevin-cu-library", "KEVIN-CU-004",
       "no vendor library substitution (cuBLAS, cuDNN, thrust, device-level "
       "CUB/CUTLASS)",
       "", true},
      {"kevin-cu-runtime-control", "KEVIN-CU-005",
       "no stream, event, graph, device, L2-persistence or raw-allocation "
       "APIs",
       "launch on the current stream (at::cuda::getCurrentCUDAStream()) and "
       "allocate with torch::empty",
       true},
      {"kevin-cu-process", "KEVIN-CU-006",
       "no threads, processes, files, environment, exit or host asm", "",
       true},
      {"kevin-cu-static-state", "KEVIN-CU-007",
       "no mutable static state that can carry results across calls",
       "keep tensors and pointers local to the call", true},
      {"kevin-cu-try-catch", "KEVIN-CU-008", "no C++ try/catch",
       "remove the try/catch; TORCH_CHECK may throw, nothing may catch", true},
      {"kevin-cu-precision-downcast", "KEVIN-CU-009",
       "half/bfloat16/tf32 math in a float32 task (a warning)",
       "compute in float32, or accept that the tolerance check decides", true},
      {"kevin-cu-shape-gate", "KEVIN-CU-010",
       "size tests against literals that gate the submission's kernels (a "
       "warning)",
       "launch your kernels for every input shape; no fallback for shapes "
       "other than the benchmark's",
       true},
      {"kevin-cu-input-mutation", "KEVIN-CU-013",
       "no in-place mutation of input tensors",
       "write results to a new tensor (torch::empty_like) and leave the "
       "inputs unchanged",
       true},
      {"kevin-cu-foreign-symbol", "KEVIN-CU-012",
       "no hidden entry points or foreign symbols",
       "bind through load_inline's functions=[...] and define every function "
       "you declare",
       true},
  };
  return Rules;
}

const RuleInfo *findRule(const std::string &Id) {
  for (const RuleInfo &R : ruleCatalog())
    if (Id == R.Id)
      return &R;
  return nullptr;
}

std::string formatFinding(const Finding &F) {
  std::string Text =
      formatDiagnostic(F.Loc, F.Sev, F.Message + " [" + F.Rule + "]");
  if (!F.Hint.empty())
    Text += "\n" + formatDiagnostic(F.Loc, Severity::Note, F.Hint);
  return Text;
}

Json findingToJson(const Finding &F) {
  Json J = Json::object();
  J["rule"] = F.Rule;
  J["catalog_id"] = F.CatalogId;
  J["severity"] = F.Sev == Severity::Warning ? "warning" : "error";
  J["file"] = F.Loc.File;
  J["line"] = F.Loc.Line;
  J["column"] = F.Loc.Column;
  J["message"] = F.Message;
  if (!F.Hint.empty())
    J["hint"] = F.Hint;
  return J;
}

} // namespace kevin
