//===-- Evaluator.cpp - run a record through the stages ------------------===//
//
// One subprocess per stage with the record on stdin and the extended record
// read back from stdout.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/Evaluator.h"
#include "kevin/Support/Subprocess.h"

#include <climits>
#include <unistd.h>

namespace kevin {

std::string executableDirectory() {
  char Path[PATH_MAX];
  ssize_t N = ::readlink("/proc/self/exe", Path, sizeof(Path) - 1);
  if (N <= 0)
    return ".";
  std::string Self(Path, static_cast<size_t>(N));
  return Self.substr(0, Self.find_last_of('/'));
}

PipelineEvaluator::PipelineEvaluator(EvaluatorOptions Opts)
    : Options(std::move(Opts)) {}

Error PipelineEvaluator::verify() const {
  for (const std::string &Stage : Options.Stages) {
    std::string Tool = Options.ToolsDir + "/kevin-" + Stage;
    if (::access(Tool.c_str(), X_OK) != 0)
      return Error::inFile(Tool, "stage tool not found; was kevin built with "
                                 "the component it needs?");
  }
  return Error::success();
}

std::vector<std::string>
PipelineEvaluator::argsFor(const std::string &Stage) const {
  if (Stage == "run")
    return Options.RunArgs;
  if (Stage == "bench")
    return Options.BenchArgs;
  if (Stage == "check")
    return Options.CheckArgs;
  return {};
}

bool PipelineEvaluator::passed(const std::string &Stage, const Json &Record) {
  const char *Path = Stage == "check" ? "check.ok"
                     : Stage == "run" ? "run.correct"
                                      : nullptr;
  if (!Path)
    return true;
  const Json *Field = findField(Record, Path);
  return Field && Field->is_boolean() && Field->get<bool>();
}

Expected<Json> PipelineEvaluator::evaluate(const Json &Input) const {
  Json Record = Input;
  for (const std::string &Stage : Options.Stages) {
    std::string Tool = Options.ToolsDir + "/kevin-" + Stage;
    SubprocessOptions Run;
    Run.Argv = {Tool};
    for (const std::string &Arg : argsFor(Stage))
      Run.Argv.push_back(Arg);
    Run.Stdin = formatRecordLine(Record) + "\n";
    Run.TimeoutSeconds = Options.StageTimeoutSeconds;
    Run.MaxCaptureBytes = 64 << 20;
    auto Result = runSubprocess(Run);
    if (!Result)
      return Result.error();
    auto Stderr = [&] {
      std::string S = Result->Stderr;
      if (S.size() > 2000)
        S = S.substr(0, 2000) + "...";
      while (!S.empty() && S.back() == '\n')
        S.pop_back();
      return S;
    };
    if (Result->TimedOut || Result->Signal || Result->ExitCode > 1)
      return Error::inFile(Tool, Result->describe() +
                                     (Stderr().empty() ? "" : ": " + Stderr()));
    std::string Line = Result->Stdout;
    while (!Line.empty() && (Line.back() == '\n' || Line.back() == '\r'))
      Line.pop_back();
    if (Line.find('\n') != std::string::npos)
      return Error::inFile(Tool, "wrote more than one record for one input");
    auto Out = parseRecordLine(Line, SourceLocation{Tool, 1, 0});
    if (!Out)
      return Out.error().withContext("output of kevin-" + Stage);
    Record = std::move(*Out);
    if (!passed(Stage, Record))
      break;
  }
  return Record;
}

} // namespace kevin
