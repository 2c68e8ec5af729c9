//===-- CuPrecisionDowncastRule.cpp - kevin-cu-precision-downcast (CU-009) ===//
//
// When the task is float32 (kevin-check --task), the C++/CUDA side of a
// precision downcast: half and bfloat16 values (`__half`, `half2`,
// `__nv_bfloat16`, WMMA fragments of them), conversions into them
// (`__float2half*`, `__float2bfloat16*`, `__float_to_tf32`), `at::kHalf` /
// `at::kBFloat16` options, and inline PTX with .f16/.bf16/.tf32 operands.
// A warning: runtime tolerances decide.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace kevin {
namespace {

const char *const Id = "kevin-cu-precision-downcast";

bool lowPrecisionType(clang::QualType T) {
  std::string Name = T.getAsString();
  for (const char *Low : {"__half", "half2", "__nv_bfloat16", "bfloat162",
                          "precision::tf32"})
    if (Name.find(Low) != std::string::npos)
      return true;
  return false;
}

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(CudaRuleContext &Ctx) : Ctx(Ctx) {}

  bool VisitDeclaratorDecl(clang::DeclaratorDecl *D) {
    if (Ctx.isUserDecl(D) && !llvm::isa<clang::FunctionDecl>(D) &&
        lowPrecisionType(D->getType()))
      warn(D->getLocation(), "'" + D->getNameAsString() + "' holds " +
                                 D->getType().getAsString() + " values");
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *E) {
    const clang::FunctionDecl *F = E->getDirectCallee();
    if (!F || !F->getIdentifier() || !Ctx.isUserCode(E->getBeginLoc()))
      return true;
    std::string Name = F->getNameAsString();
    if (Name.rfind("__float2half", 0) == 0 ||
        Name.rfind("__float2bfloat16", 0) == 0 ||
        Name.rfind("__floats2half2", 0) == 0 ||
        Name.rfind("__floats2bfloat162", 0) == 0 || Name == "__float_to_tf32")
      warn(E->getBeginLoc(), "'" + Name + "' converts to a lower precision");
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    const clang::ValueDecl *D = E->getDecl();
    if (D && D->getIdentifier() &&
        (D->getName() == "kHalf" || D->getName() == "kBFloat16") &&
        Ctx.isUserCode(E->getLocation()))
      warn(E->getLocation(), "'" + D->getNameAsString() + "' tensors");
    return true;
  }
  bool VisitGCCAsmStmt(clang::GCCAsmStmt *S) {
    std::string Text = S->getAsmString()->getString().str();
    if (Ctx.isUserCode(S->getAsmLoc()))
      for (const char *Low : {".f16", ".bf16", ".tf32"})
        if (Text.find(Low) != std::string::npos) {
          warn(S->getAsmLoc(), std::string("inline PTX with ") + Low +
                                   " operands");
          break;
        }
    return true;
  }

private:
  void warn(clang::SourceLocation Loc, const std::string &What) {
    Ctx.report(Id, Loc, What + " in a float32 task",
               Severity::Warning);
  }
  CudaRuleContext &Ctx;
};

class PrecisionDowncastRule : public CudaRule {
public:
  const char *id() const override { return Id; }
  void check(CudaRuleContext &Ctx) override {
    if (Ctx.Task && Ctx.Task->Fp32)
      Visitor(Ctx).TraverseAST(Ctx.AST);
  }
};

} // namespace

std::unique_ptr<CudaRule> createCuPrecisionDowncastRule() {
  return std::make_unique<PrecisionDowncastRule>();
}

} // namespace kevin
