//===-- CuInputMutationRule.cpp - kevin-cu-input-mutation (KEVIN-CU-013) --===//
//
// Inputs reach the extension as tensor parameters; mutating them corrupts
// what the reference sees (zeroed inputs make 0 @ 0 = 0 "correct") and saves
// the output allocation. Rejected: in-place tensor methods (zero_, fill_,
// copy_, resize_, ...) and memset on a parameter tensor. A warning: a
// non-const pointer taken from a parameter's data and stored through in the
// same function (the in-place pattern; an output buffer passed in by the
// caller looks the same, hence a warning), and the same on the device: a
// launch in an exported function that passes the data of one of its tensor
// parameters, other than the tensor it returns, for a pointer parameter the
// kernel stores through. kevin-run's input check is the backstop at runtime.
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

/// The parameter a pointer expression of a kernel points into (through
/// subscripts, dereferences, members, pointer arithmetic, casts and local
/// pointers initialized from one), or null.
const clang::ParmVarDecl *
pointerRoot(const clang::Expr *E,
            const std::map<const clang::VarDecl *, const clang::ParmVarDecl *>
                &Locals) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(E)) {
      E = Sub->getBase();
    } else if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E)) {
      if (U->getOpcode() != clang::UO_Deref &&
          U->getOpcode() != clang::UO_AddrOf)
        return nullptr;
      E = U->getSubExpr();
    } else if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(E)) {
      E = M->getBase();
    } else if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E)) {
      if (!B->isAdditiveOp())
        return nullptr;
      E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
    } else if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
      if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(Ref->getDecl()))
        return P;
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl())) {
        auto It = Locals.find(V);
        return It == Locals.end() ? nullptr : It->second;
      }
      return nullptr;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// The indices of a kernel's parameters it stores through.
class KernelStores : public clang::RecursiveASTVisitor<KernelStores> {
public:
  explicit KernelStores(const clang::FunctionDecl &Kernel) : Kernel(Kernel) {}

  bool VisitVarDecl(clang::VarDecl *V) {
    if (V->getType()->isPointerType() && V->getInit())
      if (const clang::ParmVarDecl *P = pointerRoot(V->getInit(), Locals))
        Locals[V] = P;
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (E->isAssignmentOp())
      store(E->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *E) {
    if (E->isIncrementDecrementOp())
      store(E->getSubExpr());
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *E) {
    if (const auto *Op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E)) {
      if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
        store(Op->getArg(0));
      return true;
    }
    const clang::FunctionDecl *F = E->getDirectCallee();
    if (F && F->getIdentifier() && F->getName().startswith("atomic") &&
        E->getNumArgs() > 0)
      if (const clang::ParmVarDecl *P = pointerRoot(E->getArg(0), Locals))
        note(P);
    return true;
  }

  std::set<unsigned> Stored;

private:
  void store(const clang::Expr *Target) {
    if (isStoreTarget(Target))
      if (const clang::ParmVarDecl *P = pointerRoot(Target, Locals))
        note(P);
  }
  void note(const clang::ParmVarDecl *P) {
    if (P->getDeclContext() == &Kernel)
      Stored.insert(P->getFunctionScopeIndex());
  }

  const clang::FunctionDecl &Kernel;
  std::map<const clang::VarDecl *, const clang::ParmVarDecl *> Locals;
};

/// A launch argument that hands a kernel the data of an entry point's input.
struct InputArgument {
  std::string Kernel;
  unsigned Index = 0;
  std::string Parameter; ///< The kernel's parameter.
  std::string Input;
  SourceLocation Where;
};

/// The launches of one exported function and the inputs they pass.
class LaunchArguments : public clang::RecursiveASTVisitor<LaunchArguments> {
public:
  LaunchArguments(const CudaRuleContext &Ctx, const clang::FunctionDecl &F,
                  std::vector<InputArgument> &Out)
      : Ctx(Ctx), F(F), Out(Out) {}

  void run() {
    Collecting = true;
    TraverseStmt(F.getBody());
    Collecting = false;
    TraverseStmt(F.getBody());
  }

  bool TraverseLambdaExpr(clang::LambdaExpr *L) {
    // Launches in an AT_DISPATCH lambda are the function's; its returns
    // are not.
    ++LambdaDepth;
    bool Ok = TraverseStmt(L->getBody());
    --LambdaDepth;
    return Ok;
  }
  bool VisitReturnStmt(clang::ReturnStmt *R) {
    if (Collecting && LambdaDepth == 0)
      if (const clang::ParmVarDecl *P = parameter(R->getRetValue()))
        Returned.insert(P);
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *V) {
    if (Collecting && V->getType()->isPointerType())
      if (const clang::ParmVarDecl *P = inputData(V->getInit()))
        Pointers[V] = P;
    return true;
  }
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *E) {
    const clang::FunctionDecl *Kernel = E->getDirectCallee();
    if (Collecting || !Kernel || !Ctx.isUserCode(E->getBeginLoc()))
      return true;
    for (unsigned I = 0; I < E->getNumArgs() && I < Kernel->getNumParams(); ++I)
      if (const clang::ParmVarDecl *P = inputData(E->getArg(I)))
        if (!Returned.count(P))
          Out.push_back({Kernel->getNameAsString(), I,
                         Kernel->getParamDecl(I)->getNameAsString(),
                         P->getNameAsString(),
                         Ctx.locate(E->getArg(I)->getBeginLoc())});
    return true;
  }

private:
  /// The tensor parameter of F an expression names, through views.
  const clang::ParmVarDecl *parameter(const clang::Expr *E) const {
    const clang::ParmVarDecl *P = tensorParameter(tensorViewBase(E));
    return P && P->getDeclContext() == &F ? P : nullptr;
  }
  /// The parameter whose data E is: `x.data_ptr<T>()`, `x.data_ptr()`,
  /// `x.data<T>()` (on x or a view of it), or a local pointer set to one.
  const clang::ParmVarDecl *inputData(const clang::Expr *E) const {
    if (!E)
      return nullptr;
    E = E->IgnoreParenCasts();
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
      auto It = Pointers.find(Ref->getDecl());
      return It == Pointers.end() ? nullptr : It->second;
    }
    std::string Method = tensorMethodName(E);
    if (Method != "data_ptr" && Method != "data" &&
        Method != "mutable_data_ptr")
      return nullptr;
    return parameter(
        llvm::cast<clang::CXXMemberCallExpr>(E)->getImplicitObjectArgument());
  }

  const CudaRuleContext &Ctx;
  const clang::FunctionDecl &F;
  std::vector<InputArgument> &Out;
  bool Collecting = true;
  unsigned LambdaDepth = 0;
  std::set<const clang::ParmVarDecl *> Returned;
  std::map<const clang::Decl *, const clang::ParmVarDecl *> Pointers;
};

class InputMutationRule : public CudaRule {
public:
  const char *id() const override { return Id; }
  void check(CudaRuleContext &Ctx) override {
    Visitor(Ctx).TraverseAST(Ctx.AST);
    std::set<std::string> Exported;
    for (const auto &E : Ctx.Exported)
      Exported.insert(E.first);
    for (clang::Decl *D : Ctx.AST.getTraversalScope())
      analyze(Ctx, Exported, D);
  }
  void finish(const ExtensionFacts &, const LoadInlineCall &,
              const PythonModule &, FindingSink &Sink) override {
    for (const InputArgument &A : Arguments) {
      auto It = Stored.find(A.Kernel);
      if (It != Stored.end() && It->second.count(A.Index))
        Sink.report(Id, A.Where,
                    "kernel '" + A.Kernel + "' stores through '" + A.Parameter +
                        "', which receives the data of the input '" + A.Input +
                        "' (in place; an output buffer passed in "
                        "looks the same)",
                    "", Severity::Warning);
    }
  }

private:
  /// Records the kernels (templates too) and the launches of the exported
  /// functions D defines, in namespaces too.
  void analyze(const CudaRuleContext &Ctx,
               const std::set<std::string> &Exported, const clang::Decl *D) {
    if (llvm::isa<clang::NamespaceDecl>(D) ||
        llvm::isa<clang::LinkageSpecDecl>(D)) {
      for (const clang::Decl *Inner :
           llvm::cast<clang::DeclContext>(D)->decls())
        analyze(Ctx, Exported, Inner);
      return;
    }
    if (const auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(D))
      D = T->getTemplatedDecl();
    const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D);
    if (!F || !F->doesThisDeclarationHaveABody() || !Ctx.isUserDecl(F) ||
        !F->getIdentifier())
      return;
    if (F->hasAttr<clang::CUDAGlobalAttr>()) {
      KernelStores Stores(*F);
      Stores.TraverseStmt(F->getBody());
      Stored[F->getNameAsString()].insert(Stores.Stored.begin(),
                                          Stores.Stored.end());
    } else if (Exported.count(F->getName().str()) && !F->isDependentContext()) {
      LaunchArguments(Ctx, *F, Arguments).run();
    }
  }

  /// For each kernel of the extension, the parameters it stores through.
  std::map<std::string, std::set<unsigned>> Stored;
  std::vector<InputArgument> Arguments;
};

} // namespace

std::unique_ptr<CudaRule> createInputMutationRule() {
  return std::make_unique<InputMutationRule>();
}

} // namespace kevin
