//===-- CuAtenComputeRule.cpp - kevin-cu-aten-compute (KEVIN-CU-003) ------===//
//
// Calls that resolve to functions in the at:: or torch:: namespaces, and
// member calls and operators of at::Tensor / at::TensorBase, must be in the
// policy's `aten_allowed` list (factories, metadata, views, zero_/fill_, the
// current stream). Everything else — GEMMs and their _out forms, conv,
// softmax, reductions, elementwise math, tensor arithmetic operators,
// to(dtype), copy_ — is compute done by PyTorch, not by the candidate's
// kernel. Because the rule looks at resolved declarations, `using`, macros
// and token pasting do not hide a call. Calls inside macro bodies from the
// torch headers (TORCH_CHECK, AT_DISPATCH) are not the candidate's code;
// calls in their arguments are. Stream and device helpers (at::cuda, c10)
// are left to kevin-cu-runtime-control.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace kevin {
namespace {

// The outermost namespace of a declaration ("at", "torch", "c10", "").
std::string outerNamespace(const clang::Decl *D, std::string &Second) {
  std::vector<std::string> Chain;
  for (const clang::DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *N = llvm::dyn_cast<clang::NamespaceDecl>(C))
      if (!N->isInline() && !N->isAnonymousNamespace())
        Chain.push_back(N->getNameAsString());
  if (Chain.empty())
    return "";
  Second = Chain.size() > 1 ? Chain[Chain.size() - 2] : "";
  return Chain.back();
}

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(CudaRuleContext &Ctx) : Ctx(Ctx) {}

  bool VisitCallExpr(clang::CallExpr *E) {
    if (!Ctx.isUserCode(E->getBeginLoc()) && !Ctx.isUserCode(E->getExprLoc()))
      return true;
    const clang::FunctionDecl *Callee = E->getDirectCallee();
    if (!Callee)
      return true;
    std::string Name = Callee->getNameAsString();
    if (const auto *Method = llvm::dyn_cast<clang::CXXMethodDecl>(Callee)) {
      if (!isTensorClass(Method->getParent()))
        return true;
      if (!Ctx.P.matches("aten_allowed", Name))
        Ctx.report("kevin-cu-aten-compute", E->getExprLoc(),
                   "tensor compute '" + describe(Method) +
                       "' in the extension (PyTorch does this work, not your "
                       "kernel)");
      return true;
    }
    std::string Second;
    std::string Outer = outerNamespace(Callee, Second);
    if (Outer != "at" && Outer != "torch")
      return true;
    if (Second == "cuda" || Second == "detail")
      return true;
    if (!Ctx.P.matches("aten_allowed", Name))
      Ctx.report("kevin-cu-aten-compute", E->getExprLoc(),
                 "PyTorch compute call '" + Callee->getQualifiedNameAsString() +
                     "' in the extension");
    return true;
  }

private:
  static std::string describe(const clang::CXXMethodDecl *M) {
    std::string Name = M->getNameAsString();
    if (Name.rfind("operator", 0) == 0)
      return "Tensor::" + Name;
    return "Tensor::" + Name + "()";
  }
  CudaRuleContext &Ctx;
};

class AtenComputeRule : public CudaRule {
public:
  const char *id() const override { return "kevin-cu-aten-compute"; }
  void check(CudaRuleContext &Ctx) override {
    Visitor(Ctx).TraverseAST(Ctx.AST);
  }
};

} // namespace

std::unique_ptr<CudaRule> createAtenComputeRule() {
  return std::make_unique<AtenComputeRule>();
}

} // namespace kevin
