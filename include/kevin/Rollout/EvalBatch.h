//===-- kevin/Rollout/EvalBatch.h - kevin eval's scheduler ------*- C++ -*-===//
//
// `kevin eval`: many candidates through check -> build -> run -> bench ->
// reward on the stage scheduler's two pools (kevin/Rollout/StageScheduler.h).
// Finished records are appended durably to the results file, and a rerun
// skips every record already there.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_EVALBATCH_H
#define KEVIN_ROLLOUT_EVALBATCH_H

#include "kevin/Rollout/Rollout.h"
#include "kevin/Rollout/StageScheduler.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <map>
#include <string>
#include <vector>

namespace kevin {

/// Candidates from a directory or a JSON Lines file, as records with `id`,
/// `task_id`, `task_path` and `candidate_path` (or inline `code`). File names:
/// `level_<L>_problem_<P>_sample_<S>_kernel.py` (KernelBench's generations)
/// answers the task `level<L>/<P>_*`; any other `X.py` answers the task whose
/// id is its path (or, failing that, its name) without `.py`. A candidate that
/// answers no task (or names no code) is a record too, with a `run` section
/// whose outcome is input-error, so that every candidate gets a result.
Expected<std::vector<Json>> findCandidates(const std::vector<TaskFile> &Tasks,
                                           const std::string &Solutions);

struct EvalOptions {
  /// The devices and the sizes of the two pools.
  SchedulerOptions Scheduling;
  std::string ResultsPath;
  bool ShowProgress = true;
};

struct EvalSummary {
  int Evaluated = 0;
  int Skipped = 0; ///< Already in the results file.
  /// The records of this run by outcome (run.outcome, else the failed
  /// build's, check-failed, format-error), input-error and task-error
  /// included.
  std::map<std::string, int> Outcomes;
};

/// Evaluates the candidates not yet in the results file through Runner's
/// stages, appending each record durably as it finishes. A candidate whose
/// task fails (the reference raises) gets a record with run.outcome
/// task-error and the others go on; a failure of kevin itself is returned
/// once every other record is written.
Expected<EvalSummary> runEval(const std::vector<Json> &Candidates,
                              const EvalOptions &Options,
                              const StageRunner &Runner);

} // namespace kevin

#endif // KEVIN_ROLLOUT_EVALBATCH_H
