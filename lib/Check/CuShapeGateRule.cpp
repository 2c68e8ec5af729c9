//===-- CuShapeGateRule.cpp - kevin-cu-shape-gate (KEVIN-CU-010) ----------===//
//
// A warning for benchmark-shape gates in host code: an `if` whose condition
// compares a size-derived value (Tensor::size/sizes/stride/numel/dim, or a
// local initialized from one) with an integer literal, where one path
// through the branch launches no kernel of the submission (a fallback), or
// where the comparison is an exact (in)equality and the two paths launch
// different kernels. Paths are the branch plus, when it does not return,
// the statements after the `if`; kernels reached through the candidate's
// own functions count (ExtensionFacts). With --task the literal must be one
// of the task's integer constants (its sizes).
//
// Not gates: comparisons with 0 and 1 (empty-input early returns,
// divisibility tests `n % 4 == 0`, singleton dimensions), TORCH_CHECK and
// other branches that end in a throw (no fallback runs), size classes
// compared with <, <=, >, >= that pick between kernels of the submission
// (FP-16), and anything inside __global__/__device__ code (bounds checks).
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

namespace kevin {
namespace {

const char *const Id = "kevin-cu-shape-gate";

/// Whether E reads a tensor's sizes: a size/sizes/stride/strides/numel/dim
/// call on a tensor, or a local variable initialized from one.
bool isSizeDerived(const clang::Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > 8)
    return false;
  if (const auto *Call = llvm::dyn_cast<clang::CXXMemberCallExpr>(S)) {
    const clang::CXXMethodDecl *M = Call->getMethodDecl();
    if (M && M->getIdentifier() && isTensorClass(M->getParent())) {
      static const std::set<std::string> Methods = {
          "size", "sizes", "stride", "strides", "numel", "dim", "ndimension"};
      if (Methods.count(M->getName().str()))
        return true;
    }
  }
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S))
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()))
      if (V->isLocalVarDecl() && V->getInit())
        return isSizeDerived(V->getInit(), Depth + 1);
  for (const clang::Stmt *Child : S->children())
    if (isSizeDerived(Child, Depth))
      return true;
  return false;
}

/// A comparison of a size-derived value with an integer literal.
struct Comparison {
  const clang::BinaryOperator *Op = nullptr;
  bool Equality = false;
};

/// Finds a gate comparison in a condition, through &&, || and !.
void findComparisons(const clang::Expr *E, const TaskInfo *Task,
                     std::vector<Comparison> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    if (U->getOpcode() == clang::UO_LNot)
      findComparisons(U->getSubExpr(), Task, Out);
    return;
  }
  const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
  if (!B)
    return;
  if (B->isLogicalOp()) {
    findComparisons(B->getLHS(), Task, Out);
    findComparisons(B->getRHS(), Task, Out);
    return;
  }
  if (!B->isComparisonOp())
    return;
  const clang::Expr *L = B->getLHS()->IgnoreParenImpCasts();
  const clang::Expr *R = B->getRHS()->IgnoreParenImpCasts();
  const auto *Literal = llvm::dyn_cast<clang::IntegerLiteral>(R);
  const clang::Expr *Other = L;
  if (!Literal) {
    Literal = llvm::dyn_cast<clang::IntegerLiteral>(L);
    Other = R;
  }
  if (!Literal || !isSizeDerived(Other))
    return;
  llvm::APInt Value = Literal->getValue();
  if (Value.getActiveBits() > 62)
    return;
  long long V = static_cast<long long>(Value.getZExtValue());
  if (V == 0 || V == 1)
    return;
  if (Task && !Task->IntConstants.empty() && !Task->IntConstants.count(V))
    return;
  Out.push_back({B, B->isEqualityOp()});
}

/// What a run of statements does: the kernels it launches directly, the
/// candidate functions it calls, whether it returns or throws.
struct Work {
  std::set<std::string> Kernels;
  std::set<std::string> Calls;
  bool Returns = false;
  bool Throws = false;
};

class WorkCollector : public clang::RecursiveASTVisitor<WorkCollector> {
public:
  WorkCollector(const CudaRuleContext &Ctx, Work &W) : Ctx(Ctx), W(W) {}
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *E) {
    std::string Kernel = launchedKernel(E);
    if (!Kernel.empty())
      W.Kernels.insert(Kernel);
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *E) {
    if (const clang::FunctionDecl *F = E->getDirectCallee()) {
      if (F->isNoReturn())
        W.Throws = true;
      else if (Ctx.isUserDecl(F) && !llvm::isa<clang::CUDAKernelCallExpr>(E))
        W.Calls.insert(F->getNameAsString());
    }
    return true;
  }
  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr *E) {
    W.Calls.insert(E->getName().getAsString());
    return true;
  }
  bool VisitCXXThrowExpr(clang::CXXThrowExpr *) {
    W.Throws = true;
    return true;
  }
  bool VisitReturnStmt(clang::ReturnStmt *) {
    W.Returns = true;
    return true;
  }

private:
  const CudaRuleContext &Ctx;
  Work &W;
};

Work workOf(const CudaRuleContext &Ctx, llvm::ArrayRef<const clang::Stmt *> S) {
  Work W;
  WorkCollector C(Ctx, W);
  for (const clang::Stmt *One : S)
    C.TraverseStmt(const_cast<clang::Stmt *>(One));
  return W;
}

/// Whether control never leaves S at its end (a return, a throw, a
/// noreturn call, or an if whose branches both end so).
bool endsInExit(const clang::Stmt *S) {
  if (!S)
    return false;
  if (const auto *C = llvm::dyn_cast<clang::CompoundStmt>(S))
    return !C->body_empty() && endsInExit(C->body_back());
  if (llvm::isa<clang::ReturnStmt>(S))
    return true;
  if (const auto *E = llvm::dyn_cast<clang::Expr>(S)) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (llvm::isa<clang::CXXThrowExpr>(E))
      return true;
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(E))
      if (const clang::FunctionDecl *F = Call->getDirectCallee())
        return F->isNoReturn();
  }
  if (const auto *If = llvm::dyn_cast<clang::IfStmt>(S))
    return If->getElse() && endsInExit(If->getThen()) &&
           endsInExit(If->getElse());
  return false;
}

/// One gate found in a TU; its paths are resolved in finish(), when the
/// facts of every TU are in.
struct Gate {
  SourceLocation Where;
  std::string Condition;
  bool Equality = false;
  Work First, Second; ///< The two paths (the branch, then the rest).
};

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
public:
  Visitor(CudaRuleContext &Ctx, std::vector<Gate> &Gates)
      : Ctx(Ctx), Gates(Gates) {}

  bool TraverseFunctionDecl(clang::FunctionDecl *F) {
    // Device code: size tests there are bounds checks, not gates.
    if (F->hasAttr<clang::CUDAGlobalAttr>() ||
        (F->hasAttr<clang::CUDADeviceAttr>() &&
         !F->hasAttr<clang::CUDAHostAttr>()))
      return true;
    return clang::RecursiveASTVisitor<Visitor>::TraverseFunctionDecl(F);
  }

  bool VisitCompoundStmt(clang::CompoundStmt *C) {
    std::vector<const clang::Stmt *> Body(C->body_begin(), C->body_end());
    for (size_t I = 0; I < Body.size(); ++I)
      if (const auto *If = llvm::dyn_cast<clang::IfStmt>(Body[I]))
        analyze(If, llvm::makeArrayRef(Body).drop_front(I + 1));
    return true;
  }

private:
  void analyze(const clang::IfStmt *If,
               llvm::ArrayRef<const clang::Stmt *> Rest) {
    if (const auto *Else = llvm::dyn_cast_or_null<clang::IfStmt>(If->getElse()))
      analyze(Else, Rest);
    if (!If->getCond() || !Ctx.isUserCode(If->getIfLoc()))
      return;
    std::vector<Comparison> Found;
    findComparisons(If->getCond(), Ctx.Task, Found);
    if (Found.empty())
      return;
    Gate G;
    G.Where = Ctx.locate(If->getIfLoc());
    G.Condition =
        clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(
                                        Found.front().Op->getSourceRange()),
                                    Ctx.sourceManager(), Ctx.AST.getLangOpts())
            .str();
    for (const Comparison &C : Found)
      G.Equality |= C.Equality;
    // A branch that only fails (TORCH_CHECK(false, ...), a throw) runs no
    // fallback: the code specializes without one.
    for (const clang::Stmt *Branch : {If->getThen(), If->getElse()}) {
      Work Alone = workOf(Ctx, Branch ? llvm::makeArrayRef(&Branch, 1)
                                      : llvm::ArrayRef<const clang::Stmt *>());
      if (Alone.Throws && !Alone.Returns && Alone.Kernels.empty())
        return;
    }
    G.First = path(If->getThen(), Rest);
    G.Second = path(If->getElse(), Rest);
    Gates.push_back(std::move(G));
  }

  /// The work of a branch, followed by Rest when the branch can end
  /// normally (a missing else is an empty branch).
  Work path(const clang::Stmt *Branch,
            llvm::ArrayRef<const clang::Stmt *> Rest) {
    std::vector<const clang::Stmt *> Stmts;
    if (Branch)
      Stmts.push_back(Branch);
    if (!endsInExit(Branch))
      Stmts.insert(Stmts.end(), Rest.begin(), Rest.end());
    return workOf(Ctx, Stmts);
  }

  CudaRuleContext &Ctx;
  std::vector<Gate> &Gates;
};

class ShapeGateRule : public CudaRule {
public:
  const char *id() const override { return Id; }
  void check(CudaRuleContext &Ctx) override {
    Visitor(Ctx, Gates).TraverseAST(Ctx.AST);
  }
  void finish(const ExtensionFacts &Facts, const LoadInlineCall &,
              const PythonModule &, FindingSink &Sink) override {
    for (const Gate &G : Gates) {
      std::set<std::string> First = kernels(Facts, G.First);
      std::set<std::string> Second = kernels(Facts, G.Second);
      if (First.empty() != Second.empty())
        Sink.report(Id, G.Where,
                    "branch on '" + G.Condition +
                        "' launches no kernel of the submission on one path "
                        "(a shape gate with a fallback)",
                    "", Severity::Warning);
      else if (G.Equality && First != Second)
        Sink.report(Id, G.Where,
                    "branch on '" + G.Condition +
                        "' launches different kernels on its two paths (" +
                        join(First) + " vs " + join(Second) + ")",
                    "", Severity::Warning);
    }
  }

private:
  /// The kernels of the submission a path launches, directly or through
  /// the candidate's functions.
  static std::set<std::string> kernels(const ExtensionFacts &Facts,
                                       const Work &W) {
    std::set<std::string> Result;
    for (const std::string &K : W.Kernels)
      if (Facts.Kernels.count(K))
        Result.insert(K);
    for (const std::string &K : Facts.Kernels) {
      std::set<std::string> LaunchersOfK;
      for (const auto &[Launcher, Launched] : Facts.Launches)
        if (Launched.count(K))
          LaunchersOfK.insert(Launcher);
      for (const std::string &F : W.Calls)
        if (Facts.reaches(F, LaunchersOfK))
          Result.insert(K);
    }
    return Result;
  }
  static std::string join(const std::set<std::string> &Names) {
    std::string Text;
    for (const std::string &N : Names)
      Text += (Text.empty() ? "" : ", ") + N;
    return Text.empty() ? "none" : Text;
  }

  std::vector<Gate> Gates;
};

} // namespace

std::unique_ptr<CudaRule> createShapeGateRule() {
  return std::make_unique<ShapeGateRule>();
}

} // namespace kevin
