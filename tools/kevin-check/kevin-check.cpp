//===-- kevin-check.cpp - the static anti-reward-hacking checker ----------===//
//
// kevin-check reads candidates (KernelBench ModelNew files, or raw model
// responses with --response) and reports, without executing anything, the
// reward hacks its Python and Clang rules find:
//
//   cand.py:41:9: error: try statement (...) [kevin-py-try-except]
//
// With no file (or `-`) it reads JSON Lines records on stdin and adds a
// `check` section to each. Each candidate is checked in a child process of
// its own, within the policy's limits (kevin/Check/BoundedCheck.h). Exit
// status: 0 clean, 1 findings, 2 tool error.
//
//===----------------------------------------------------------------------===//
#include "kevin/Check/BoundedCheck.h"
#include "kevin/Check/CheckPolicy.h"
#include "kevin/Check/Checker.h"
#include "kevin/Check/Finding.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/ToolMain.h"
#include "kevin/Task/Candidate.h"
#include "kevin/Task/ModelResponse.h"

#include <iostream>
#include <map>
#include <memory>

using namespace kevin;

namespace {

struct Options {
  std::vector<std::string> Inputs;
  bool Response = false;
  std::string Task;
  std::string PolicyFile;
  std::string Preset = "strict";
  std::string Format = "text";
  std::string Parser = "auto";
  std::string TorchInclude = defaultTorchInclude();
  std::vector<std::string> Includes;
  bool ListRules = false;
};

// A candidate's source, or a finding explaining why there is none.
Expected<CandidateSource> candidateFrom(const std::string &Text,
                                        const std::string &Path, bool Response,
                                        const CandidateLimits &Limits) {
  if (Error E = checkCandidateSize(Path, Text.size(), Limits))
    return E;
  if (Error E = validateCandidateText(Text, Path))
    return E;
  if (!Response)
    return CandidateSource{Path, Text, 0};
  ParsedResponse Parsed = parseResponse(Text);
  if (!Parsed.HasCode)
    return Error::inFile(Path, Parsed.Problem);
  return CandidateSource{Path, Parsed.Code, Parsed.CodeLine - 1};
}

/// The finding that says why a candidate is not checked: a limit it is over,
/// or why it is no parseable python (kevin-py-parse-failure).
Finding inputFinding(const Error &E, const CheckPolicy &P,
                     const std::string &Path) {
  if (const LimitInfo *Limit = exceededLimit(E))
    return limitFinding(E, *Limit, Path);
  Finding F;
  F.Rule = "kevin-py-parse-failure";
  F.CatalogId = findRule(F.Rule)->CatalogId;
  F.Sev = P.severity(F.Rule);
  F.Loc = E.location();
  if (F.Loc.File.empty())
    F.Loc.File = Path;
  F.Message = E.message();
  return F;
}

/// Adds why a candidate is not checked to R: always a limit's finding, a
/// parse failure when the policy enables that rule.
void addUnusable(CheckResult &R, const Error &E, const CheckPolicy &P,
                 const std::string &Path) {
  if (exceededLimit(E) || P.enabled("kevin-py-parse-failure"))
    R.Findings.push_back(inputFinding(E, P, Path));
}

bool hasErrors(const std::vector<Finding> &Findings) {
  for (const Finding &F : Findings)
    if (F.Sev == Severity::Error)
      return true;
  return false;
}

// Checks one candidate text; findings for unusable input come back as
// parse-failure or limit findings, tool failures as an Error.
Expected<CheckResult> checkText(const std::string &Text,
                                const std::string &Path, bool Response,
                                const CheckPolicy &P, const TaskInfo *Task,
                                const CheckOptions &CO) {
  Expected<CandidateSource> Source =
      candidateFrom(Text, Path, Response, P.limits());
  if (!Source) {
    CheckResult R;
    addUnusable(R, Source.error(), P, Path);
    return R;
  }
  if (Source->Text.find_first_not_of(" \t\r\n") == std::string::npos) {
    CheckResult R;
    addUnusable(R, Error::at({Path, 1, 1}, "the candidate is empty"), P, Path);
    return R;
  }
  return checkCandidate(*Source, P, Task, CO);
}

/// checkText in a child of its own, within the policy's time and memory.
Expected<CheckResult> checkBounded(const std::string &Text,
                                   const std::string &Path, bool Response,
                                   const CheckPolicy &P, const TaskInfo *Task,
                                   const CheckOptions &CO) {
  return checkWithinLimits(
      [&] { return checkText(Text, Path, Response, P, Task, CO); },
      P.limits(), Path);
}

/// Whether a finding is a limit's: the candidate was refused, not checked.
bool overLimit(const CheckResult &R) {
  for (const Finding &F : R.Findings)
    if (findLimit(F.Rule))
      return true;
  return false;
}

Json sectionFor(const CheckResult &R, const CheckPolicy &P) {
  Json Section = Json::object();
  Section["ok"] = !hasErrors(R.Findings);
  Json Findings = Json::array();
  for (const Finding &F : R.Findings)
    Findings.push_back(findingToJson(F));
  Section["findings"] = std::move(Findings);
  Section["policy"] = P.name();
  Section["parser"] = R.ParserUsed;
  if (!R.ParseIncomplete.empty()) {
    // kevin's limit, not the candidate's: the builder's verdict rules.
    Section["parse"] = "incomplete";
    Section["parse_reason"] = R.ParseIncomplete;
  }
  if (overLimit(R))
    Section["outcome"] = "format-error";
  return Section;
}

/// The check section of a record that could not be checked (a line that is
/// not JSON, a candidate that cannot be read, a task that does not load):
/// not ok, its reason a finding at its position, outcome input-error.
Json uncheckedSection(const Error &E, const CheckPolicy &P,
                      const std::string &Path) {
  CheckResult R;
  R.Findings.push_back(inputFinding(E, P, Path));
  R.Findings.back().Sev = Severity::Error;
  Json Section = sectionFor(R, P);
  Section["outcome"] = "input-error";
  return Section;
}

/// The check section of a record kevin-check failed on (the tool's failure,
/// not the candidate's): not ok, no findings, outcome tool-error.
Json failedSection(const Error &E, const CheckPolicy &P) {
  Json Section = sectionFor(CheckResult(), P);
  Section["ok"] = false;
  Section["outcome"] = "tool-error";
  Section["message"] = diagnosticLine(E);
  return Section;
}

int listRules(const CheckPolicy &P) {
  for (const RuleInfo &R : ruleCatalog()) {
    const char *Setting = !P.enabled(R.Id) ? "off"
                          : P.severity(R.Id) == Severity::Warning ? "warning"
                                                                   : "error";
    std::cout << R.Id << " " << R.CatalogId << " " << Setting << ": "
              << R.Summary << "\n";
  }
  return ExitClean;
}

class TaskCache {
public:
  Expected<const TaskInfo *> get(const std::string &Path) {
    if (Path.empty())
      return static_cast<const TaskInfo *>(nullptr);
    auto It = Cache.find(Path);
    if (It == Cache.end()) {
      Expected<TaskInfo> Info = loadTaskInfo(Path);
      if (!Info)
        return Info.error();
      It = Cache.emplace(Path, std::make_unique<TaskInfo>(std::move(*Info))).first;
    }
    return static_cast<const TaskInfo *>(It->second.get());
  }

private:
  std::map<std::string, std::unique_ptr<TaskInfo>> Cache;
};

int runPipeline(ToolContext &Ctx, const Options &O, const CheckPolicy &P,
                const CheckOptions &CO, TaskCache &Tasks) {
  RecordReader Reader(std::cin, "<stdin>");
  RecordWriter Writer(std::cout);
  bool AnyFindings = false, ToolError = false;
  Record R;
  // Every line gives one record: one that cannot be checked says why in its
  // check section; only a failure to read the stream itself ends the run.
  auto unchecked = [&](Json Out, const Error &E, const std::string &Path) {
    Ctx.error(E);
    Out["check"] = uncheckedSection(E, P, Path);
    Writer.write(Out);
    AnyFindings = true;
  };
  while (true) {
    Expected<bool> More = Reader.next(R);
    if (!More && std::cin.bad()) {
      Ctx.error(More.error());
      return ExitError;
    }
    if (!More) {
      unchecked(badLineRecord(More.error()), More.error(), "<stdin>");
      continue;
    }
    if (!*More)
      break;
    const Json &V = R.Value;
    std::string Text, Path;
    bool Response = O.Response;
    if (V.contains("candidate_path") && V["candidate_path"].is_string()) {
      Path = V["candidate_path"].get<std::string>();
      Expected<std::string> File = readCandidateFile(Path, P.limits());
      if (!File && exceededLimit(File.error())) {
        // Refused unread, as a candidate over the limit is.
        CheckResult Refused;
        addUnusable(Refused, File.error(), P, Path);
        Json Out = V;
        Out["check"] = sectionFor(Refused, P);
        Writer.write(Out);
        AnyFindings = true;
        continue;
      }
      if (!File) {
        unchecked(V, File.error().withContext(describeRecord(R)), Path);
        continue;
      }
      Text = *File;
    } else if (V.contains("code") && V["code"].is_string()) {
      Text = V["code"].get<std::string>();
      Path = "<" + describeRecord(R) + ">";
    } else if (V.contains("response") && V["response"].is_string()) {
      Text = V["response"].get<std::string>();
      Path = "<" + describeRecord(R) + ">";
      Response = true;
    } else {
      unchecked(V,
                Error::at(R.Origin, describeRecord(R) +
                                        ": missing required field "
                                        "'candidate_path', 'code' or "
                                        "'response'"),
                "<stdin>");
      continue;
    }
    std::string TaskPath = O.Task;
    if (TaskPath.empty() && V.contains("task_path") && V["task_path"].is_string())
      TaskPath = V["task_path"].get<std::string>();
    Expected<const TaskInfo *> Task = Tasks.get(TaskPath);
    if (!Task) {
      unchecked(V, Task.error(), TaskPath);
      continue;
    }
    Expected<CheckResult> Result =
        checkBounded(Text, Path, Response, P, *Task, CO);
    Json Out = R.Value;
    // A response's code goes into the record, for the stages after.
    fillCodeFromResponse(Out);
    if (!Result) {
      // Still one record; the exit status says kevin-check failed.
      Ctx.error(Result.error());
      ToolError = true;
      Out["check"] = failedSection(Result.error(), P);
    } else {
      AnyFindings |= hasErrors(Result->Findings);
      Out["check"] = sectionFor(*Result, P);
    }
    Writer.write(Out);
  }
  return ToolError ? ExitError : AnyFindings ? ExitFindings : ExitClean;
}

/// --format=json's object for one file: `{"file": ..., "check": {...}}`.
void printFileRecord(const std::string &Path, Json Check) {
  Json Out = Json::object();
  Out["file"] = Path;
  Out["check"] = std::move(Check);
  std::cout << formatRecordLine(Out) << "\n";
}

/// Checks the candidate files named on the command line, printing findings
/// (or, with --format=json, one object per file).
int checkFiles(ToolContext &Ctx, const Options &O, const CheckPolicy &P,
               const CheckOptions &CO, const TaskInfo *Task) {
  bool AnyFindings = false, ToolError = false;
  for (const std::string &Path : O.Inputs) {
    Expected<std::string> Text = readCandidateFile(Path, P.limits());
    CheckResult Result;
    if (!Text) {
      // A file that exists but is not a usable candidate is a finding; one
      // that cannot be read is a tool error.
      const Error &E = Text.error();
      if (E.kind() == ErrorKind::FileAccess) {
        Ctx.error(E);
        return ExitError;
      }
      addUnusable(Result, E, P, Path);
    } else {
      Expected<CheckResult> R =
          checkBounded(*Text, Path, O.Response, P, Task, CO);
      if (!R) {
        // The other files are still checked; the exit status says it.
        Ctx.error(R.error());
        ToolError = true;
        if (O.Format == "json")
          printFileRecord(Path, failedSection(R.error(), P));
        continue;
      }
      Result = std::move(*R);
    }
    AnyFindings |= hasErrors(Result.Findings);
    if (O.Format == "json") {
      printFileRecord(Path, sectionFor(Result, P));
    } else {
      for (const Finding &F : Result.Findings)
        std::cout << formatFinding(F) << "\n";
      if (!Result.ParseIncomplete.empty())
        std::cout << Path << ": note: C++/CUDA parse incomplete (kevin's "
                  << "limit, left to the builder): " << Result.ParseIncomplete
                  << "\n";
    }
  }
  std::cout.flush();
  return ToolError ? ExitError : AnyFindings ? ExitFindings : ExitClean;
}

} // namespace

int main(int Argc, char **Argv) {
  ToolContext Ctx("kevin-check");
  Options O;
  CLI::App App("kevin-check: static anti-reward-hacking checks for "
               "KernelBench candidates (Python AST + Clang AST)",
               "kevin-check");
  App.add_option("inputs", O.Inputs,
                 "candidate files (.py, or responses with --response); none "
                 "or '-' reads JSON Lines records on stdin");
  App.add_flag("--response", O.Response,
               "inputs are raw model responses: check the final python block");
  App.add_option("--task", O.Task, "the task's reference file (its names are "
                                   "off limits to the candidate)");
  App.add_option("--policy", O.PolicyFile, "a TOML policy file");
  std::string Presets;
  for (const std::string &Name : CheckPolicy::presetNames())
    Presets += (Presets.empty() ? "" : ", ") + Name;
  App.add_option("--preset", O.Preset,
                 "a built-in policy (default strict): " + Presets);
  App.add_option("--format", O.Format, "text (default) or json")
      ->check(CLI::IsMember({"text", "json"}));
  App.add_option("--parser", O.Parser,
                 "C++/CUDA parse: auto (lean prelude, then torch headers), "
                 "lean or full")
      ->check(CLI::IsMember({"auto", "lean", "full"}));
  App.add_option("--torch-include", O.TorchInclude,
                 "torch include directory for full parses");
  App.add_option("-I", O.Includes, "extra include directory for C++/CUDA parses");
  App.add_flag("--list-rules", O.ListRules, "list the rules and their settings");
  if (std::optional<int> Code = parseCommandLine(App, Argc, Argv))
    return *Code;

  Expected<CheckPolicy> P = O.PolicyFile.empty()
                                ? CheckPolicy::preset(O.Preset)
                                : CheckPolicy::load(O.PolicyFile);
  if (!P) {
    Ctx.error(P.error());
    return ExitError;
  }
  if (O.ListRules)
    return listRules(*P);
  CheckOptions CO;
  CO.Parser = O.Parser == "lean"   ? ParserMode::Lean
              : O.Parser == "full" ? ParserMode::Full
                                   : ParserMode::Auto;
  CO.TorchInclude = O.TorchInclude;
  CO.ExtraIncludes = O.Includes;
  TaskCache Tasks;
  if (O.Inputs.empty() || (O.Inputs.size() == 1 && O.Inputs[0] == "-"))
    return runPipeline(Ctx, O, *P, CO, Tasks);

  Expected<const TaskInfo *> Task = Tasks.get(O.Task);
  if (!Task) {
    Ctx.error(Task.error());
    return ExitError;
  }
  return checkFiles(Ctx, O, *P, CO, *Task);
}
