//===-- kevin/Check/CudaRule.h - rules over the Clang AST -------*- C++ -*-===//
//
// The C++/CUDA side of the checker. For each load_inline call kevin builds
// the translation units load_inline would write (main.cpp: the torch
// extension header, cpp_sources and the generated binding of `functions`;
// cuda.cu: the implicit headers and cuda_sources), parses them in memory
// with Clang 14 as C++ and as host-side CUDA, and runs one rule class per
// KEVIN-CU rule over the AST. Rules match resolved declarations, never
// spellings, so macros, `##` pasting and aliases are seen through
// (KEVIN-CU-011). Every location maps back to the .py line and column of
// the string literal that produced it.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_CHECK_CUDARULE_H
#define KEVIN_CHECK_CUDARULE_H

#include "kevin/Check/Checker.h"
#include "kevin/Check/PythonRule.h"
#include "kevin/Task/LoadInline.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace kevin {

/// One translation unit load_inline would compile.
struct CudaUnit {
  std::string FileName; ///< `main.cpp` or `cuda.cu`
  bool IsCuda = false;
  MappedText Text; ///< The whole TU, each byte mapped into the .py.
  /// Byte ranges [begin, end) of Text that come from the candidate's
  /// sources (the rest is what load_inline adds).
  std::vector<std::pair<size_t, size_t>> UserRanges;
  const LoadInlineCall *Call = nullptr;
};

/// An #include directive of a TU, as written.
struct IncludeRecord {
  std::string Name;
  clang::SourceLocation Loc;
  bool Angled = false;
};

/// What a rule sees of one parsed translation unit.
struct CudaRuleContext {
  clang::ASTContext &AST;
  const CudaUnit &Unit;
  const PythonModule &M;
  const CheckPolicy &P;
  FindingSink &Sink;
  /// The names listed in `functions=` for this extension.
  const std::vector<std::pair<std::string, const PyNode *>> &Exported;
  /// Every #include the preprocessor saw (headers included).
  const std::vector<IncludeRecord> &Includes;
  /// Every reference to the TORCH_EXTENSION_NAME macro the preprocessor
  /// saw (expansions, `defined`, #ifdef, #define, #undef), the name's token.
  const std::vector<clang::SourceLocation> &ExtensionNameUses;
  /// The task (kevin-check --task), or null.
  const TaskInfo *Task = nullptr;

  const clang::SourceManager &sourceManager() const {
    return AST.getSourceManager();
  }
  /// True when Loc (after macro argument spelling) is in the candidate's
  /// own text rather than in a header or a macro body from a header.
  bool isUserCode(clang::SourceLocation Loc) const;
  /// True when the declaration is written in the candidate's own text.
  bool isUserDecl(const clang::Decl *D) const;
  /// The .py position of a clang location.
  SourceLocation locate(clang::SourceLocation Loc) const;
  /// The path of the file a declaration is spelled in ("" if unknown).
  std::string declFile(const clang::Decl *D) const;
  /// Reports a finding; MaxSeverity caps the policy's severity (a rule's
  /// grey-zone cases are warnings).
  void report(const char *Rule, clang::SourceLocation Loc, std::string Message,
              Severity MaxSeverity = Severity::Error) const;
};

/// Facts collected over every TU of one extension, for rules that need the
/// whole extension (kernels and launches may sit in either TU).
struct ExtensionFacts {
  /// Functions defined in the candidate whose body writes memory (a store
  /// through a pointer, reference or accessor, an atomic, or store PTX).
  std::set<std::string> Writers;
  /// Kernels defined in the candidate.
  std::set<std::string> Kernels;
  /// Functions defined in the candidate (by name) that launch a kernel
  /// directly, and the candidate functions each one calls.
  std::set<std::string> Launchers;
  std::map<std::string, std::set<std::string>> Calls;
  /// For each function in Launchers, the kernels it launches directly.
  std::map<std::string, std::set<std::string>> Launches;
  std::set<std::string> Defined;

  /// Whether From, or a candidate function it calls directly or through
  /// others, is in Targets (Writers, Launchers).
  bool reaches(const std::string &From,
               const std::set<std::string> &Targets) const;
};

class CudaRule {
public:
  virtual ~CudaRule() = default;
  virtual const char *id() const = 0;
  /// Runs over one parsed TU.
  virtual void check(CudaRuleContext &Ctx) = 0;
  /// Runs once per extension after every TU, with the extension's facts.
  virtual void finish(const ExtensionFacts &Facts, const LoadInlineCall &Call,
                      const PythonModule &M, FindingSink &Sink) {}
};

/// Every CUDA rule, in catalog order (fresh instances: rules may keep state
/// across the TUs of one extension).
std::vector<std::unique_ptr<CudaRule>> createCudaRules();

/// The name of the kernel a launch calls (also in a template, before
/// instantiation), or "" when the callee is not a named function.
std::string launchedKernel(const clang::CUDAKernelCallExpr *E);

/// Whether an assignment to E writes memory rather than a local variable:
/// a subscript, a dereference, a member through a pointer, or a reference.
bool isStoreTarget(const clang::Expr *E);

/// True for at::Tensor and at::TensorBase.
bool isTensorClass(const clang::CXXRecordDecl *R);

/// The name of the at::Tensor / at::TensorBase method E calls, or "".
std::string tensorMethodName(const clang::Expr *E);

/// The tensor a chain of view calls (`y.view(...).t()`, `x.select(0, b)`)
/// starts from, through parentheses, casts, copies and std::move; E itself
/// when it is no view.
const clang::Expr *tensorViewBase(const clang::Expr *E);

/// Collects ExtensionFacts from one TU.
void collectExtensionFacts(CudaRuleContext &Ctx, ExtensionFacts &Facts);

/// The outcome of the C++/CUDA parse of a candidate's extensions.
struct ExtensionParse {
  /// Which parser gave the verdict ("lean", "full", "none").
  std::string Parser = "none";
  /// Empty when every unit parsed, or failed in the candidate's own lines;
  /// otherwise why kevin could not parse it (an error inside kevin's
  /// preludes or the torch/CUDA headers, a header kevin does not have):
  /// kevin's limit, left to the builder, not a finding.
  std::string Incomplete;
};

/// Builds and parses the TUs of every load_inline call and runs the CUDA
/// rules.
Expected<ExtensionParse> checkExtensions(const PythonModule &M,
                                      const PythonFacts &Facts,
                                      const CheckPolicy &P,
                                      const CheckOptions &Options,
                                      const TaskInfo *Task, FindingSink &Sink);

} // namespace kevin

#endif // KEVIN_CHECK_CUDARULE_H
