//===-- kevin/Rollout/SearchCurves.h - budget curves and tables -*- C++ -*-===//
//
// What kevin search's logs say about spending a budget: per allocation
// (the search's label, "serial 16x8"), the best speedup and the pass rate
// against the kernels spent, averaged over tasks, and the table of the Kevin
// paper's Table 2 shape (performance and pass@B per allocation) with a
// bootstrap confidence interval over tasks. A task's performance is the
// speedup of its fastest correct kernel, 0 when none is correct, as kevin
// report's best@k. Needs only Reward and Support, so kevin report can link it.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_SEARCHCURVES_H
#define KEVIN_ROLLOUT_SEARCHCURVES_H

#include "kevin/Reward/Score.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kevin {

/// A search record's score: kevin-reward's S with its default options.
Expected<KernelScore> scoreSearchRecord(const Record &R);

/// One kernel of a search log.
struct SearchKernel {
  std::string Label;  ///< search.label
  std::string Source; ///< The log it came from.
  std::string TaskId;
  int Kernel = 0;     ///< search.kernel: its place in the task's budget.
  int Budget = 0;     ///< search.budget
  bool Correct = false;
  double Speedup = 0; ///< Of a correct kernel with a speedup; else 0.
};

/// The kernels of search logs: each path is a search.jsonl or a run
/// directory holding one. A torn last line is dropped with a warning.
Expected<std::vector<SearchKernel>>
readSearchKernels(const std::vector<std::string> &Paths,
                  std::vector<Error> &Warnings);

struct CurvePoint {
  int Kernels = 0;        ///< Spent per task.
  double BestSpeedup = 0; ///< Mean over tasks of the best so far.
  double PassRate = 0;    ///< Share of tasks with a correct kernel so far.
};

/// One allocation's curves. A sample is one task of one log; a sample with
/// fewer kernels than the budget (a run still going) keeps its last value.
struct SearchCurve {
  std::string Label;
  int Budget = 0;
  std::vector<CurvePoint> Points; ///< Kernels = 1 .. Budget.
  /// Per sample, at the budget: best speedup and 1/0 for solved.
  std::vector<double> FinalBest, FinalPass;
};

/// The curves of each label, in the order labels first appear.
std::vector<SearchCurve> computeSearchCurves(
    const std::vector<SearchKernel> &Kernels);

struct Interval {
  double Low = 0, High = 0;
};

/// The percentile bootstrap interval of the mean of Values (resampled with
/// replacement Resamples times from a generator seeded with Seed).
Interval bootstrapMeanInterval(const std::vector<double> &Values,
                               unsigned Resamples, uint64_t Seed,
                               double Level = 0.95);

struct TableOptions {
  unsigned Resamples = 1000;
  uint64_t Seed = 0;
  double Level = 0.95;
};

/// Curves as text (points at 1, 2, 4, ... and the budget), CSV (every
/// point), or SVG (best speedup and pass rate against kernels spent).
std::string formatCurvesText(const std::vector<SearchCurve> &Curves);
std::string formatCurvesCsv(const std::vector<SearchCurve> &Curves);
std::string formatCurvesSvg(const std::vector<SearchCurve> &Curves);
/// The Markdown table: allocation, kernels per task, performance (best@B)
/// and pass@B, each with its interval, and the number of samples.
std::string formatBudgetTable(const std::vector<SearchCurve> &Curves,
                              const TableOptions &Options);

} // namespace kevin

#endif // KEVIN_ROLLOUT_SEARCHCURVES_H
