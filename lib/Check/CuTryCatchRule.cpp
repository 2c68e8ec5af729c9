//===-- CuTryCatchRule.cpp - kevin-cu-try-catch (KEVIN-CU-008) ------------===//
//
// Rejects every C++ try statement in the candidate's sources: catching an
// exception is how a host wrapper falls back to ATen when its kernel fails.
// Throwing (TORCH_CHECK) is fine; "try" in comments or strings is not a
// statement and never matches.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace kevin {
namespace {

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(CudaRuleContext &Ctx) : Ctx(Ctx) {}
  bool VisitCXXTryStmt(clang::CXXTryStmt *S) {
    if (Ctx.isUserCode(S->getTryLoc()))
      Ctx.report("kevin-cu-try-catch", S->getTryLoc(),
                 "C++ try/catch (a fallback path around the kernel)");
    return true;
  }

private:
  CudaRuleContext &Ctx;
};

class TryCatchRule : public CudaRule {
public:
  const char *id() const override { return "kevin-cu-try-catch"; }
  void check(CudaRuleContext &Ctx) override {
    Visitor(Ctx).TraverseAST(Ctx.AST);
  }
};

} // namespace

std::unique_ptr<CudaRule> createTryCatchRule() {
  return std::make_unique<TryCatchRule>();
}

} // namespace kevin
