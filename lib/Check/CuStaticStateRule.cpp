//===-- CuStaticStateRule.cpp - kevin-cu-static-state (KEVIN-CU-007) ------===//
//
// Rejects mutable variables with static or thread storage duration
// (namespace scope, static locals, static members, thread_local) whose type
// is or contains a tensor, storage, pointer, reference, smart pointer or
// std::function: these carry results or input addresses across calls (a
// pointer-keyed result cache). const/constexpr data, __constant__ tables,
// __device__/__shared__ variables and integral or bool caches (SM count,
// "attribute already set") are allowed.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace kevin {
namespace {

bool carriesResults(clang::QualType T) {
  T = T.getCanonicalType();
  if (T->isPointerType() || T->isReferenceType() || T->isMemberPointerType())
    return true;
  std::string S = T.getAsString();
  for (const char *Word : {"Tensor", "Storage", "shared_ptr", "unique_ptr",
                           "weak_ptr", "function<", "*", "&"})
    if (S.find(Word) != std::string::npos)
      return true;
  return false;
}

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(CudaRuleContext &Ctx) : Ctx(Ctx) {}
  bool VisitVarDecl(clang::VarDecl *V) {
    if (!Ctx.isUserDecl(V) || llvm::isa<clang::ParmVarDecl>(V))
      return true;
    if (!V->hasGlobalStorage() && V->getTLSKind() == clang::VarDecl::TLS_None)
      return true;
    if (V->isConstexpr() || V->getType().isConstQualified())
      return true;
    if (V->hasAttr<clang::CUDAConstantAttr>() ||
        V->hasAttr<clang::CUDADeviceAttr>() ||
        V->hasAttr<clang::CUDASharedAttr>())
      return true;
    if (carriesResults(V->getType()))
      Ctx.report("kevin-cu-static-state", V->getLocation(),
                 "mutable static '" + V->getNameAsString() + "' of type '" +
                     V->getType().getAsString() +
                     "' can carry results across calls");
    return true;
  }

private:
  CudaRuleContext &Ctx;
};

class StaticStateRule : public CudaRule {
public:
  const char *id() const override { return "kevin-cu-static-state"; }
  void check(CudaRuleContext &Ctx) override {
    Visitor(Ctx).TraverseAST(Ctx.AST);
  }
};

} // namespace

std::unique_ptr<CudaRule> createStaticStateRule() {
  return std::make_unique<StaticStateRule>();
}

} // namespace kevin
