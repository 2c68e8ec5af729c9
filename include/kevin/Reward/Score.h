//===-- kevin/Reward/Score.h - the score of one kernel ----------*- C++ -*-===//
//
// Kevin's kernel score S = w_c * 1{correct} + speedup * 1{correct}, read from
// the `check`, `run` and `bench` sections of a record, with the options a
// training run tunes: the correctness weight, a speedup cap, a log1p speedup
// term, a penalty per review flag of kevin-bench, and zeroing on any check
// finding. A timing kevin-bench rejected scores 0. Every way a record bends the formula (a correct kernel without a
// usable speedup, a failed check) is named in the score's flags.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_REWARD_SCORE_H
#define KEVIN_REWARD_SCORE_H

#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <optional>
#include <string>
#include <vector>

namespace kevin {

struct ScoreOptions {
  /// w_c, the reward for a correct kernel before its speedup.
  double CorrectWeight = 0.3;
  /// Speedups above the cap count as the cap.
  std::optional<double> SpeedupCap;
  /// Use log(1 + speedup) instead of the speedup (after the cap).
  bool LogSpeedup = false;
  /// Subtracted once per entry of `bench.flags`; the score stays >= 0.
  double FlagPenalty = 0.0;
  /// Score 0 when `check.findings` has any entry, warnings included (by
  /// default only `check.ok == false` zeroes the score).
  bool ZeroOnFindings = false;
};

/// What the score reads from one record.
struct KernelResult {
  bool ParseFailed = false;      ///< parse.ok == false (kevin rollout)
  bool Correct = false;          ///< run.correct
  bool CheckFailed = false;      ///< check.ok == false
  size_t FindingCount = 0;       ///< entries of check.findings
  std::optional<double> Speedup; ///< bench.speedup when it is a number
  size_t ReviewFlagCount = 0;    ///< entries of bench.flags
  /// bench.ok == false on a timed record: kevin-bench rejected the timing
  /// (work escaped the timed region, an audit failed) or the candidate
  /// failed while being timed.
  bool BenchRejected = false;
};

/// Reads the fields the score needs. `run.correct` is required unless the
/// record says why its kernel was never run: the response could not be
/// parsed (`parse.ok` false), the check failed, the build failed (`build.ok`
/// false), the timing was rejected (`bench.ok` false, not skipped) or the run
/// names an outcome (`run.outcome`: skipped-check, input-error, ...). Such a
/// record scores 0. Fields of the wrong kind are errors at the record's line.
Expected<KernelResult> readKernelResult(const Record &R);

/// The closed set of flags a score may carry.
namespace score_flag {
constexpr const char *ParseFailed = "parse-failed"; ///< parse.ok false: S = 0
constexpr const char *CheckFailed = "check-failed"; ///< check.ok false: S = 0
constexpr const char *CheckFindings = "check-findings"; ///< --zero-on-findings
constexpr const char *NoSpeedup =
    "no-speedup"; ///< correct, speedup absent/null
constexpr const char *BadSpeedup = "bad-speedup"; ///< correct, speedup <= 0
constexpr const char *SpeedupCapped = "speedup-capped";
constexpr const char *ReviewFlags = "review-flags"; ///< penalised bench.flags
constexpr const char *BenchRejected = "bench-rejected"; ///< bench.ok false: S = 0
} // namespace score_flag

struct KernelScore {
  double Score = 0.0;
  /// Correct and not zeroed by a check: what metrics count as correct.
  bool Correct = false;
  /// The measured speedup of a correct kernel, when usable.
  std::optional<double> Speedup;
  std::vector<const char *> Flags;
};

KernelScore scoreKernel(const KernelResult &Result, const ScoreOptions &Opts);

} // namespace kevin

#endif // KEVIN_REWARD_SCORE_H
