//===-- Compare.cpp - two runs side by side -------------------------------===//
//
// The metrics of two runs paired by name, overall, per level and per task.
//
//===----------------------------------------------------------------------===//
#include "kevin/Report/Compare.h"
#include "Formatting.h"

namespace kevin {

namespace {

/// The metrics of one task (or level, or the whole run) in both runs; a
/// run without it passes nullptr. Full adds fast_p and pass@k.
std::vector<MetricPair> pairMetrics(const TaskMetrics *A, bool TimedA,
                                    const TaskMetrics *B, bool TimedB,
                                    const ReportOptions &Opts, bool Full) {
  std::vector<MetricPair> Pairs;
  auto Add = [&](const std::string &Name, bool Percent, bool NeedsTiming,
                 auto Get) {
    MetricPair P{Name, Percent, std::nullopt, std::nullopt};
    if (A && (TimedA || !NeedsTiming))
      P.A = Get(*A);
    if (B && (TimedB || !NeedsTiming))
      P.B = Get(*B);
    Pairs.push_back(std::move(P));
  };
  auto Field = [](double TaskMetrics::*Member) {
    return [Member](const TaskMetrics &T) -> std::optional<double> {
      return T.*Member;
    };
  };
  Add("correct best@k", true, false, Field(&TaskMetrics::BestCorrect));
  Add("correct avg@k", true, false, Field(&TaskMetrics::AvgCorrect));
  Add("speedup best@k", false, true, Field(&TaskMetrics::BestSpeedup));
  Add("speedup avg@k", false, true, Field(&TaskMetrics::AvgSpeedup));
  if (!Full)
    return Pairs;
  for (size_t I = 0; I < Opts.FastP.size(); ++I) {
    std::string Name = "fast_" + report::label(Opts.FastP[I]);
    Add(Name + " best@k", true, true,
        [I](const TaskMetrics &T) -> std::optional<double> {
          return T.BestFast[I];
        });
    Add(Name + " avg@k", true, true,
        [I](const TaskMetrics &T) -> std::optional<double> {
          return T.AvgFast[I];
        });
  }
  for (size_t I = 0; I < Opts.PassK.size(); ++I) {
    Add("pass@" + std::to_string(Opts.PassK[I]), true, false,
        [I](const TaskMetrics &T) { return T.PassAtK[I]; });
    if (!Pairs.back().A && !Pairs.back().B)
      Pairs.pop_back(); // k beyond both runs' trajectories
  }
  return Pairs;
}

/// Pairs the entries of two lists by name, A's order first.
std::vector<TaskComparison> pairByName(const std::vector<TaskMetrics> &ListA,
                                       bool TimedA,
                                       const std::vector<TaskMetrics> &ListB,
                                       bool TimedB, const ReportOptions &Opts) {
  auto Find = [](const std::vector<TaskMetrics> &List,
                 const std::string &Id) -> const TaskMetrics * {
    for (const TaskMetrics &T : List)
      if (T.TaskId == Id)
        return &T;
    return nullptr;
  };
  std::vector<TaskComparison> Out;
  for (const TaskMetrics &T : ListA)
    Out.push_back({T.TaskId, pairMetrics(&T, TimedA, Find(ListB, T.TaskId),
                                         TimedB, Opts, false)});
  for (const TaskMetrics &T : ListB)
    if (!Find(ListA, T.TaskId))
      Out.push_back(
          {T.TaskId, pairMetrics(nullptr, TimedA, &T, TimedB, Opts, false)});
  return Out;
}

} // namespace

RunComparison compareRuns(const RunReport &A, const RunReport &B,
                          const ReportOptions &Opts) {
  RunComparison C;
  C.Overall = pairMetrics(&A.Overall, A.Timed, &B.Overall, B.Timed, Opts, true);
  C.Levels = pairByName(A.Levels, A.Timed, B.Levels, B.Timed, Opts);
  if (C.Levels.size() == 1 && C.Levels.front().TaskId == "(none)")
    C.Levels.clear(); // no task id names a level
  C.Tasks = pairByName(A.Tasks, A.Timed, B.Tasks, B.Timed, Opts);
  return C;
}

} // namespace kevin
