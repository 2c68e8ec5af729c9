//===-- kevin/Rollout/StagePipeline.h - stage tools in a row ----*- C++ -*-===//
//
// Evaluates candidate records by piping them through kevin's stage tools
// (kevin-check, kevin-run, kevin-bench, kevin-reward), each a separate
// process found next to the calling tool, stopping at the first stage that
// fails the candidate. Composing the tools through JSON Lines keeps the
// drivers thin and makes their verdicts exactly the ones a user gets running
// the tools by hand.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_STAGEPIPELINE_H
#define KEVIN_ROLLOUT_STAGEPIPELINE_H

#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <string>
#include <vector>

namespace kevin {

/// One stage: the tool kevin-<Tool> with Args. After it, the boolean at
/// PassField (e.g. `check.ok`) must be true for later stages to run; an
/// empty PassField never stops the pipeline.
struct StageSpec {
  std::string Tool;
  std::vector<std::string> Args;
  std::string PassField;
  /// Added to the stage tool's nice value (kevin eval's build pool yields
  /// the cores to the device stages).
  int Niceness = 0;
};

/// The gate field of each standard stage: check.ok, build.ok (for
/// `run --build-only`), run.correct; none for bench and reward. Stages of
/// different records may run at once: kevin-bench's and kevin-run's device
/// locks (kevin/Support/DeviceLock.h) keep other work off a device while it
/// is timed, across every process on the machine.
StageSpec makeStage(const std::string &Tool, std::vector<std::string> Args = {});

class StagePipeline {
public:
  /// ToolsDir holds the kevin-<stage> binaries; Timeout bounds one stage
  /// tool on one record.
  StagePipeline(std::string ToolsDir, double StageTimeoutSeconds);
  /// Checks that every stage's tool exists.
  Error verify(const std::vector<StageSpec> &Stages) const;
  /// Runs the record through one stage tool. An Error means the tool itself
  /// failed (exit 2, crash, timeout, bad output), not the candidate.
  Expected<Json> runStage(const StageSpec &Stage, const Json &Record) const;
  /// Runs the stages in order, stopping after the first one not passed.
  Expected<Json> runStages(const std::vector<StageSpec> &Stages,
                           const Json &Record) const;
  static bool passed(const StageSpec &Stage, const Json &Record);

private:
  std::string ToolsDir;
  double StageTimeoutSeconds;
};

} // namespace kevin

#endif // KEVIN_ROLLOUT_STAGEPIPELINE_H
