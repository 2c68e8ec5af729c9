//===-- kevin/Report/Metrics.h - metrics over a run's records ---*- C++ -*-===//
//
// What `kevin report` computes from the records of a run, with Kevin's
// definitions (arXiv 2507.11948):
// a trajectory is correct if any of its kernels is; its performance is the
// speedup of its fastest correct kernel, 0 if none; best@k is the best of a
// task's k trajectories and avg@k their mean; fast_p is the share with a
// correct kernel of speedup >= p; results average over tasks. Plus the
// unbiased pass@k estimator, per-turn curves, per-level means, a failure
// breakdown, the RL signal (S, R, A and zero-variance groups), the cost of
// each stage, kevin-bench's review flags and the training-stability signals
// of the responses.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_REPORT_METRICS_H
#define KEVIN_REPORT_METRICS_H

#include "kevin/Reward/Score.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kevin {

struct ReportOptions {
  std::vector<double> FastP = {0, 0.5, 0.8, 1, 1.5, 2};
  std::vector<unsigned> PassK = {1, 2, 4, 8, 16};
  /// Kevin's "Not Okay Ratio" counts responses not starting with this.
  std::string OkayPrefix = "Okay,";
  /// How records without a `reward` section are scored.
  ScoreOptions Score;
  /// Keep each kernel's code, findings, outcome and feedback (for the HTML
  /// drill-down) for the first this many trajectories; 0 keeps none.
  size_t DetailTrajectories = 0;
};

/// What the drill-down shows of one kernel, kept only when asked for.
struct KernelDetails {
  std::string Id;
  std::string Code;     ///< `code`, else the `candidate_path` file
  std::string Response; ///< the model's `response` when it gave no code
  std::string Outcome;  ///< e.g. `compare/mismatch`, `parse`, `correct`
  std::string Message;  ///< parse.problem, run.message or bench.message
  std::string Feedback; ///< what a rollout showed the model next
  struct Finding {
    std::string Rule, Severity, Message;
    int64_t Line = 0;
  };
  std::vector<Finding> Findings;
};

/// The seconds a kernel spent in each costed stage, when recorded.
struct StageSeconds {
  std::optional<double> Build; ///< build.seconds plus build_ahead.seconds
  std::optional<double> Run;   ///< run.seconds.total
  std::optional<double> Bench; ///< bench.seconds.total
};

/// One kernel of the run, as the report reads it from a record.
struct KernelSample {
  std::string TaskId;
  int64_t Trajectory = 0;
  int64_t Turn = 1;
  bool Correct = false;
  std::optional<double> Speedup; ///< of a correct kernel, when measured
  /// Why an incorrect kernel failed: `parse` (no usable code in the
  /// response), `check`, `<run.stage>/<run.outcome>`, or `not-run`; empty
  /// for a correct kernel.
  std::string Failure;
  std::vector<std::string> Rules; ///< distinct rules of check.findings
  /// The record was timed: it has a `bench` section or a numeric
  /// `reward.speedup` (false for every record of `kevin eval --no-bench`).
  bool Timed = false;
  double Score = 0;                ///< S: reward.score, else scored here
  std::optional<double> Return;    ///< R: reward.return (see deriveSignals)
  std::optional<double> Advantage; ///< A: grpo.advantage (see deriveSignals)
  std::string Group;               ///< grpo.group; empty: the task
  std::vector<std::string> ReviewFlags; ///< bench.flags
  StageSeconds Seconds;
  std::string Device;                           ///< the record's `device`
  std::shared_ptr<const KernelDetails> Details; ///< see DetailTrajectories
  /// What the stability signals need from the response, computed when the
  /// record is read so that responses are not kept.
  struct ResponseStats {
    bool StartsOkay = false; ///< starts with ReportOptions::OkayPrefix
    double Repetition = 0;   ///< repetitionScore
    size_t Chars = 0;
  };
  std::optional<ResponseStats> Response;
  std::optional<int64_t> CompletionTokens;
  std::optional<std::string> FinishReason;
};

/// Reads a record. Correctness and speedup come from its `reward` section
/// when it has one, else from check/run/bench scored with Score. A record
/// without `trajectory` is its own trajectory, numbered by Ordinal.
Expected<KernelSample>
readKernelSample(const Record &R, const ReportOptions &Opts, int64_t Ordinal);

/// Reads the kernels of a run from record files (`-` is stdin), one record
/// at a time. A file whose last line has no newline and does not parse (a
/// log cut short by a kill) loses that line, with a message in Warnings; any
/// other bad line is an error.
Expected<std::vector<KernelSample>>
readRunSamples(const std::vector<std::string> &Paths, const ReportOptions &Opts,
               std::vector<Error> &Warnings);

/// Fills what the records left out of the RL signal, as the pipeline's tools
/// would with their defaults: R as kevin-reward does (discounted sum over a
/// trajectory's turns, gamma 0.4; R = S for a single turn) and A as
/// kevin-grpo does (the group's returns centred and divided by their
/// population std + 1e-6; the group is `grpo.group`, else the task).
void deriveSignals(std::vector<KernelSample> &Samples);

/// The task's level: its id up to the first '/' (`level1` of
/// `level1/19_ReLU`), or "(none)" for an id without one.
std::string taskLevel(const std::string &TaskId);

/// The metrics of one task, or their mean over tasks (Overall).
struct TaskMetrics {
  std::string TaskId;
  size_t Trajectories = 0;
  size_t Kernels = 0;
  double BestCorrect = 0, AvgCorrect = 0;
  double BestSpeedup = 0, AvgSpeedup = 0;
  std::vector<double> BestFast, AvgFast; ///< by ReportOptions::FastP
  /// By ReportOptions::PassK; absent where the task has fewer than k
  /// trajectories (for Overall: where no task has k).
  std::vector<std::optional<double>> PassAtK;
};

/// The metrics of several tasks (a level, or all of them) as the arithmetic
/// mean over the tasks; pass@k over the tasks that have k trajectories.
TaskMetrics meanOverTasks(const std::string &Name,
                          const std::vector<const TaskMetrics *> &Tasks,
                          const ReportOptions &Opts);

/// The per-turn curves, over all trajectories.
struct TurnPoint {
  int64_t Turn = 0;
  size_t Kernels = 0;     ///< kernels at this turn
  double CorrectRate = 0; ///< share of this turn's kernels that are correct
  /// Share of trajectories with a correct kernel at this turn or before.
  double CorrectSoFar = 0;
  /// Mean over trajectories of the best correct speedup up to this turn.
  double MeanBestSpeedup = 0;
};

/// Training-stability signals of the responses.
struct StabilitySignals {
  size_t Responses = 0;
  double NotOkayRatio = 0;
  double MeanRepetition = 0;
  double MaxRepetition = 0;
  double MeanChars = 0, P50Chars = 0, P95Chars = 0, MaxChars = 0;
  size_t WithTokens = 0;
  double MeanTokens = 0, P95Tokens = 0, MaxTokens = 0;
  size_t WithFinishReason = 0;
  double TruncatedShare = 0; ///< finish_reason == "length"
};

/// The RL signal of the run: every kernel's S, R and A, and how many of
/// the advantage groups have zero variance (all returns equal: no signal).
struct RLSignal {
  std::vector<double> Scores, Returns, Advantages;
  size_t Groups = 0, ZeroVarianceGroups = 0;
  double zeroVarianceShare() const {
    return Groups ? static_cast<double>(ZeroVarianceGroups) / Groups : 0.0;
  }
};

/// The summed cost of one stage over the kernels that recorded it.
struct StageCost {
  std::string Stage; ///< build, run or bench
  size_t Kernels = 0;
  double Seconds = 0, MaxSeconds = 0;
};

/// A kernel kevin-bench flagged for review (a "look at these" entry).
struct FlaggedKernel {
  std::string TaskId;
  int64_t Trajectory = 0, Turn = 1;
  std::vector<std::string> Flags;
  std::optional<double> Speedup;
};

struct RunReport {
  size_t Records = 0;
  /// Whether any record was timed; when none was (`--no-bench`), speedups
  /// and fast_p are unknown and shown as n/a, not as 0.
  bool Timed = false;
  std::vector<TaskMetrics> Tasks;
  std::vector<TaskMetrics> Levels; ///< by taskLevel, in order of appearance
  TaskMetrics Overall;
  std::vector<TurnPoint> Turns;
  std::map<std::string, size_t> Failures; ///< incorrect kernels by stage
  std::map<std::string, size_t> Rules;    ///< kernels by check rule
  StabilitySignals Stability;
  /// The performance of every correct trajectory (for the distribution).
  std::vector<double> CorrectSpeedups;
  RLSignal Signal;
  std::vector<StageCost> Costs; ///< build, run, bench
  std::vector<FlaggedKernel> Flagged;
};

RunReport computeReport(const std::vector<KernelSample> &Samples,
                        const ReportOptions &Opts);

/// The unbiased pass@k estimator of Chen et al. (2021): the chance that k of
/// N samples, C of them correct, drawn without replacement include a
/// correct one, 1 - C(N-C, k) / C(N, k). Requires K <= N.
double passAtK(size_t N, size_t C, size_t K);

/// Whether a response starts with Prefix once leading whitespace and an
/// opening `<think>` tag are skipped.
bool startsWithPrefix(std::string_view Response, std::string_view Prefix);

/// The share of a text's word 4-grams that repeat an earlier one: 0 for
/// text that never repeats itself, near 1 for a loop.
double repetitionScore(std::string_view Text);

} // namespace kevin

#endif // KEVIN_REPORT_METRICS_H
