//===-- RuntimeCheck.h - the judge's runtime checks -------------*- C++ -*-===//
//
// Private to lib/Exec. kevin-run's runtime checks, one KEVIN-RT rule per
// file as lib/Check has one rule per file. Each reads the RunEvidence (the
// reference's record and outputs, the candidate worker's result and
// outputs) and reports to FirstFailure, whose first failure is the verdict.
// Comparison.cpp calls them in a fixed order: it decides which message a
// candidate that fails several checks gets, so it is part of the record
// format.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_EXEC_RUNTIMECHECK_H
#define KEVIN_LIB_EXEC_RUNTIMECHECK_H

#include "kevin/Exec/Compare.h"
#include "kevin/Exec/Judge.h"
#include "kevin/Exec/Outcome.h"
#include "kevin/Support/Record.h"

#include <ATen/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kevin {

/// The verdict of the checks so far: the first failure reported wins, with
/// its message.
class FirstFailure {
public:
  void fail(Outcome O, const std::string &Message) {
    if (Result == Outcome::Ok) {
      Result = O;
      Text = Message;
    }
  }
  bool ok() const { return Result == Outcome::Ok; }
  Outcome outcome() const { return Result; }
  const std::string &message() const { return Text; }

private:
  Outcome Result = Outcome::Ok;
  std::string Text;
};

/// What the checks judge: one run of the candidate beside the reference's.
struct RunEvidence {
  RunEvidence(const JudgeOptions &Options, const Json &RefTrials,
              const std::vector<std::vector<at::Tensor>> &RefOutputs,
              const Json &Result, const Json &Got, const std::string &CandDir)
      : Options(Options), RefTrials(RefTrials), RefOutputs(RefOutputs),
        Result(Result), Got(Got), CandDir(CandDir) {}

  const JudgeOptions &Options;
  /// The reference record's `trials`, one per draw: its outputs' structure,
  /// `inputs_distribution`, `held_out_batch` and `float64` norms.
  const Json &RefTrials;
  /// The reference's outputs, one list per draw.
  const std::vector<std::vector<at::Tensor>> &RefOutputs;
  /// The candidate worker's attested result, its `trials`, and its
  /// directory (where its output files are).
  const Json &Result;
  const Json &Got;
  const std::string &CandDir;
  /// Per trial read, the candidate's outputs, and those of forward called
  /// again on the same inputs when they differed from the first call's
  /// (empty otherwise).
  std::vector<std::vector<at::Tensor>> CandOutputs;
  std::vector<std::vector<at::Tensor>> RepeatOutputs;
  /// A trivial output would pass: comparisons are scale-aware
  /// (DegenerateTaskCheck.cpp).
  bool Degenerate = false;
  /// Fresh memory held a fill pattern during the calls (KEVIN-RT-005).
  bool Poisoned = false;

  /// Whether trial T drew heavy-tailed inputs (KEVIN-RT-022).
  bool heavyTailed(unsigned T) const;
  /// How messages name a trial: its inputs' distribution when not the
  /// task's own.
  std::string trialLabel(unsigned T) const;
  /// compareTrial with the run's tolerances, scale-aware on a degenerate
  /// task.
  TrialComparison compare(const std::vector<at::Tensor> &Reference,
                          const std::vector<at::Tensor> &Candidate) const;
};

//--- AliasingCheck.cpp: KEVIN-RT-004's aliasing, RT-003's device. ----------
/// One trial's output tensors as the candidate's worker described them
/// (Have) against the reference's (Want): on the reference's device, and
/// sharing storage with no input, parameter or buffer. Trial prefixes the
/// messages.
void checkOutputStorage(const std::string &Trial, const Json &Want,
                        const Json &Have, FirstFailure &F);

//--- InputMutationCheck.cpp: KEVIN-RT-004's mutation. ----------------------
/// Changed: the worker saw the trial's inputs differ after the call.
void checkInputsUnchanged(const std::string &Trial, bool Changed,
                          FirstFailure &F);

//--- DegenerateTaskCheck.cpp: KEVIN-RT-022's degenerate task, RT-006. -----
/// Fails a task whose reference output is the same for every draw; returns
/// whether an all-zeros or constant output would pass on the task's own
/// draws (the comparison is then scale-aware).
bool checkDegenerateTask(const RunEvidence &E, FirstFailure &F);

//--- InputSensitivityCheck.cpp: KEVIN-RT-007. -------------------------------
void checkInputSensitivity(const RunEvidence &E, FirstFailure &F);

//--- PrecisionBudgetCheck.cpp: KEVIN-RT-023. --------------------------------
/// Turns a comparison of trial T's outputs that passed into a mismatch
/// where an output's error exceeds the precision budget.
void applyPrecisionBudget(const RunEvidence &E, unsigned T, TrialComparison &C);
/// The trial entry's `l2_error` and `reference_float64_error`.
void recordPrecisionErrors(const RunEvidence &E, unsigned T,
                           const TrialComparison &C, Json &Entry);
/// The run section's `precision_budget`.
Json precisionBudgetJson(const JudgeOptions &Options, const Json &Reference);

//--- RepeatCallCheck.cpp: KEVIN-RT-005. -------------------------------------
/// Judges forward called again on trial T's inputs when the first call
/// passed (TC); a failure replaces TC. Returns the outputs TC judged.
const std::vector<at::Tensor> &judgeRepeatCall(const RunEvidence &E, unsigned T,
                                               TrialComparison &TC);
/// On a failed comparison, adds how many of the judged outputs' elements
/// still hold the fill of fresh memory.
void noteUnwrittenOutputs(const RunEvidence &E,
                          const std::vector<at::Tensor> &Judged,
                          TrialComparison &TC);

//--- HeldOutBatchCheck.cpp: KEVIN-RT-022's held-out batch. ------------------
/// The secret trial drawn at the held-out batch size, or -1.
int64_t heldOutTrial(const JudgeOptions &Options, uint64_t Secret);
/// Whether the reference drew trial RefTrial at the held-out batch size.
bool isHeldOutTrial(const Json &RefTrial);
/// ` (held-out batch size N)` for such a trial, else empty.
std::string heldOutLabel(const Json &RefTrial);
/// The trial entry's `held_out_batch`.
void recordHeldOutBatch(const Json &RefTrial, Json &Entry);

//--- KernelCoverageCheck.cpp: KEVIN-RT-009. ---------------------------------
/// On a profiled run, the run section's `kernels` (null otherwise);
/// CandidateLaunches gets the candidate's kernel launches the profile saw.
Json checkKernelCoverage(const RunEvidence &E, FirstFailure &F,
                         unsigned &CandidateLaunches);

//--- GhostReplayCheck.cpp: KEVIN-RT-010. ------------------------------------
/// On a run with a ghost replay, the run section's `ghost_replay` (null
/// otherwise).
Json checkGhostReplay(const RunEvidence &E, FirstFailure &F,
                      unsigned CandidateLaunches);

} // namespace kevin

#endif // KEVIN_LIB_EXEC_RUNTIMECHECK_H
