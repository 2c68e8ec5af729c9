//===-- CuInputMutationRule.cpp - kevin-cu-input-mutation (KEVIN-CU-013) --===//
//
// Inputs reach the extension as tensor parameters; mutating them corrupts
// what the reference sees (zeroed inputs make 0 @ 0 = 0 "correct") and saves
// the output allocation. Rejected: in-place tensor methods (zero_, fill_,
// copy_, resize_, ...) and memset on a parameter tensor. A warning: a
// non-const pointer taken from a parameter's data and stored through in the
// same function (the in-place pattern; an output buffer passed in by the
// caller looks the same, hence a warning). kevin-run's input check is the
// backstop at runtime.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <map>
#include <set>

namespace kevin {
namespace {

const char *const Id = "kevin-cu-input-mutation";

bool isTensorType(clang::QualType T) {
  T = T.getNonReferenceType().getUnqualifiedType();
  const auto *Record = T->getAsCXXRecordDecl();
  return Record && Record->getName() == "Tensor";
}

/// The tensor parameter an expression names, or null.
const clang::ParmVarDecl *tensorParameter(const clang::Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
    if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(Ref->getDecl()))
      if (isTensorType(P->getType()))
        return P;
  return nullptr;
}

/// The tensor parameter whose data an expression points to
/// (`x.data_ptr<T>()`, `x.data_ptr()`, through casts), or null.
const clang::ParmVarDecl *parameterData(const clang::Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *Call = llvm::dyn_cast<clang::CXXMemberCallExpr>(E))
    if (const clang::CXXMethodDecl *M = Call->getMethodDecl())
      if (M->getName() == "data_ptr" || M->getName() == "data")
        return tensorParameter(Call->getImplicitObjectArgument());
  return nullptr;
}

bool isInPlaceMethod(llvm::StringRef Name) {
  static const std::set<std::string> Methods = {
      "zero_", "fill_", "copy_", "resize_", "resize_as_", "set_",
      "uniform_", "normal_", "random_", "bernoulli_", "clamp_", "relu_"};
  return Methods.count(Name.str()) != 0;
}

bool isMemset(llvm::StringRef Name) {
  return Name == "memset" || Name == "cudaMemset" ||
         Name == "cudaMemsetAsync" || Name == "memcpy" ||
         Name == "cudaMemcpy" || Name == "cudaMemcpyAsync";
}

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(CudaRuleContext &Ctx) : Ctx(Ctx) {}

  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr *E) {
    const clang::CXXMethodDecl *M = E->getMethodDecl();
    if (!M || !M->getIdentifier() || !isInPlaceMethod(M->getName()) ||
        !Ctx.isUserCode(E->getExprLoc()))
      return true;
    if (const clang::ParmVarDecl *P =
            tensorParameter(E->getImplicitObjectArgument()))
      Ctx.report(Id, E->getExprLoc(),
                 "in-place '" + M->getNameAsString() + "' on the input '" +
                     P->getNameAsString() + "'");
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *E) {
    const clang::FunctionDecl *F = E->getDirectCallee();
    if (!F || !F->getIdentifier() || !isMemset(F->getName()) ||
        E->getNumArgs() == 0 || !Ctx.isUserCode(E->getBeginLoc()))
      return true;
    if (const clang::ParmVarDecl *P = parameterData(E->getArg(0)))
      Ctx.report(Id, E->getBeginLoc(),
                 F->getNameAsString() + " writes the data of the input '" +
                     P->getNameAsString() + "'");
    return true;
  }

  // `T* p = x.data_ptr<T>();` remembered, then a store through p.
  bool VisitVarDecl(clang::VarDecl *V) {
    clang::QualType T = V->getType();
    if (T->isPointerType() && !T->getPointeeType().isConstQualified())
      if (const clang::ParmVarDecl *P = parameterData(V->getInit()))
        Aliases[V] = P;
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (E->isAssignmentOp())
      noteStore(E->getLHS(), E->getOperatorLoc());
    return true;
  }

private:
  void noteStore(const clang::Expr *Target, clang::SourceLocation Loc) {
    Target = Target->IgnoreParenImpCasts();
    const clang::Expr *Base = nullptr;
    if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(Target))
      Base = Sub->getBase();
    else if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Target))
      if (U->getOpcode() == clang::UO_Deref)
        Base = U->getSubExpr();
    if (!Base || !Ctx.isUserCode(Loc))
      return;
    const auto *Ref =
        llvm::dyn_cast<clang::DeclRefExpr>(Base->IgnoreParenImpCasts());
    if (!Ref)
      return;
    auto It = Aliases.find(Ref->getDecl());
    if (It == Aliases.end() || !Warned.insert(Ref->getDecl()).second)
      return;
    Ctx.report(Id, Loc,
               "stores through a pointer to the input '" +
                   It->second->getNameAsString() +
                   "' (in place; an output buffer passed in looks the same)",
               Severity::Warning);
  }

  CudaRuleContext &Ctx;
  std::map<const clang::Decl *, const clang::ParmVarDecl *> Aliases;
  std::set<const clang::Decl *> Warned;
};

class InputMutationRule : public CudaRule {
public:
  const char *id() const override { return Id; }
  void check(CudaRuleContext &Ctx) override {
    Visitor(Ctx).TraverseAST(Ctx.AST);
  }
};

} // namespace

std::unique_ptr<CudaRule> createInputMutationRule() {
  return std::make_unique<InputMutationRule>();
}

} // namespace kevin
