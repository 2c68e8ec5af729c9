//===-- kevin/Rollout/Evaluator.h - run a record through the stages -*- C++ -*-===//
//
// Evaluates one candidate record by piping it through kevin's stage tools
// (kevin-check, kevin-run, kevin-bench), each a separate process found next
// to the calling tool, stopping at the first stage that fails the candidate.
// Composing the tools through JSON Lines keeps the driver thin and makes the
// driver's verdicts exactly the ones a user gets running the tools by hand.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_EVALUATOR_H
#define KEVIN_ROLLOUT_EVALUATOR_H

#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <string>
#include <vector>

namespace kevin {

struct EvaluatorOptions {
  /// Where kevin-<stage> binaries live (normally the caller's own directory).
  std::string ToolsDir;
  /// Stages in order; a stage whose tool is not installed is an error.
  std::vector<std::string> Stages = {"check", "run", "bench"};
  /// Arguments added to each stage tool, e.g. {"--device", "cpu"}.
  std::vector<std::string> RunArgs;
  std::vector<std::string> BenchArgs;
  std::vector<std::string> CheckArgs;
  /// Wall-clock limit for one stage tool on one record.
  double StageTimeoutSeconds = 1800;
};

class PipelineEvaluator {
public:
  explicit PipelineEvaluator(EvaluatorOptions Options);
  /// Checks that every stage tool exists.
  Error verify() const;
  /// Runs the record through the stages and returns it with their sections.
  /// An Error means a stage tool itself failed (exit 2, crash, bad output),
  /// not that the candidate failed.
  Expected<Json> evaluate(const Json &Record) const;
  /// True when the record passed the stage, so the next one should run.
  static bool passed(const std::string &Stage, const Json &Record);

private:
  std::vector<std::string> argsFor(const std::string &Stage) const;
  EvaluatorOptions Options;
};

/// The directory holding the running executable.
std::string executableDirectory();

} // namespace kevin

#endif // KEVIN_ROLLOUT_EVALUATOR_H
