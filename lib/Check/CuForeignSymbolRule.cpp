//===-- CuForeignSymbolRule.cpp - kevin-cu-foreign-symbol (KEVIN-CU-012) --===//
//
// Rejects entry points and symbols the other rules cannot see through: a
// user-written PYBIND11_MODULE or TORCH_LIBRARY (load_inline binds exactly
// the `functions` it is given), weak or alias attributes, and functions the
// candidate declares but no unit of the extension defines, which the linker
// would resolve to a library or runtime symbol (a cuBLAS call declared by
// hand, say), and user code that names TORCH_EXTENSION_NAME (the module name
// belongs to the binding load_inline generates: a use is a second binding or
// a redefinition of the module). Redeclaring an API the headers already
// declare is not foreign: the library and runtime rules judge the API itself.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <map>

namespace kevin {
namespace {

bool startsWith(const std::string &S, const char *Prefix) {
  return S.rfind(Prefix, 0) == 0;
}

/// The kind of binding a function's name says the macro expanded to, or null.
const char *bindingMacro(const std::string &Name) {
  for (const char *P : {"pybind11_init_", "PyInit_"})
    if (startsWith(Name, P))
      return "PYBIND11_MODULE";
  for (const char *P : {"TORCH_LIBRARY_init_", "TORCH_LIBRARY_IMPL_init_",
                        "TORCH_LIBRARY_FRAGMENT_init_"})
    if (startsWith(Name, P))
      return "TORCH_LIBRARY";
  return nullptr;
}

bool weakOrAlias(const clang::Decl *D) {
  return D->hasAttr<clang::WeakAttr>() || D->hasAttr<clang::WeakRefAttr>() ||
         D->hasAttr<clang::AliasAttr>() || D->hasAttr<clang::WeakImportAttr>();
}

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
public:
  Visitor(CudaRuleContext &Ctx, std::map<std::string, SourceLocation> &Declared)
      : Ctx(Ctx), Declared(Declared) {}

  bool VisitFunctionDecl(clang::FunctionDecl *F) {
    std::string Name = F->getNameAsString();
    // Binding macros paste the function's name: where the macro was used
    // tells whose it is (kevin's generated binding is not user code).
    if (const char *Macro = bindingMacro(Name)) {
      clang::SourceLocation Used =
          Ctx.sourceManager().getExpansionLoc(F->getLocation());
      if (Ctx.isUserCode(Used))
        Ctx.report("kevin-cu-foreign-symbol", Used,
                   std::string("user-written ") + Macro +
                       ": load_inline binds the functions it is given");
      return true;
    }
    if (!Ctx.isUserDecl(F) || F->isImplicit())
      return true;
    if (weakOrAlias(F)) {
      Ctx.report("kevin-cu-foreign-symbol", F->getLocation(),
                 "weak or alias attribute on '" + Name + "'");
      return true;
    }
    // A declaration without a body, first declared by the candidate.
    if (F->doesThisDeclarationHaveABody() || F->isDeleted() ||
        F->isDefaulted() || llvm::isa<clang::CXXMethodDecl>(F) ||
        F->getFriendObjectKind() != clang::Decl::FOK_None ||
        F->getDescribedFunctionTemplate() || F->getBuiltinID())
      return true;
    for (const clang::FunctionDecl *Prev = F->getPreviousDecl(); Prev;
         Prev = Prev->getPreviousDecl())
      if (!Ctx.isUserDecl(Prev))
        return true; // an API the headers declare
    Declared.emplace(Name, Ctx.locate(F->getLocation()));
    return true;
  }

  bool VisitVarDecl(clang::VarDecl *V) {
    if (Ctx.isUserDecl(V) && weakOrAlias(V))
      Ctx.report("kevin-cu-foreign-symbol", V->getLocation(),
                 "weak or alias attribute on '" + V->getNameAsString() + "'");
    return true;
  }

private:
  CudaRuleContext &Ctx;
  std::map<std::string, SourceLocation> &Declared;
};

class ForeignSymbolRule : public CudaRule {
public:
  const char *id() const override { return "kevin-cu-foreign-symbol"; }
  void check(CudaRuleContext &Ctx) override {
    Visitor(Ctx, Declared).TraverseAST(Ctx.AST);
    // The prefix kevin writes defines the macro and the generated binding
    // expands it; neither is user code.
    for (clang::SourceLocation Use : Ctx.ExtensionNameUses)
      if (Ctx.isUserCode(Use))
        Ctx.report(id(), Use,
                   "user code names TORCH_EXTENSION_NAME: the module name "
                   "belongs to the binding load_inline generates");
  }
  void finish(const ExtensionFacts &Facts, const LoadInlineCall &,
              const PythonModule &, FindingSink &Sink) override {
    for (const auto &[Name, Where] : Declared)
      if (!Facts.Defined.count(Name))
        Sink.report("kevin-cu-foreign-symbol", Where,
                    "'" + Name +
                        "' is declared but no source of the extension defines "
                        "it: the linker would take it from a library");
  }

private:
  std::map<std::string, SourceLocation> Declared;
};

} // namespace

std::unique_ptr<CudaRule> createForeignSymbolRule() {
  return std::make_unique<ForeignSymbolRule>();
}

} // namespace kevin
