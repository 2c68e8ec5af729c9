//===-- CuStaticStateRule.cpp - kevin-cu-static-state (KEVIN-CU-007) ------===//
//
// Rejects mutable variables with static or thread storage duration
// (namespace scope, static locals, static members, thread_local) whose type
// is or contains a tensor, storage, pointer, reference, smart pointer or
// std::function (in an array, a library container, or a field or base of a
// struct the candidate declares, anonymous namespaces included): these carry
// results or input addresses across calls (a pointer-keyed result cache). const/constexpr data, __constant__ tables,
// __device__/__shared__ variables and integral or bool caches (SM count,
// "attribute already set") are allowed.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

namespace kevin {
namespace {

bool namesResultCarrier(const std::string &Type) {
  for (const char *Word : {"Tensor", "Storage", "shared_ptr", "unique_ptr",
                           "weak_ptr", "function<"})
    if (Type.find(Word) != std::string::npos)
      return true;
  return false;
}

/// Whether a value of type T can hold a tensor or an address: a pointer or
/// reference, a tensor or smart pointer, an array or library container of
/// them (through its template arguments), or a struct of the candidate's
/// with such a field or base.
bool carriesResults(clang::QualType T, const CudaRuleContext &Ctx,
                    std::set<const clang::Type *> &Seen) {
  T = T.getCanonicalType();
  if (!Seen.insert(T.getTypePtr()).second)
    return false;
  if (T->isPointerType() || T->isReferenceType() || T->isMemberPointerType())
    return true;
  if (const clang::ArrayType *A = T->getAsArrayTypeUnsafe())
    return carriesResults(A->getElementType(), Ctx, Seen);
  if (namesResultCarrier(T.getAsString()))
    return true;
  const clang::CXXRecordDecl *R = T->getAsCXXRecordDecl();
  if (!R || !R->hasDefinition())
    return false;
  if (const auto *S = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(R))
    for (const clang::TemplateArgument &Arg : S->getTemplateArgs().asArray())
      if (Arg.getKind() == clang::TemplateArgument::Type &&
          carriesResults(Arg.getAsType(), Ctx, Seen))
        return true;
  // A library type's own fields (std::vector<int>'s pointers) are not the
  // candidate's state; a struct the candidate declares is.
  if (!Ctx.isUserDecl(R))
    return false;
  for (const clang::FieldDecl *F : R->fields())
    if (carriesResults(F->getType(), Ctx, Seen))
      return true;
  for (const clang::CXXBaseSpecifier &B : R->bases())
    if (carriesResults(B.getType(), Ctx, Seen))
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
    std::set<const clang::Type *> Seen;
    if (carriesResults(V->getType(), Ctx, Seen))
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
