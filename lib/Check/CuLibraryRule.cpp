//===-- CuLibraryRule.cpp - kevin-cu-library (KEVIN-CU-004) ---------------===//
//
// Library substitution: a reference (call, address, construction) to a
// declaration spelled in a vendor-library header — cuBLAS/cuBLASLt, cuDNN,
// cuFFT, cuSPARSE, cuSOLVER, host cuRAND, NCCL, NVRTC, thrust, device-level
// CUB, device-level CUTLASS, ATen native/BLAS — or an #include of such a
// header, or a call to a function the candidate declared itself (no body)
// under one of those libraries' names, including Fortran BLAS (`sgemm_`).
// Matching the declaration's file is robust to macros, `##` and `using`;
// block- and warp-level CUB stay allowed.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace kevin {
namespace {

const char *const LibraryPaths[] = {
    "cublas",          "cudnn",           "cufft",          "cusparse",
    "cusolver",        "curand.h",        "curand_",        "nccl",
    "nvrtc",           "thrust/",         "cub/device/",    "cub/agent/",
    "cutlass/gemm/device", "cutlass/conv/device",
    "cutlass/library", "ATen/native/",    "ATen/cuda/CUDABlas.h"};
const char *const LibraryPrefixes[] = {"cublas", "cudnn", "cufft", "cusparse",
                                       "cusolver", "curand", "nccl", "nvrtc",
                                       "cblas_"};
// Fortran BLAS entry points that libtorch's BLAS exports.
const char *const BlasNames[] = {"sgemm_", "dgemm_", "hgemm_", "sgemv_",
                                 "dgemv_", "sdot_",  "ddot_",  "saxpy_",
                                 "daxpy_", "sgemm_batch_"};

bool isLibraryPath(const std::string &Path) {
  if (Path.find("curand_kernel.h") != std::string::npos)
    return false; // device-side cuRAND is a building block, not a substitute
  for (const char *L : LibraryPaths)
    if (Path.find(L) != std::string::npos)
      return true;
  return false;
}

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(CudaRuleContext &Ctx) : Ctx(Ctx) {}

  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    // Functions (called or taken by address); library types and enum
    // constants alone do no work.
    if (llvm::isa<clang::FunctionDecl>(E->getDecl()))
      check(E->getDecl(), E->getLocation());
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *E) {
    check(E->getConstructor(), E->getBeginLoc());
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *E) {
    if (llvm::isa<clang::FunctionDecl>(E->getMemberDecl()))
      check(E->getMemberDecl(), E->getMemberLoc());
    return true;
  }

private:
  void check(const clang::NamedDecl *D, clang::SourceLocation Loc) {
    if (!D || !Ctx.isUserCode(Loc))
      return;
    std::string File = Ctx.declFile(D);
    bool Hit = isLibraryPath(File);
    if (!Hit && Ctx.isUserDecl(D) && llvm::isa<clang::FunctionDecl>(D) &&
        !llvm::cast<clang::FunctionDecl>(D)->hasBody()) {
      std::string Name = D->getNameAsString();
      for (const char *P : LibraryPrefixes)
        Hit |= Name.rfind(P, 0) == 0;
      for (const char *B : BlasNames)
        Hit |= Name == B;
    }
    if (Hit)
      Ctx.report("kevin-cu-library", Loc,
                 "use of the library function '" +
                     D->getQualifiedNameAsString() +
                     "' (write the kernel instead of calling a library)");
  }
  CudaRuleContext &Ctx;
};

class LibraryRule : public CudaRule {
public:
  const char *id() const override { return "kevin-cu-library"; }
  void check(CudaRuleContext &Ctx) override {
    for (const IncludeRecord &I : Ctx.Includes)
      if (Ctx.isUserCode(I.Loc) && isLibraryPath(I.Name))
        Ctx.report(id(), I.Loc, "#include of the library header '" + I.Name + "'");
    Visitor(Ctx).TraverseAST(Ctx.AST);
  }
};

} // namespace

std::unique_ptr<CudaRule> createLibraryRule() {
  return std::make_unique<LibraryRule>();
}

} // namespace kevin
