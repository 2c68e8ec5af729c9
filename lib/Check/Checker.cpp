//===-- Checker.cpp - the static anti-hacking checker ---------------------===//
//
// Runs the Python rules, then builds the translation units load_inline would
// compile and runs the C++/CUDA rules over them.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/Checker.h"
#include "kevin/Check/CudaRule.h"
#include "kevin/Check/PythonRule.h"
#include "kevin/Task/LoadInline.h"

#include <algorithm>
#include <functional>
#include <tuple>

namespace kevin {

Expected<TaskInfo> loadTaskInfo(const std::string &Path) {
  Expected<std::string> Text = readCandidateFile(Path);
  if (!Text)
    return Text.error();
  CandidateSource Source{Path, *Text, 0};
  Expected<PythonModule> M = PythonModule::parse(Source);
  if (!M)
    return M.error().withContext("cannot parse the task file");
  TaskInfo Info;
  Info.Path = Path;
  // Module-scope bindings, including those inside top-level if/for/while/
  // with/try blocks (tasks pick their sizes under `if PROFILE == ...`).
  std::function<void(const PyNode &)> Collect = [&](const PyNode &Body) {
    for (const PyNode &S : Body) {
      if (!isNode(S, "Import") && !isNode(S, "ImportFrom"))
        for (const std::string &Name : PythonModule::boundNames(S))
          Info.ReferenceNames.insert(Name);
      if (isNode(S, "FunctionDef") || isNode(S, "AsyncFunctionDef") ||
          isNode(S, "ClassDef"))
        continue;
      for (const char *Key : {"body", "orelse", "finalbody"})
        if (S.contains(Key) && S[Key].is_array())
          Collect(S[Key]);
      if (S.contains("handlers"))
        for (const PyNode &H : S["handlers"])
          Collect(H["body"]);
    }
  };
  Collect(M->body());
  static const std::set<std::string> OtherFloat = {
      "float16", "half",   "bfloat16", "float64",  "double",
      "complex64", "complex128", "cfloat", "cdouble", "bf16"};
  Info.Fp32 = true;
  walkNodes(M->root(), [&](const PyNode &N) {
    if (isNode(N, "Attribute") && OtherFloat.count(N["attr"].get<std::string>()))
      Info.Fp32 = false;
    return Info.Fp32;
  });
  return Info;
}

std::string defaultTorchInclude() { return KEVIN_TORCH_INCLUDE; }

void sortFindings(std::vector<Finding> &Findings) {
  auto Key = [](const Finding &F) {
    return std::tie(F.Loc.File, F.Loc.Line, F.Loc.Column, F.Rule, F.Message);
  };
  std::stable_sort(Findings.begin(), Findings.end(),
                   [&](const Finding &A, const Finding &B) {
                     return Key(A) < Key(B);
                   });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [&](const Finding &A, const Finding &B) {
                               return Key(A) == Key(B);
                             }),
                 Findings.end());
}

Expected<CheckResult> checkCandidate(const CandidateSource &Source,
                                     const Policy &P, const TaskInfo *Task,
                                     const CheckOptions &Options) {
  CheckResult Result;
  FindingSink Sink(P);
  Expected<PythonModule> M = PythonModule::parse(Source);
  if (!M) {
    const Error &E = M.error();
    if (E.location().Line == 0 && E.location().File.empty())
      return E; // the embedded interpreter itself failed
    SourceLocation Loc = E.location();
    if (Loc.File.empty())
      Loc.File = Source.Path;
    Sink.report("kevin-py-parse-failure", Loc, E.message());
    Result.Findings = std::move(Sink.findings());
    return Result;
  }
  PythonFacts Facts(*M);
  PyRuleContext Ctx{*M, Facts, P, Task, Sink};
  for (const auto &Rule : createPythonRules())
    Rule->check(Ctx);
  Expected<std::string> Parser = checkExtensions(*M, Facts, P, Options, Task, Sink);
  if (!Parser)
    return Parser.error();
  Result.ParserUsed = *Parser;
  Result.Findings = std::move(Sink.findings());
  sortFindings(Result.Findings);
  return Result;
}

} // namespace kevin
