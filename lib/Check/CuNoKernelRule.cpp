//===-- CuNoKernelRule.cpp - kevin-cu-no-kernel (KEVIN-CU-001) ------------===//
//
// The extension defines at least one __global__ kernel whose body (or a
// candidate function it calls) stores through a pointer, reference or
// accessor, uses an atomic, or issues store PTX. A kernel that writes
// nothing cannot be the computation; an extension without a kernel is a
// PyTorch or library wrapper.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

namespace kevin {
namespace {

class NoKernelRule : public CudaRule {
public:
  const char *id() const override { return "kevin-cu-no-kernel"; }
  void check(CudaRuleContext &) override {}
  void finish(const ExtensionFacts &Facts, const LoadInlineCall &Call,
              const PythonModule &M, FindingSink &Sink) override {
    if (Facts.Kernels.empty()) {
      Sink.report(id(), M.locate(*Call.Call),
                  "the extension defines no __global__ kernel");
      return;
    }
    for (const std::string &K : Facts.Kernels)
      if (Facts.reaches(K, Facts.Writers))
        return;
    Sink.report(id(), M.locate(*Call.Call),
                "no __global__ kernel of the extension writes memory");
  }
};

} // namespace

std::unique_ptr<CudaRule> createNoKernelRule() {
  return std::make_unique<NoKernelRule>();
}

} // namespace kevin
