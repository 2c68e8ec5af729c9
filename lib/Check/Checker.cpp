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

/// Whether the reference's expression E (in get_inputs, or at module scope
/// when Fn is null) makes a tensor: a torch call somewhere in it says yes, a
/// number, None or an int()/float()/bool() conversion says no; a name is
/// followed to its assignments. Unset when it cannot tell.
static std::optional<bool> makesTensor(const PythonModule &M, const PyNode &E,
                                       const PyNode *Fn, unsigned Depth) {
  if (Depth > 8)
    return std::nullopt;
  if (isNode(E, "Constant"))
    return false;
  if (isNode(E, "Call") && isNode(E["func"], "Name")) {
    const std::string &Id = E["func"]["id"].get_ref<const std::string &>();
    if (Id == "int" || Id == "float" || Id == "bool")
      return false;
  }
  if (isNode(E, "Name")) {
    const std::string &Id = E["id"].get_ref<const std::string &>();
    std::vector<const PyNode *> Values;
    if (Fn)
      walkNodes((*Fn)["body"], [&](const PyNode &S) {
        if (isNode(S, "Assign"))
          for (const std::string &B : PythonModule::boundNames(S))
            if (B == Id)
              Values.push_back(&S["value"]);
        return true;
      });
    if (Values.empty()) {
      auto It = M.moduleBindings().find(Id);
      if (It != M.moduleBindings().end())
        for (const PyNode *S : It->second)
          if (isNode(*S, "Assign") && isNode((*S)["value"], "Constant"))
            Values.push_back(&(*S)["value"]);
      Fn = nullptr;
    }
    std::optional<bool> Result;
    for (const PyNode *V : Values) {
      std::optional<bool> One = makesTensor(M, *V, Fn, Depth + 1);
      if (!One || (Result && *Result != *One))
        return std::nullopt;
      Result = One;
    }
    return Result;
  }
  bool TorchCall = false;
  walkNodes(E, [&](const PyNode &N) {
    if (isNode(N, "Call") && M.qualifiedName(N["func"]).rfind("torch.", 0) == 0)
      TorchCall = true;
    return !TorchCall;
  });
  if (TorchCall)
    return true;
  return std::nullopt;
}

/// What the reference says about each argument of Model.forward: its
/// annotation, its default, or what get_inputs passes at its position.
static std::vector<std::optional<bool>>
forwardTensorArgs(const PythonModule &M) {
  std::vector<std::optional<bool>> Result;
  const PyNode *Model = M.findTopLevel("Model", "ClassDef");
  if (!Model)
    return Result;
  const PyNode *Forward = nullptr;
  for (const PyNode &S : (*Model)["body"])
    if (isNode(S, "FunctionDef") && S["name"] == "forward")
      Forward = &S;
  if (!Forward)
    return Result;
  std::vector<const PyNode *> Params;
  for (const char *Key : {"posonlyargs", "args"})
    for (const PyNode &A : (*Forward)["args"][Key])
      Params.push_back(&A);
  if (Params.empty())
    return Result;
  Params.erase(Params.begin()); // self
  size_t Defaults = (*Forward)["args"]["defaults"].size();
  const PyNode *Get = M.findTopLevel("get_inputs", "FunctionDef");
  const PyNode *Inputs = nullptr;
  if (Get)
    walkNodes((*Get)["body"], [&](const PyNode &S) {
      if (isNode(S, "Return") &&
          (isNode(S["value"], "List") || isNode(S["value"], "Tuple")))
        Inputs = &S["value"]["elts"];
      return true;
    });
  for (size_t I = 0; I < Params.size(); ++I) {
    const PyNode &Annotation = (*Params[I])["annotation"];
    std::optional<bool> Verdict;
    if (M.qualifiedName(Annotation) == "torch.Tensor")
      Verdict = true;
    else if (isNode(Annotation, "Name") &&
             (Annotation["id"] == "int" || Annotation["id"] == "float" ||
              Annotation["id"] == "bool" || Annotation["id"] == "str"))
      Verdict = false;
    else if (I + Defaults >= Params.size())
      Verdict = false;
    else if (Inputs && I < Inputs->size() && !isNode((*Inputs)[I], "Starred"))
      Verdict = makesTensor(M, (*Inputs)[I], Get, 0);
    Result.push_back(Verdict);
  }
  return Result;
}

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
      if (isNode(S, "Assign") || isNode(S, "AnnAssign"))
        walkNodes(S["value"], [&](const PyNode &N) {
          if (isNode(N, "Constant") && N.value("vtype", "") == "int" &&
              N["value"].is_number_integer())
            Info.IntConstants.insert(N["value"].get<long long>());
          return true;
        });
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
  Info.ForwardTensorArgs = forwardTensorArgs(*M);
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
                                     const CheckPolicy &P, const TaskInfo *Task,
                                     const CheckOptions &Options) {
  CheckResult Result;
  FindingSink Sink(P);
  Expected<PythonModule> M = PythonModule::parse(Source, P.limits());
  if (!M) {
    const Error &E = M.error();
    if (E.location().Line == 0 && E.location().File.empty())
      return E; // the embedded interpreter itself failed
    if (const LimitInfo *Limit = exceededLimit(E)) {
      Result.Findings.push_back(limitFinding(E, *Limit, Source.Path));
      return Result;
    }
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
  Expected<ExtensionParse> Parse =
      checkExtensions(*M, Facts, P, Options, Task, Sink);
  if (!Parse)
    return Parse.error();
  Result.ParserUsed = Parse->Parser;
  Result.ParseIncomplete = Parse->Incomplete;
  Result.Findings = std::move(Sink.findings());
  sortFindings(Result.Findings);
  return Result;
}

} // namespace kevin
