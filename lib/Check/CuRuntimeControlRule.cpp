//===-- CuRuntimeControlRule.cpp - kevin-cu-runtime-control (CU-005) ------===//
//
// KEVIN-CU-005: no references to the CUDA and torch APIs that create or
// select streams, record or wait on events, enqueue host callbacks, capture
// or launch graphs, change the device or peer access, set limits or L2
// persistence, allocate or free raw memory, reset the device or introspect
// pointers through the driver. These are the mechanics of stream escape,
// deferred work, graph replay, warm-cache tricks and allocator-poison
// evasion. Launching on the current stream (getCurrentCUDAStream) is fine.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace kevin {
namespace {

const char *const Exact[] = {
    "cudaStreamWaitEvent",  "cudaLaunchHostFunc",   "cudaStreamAddCallback",
    "cudaStreamBeginCapture", "cudaStreamEndCapture", "cudaSetDevice",
    "cudaDeviceEnablePeerAccess", "cudaDeviceSetLimit",
    "cudaCtxResetPersistingL2Cache", "cudaStreamSetAttribute",
    "cudaHostAlloc",        "cudaMallocHost",       "cudaDeviceReset",
    "cudaStreamDestroy",    "cuMemGetAddressRange", "cuPointerGetAttribute",
    "cudaPointerGetAttributes", "cudaThreadExit", "cudaSetDeviceFlags",
    "getStreamFromPool",    "getStreamFromExternal", "setCurrentCUDAStream",
    "cudaDeviceSetCacheConfig", "cudaStreamQuery", "cudaMemPrefetchAsync"};
const char *const Prefixes[] = {"cudaStreamCreate", "cudaEvent",   "cudaGraph",
                                "cudaMemcpyPeer",   "cudaMalloc",  "cudaFree",
                                "cupti",            "cuStream",    "cuGraph",
                                "cuMemAlloc",       "cuMemFree",   "cuCtx"};
const char *const GuardClasses[] = {"CUDAStreamGuard", "CUDAMultiStreamGuard",
                                    "OptionalCUDAStreamGuard"};

bool isControlApi(const std::string &Name) {
  for (const char *E : Exact)
    if (Name == E)
      return true;
  for (const char *P : Prefixes)
    if (Name.rfind(P, 0) == 0)
      return true;
  return false;
}

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(CudaRuleContext &Ctx) : Ctx(Ctx) {}

  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    const auto *F = llvm::dyn_cast<clang::FunctionDecl>(E->getDecl());
    if (!F || !Ctx.isUserCode(E->getLocation()))
      return true;
    if (Ctx.isUserDecl(F) && F->hasBody())
      return true;
    std::string Name = F->getNameAsString();
    if (isControlApi(Name))
      Ctx.report("kevin-cu-runtime-control", E->getLocation(),
                 "use of '" + Name +
                     "' (streams, events, graphs, device control and raw "
                     "allocation are not allowed)");
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *E) {
    if (!Ctx.isUserCode(E->getBeginLoc()))
      return true;
    std::string Class = E->getConstructor()->getParent()->getNameAsString();
    for (const char *G : GuardClasses)
      if (Class == G)
        Ctx.report("kevin-cu-runtime-control", E->getBeginLoc(),
                   "use of '" + Class + "' (switching to another stream)");
    return true;
  }

private:
  CudaRuleContext &Ctx;
};

class RuntimeControlRule : public CudaRule {
public:
  const char *id() const override { return "kevin-cu-runtime-control"; }
  void check(CudaRuleContext &Ctx) override {
    Visitor(Ctx).TraverseAST(Ctx.AST);
  }
};

} // namespace

std::unique_ptr<CudaRule> createRuntimeControlRule() {
  return std::make_unique<RuntimeControlRule>();
}

} // namespace kevin
