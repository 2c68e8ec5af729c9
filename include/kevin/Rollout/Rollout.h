//===-- kevin/Rollout/Rollout.h - Kevin's multi-turn loop -------*- C++ -*-===//
//
// For each task, m trajectories of n refinement turns: build the turn's
// prompt from the earlier attempts, ask the policy, split the response,
// evaluate the code through the stage tools, derive the feedback, and append
// the turn to RUN/turns.jsonl (one fsync'ed line per turn). Trajectories run
// concurrently with a bound on in-flight policy requests and on concurrent
// evaluations, so evaluation overlaps with generation. A rerun of the same
// command over the same RUN/ resumes: finished turns are read back, never
// redone or duplicated.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_ROLLOUT_H
#define KEVIN_ROLLOUT_ROLLOUT_H

#include "kevin/Rollout/Policy.h"
#include "kevin/Rollout/Prompt.h"
#include "kevin/Rollout/RemoteStages.h"
#include "kevin/Rollout/StagePipeline.h"
#include "kevin/Support/Error.h"

#include <string>
#include <vector>

namespace kevin {

struct TaskFile {
  std::string Id;   ///< Path under the tasks directory without `.py`.
  std::string Path; ///< The reference file.
};

/// Every `*.py` under Dir (recursively), sorted by id. Ids in Only (when not
/// empty) select tasks; an id that matches nothing is an error.
Expected<std::vector<TaskFile>> findTasks(const std::string &Dir,
                                          const std::vector<std::string> &Only);

struct RolloutOptions {
  std::vector<TaskFile> Tasks;
  std::string RunDir;
  int Trajectories = 16; ///< m
  int Turns = 8;         ///< n
  std::string Device = "cpu";
  std::string Model;
  double Temperature = 0.9;
  double TopP = 1.0;
  int MaxTokens = 16384;
  bool Logprobs = false;
  size_t ContextBudgetTokens = 0;
  int Jobs = 4;          ///< Trajectories advanced concurrently.
  int MaxInFlight = 8;   ///< Policy requests at once.
  int EvalJobs = 1;      ///< Evaluations at once.
  bool ShowProgress = true;
  /// The evaluation of one turn: normally check, run, bench.
  std::vector<StageSpec> Stages;
  /// Evaluates the turns on a kevin serve instead (Stages then unused).
  const RemoteStages *Server = nullptr;
};

struct RolloutSummary {
  int TurnsResumed = 0;
  int TurnsRun = 0;
  int TurnsCorrect = 0; ///< Over all turns in the log.
  int TurnsTotal = 0;
  /// For the user: a torn last line of the log that the resume dropped.
  std::vector<Error> Warnings;
};

/// Runs (or resumes) the loop. Writes RUN/run.json (the options a resume
/// must match: policy, model, tasks, m, n, device, sampling, stages; a
/// resume that changes one is refused naming it), RUN/turns.jsonl and
/// RUN/candidates/.
Expected<RolloutSummary> runRollout(const RolloutOptions &Options,
                                    const PromptTemplates &Templates,
                                    Policy &ThePolicy,
                                    const StagePipeline &Pipeline);

} // namespace kevin

#endif // KEVIN_ROLLOUT_ROLLOUT_H
