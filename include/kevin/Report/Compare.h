//===-- kevin/Report/Compare.h - two runs side by side ----------*- C++ -*-===//
//
// `kevin report A B`: the main metrics of two runs (two checkpoints, two
// prompt variants) and their deltas B - A, overall and per task. A metric
// a run cannot state (a speedup of a run that was never timed, a task the
// run does not have, pass@k without k trajectories) has no value and no
// delta.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_REPORT_COMPARE_H
#define KEVIN_REPORT_COMPARE_H

#include "kevin/Report/Metrics.h"

#include <optional>
#include <string>
#include <vector>

namespace kevin {

/// One metric in both runs.
struct MetricPair {
  std::string Name;
  bool Percent = true; ///< a share (else a speedup factor)
  std::optional<double> A, B;
  std::optional<double> delta() const {
    return A && B ? std::optional<double>(*B - *A) : std::nullopt;
  }
};

struct TaskComparison {
  std::string TaskId;
  std::vector<MetricPair> Metrics;
};

struct RunComparison {
  /// correct, speedup and fast_p (best@k and avg@k), and pass@k.
  std::vector<MetricPair> Overall;
  /// Per level and per task: correct and speedup, best@k and avg@k. Tasks
  /// of A in A's order, then those only B has.
  std::vector<TaskComparison> Levels, Tasks;
};

RunComparison compareRuns(const RunReport &A, const RunReport &B,
                          const ReportOptions &Opts);

} // namespace kevin

#endif // KEVIN_REPORT_COMPARE_H
