//===-- kevin/Bench/Statistics.h - timing statistics ------------*- C++ -*-===//
//
// What kevin-bench reports about a set of timed trials and how it decides
// when it has enough: robust summaries (median first), a distribution-free
// standard error of the median, a bootstrap confidence interval for the
// speedup (a ratio of medians), the adaptive stopping rule, and the test
// that compares a wider clock with the timed one to catch work that escaped
// the timed region (side streams, host threads).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_BENCH_STATISTICS_H
#define KEVIN_BENCH_STATISTICS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kevin {

struct TimingSummary {
  size_t Trials = 0;
  double Median = 0, Mean = 0, Std = 0, Min = 0, Max = 0;
  /// Standard error of the median divided by the median (0 with < 3 trials
  /// is reported as 1, "unknown").
  double MedianRelativeStandardError = 1;
};

/// Summarises samples (any unit). Std is the sample standard deviation.
TimingSummary summarize(std::vector<double> Samples);

/// The standard error of the median from the distribution-free 95%
/// confidence interval of order statistics: (x_(k) - x_(j)) / (2 * 1.96).
double medianStandardError(std::vector<double> Samples);

struct SpeedupEstimate {
  double Speedup = 0; ///< median(reference) / median(candidate)
  double Low = 0, High = 0; ///< 95% bootstrap percentile interval
};

/// Speedup of Candidate over Reference with a bootstrap interval
/// (Resamples draws, fixed Seed: the same data gives the same interval).
SpeedupEstimate estimateSpeedup(const std::vector<double> &Reference,
                                const std::vector<double> &Candidate,
                                int Resamples = 2000, uint64_t Seed = 1);

/// When to stop timing: at least MinTrials (whatever the budget says), then
/// until the median's relative standard error is below TargetRse, MaxTrials
/// are done, or the time budget is spent.
struct StoppingRule {
  size_t MinTrials = 10;
  size_t MaxTrials = 1000;
  double TargetRse = 0.01;
  double BudgetSeconds = 10;

  bool shouldStop(const std::vector<double> &Samples,
                  double ElapsedSeconds) const;
};

/// Timing rounds (kevin-bench on a CUDA device): one side is timed in up to
/// MaxRounds rounds, each in a fresh memory placement, because where the
/// buffers land moves a library kernel's time from one placement to the
/// next. With KeepMedian (the default on a CUDA device) the rounds are
/// settled once MinMedianRounds of them lie within Agreement (relative) of
/// each other, or MaxRounds are timed, and the round whose median is the
/// median of the rounds' (the lower middle one) is kept: a placement effect
/// that varies continuously averages out. Without it (keep the fastest) the
/// rounds are settled once the last round's median is within Agreement of
/// an earlier round's, and the round with the lowest median is kept: for a
/// slow mode that a fresh placement leaves.
struct TimingRounds {
  static constexpr size_t MinMedianRounds = 3;
  size_t MaxRounds = 3;
  double Agreement = 0.01;
  bool KeepMedian = false;

  bool settled(const std::vector<double> &RoundMedians) const;
  size_t keep(const std::vector<double> &RoundMedians) const;
};

/// The escape test: per trial, a wider clock (the events after a device-wide
/// synchronize, or the host clock) minus the timed one minus a calibrated
/// Overhead; true when the median of that excess is above both Fraction of
/// the timed median and Slack. Work that escaped the timed region (side
/// streams, host threads) shows up on the wider clock only; a fixed cost
/// such as the synchronize itself is the Overhead, calibrated on empty calls.
bool medianExcessExceeds(const std::vector<double> &Timed,
                         const std::vector<double> &Wider, double Overhead,
                         double Fraction, double Slack);

/// The share of the launch cover's calibrated time by which it may run long
/// beside honest kernels before the rest counts as escaped work.
constexpr double CoverAllowance = 0.03;

/// One side's CUDA samples after the escape check.
struct EscapeCheck {
  std::vector<double> Ms; ///< the times used: the synchronized ones if escaped
  bool Escaped = false;
  double CoverExcessMs = 0; ///< median time the launch cover ran long
};

/// The escape check of CUDA samples: Ms (Start -> EndStream) is the time
/// unless Synced (Start -> EndDevice) less SyncOverhead is clearly more
/// (medianExcessExceeds with half of Ms and 20 us). Work that escaped the
/// timing stream can run beside the launch cover, before Start, and end
/// there: each call's cover time beyond CoverBaseline (its median over
/// empty calls) and CoverAllowance of it counts as seen by the synchronize.
/// Synced of another size than Ms skips the check; Cover of another size
/// (none, on the CPU) skips only the cover's part.
EscapeCheck checkEscape(const std::vector<double> &Ms,
                        std::vector<double> Synced,
                        const std::vector<double> &Cover, double SyncOverhead,
                        double CoverBaseline);

} // namespace kevin

#endif // KEVIN_BENCH_STATISTICS_H
