//===-- CuProcessRule.cpp - kevin-cu-process (KEVIN-CU-006) ---------------===//
//
// No threads (std::thread, std::jthread, std::async, pthreads), processes
// (fork, exec*, system, popen, posix_spawn), native patching (dlopen, dlsym,
// mmap, mprotect, ptrace, syscall), signals and early exit (exit, abort,
// atexit, kill, raise), environment (getenv, setenv, ...), file and socket
// I/O (fopen, open, read, write, fstreams, std::filesystem), sleeps,
// host-side inline asm and constructor/destructor attributes. A function the
// candidate defines itself under one of these names is its own and is not
// reported; a prototype without a body is.
//
//===----------------------------------------------------------------------===//
#include "CudaRules.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace kevin {
namespace {

const char *const Exact[] = {
    "fork",    "vfork",   "system",  "popen",   "dlopen",   "dlsym",
    "dlclose", "dlmopen", "mmap",    "mprotect", "munmap",  "ptrace",
    "syscall", "signal",  "sigaction", "kill",  "raise",    "atexit",
    "at_quick_exit", "exit", "_exit", "_Exit",  "quick_exit", "abort",
    "getenv",  "secure_getenv", "setenv", "putenv", "unsetenv", "fopen",
    "freopen", "fdopen",  "open",    "openat",  "creat",    "read",
    "write",   "pread",   "pwrite",  "dup",     "dup2",     "socket",
    "connect", "bind",    "sleep",   "usleep",  "nanosleep", "sleep_for",
    "sleep_until", "async", "remove", "rename", "unlink",  "chdir",
    "process_vm_readv", "process_vm_writev", "prctl", "setrlimit"};
const char *const Prefixes[] = {"pthread_", "exec", "posix_spawn"};
const char *const Classes[] = {"thread", "jthread", "basic_ifstream",
                               "basic_ofstream", "basic_fstream",
                               "basic_filebuf"};

bool isProcessApi(const clang::FunctionDecl *F) {
  std::string Name = F->getNameAsString();
  for (const char *E : Exact)
    if (Name == E)
      return true;
  for (const char *P : Prefixes)
    if (Name.rfind(P, 0) == 0)
      return true;
  return F->getQualifiedNameAsString().find("filesystem::") != std::string::npos;
}

class Visitor : public clang::RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(CudaRuleContext &Ctx) : Ctx(Ctx) {}

  bool TraverseFunctionDecl(clang::FunctionDecl *F) {
    const clang::FunctionDecl *Saved = Current;
    Current = F;
    bool Ok = clang::RecursiveASTVisitor<Visitor>::TraverseFunctionDecl(F);
    Current = Saved;
    return Ok;
  }

  bool VisitFunctionDecl(clang::FunctionDecl *F) {
    if (Ctx.isUserDecl(F) &&
        (F->hasAttr<clang::ConstructorAttr>() || F->hasAttr<clang::DestructorAttr>()))
      Ctx.report("kevin-cu-process", F->getLocation(),
                 "function with a constructor/destructor attribute runs "
                 "outside any call");
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    const auto *F = llvm::dyn_cast<clang::FunctionDecl>(E->getDecl());
    if (!F || !Ctx.isUserCode(E->getLocation()))
      return true;
    if (Ctx.isUserDecl(F) && F->hasBody())
      return true;
    if (isProcessApi(F))
      Ctx.report("kevin-cu-process", E->getLocation(),
                 "use of '" + F->getQualifiedNameAsString() +
                     "' (threads, processes, files, environment and exit are "
                     "not allowed)");
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *E) {
    if (!Ctx.isUserCode(E->getBeginLoc()))
      return true;
    const clang::CXXRecordDecl *R = E->getConstructor()->getParent();
    std::string Q = R->getQualifiedNameAsString();
    if (Q.rfind("std::", 0) != 0)
      return true;
    for (const char *C : Classes)
      if (R->getNameAsString() == C)
        Ctx.report("kevin-cu-process", E->getBeginLoc(),
                   "use of '" + Q + "' (threads and files are not allowed)");
    return true;
  }
  bool VisitGCCAsmStmt(clang::GCCAsmStmt *S) {
    if (!Ctx.isUserCode(S->getAsmLoc()))
      return true;
    bool Device = Current && (Current->hasAttr<clang::CUDADeviceAttr>() ||
                              Current->hasAttr<clang::CUDAGlobalAttr>());
    if (!Device)
      Ctx.report("kevin-cu-process", S->getAsmLoc(), "inline asm in host code");
    return true;
  }
  bool VisitFileScopeAsmDecl(clang::FileScopeAsmDecl *D) {
    if (Ctx.isUserDecl(D))
      Ctx.report("kevin-cu-process", D->getLocation(), "file-scope asm");
    return true;
  }

private:
  CudaRuleContext &Ctx;
  const clang::FunctionDecl *Current = nullptr;
};

class ProcessRule : public CudaRule {
public:
  const char *id() const override { return "kevin-cu-process"; }
  void check(CudaRuleContext &Ctx) override {
    Visitor(Ctx).TraverseAST(Ctx.AST);
  }
};

} // namespace

std::unique_ptr<CudaRule> createProcessRule() {
  return std::make_unique<ProcessRule>();
}

} // namespace kevin
