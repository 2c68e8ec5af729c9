//===-- kevin/Rollout/EvalBatch.h - kevin eval's scheduler ------*- C++ -*-===//
//
// `kevin eval`: many candidates through check -> build -> run -> bench ->
// reward. Checking and building run on a CPU pool ahead of the device
// stages (a few candidates in flight per device), so devices never wait on
// compiles they could have had done earlier; the pool starts with as many
// builds as the devices take and runs at a lower priority than the device
// stages. A device's workers take correctness runs before timings (up to a
// backlog), so timing loops, which hold the device alone, seldom wait for
// runs to drain. Finished records are appended durably to the results
// file, and a rerun skips every record already there.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_EVALBATCH_H
#define KEVIN_ROLLOUT_EVALBATCH_H

#include "kevin/Rollout/Rollout.h"
#include "kevin/Rollout/StagePipeline.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <string>
#include <vector>

namespace kevin {

/// Candidates from a directory or a JSON Lines file, as records with `id`,
/// `task_id`, `task_path` and `candidate_path` (or inline `code`). File names:
/// `level_<L>_problem_<P>_sample_<S>_kernel.py` (KernelBench's generations)
/// answers the task `level<L>/<P>_*`; any other `X.py` answers the task whose
/// id is its path (or, failing that, its name) without `.py`.
Expected<std::vector<Json>> findCandidates(const std::vector<TaskFile> &Tasks,
                                           const std::string &Solutions);

struct EvalOptions {
  std::vector<std::string> Devices = {"cpu"};
  int BuildJobs = 2;
  /// Workers per device, each with a candidate in a stage; 0:
  /// defaultDeviceJobs. Up to twice as many more candidates may wait for
  /// their timing. Correctness runs share the device; timing loops take
  /// turns holding it alone (kevin/Support/DeviceLock.h).
  int DeviceJobs = 0;
  /// Added to the nice value of the build pool's stage tools: compiles
  /// ahead of the device yield the cores to the device stages' workers.
  int BuildNiceness = 10;
  std::string ResultsPath;
  /// Stages before the device (normally check, run --build-only), on the
  /// device (run --device D, bench --device D; "{device}" in an argument is
  /// replaced by the worker's device) and after (reward).
  std::vector<StageSpec> BuildStages, DeviceStages, FinalStages;
  bool ShowProgress = true;
};

/// 4 on a CUDA device (set-up and correctness runs overlap there), 1 on the
/// CPU (where every run competes for the cores a timing loop uses).
int defaultDeviceJobs(const std::string &Device);

struct EvalSummary {
  int Evaluated = 0;
  int Skipped = 0; ///< Already in the results file.
};

Expected<EvalSummary> runEval(const std::vector<Json> &Candidates,
                              const EvalOptions &Options,
                              const StagePipeline &Pipeline);

} // namespace kevin

#endif // KEVIN_ROLLOUT_EVALBATCH_H
