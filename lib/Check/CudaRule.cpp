//===-- CudaRule.cpp - shared facts for the CUDA rules --------------------===//
//
// Collects, per translation unit, the kernels, the functions that write
// memory, the functions that launch kernels and the call graph between the
// candidate's own functions; and lists the CUDA rules.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/CudaRule.h"

#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace kevin {

bool isStoreTarget(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (llvm::isa<clang::ArraySubscriptExpr>(E))
    return true;
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E))
    return U->getOpcode() == clang::UO_Deref;
  if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(E))
    return M->isArrow() || isStoreTarget(M->getBase());
  if (const auto *Op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E))
    return Op->getOperator() == clang::OO_Subscript ||
           Op->getOperator() == clang::OO_Star;
  // A reference parameter or variable of reference type.
  if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(E))
    return D->getDecl()->getType()->isReferenceType();
  return false;
}

namespace {

class FactCollector : public clang::RecursiveASTVisitor<FactCollector> {
public:
  FactCollector(CudaRuleContext &Ctx, ExtensionFacts &Facts)
      : Ctx(Ctx), Facts(Facts) {}

  bool TraverseFunctionDecl(clang::FunctionDecl *F) {
    return traverseFunction(F, [&] {
      return clang::RecursiveASTVisitor<FactCollector>::TraverseFunctionDecl(F);
    });
  }
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl *F) {
    // Lambda call operators belong to the function around them.
    if (F->getParent()->isLambda())
      return clang::RecursiveASTVisitor<FactCollector>::TraverseCXXMethodDecl(
          F);
    return traverseFunction(F, [&] {
      return clang::RecursiveASTVisitor<FactCollector>::TraverseCXXMethodDecl(
          F);
    });
  }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *E) {
    if (!Current.empty() && Ctx.isUserCode(E->getBeginLoc())) {
      Facts.Launchers.insert(Current);
      std::string Kernel = launchedKernel(E);
      if (!Kernel.empty())
        Facts.Launches[Current].insert(Kernel);
    }
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *E) {
    if (Current.empty())
      return true;
    if (const clang::FunctionDecl *Callee = E->getDirectCallee()) {
      std::string Name = Callee->getNameAsString();
      if (Ctx.isUserDecl(Callee))
        Facts.Calls[Current].insert(Name);
      if (Name.rfind("atomic", 0) == 0 && Ctx.isUserCode(E->getBeginLoc()))
        Facts.Writers.insert(Current);
    }
    if (const auto *Op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E))
      if (Op->isAssignmentOp() && Op->getNumArgs() > 0 &&
          isStoreTarget(Op->getArg(0)))
        Facts.Writers.insert(Current);
    return true;
  }
  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr *E) {
    // Calls in templates that are not resolved yet still name their callee.
    if (!Current.empty())
      Facts.Calls[Current].insert(E->getName().getAsString());
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (!Current.empty() && E->isAssignmentOp() && isStoreTarget(E->getLHS()))
      Facts.Writers.insert(Current);
    return true;
  }
  bool VisitGCCAsmStmt(clang::GCCAsmStmt *S) {
    std::string Text = S->getAsmString()->getString().str();
    if (!Current.empty() && (Text.find("st.") != std::string::npos ||
                             Text.find("red.") != std::string::npos ||
                             Text.find("atom.") != std::string::npos))
      Facts.Writers.insert(Current);
    return true;
  }

private:
  template <typename Fn>
  bool traverseFunction(clang::FunctionDecl *F, Fn Traverse) {
    if (!F->doesThisDeclarationHaveABody() || !Ctx.isUserDecl(F))
      return Traverse();
    std::string Saved = Current;
    Current = F->getNameAsString();
    Facts.Defined.insert(Current);
    if (F->hasAttr<clang::CUDAGlobalAttr>())
      Facts.Kernels.insert(Current);
    bool Ok = Traverse();
    Current = Saved;
    return Ok;
  }

  CudaRuleContext &Ctx;
  ExtensionFacts &Facts;
  std::string Current;
};

} // namespace

std::string launchedKernel(const clang::CUDAKernelCallExpr *E) {
  if (const clang::FunctionDecl *F = E->getDirectCallee())
    return F->getNameAsString();
  const clang::Expr *Callee = E->getCallee()->IgnoreImplicit();
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
    return Ref->getDecl()->getNameAsString();
  if (const auto *Lookup = llvm::dyn_cast<clang::OverloadExpr>(Callee))
    return Lookup->getName().getAsString();
  return "";
}

bool isTensorClass(const clang::CXXRecordDecl *R) {
  if (!R)
    return false;
  std::string Q = R->getQualifiedNameAsString();
  return Q == "at::Tensor" || Q == "at::TensorBase";
}

std::string tensorMethodName(const clang::Expr *E) {
  const auto *Call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(E);
  if (!Call)
    return "";
  const clang::CXXMethodDecl *M = Call->getMethodDecl();
  if (!M || !M->getIdentifier())
    return "";
  if (!isTensorClass(M->getParent()))
    return "";
  return M->getName().str();
}

/// E without parentheses, casts, temporaries, copies and std::move/forward.
static const clang::Expr *stripCopies(const clang::Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
      if (C->getNumArgs() != 1)
        return E;
      E = C->getArg(0);
      continue;
    }
    if (const auto *Bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(E)) {
      E = Bind->getSubExpr();
      continue;
    }
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(E))
      if (const clang::FunctionDecl *F = Call->getDirectCallee())
        if (F->isInStdNamespace() && F->getIdentifier() &&
            (F->getName() == "move" || F->getName() == "forward") &&
            Call->getNumArgs() == 1) {
          E = Call->getArg(0);
          continue;
        }
    return E;
  }
  return E;
}

const clang::Expr *tensorViewBase(const clang::Expr *E) {
  static const std::set<std::string> Views = {
      "view",      "view_as",   "reshape",    "reshape_as", "contiguous",
      "transpose", "permute",   "t",          "unsqueeze",  "squeeze",
      "flatten",   "unflatten", "narrow",     "select",     "slice",
      "expand",    "expand_as", "as_strided", "diagonal",   "alias",
      "detach"};
  E = stripCopies(E);
  while (E && Views.count(tensorMethodName(E)))
    E = stripCopies(
        llvm::cast<clang::CXXMemberCallExpr>(E)->getImplicitObjectArgument());
  return E;
}

bool ExtensionFacts::reaches(const std::string &From,
                             const std::set<std::string> &Targets) const {
  std::set<std::string> Seen = {From};
  std::vector<std::string> Work = {From};
  while (!Work.empty()) {
    std::string F = Work.back();
    Work.pop_back();
    if (Targets.count(F))
      return true;
    auto It = Calls.find(F);
    if (It == Calls.end())
      continue;
    for (const std::string &C : It->second)
      if (Seen.insert(C).second)
        Work.push_back(C);
  }
  return false;
}

void collectExtensionFacts(CudaRuleContext &Ctx, ExtensionFacts &Facts) {
  FactCollector(Ctx, Facts).TraverseAST(Ctx.AST);
}

std::vector<std::unique_ptr<CudaRule>> createCudaRules() {
  std::vector<std::unique_ptr<CudaRule>> Rules;
#define CUDA_RULE(Id, Factory, CatalogId, Summary, Hint, Cpu, Kevin, Strict)   \
  Rules.push_back(Factory());
#include "Rules.def"
  return Rules;
}

} // namespace kevin
