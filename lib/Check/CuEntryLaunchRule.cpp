//===-- CuEntryLaunchRule.cpp - kevin-cu-entry-launch (KEVIN-CU-002) ------===//
//
// Every function exported through `functions=` is defined in the sources and
// launches (`kernel<<<...>>>`) a kernel of the submission on every path that
// returns normally: directly, inside an AT_DISPATCH lambda, or through the
// candidate's own helper functions. Paths come from Clang's CFG of the entry
// point; what a helper does is known once every TU of the extension is in.
// The tensor an entry point returns (or its base, through view calls) must
// reach a launch as data a kernel may write: its data_ptr (or an accessor,
// or a pointer or struct carrying it) passed for a parameter that is not a
// pointer to const, or the tensor passed to a candidate function that
// launches. An entry point that only calls ATen, that returns an input, or
// that has a launch-free branch is a bypass.
//
// Not bypasses: paths that end in a throw or a noreturn call (TORCH_CHECK,
// AT_ERROR), the edge on which a size test says a tensor is empty (an early
// return of an empty output: a zero-block launch is a CUDA error, so the
// test is good practice), loops whose body launches (assumed to run at least
// once), and an AT_DISPATCH switch (its lambda counts as one block that
// launches when its body does, ANTI-HACKING.md §7.2).
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <set>

namespace kevin {
namespace {

const char *const Id = "kevin-cu-entry-launch";

bool isTensorType(clang::QualType T) {
  return isTensorClass(T.getNonReferenceType()->getAsCXXRecordDecl());
}

bool isDataAccess(const std::string &Name) {
  static const std::set<std::string> Access = {
      "data_ptr",          "data",
      "mutable_data_ptr",  "const_data_ptr",
      "packed_accessor32", "packed_accessor64",
      "packed_accessor",   "generic_packed_accessor"};
  return Access.count(Name) != 0;
}

const clang::VarDecl *referencedVar(const clang::Expr *E) {
  if (const auto *Ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(E))
    return llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
  return nullptr;
}

/// Sizes in an entry point: which values are sizes of tensors, for the
/// tests that say a tensor is empty. A size is a size/sizes()[i]/numel
/// value, a product of sizes and integer literals, a quotient of sizes
/// (`rows = numel / norm`), or a local whose every store is one of those
/// (`outer = 1; outer *= x.size(d);`). Sums, differences and remainders
/// are not: `n % 4 == 0` is a divisibility test.
class SizeValues : public clang::RecursiveASTVisitor<SizeValues> {
public:
  explicit SizeValues(const clang::FunctionDecl &F) {
    TraverseStmt(F.getBody());
  }

  bool isSize(const clang::Expr *E) {
    std::set<const clang::VarDecl *> Visiting;
    return kind(E, Visiting) == Size;
  }

  /// For a branch condition that tests whether a size is zero, the
  /// successor (0: true, 1: false) taken when it is; -1 for any other.
  int emptyEdge(const clang::Expr *Cond) {
    if (!Cond)
      return -1;
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(Cond)) {
      if (U->getOpcode() != clang::UO_LNot)
        return -1;
      int Inner = emptyEdge(U->getSubExpr());
      return Inner < 0 ? -1 : 1 - Inner;
    }
    if (isSize(Cond)) // `if (n)`: false when empty
      return 1;
    const auto *B = llvm::dyn_cast<clang::BinaryOperator>(Cond);
    if (!B)
      return -1;
    if (B->isLogicalOp()) {
      // The CFG also branches on the whole `a || b` in a block of its own.
      int L = emptyEdge(B->getLHS()), R = emptyEdge(B->getRHS());
      bool Or = B->getOpcode() == clang::BO_LOr;
      if (Or ? L == 0 && R == 0 : L == 0 || R == 0)
        return 0;
      if (Or ? L == 1 || R == 1 : L == 1 && R == 1)
        return 1;
      return -1;
    }
    if (!B->isComparisonOp())
      return -1;
    clang::BinaryOperatorKind Op = B->getOpcode();
    const clang::Expr *Value = B->getLHS();
    const auto *Literal = llvm::dyn_cast<clang::IntegerLiteral>(
        B->getRHS()->IgnoreParenImpCasts());
    if (!Literal) {
      Literal = llvm::dyn_cast<clang::IntegerLiteral>(
          B->getLHS()->IgnoreParenImpCasts());
      Value = B->getRHS();
      Op = clang::BinaryOperator::reverseComparisonOp(Op);
    }
    if (!Literal || Literal->getValue().ugt(1) || !isSize(Value))
      return -1;
    bool One = Literal->getValue() == 1;
    switch (Op) {
    case clang::BO_EQ: // n == 0
    case clang::BO_LE: // n <= 0
      return One ? -1 : 0;
    case clang::BO_NE: // n != 0
    case clang::BO_GT: // n > 0
      return One ? -1 : 1;
    case clang::BO_LT: // n < 1
      return One ? 0 : -1;
    case clang::BO_GE: // n >= 1
      return One ? 1 : -1;
    default:
      return -1;
    }
  }

  bool VisitVarDecl(clang::VarDecl *V) {
    if (V->getInit())
      Stores[V].push_back({clang::BO_Assign, V->getInit()});
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (E->isAssignmentOp())
      if (const clang::VarDecl *V =
              referencedVar(E->getLHS()->IgnoreParenImpCasts()))
        Stores[V].push_back({E->getOpcode(), E->getRHS()});
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *E) {
    if (E->isIncrementDecrementOp())
      if (const clang::VarDecl *V =
              referencedVar(E->getSubExpr()->IgnoreParenImpCasts()))
        Stores[V].push_back({clang::BO_Add, nullptr});
    return true;
  }

private:
  enum Kind { None, Literal, Size };

  static Kind product(Kind A, Kind B) {
    if (A == None || B == None)
      return None;
    return A == Size || B == Size ? Size : Literal;
  }

  Kind kind(const clang::Expr *E, std::set<const clang::VarDecl *> &Visiting) {
    if (!E)
      return None;
    E = E->IgnoreParenCasts();
    if (llvm::isa<clang::IntegerLiteral>(E))
      return Literal;
    // Not dim(): a 0-d tensor holds one element.
    std::string Method = tensorMethodName(E);
    if (Method == "size" || Method == "numel")
      return Size;
    if (const auto *Op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E))
      return Op->getOperator() == clang::OO_Subscript &&
                     tensorMethodName(Op->getArg(0)->IgnoreParenCasts()) ==
                         "sizes"
                 ? Size
                 : None;
    if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E)) {
      Kind L = kind(B->getLHS(), Visiting), R = kind(B->getRHS(), Visiting);
      if (B->getOpcode() == clang::BO_Mul)
        return product(L, R);
      if (B->getOpcode() == clang::BO_Div)
        return L == Size && R == Size ? Size : None;
      return None;
    }
    const clang::VarDecl *V = referencedVar(E);
    auto It = Stores.find(V);
    if (!V || !V->isLocalVarDecl() || It == Stores.end() ||
        !Visiting.insert(V).second)
      return None;
    Kind Result = Literal;
    for (const auto &[Op, Value] : It->second) {
      Kind K = kind(Value, Visiting);
      if (Op == clang::BO_Assign || Op == clang::BO_MulAssign)
        Result = product(Result, K);
      else if (Op == clang::BO_DivAssign && K == Size)
        Result = product(Result, K);
      else
        Result = None;
    }
    Visiting.erase(V);
    return Result;
  }

  std::map<
      const clang::VarDecl *,
      std::vector<std::pair<clang::BinaryOperatorKind, const clang::Expr *>>>
      Stores;
};

/// What a piece of an entry point does: whether it launches a kernel
/// directly, and the candidate functions it calls (whether those launch is
/// known once every TU is in).
struct Work {
  bool Launches = false;
  std::set<std::string> Calls;
};

/// Collects the work of statements. On a CFG element only the element
/// itself counts (its subexpressions are elements of their own, and the
/// arms of ?:, && and || sit in other blocks); a whole statement (a loop
/// body) counts with everything in it. Lambdas count where they are called,
/// never where they are written.
class WorkCollector : public clang::RecursiveASTVisitor<WorkCollector> {
public:
  WorkCollector(const CudaRuleContext &Ctx, Work &W) : Ctx(Ctx), W(W) {}

  void element(const clang::Stmt *S) {
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S))
      call(Call);
  }
  void whole(const clang::Stmt *S) {
    TraverseStmt(const_cast<clang::Stmt *>(S));
  }

  bool TraverseLambdaExpr(clang::LambdaExpr *) { return true; }
  bool VisitCallExpr(clang::CallExpr *E) {
    call(E);
    return true;
  }

private:
  void call(const clang::CallExpr *E) {
    if (llvm::isa<clang::CUDAKernelCallExpr>(E)) {
      W.Launches |= Ctx.isUserCode(E->getBeginLoc());
      return;
    }
    const clang::FunctionDecl *F = E->getDirectCallee();
    if (!F)
      return;
    // A called lambda (an AT_DISPATCH switch, a launch helper written as a
    // lambda) is one block: its whole body counts.
    if (const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(F)) {
      if (M->getParent()->isLambda()) {
        if (M->hasBody() && Entered.insert(M).second)
          whole(M->getBody());
        return;
      }
    }
    if (Ctx.isUserDecl(F))
      W.Calls.insert(F->getNameAsString());
  }

  const CudaRuleContext &Ctx;
  Work &W;
  std::set<const clang::Decl *> Entered;
};

/// An entry point's CFG, reduced to what the per-path check needs.
struct PathGraph {
  std::vector<Work> Blocks; ///< By CFG block ID.
  /// Successors, without infeasible edges and the edges on which a size
  /// test says a tensor is empty.
  std::vector<std::vector<unsigned>> Succs;
  unsigned Entry = 0;
  /// The blocks a path from the entry reaches.
  std::vector<bool> Reached;
  /// Blocks that end in a normal return, with where the return is.
  std::vector<std::pair<unsigned, SourceLocation>> Returns;
  /// The return statements of reached blocks (the others are only reached
  /// through an empty tensor's edge, or never).
  std::set<const clang::ReturnStmt *> LiveReturns;
};

/// The tensor one return statement returns, and the evidence that a kernel
/// writes it.
struct ReturnedTensor {
  SourceLocation Where;
  std::string Text;
  bool Written = false;
  /// Candidate functions the tensor (or its data) is passed to or returned
  /// from: it is written if one of them launches.
  std::set<std::string> Helpers;
};

struct EntryPoint {
  PathGraph Paths;
  std::vector<ReturnedTensor> Returned;
};

/// The return statement a block ends in, or null (it falls off the end).
const clang::ReturnStmt *returnOf(const clang::CFGBlock &B) {
  for (auto It = B.rbegin(); It != B.rend(); ++It)
    if (auto S = It->getAs<clang::CFGStmt>())
      if (const auto *R = llvm::dyn_cast<clang::ReturnStmt>(S->getStmt()))
        return R;
  return nullptr;
}

bool endsAbnormally(const clang::CFGBlock &B) {
  if (B.hasNoReturnElement())
    return true;
  const clang::Stmt *T = B.getTerminatorStmt();
  return T && llvm::isa<clang::CXXThrowExpr>(T);
}

PathGraph buildPaths(const CudaRuleContext &Ctx, const clang::FunctionDecl &F) {
  PathGraph G;
  clang::CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  std::unique_ptr<clang::CFG> Cfg =
      clang::CFG::buildCFG(&F, F.getBody(), &Ctx.AST, Options);
  if (!Cfg)
    return G;
  G.Blocks.resize(Cfg->getNumBlockIDs());
  G.Succs.resize(Cfg->getNumBlockIDs());
  G.Entry = Cfg->getEntry().getBlockID();
  SizeValues Sizes(F);
  unsigned Exit = Cfg->getExit().getBlockID();
  for (const clang::CFGBlock *B : *Cfg) {
    Work &W = G.Blocks[B->getBlockID()];
    WorkCollector C(Ctx, W);
    for (const clang::CFGElement &E : *B)
      if (auto S = E.getAs<clang::CFGStmt>())
        C.element(S->getStmt());
    const clang::Stmt *T = B->getTerminatorStmt();
    if (const auto *For = llvm::dyn_cast_or_null<clang::ForStmt>(T))
      C.whole(For->getBody());
    else if (const auto *While = llvm::dyn_cast_or_null<clang::WhileStmt>(T))
      C.whole(While->getBody());
    else if (const auto *Range =
                 llvm::dyn_cast_or_null<clang::CXXForRangeStmt>(T))
      C.whole(Range->getBody());
    int Empty =
        B->succ_size() == 2 ? Sizes.emptyEdge(B->getLastCondition()) : -1;
    unsigned Index = 0;
    for (const clang::CFGBlock::AdjacentBlock &Succ : B->succs()) {
      const clang::CFGBlock *To = Succ.getReachableBlock();
      if (To && static_cast<int>(Index) != Empty)
        G.Succs[B->getBlockID()].push_back(To->getBlockID());
      ++Index;
    }
  }
  G.Reached.assign(G.Blocks.size(), false);
  std::vector<unsigned> Work = {G.Entry};
  G.Reached[G.Entry] = true;
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    for (unsigned S : G.Succs[B])
      if (!G.Reached[S]) {
        G.Reached[S] = true;
        Work.push_back(S);
      }
  }
  for (const clang::CFGBlock *B : *Cfg) {
    if (!G.Reached[B->getBlockID()] || endsAbnormally(*B))
      continue;
    for (const clang::CFGBlock *To : B->succs())
      if (To && To->getBlockID() == Exit) {
        const clang::ReturnStmt *R = returnOf(*B);
        G.Returns.push_back(
            {B->getBlockID(),
             Ctx.locate(R ? R->getBeginLoc() : F.getBodyRBrace())});
        if (R)
          G.LiveReturns.insert(R);
      }
  }
  return G;
}

/// The returned-tensor half of the rule: which variables a returned tensor
/// comes from and whether a launch may write their data.
class ReturnAnalysis : public clang::RecursiveASTVisitor<ReturnAnalysis> {
public:
  ReturnAnalysis(const CudaRuleContext &Ctx, const clang::FunctionDecl &F)
      : Ctx(Ctx), F(F) {
    Mode = Collect;
    TraverseStmt(F.getBody());
  }

  /// The returned tensors of the return statements in Live.
  std::vector<ReturnedTensor>
  run(const std::set<const clang::ReturnStmt *> &Live) {
    std::vector<ReturnedTensor> Out;
    for (const clang::ReturnStmt *R : Returns) {
      if (!R->getRetValue() || !Live.count(R))
        continue;
      ReturnedTensor T;
      T.Where = Ctx.locate(R->getBeginLoc());
      T.Text = clang::Lexer::getSourceText(
                   clang::CharSourceRange::getTokenRange(
                       R->getRetValue()->getSourceRange()),
                   Ctx.sourceManager(), Ctx.AST.getLangOpts())
                   .str();
      Bases.clear();
      Carriers.clear();
      resolve(R->getRetValue(), T, 0);
      closeOverAliases();
      Current = &T;
      Mode = Scan;
      TraverseStmt(F.getBody());
      Out.push_back(std::move(T));
    }
    return Out;
  }

  bool VisitReturnStmt(clang::ReturnStmt *R) {
    // Returns inside lambdas belong to the lambdas.
    if (Mode == Collect && LambdaDepth == 0)
      Returns.push_back(R);
    return true;
  }
  bool TraverseLambdaExpr(clang::LambdaExpr *L) {
    ++LambdaDepth;
    bool Ok = TraverseStmt(L->getBody());
    --LambdaDepth;
    return Ok;
  }
  bool VisitVarDecl(clang::VarDecl *V) {
    if (Mode == Collect && V->getInit())
      Stores.push_back({V, V->getInit()});
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (Mode == Collect && E->isAssignmentOp())
      noteStore(E->getLHS(), E->getRHS());
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *E) {
    if (Mode == Collect) {
      if (const auto *Op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E))
        if (Op->getOperator() == clang::OO_Equal && Op->getNumArgs() == 2)
          noteStore(Op->getArg(0), Op->getArg(1));
      return true;
    }
    if (const auto *Launch = llvm::dyn_cast<clang::CUDAKernelCallExpr>(E)) {
      const clang::FunctionDecl *Kernel = Launch->getDirectCallee();
      for (unsigned I = 0; I < Launch->getNumArgs(); ++I)
        if (carriesData(Launch->getArg(I)) && !readOnly(Kernel, I))
          Current->Written = true;
      return true;
    }
    const clang::FunctionDecl *Callee = E->getDirectCallee();
    if (!Callee || !Ctx.isUserDecl(Callee))
      return true;
    for (const clang::Expr *Arg : E->arguments())
      if (carriesData(Arg) || Bases.count(referencedVar(tensorViewBase(Arg))))
        Current->Helpers.insert(Callee->getNameAsString());
    return true;
  }

private:
  enum { Collect, Scan } Mode;

  /// Records `Target = Value`, for a variable or a member or element of one.
  void noteStore(const clang::Expr *Target, const clang::Expr *Value) {
    const clang::Expr *E = Target->IgnoreParenImpCasts();
    while (true) {
      if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(E))
        E = M->getBase()->IgnoreParenImpCasts();
      else if (const auto *A = llvm::dyn_cast<clang::ArraySubscriptExpr>(E))
        E = A->getBase()->IgnoreParenImpCasts();
      else
        break;
    }
    if (const clang::VarDecl *V = referencedVar(E))
      Stores.push_back({V, Value});
  }

  /// Adds the variables and helpers a returned expression comes from.
  void resolve(const clang::Expr *E, ReturnedTensor &T, unsigned Depth) {
    if (!E || Depth > 16)
      return;
    E = tensorViewBase(E);
    if (const auto *C = llvm::dyn_cast<clang::ConditionalOperator>(E)) {
      resolve(C->getTrueExpr(), T, Depth + 1);
      resolve(C->getFalseExpr(), T, Depth + 1);
      return;
    }
    if (const clang::VarDecl *V = referencedVar(E)) {
      if (!Bases.insert(V).second)
        return;
      for (const auto &[Stored, Value] : Stores)
        if (Stored == V && isTensorType(V->getType()))
          resolve(Value, T, Depth + 1);
      return;
    }
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(E))
      if (const clang::FunctionDecl *Callee = Call->getDirectCallee())
        if (Ctx.isUserDecl(Callee) && !llvm::isa<clang::CXXMethodDecl>(Callee))
          T.Helpers.insert(Callee->getNameAsString());
  }

  /// Adds the views of the bases (`auto yb = y.select(0, b)`) to the bases,
  /// and finds the carriers: locals that hold a base's data, pointers and
  /// structs (a kernel's parameter block) assigned from it.
  void closeOverAliases() {
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (const auto &[V, Value] : Stores) {
        if (Bases.count(V) || Carriers.count(V))
          continue;
        if (isTensorType(V->getType())) {
          if (Bases.count(referencedVar(tensorViewBase(Value))))
            Changed |= Bases.insert(V).second;
        } else if (carriesData(Value)) {
          Changed |= Carriers.insert(V).second;
        }
      }
    }
  }

  /// Whether E hands out a base's data: a data_ptr/data/accessor call on a
  /// base (through views), or a carrier.
  bool carriesData(const clang::Stmt *S) const {
    if (!S)
      return false;
    if (const auto *E = llvm::dyn_cast<clang::Expr>(S)) {
      if (const clang::VarDecl *V = referencedVar(E->IgnoreParenImpCasts()))
        if (Carriers.count(V))
          return true;
      if (isDataAccess(tensorMethodName(E)))
        if (Bases.count(referencedVar(
                tensorViewBase(llvm::cast<clang::CXXMemberCallExpr>(E)
                                   ->getImplicitObjectArgument()))))
          return true;
    }
    for (const clang::Stmt *Child : S->children())
      if (carriesData(Child))
        return true;
    return false;
  }

  /// Whether a kernel's parameter I is a pointer to const (the kernel only
  /// reads through it). Unknown kernels and parameters may write.
  static bool readOnly(const clang::FunctionDecl *Kernel, unsigned I) {
    if (!Kernel || I >= Kernel->getNumParams())
      return false;
    clang::QualType T = Kernel->getParamDecl(I)->getType();
    return T->isPointerType() && T->getPointeeType().isConstQualified();
  }

  const CudaRuleContext &Ctx;
  const clang::FunctionDecl &F;
  unsigned LambdaDepth = 0;
  std::vector<const clang::ReturnStmt *> Returns;
  std::vector<std::pair<const clang::VarDecl *, const clang::Expr *>> Stores;
  std::set<const clang::VarDecl *> Bases;
  std::set<const clang::VarDecl *> Carriers;
  ReturnedTensor *Current = nullptr;
};

class EntryLaunchRule : public CudaRule {
public:
  const char *id() const override { return Id; }
  void check(CudaRuleContext &Ctx) override {
    if (Exported.empty())
      Exported = Ctx.Exported;
    std::set<std::string> Names;
    for (const auto &Export : Ctx.Exported)
      Names.insert(Export.first);
    for (clang::Decl *D : Ctx.AST.getTraversalScope())
      analyze(Ctx, Names, D);
  }

  void finish(const ExtensionFacts &Facts, const LoadInlineCall &,
              const PythonModule &M, FindingSink &Sink) override {
    for (const auto &[Name, Node] : Exported) {
      if (!Facts.Defined.count(Name)) {
        Sink.report(Id, M.locate(*Node),
                    "exported function '" + Name +
                        "' is not defined in the extension's sources");
        continue;
      }
      if (!Facts.reaches(Name, Facts.Launchers)) {
        Sink.report(Id, M.locate(*Node),
                    "exported function '" + Name + "' launches no kernel");
        continue;
      }
      auto It = Entries.find(Name);
      if (It == Entries.end())
        continue;
      std::set<std::pair<unsigned, unsigned>> Bypasses;
      for (const SourceLocation &Where :
           launchFreeReturns(Facts, It->second.Paths)) {
        Bypasses.insert({Where.Line, Where.Column});
        Sink.report(Id, Where,
                    "exported function '" + Name +
                        "' can return here without launching a kernel");
      }
      for (const ReturnedTensor &T : It->second.Returned)
        if (!Bypasses.count({T.Where.Line, T.Where.Column}) &&
            !written(Facts, T))
          Sink.report(Id, T.Where,
                      "exported function '" + Name + "' returns '" + T.Text +
                          "', whose data no kernel launch writes");
    }
  }

private:
  /// Analyzes the exported functions D defines (in namespaces too).
  void analyze(const CudaRuleContext &Ctx, const std::set<std::string> &Names,
               const clang::Decl *D) {
    if (const auto *Scope = llvm::dyn_cast<clang::DeclContext>(D))
      if (llvm::isa<clang::NamespaceDecl>(D) ||
          llvm::isa<clang::LinkageSpecDecl>(D)) {
        for (const clang::Decl *Inner : Scope->decls())
          analyze(Ctx, Names, Inner);
        return;
      }
    const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D);
    if (!F || !F->doesThisDeclarationHaveABody() || !Ctx.isUserDecl(F) ||
        !F->getIdentifier() || !Names.count(F->getName().str()) ||
        F->isDependentContext())
      return;
    EntryPoint &E = Entries[F->getName().str()];
    E.Paths = buildPaths(Ctx, *F);
    if (isTensorType(F->getReturnType()))
      E.Returned = ReturnAnalysis(Ctx, *F).run(E.Paths.LiveReturns);
  }

  /// Direct, or through one of Callees that reaches a launcher.
  static bool launchesVia(const ExtensionFacts &Facts, bool Direct,
                          const std::set<std::string> &Callees) {
    if (Direct)
      return true;
    for (const std::string &F : Callees)
      if (Facts.reaches(F, Facts.Launchers))
        return true;
    return false;
  }
  static bool launches(const ExtensionFacts &Facts, const Work &W) {
    return launchesVia(Facts, W.Launches, W.Calls);
  }
  static bool written(const ExtensionFacts &Facts, const ReturnedTensor &T) {
    return launchesVia(Facts, T.Written, T.Helpers);
  }

  /// The normal returns some path from the entry reaches without a launch:
  /// a forward must-analysis of "launched on every path so far".
  static std::vector<SourceLocation>
  launchFreeReturns(const ExtensionFacts &Facts, const PathGraph &G) {
    size_t N = G.Blocks.size();
    std::vector<bool> Launches(N), Out(N, true);
    for (size_t B = 0; B < N; ++B)
      Launches[B] = launches(Facts, G.Blocks[B]);
    std::vector<std::vector<unsigned>> Preds(N);
    for (size_t B = 0; B < N; ++B)
      for (unsigned S : G.Succs[B])
        Preds[S].push_back(B);
    // Only blocks reachable from the entry take part.
    const std::vector<bool> &Reached = G.Reached;
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (size_t B = 0; B < N; ++B) {
        if (!Reached[B])
          continue;
        bool In = B != G.Entry;
        for (unsigned P : Preds[B])
          if (Reached[P])
            In = In && Out[P];
        bool NewOut = In || Launches[B];
        if (NewOut != Out[B]) {
          Out[B] = NewOut;
          Changed = true;
        }
      }
    }
    std::vector<SourceLocation> Result;
    for (const auto &[Block, Where] : G.Returns)
      if (!Out[Block])
        Result.push_back(Where);
    return Result;
  }

  std::vector<std::pair<std::string, const PyNode *>> Exported;
  std::map<std::string, EntryPoint> Entries;
};

} // namespace

std::unique_ptr<CudaRule> createEntryLaunchRule() {
  return std::make_unique<EntryLaunchRule>();
}

} // namespace kevin
