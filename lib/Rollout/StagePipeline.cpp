//===-- StagePipeline.cpp - run a record through the stages --------------===//
//
// One subprocess per stage with the record on stdin and the extended record
// read back from stdout.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/StagePipeline.h"
#include "kevin/Support/RecordFields.h"
#include "kevin/Support/Subprocess.h"

#include <algorithm>
#include <unistd.h>

namespace kevin {

StageSpec makeStage(const std::string &Tool, std::vector<std::string> Args) {
  std::string Gate;
  if (Tool == "check")
    Gate = field::CheckOk;
  else if (Tool == "run")
    Gate = std::find(Args.begin(), Args.end(), "--build-only") != Args.end()
               ? field::BuildOk
               : field::RunCorrect;
  return StageSpec{Tool, std::move(Args), Gate};
}

StagePipeline::StagePipeline(std::string Dir, double Timeout)
    : ToolsDir(std::move(Dir)), StageTimeoutSeconds(Timeout) {}

Error StagePipeline::verify(const std::vector<StageSpec> &Stages) const {
  for (const StageSpec &Stage : Stages) {
    std::string Tool = ToolsDir + "/kevin-" + Stage.Tool;
    if (::access(Tool.c_str(), X_OK) != 0)
      return Error::inFile(Tool, "stage tool not found; was kevin built with "
                                 "the component it needs?");
  }
  return Error::success();
}

bool StagePipeline::passed(const StageSpec &Stage, const Json &Record) {
  if (Stage.PassField.empty())
    return true;
  return fieldIsTrue(Record, Stage.PassField);
}

Expected<Json> StagePipeline::runStage(const StageSpec &Stage,
                                       const Json &Record) const {
  std::string Tool = ToolsDir + "/kevin-" + Stage.Tool;
  SubprocessOptions Run;
  Run.Argv = {Tool};
  Run.Argv.insert(Run.Argv.end(), Stage.Args.begin(), Stage.Args.end());
  Run.Stdin = formatRecordLine(Record) + "\n";
  Run.TimeoutSeconds = StageTimeoutSeconds;
  Run.MaxCaptureBytes = 64 << 20;
  Run.Niceness = Stage.Niceness;
  auto Result = runSubprocess(Run);
  if (!Result)
    return Result.error();
  if (Result->TimedOut || Result->Signal || Result->ExitCode > 1) {
    std::string Stderr = Result->Stderr.substr(0, 2000);
    while (!Stderr.empty() && Stderr.back() == '\n')
      Stderr.pop_back();
    return Error::inFile(Tool, Result->describe() +
                                   (Stderr.empty() ? "" : ": " + Stderr));
  }
  std::string Line = Result->Stdout;
  while (!Line.empty() && (Line.back() == '\n' || Line.back() == '\r'))
    Line.pop_back();
  if (Line.find('\n') != std::string::npos)
    return Error::inFile(Tool, "wrote more than one record for one input");
  auto Out = parseRecordLine(Line, SourceLocation{Tool, 1, 0});
  if (!Out)
    return Out.error().withContext("output of kevin-" + Stage.Tool);
  return Out;
}

Expected<Json> StagePipeline::runStages(const std::vector<StageSpec> &Stages,
                                        const Json &Input) const {
  Json Record = Input;
  for (const StageSpec &Stage : Stages) {
    auto Out = runStage(Stage, Record);
    if (!Out)
      return Out.error();
    Record = std::move(*Out);
    if (!passed(Stage, Record))
      break;
  }
  return Record;
}

} // namespace kevin
