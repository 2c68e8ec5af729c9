//===-- Text.cpp - a run report as a terminal table or JSON ---------------===//
//
// Fixed-width tables for the terminal and the JSON form of a RunReport.
//
//===----------------------------------------------------------------------===//
#include "Formatting.h"
#include "kevin/Report/Format.h"
#include "kevin/Reward/Reward.h"

#include <sstream>

namespace kevin {

using namespace report;

namespace {

std::string pad(const std::string &S, size_t Width, bool Right = false) {
  if (S.size() >= Width)
    return S;
  std::string Fill(Width - S.size(), ' ');
  return Right ? Fill + S : S + Fill;
}

/// A number as JSON, rounded like kevin-reward's output (0.775, not
/// 0.7749999999999999).
Json number(double V) { return roundForOutput(V); }

Json optionalNumber(const std::optional<double> &V) {
  return V ? number(*V) : Json(nullptr);
}

/// A speedup-derived value: null when the run was never timed.
Json timedNumber(double V, bool Timed) {
  return Timed ? number(V) : Json(nullptr);
}

Json taskJson(const TaskMetrics &T, bool Timed, const ReportOptions &Opts) {
  Json J = Json::object();
  J["task_id"] = T.TaskId;
  J["trajectories"] = T.Trajectories;
  J["kernels"] = T.Kernels;
  J["correct"] = {{"best", number(T.BestCorrect)},
                  {"avg", number(T.AvgCorrect)}};
  J["speedup"] = {{"best", timedNumber(T.BestSpeedup, Timed)},
                  {"avg", timedNumber(T.AvgSpeedup, Timed)}};
  Json Fast = Json::object();
  for (size_t I = 0; I < Opts.FastP.size(); ++I)
    Fast[label(Opts.FastP[I])] = {{"best", timedNumber(T.BestFast[I], Timed)},
                                  {"avg", timedNumber(T.AvgFast[I], Timed)}};
  J["fast_p"] = std::move(Fast);
  Json Pass = Json::object();
  for (size_t I = 0; I < Opts.PassK.size(); ++I)
    Pass[std::to_string(Opts.PassK[I])] = optionalNumber(T.PassAtK[I]);
  J["pass_at_k"] = std::move(Pass);
  return J;
}

Json signalJson(const RunReport &Report) {
  const RLSignal &S = Report.Signal;
  auto Values = [](const std::vector<double> &V) {
    Json List = Json::array();
    for (double X : V)
      List.push_back(number(X));
    return List;
  };
  return {{"groups", S.Groups},
          {"zero_variance_groups", S.ZeroVarianceGroups},
          {"zero_variance_share", number(S.zeroVarianceShare())},
          {"score", Values(S.Scores)},
          {"return", Values(S.Returns)},
          {"advantage", Values(S.Advantages)}};
}

Json costJson(const RunReport &Report) {
  Json Costs = Json::object();
  for (const StageCost &C : Report.Costs)
    Costs[C.Stage] = {{"kernels", C.Kernels},
                      {"seconds", number(C.Seconds)},
                      {"max_seconds", number(C.MaxSeconds)}};
  return Costs;
}

Json flaggedJson(const RunReport &Report) {
  Json Flagged = Json::array();
  for (const FlaggedKernel &F : Report.Flagged)
    Flagged.push_back(
        {{"task_id", F.TaskId},
         {"trajectory", F.Trajectory},
         {"turn", F.Turn},
         {"flags", F.Flags},
         {"speedup", F.Speedup ? number(*F.Speedup) : Json(nullptr)}});
  return Flagged;
}

} // namespace

Json runInfoToJson(const RunInfo &Info) {
  Json Settings = Json::object();
  for (const auto &[Label, Value] : Info.Settings)
    Settings[Label] = Value;
  return {{"name", Info.Name}, {"settings", std::move(Settings)}};
}

Json reportToJson(const RunReport &Report, const ReportOptions &Opts) {
  Json J = Json::object();
  J["records"] = Report.Records;
  J["timed"] = Report.Timed;
  J["overall"] = taskJson(Report.Overall, Report.Timed, Opts);
  J["overall"].erase("task_id");
  J["overall"]["tasks"] = Report.Tasks.size();
  Json Tasks = Json::array();
  for (const TaskMetrics &T : Report.Tasks)
    Tasks.push_back(taskJson(T, Report.Timed, Opts));
  J["tasks"] = std::move(Tasks);
  Json Levels = Json::array();
  for (const TaskMetrics &L : Report.Levels) {
    Levels.push_back(taskJson(L, Report.Timed, Opts));
    Levels.back()["level"] = Levels.back()["task_id"];
    Levels.back().erase("task_id");
  }
  J["levels"] = std::move(Levels);
  Json Turns = Json::array();
  for (const TurnPoint &P : Report.Turns)
    Turns.push_back(
        {{"turn", P.Turn},
         {"kernels", P.Kernels},
         {"correct_rate", number(P.CorrectRate)},
         {"correct_so_far", number(P.CorrectSoFar)},
         {"mean_best_speedup", timedNumber(P.MeanBestSpeedup, Report.Timed)}});
  J["turns"] = std::move(Turns);
  J["failures"] = Json(Report.Failures);
  J["rules"] = Json(Report.Rules);
  J["signal"] = signalJson(Report);
  J["cost"] = costJson(Report);
  J["flagged"] = flaggedJson(Report);
  const StabilitySignals &S = Report.Stability;
  J["stability"] = {
      {"responses", S.Responses},
      {"okay_prefix", Opts.OkayPrefix},
      {"not_okay_ratio", number(S.NotOkayRatio)},
      {"repetition",
       {{"mean", number(S.MeanRepetition)}, {"max", number(S.MaxRepetition)}}},
      {"chars",
       {{"mean", number(S.MeanChars)},
        {"p50", S.P50Chars},
        {"p95", S.P95Chars},
        {"max", number(S.MaxChars)}}},
      {"tokens",
       {{"responses", S.WithTokens},
        {"mean", number(S.MeanTokens)},
        {"p95", S.P95Tokens},
        {"max", number(S.MaxTokens)}}},
      {"truncated",
       {{"responses", S.WithFinishReason},
        {"share", number(S.TruncatedShare)}}}};
  return J;
}

std::string formatReportText(const RunReport &Report,
                             const ReportOptions &Opts) {
  std::ostringstream Out;
  const TaskMetrics &O = Report.Overall;
  Out << "kevin report: " << Report.Records << " records, "
      << Report.Tasks.size() << " tasks, " << O.Trajectories
      << " trajectories, up to " << Report.Turns.size() << " turns\n";
  if (Report.Tasks.empty())
    return Out.str();

  Out << "\noverall (mean over tasks)   best@k    avg@k\n";
  for (const MetricRow &Row : metricRows(O, Report.Timed, Opts))
    Out << "  " << pad(Row.Name, 24) << pad(Row.Best, 9, true)
        << pad(Row.Avg, 9, true) << "\n";

  Out << "\nper task                          traj  kernels  correct (best/avg)"
         "  speedup (best/avg)\n";
  for (const TaskMetrics &T : Report.Tasks)
    Out << "  " << pad(T.TaskId, 32)
        << pad(std::to_string(T.Trajectories), 4, true)
        << pad(std::to_string(T.Kernels), 9, true)
        << pad(percent(T.BestCorrect) + " / " + percent(T.AvgCorrect), 20, true)
        << pad(speedupText(T.BestSpeedup, Report.Timed) + " / " +
                   speedupText(T.AvgSpeedup, Report.Timed),
               20, true)
        << "\n";
  if (hasLevels(Report))
    Out << "\nper level (mean over its tasks)\n" << levelTable(Report).text();

  Out << "\nper turn   kernels  correct  correct so far  mean best speedup\n";
  for (const TurnPoint &P : Report.Turns)
    Out << "  " << pad(std::to_string(P.Turn), 8)
        << pad(std::to_string(P.Kernels), 8, true)
        << pad(percent(P.CorrectRate), 9, true)
        << pad(percent(P.CorrectSoFar), 16, true)
        << pad(speedupText(P.MeanBestSpeedup, Report.Timed), 19, true) << "\n";

  if (!Report.Failures.empty()) {
    Out << "\nfailures by stage\n";
    for (const auto &[Stage, Count] : Report.Failures)
      Out << "  " << pad(Stage, 32) << pad(std::to_string(Count), 6, true)
          << "\n";
  }
  if (!Report.Rules.empty()) {
    Out << "\ncheck findings by rule (kernels)\n";
    for (const auto &[Rule, Count] : Report.Rules)
      Out << "  " << pad(Rule, 32) << pad(std::to_string(Count), 6, true)
          << "\n";
  }
  Out << "\nrl signal (" << Report.Signal.Scores.size() << " kernels)\n"
      << signalTable(Report).text() << "  zero-variance groups "
      << Report.Signal.ZeroVarianceGroups << " of " << Report.Signal.Groups
      << " (" << percent(Report.Signal.zeroVarianceShare()) << ")\n";
  if (Table Cost = costTable(Report); !Cost.Rows.empty())
    Out << "\ncost by stage\n" << Cost.text();
  if (!Report.Flagged.empty())
    Out << "\nlook at these (kevin-bench review flags)\n"
        << flaggedTable(Report).text();
  const StabilitySignals &S = Report.Stability;
  if (S.Responses || S.WithTokens) {
    Out << "\nstability (" << S.Responses << " responses)\n";
    if (S.Responses) {
      Out << "  not-okay ratio (prefix \"" << Opts.OkayPrefix << "\")  "
          << percent(S.NotOkayRatio) << "\n";
      Out << "  repetition (4-gram)  mean " << fixed(S.MeanRepetition, 3)
          << "  max " << fixed(S.MaxRepetition, 3) << "\n";
      Out << "  length (chars)  mean " << fixed(S.MeanChars, 0) << "  p50 "
          << fixed(S.P50Chars, 0) << "  p95 " << fixed(S.P95Chars, 0)
          << "  max " << fixed(S.MaxChars, 0) << "\n";
    }
    if (S.WithTokens)
      Out << "  length (tokens)  mean " << fixed(S.MeanTokens, 0) << "  p95 "
          << fixed(S.P95Tokens, 0) << "  max " << fixed(S.MaxTokens, 0) << "\n";
    if (S.WithFinishReason)
      Out << "  truncated (finish_reason length)  " << percent(S.TruncatedShare)
          << "\n";
  }
  return Out.str();
}

std::string formatComparisonText(const RunComparison &C, const RunInfo &A,
                                 const RunInfo &B) {
  std::ostringstream Out;
  Out << "kevin report: A = " << A.Name << " (" << A.RecordPath
      << "), B = " << B.Name << " (" << B.RecordPath << "); deltas are B - A\n"
      << "\noverall (mean over tasks)\n"
      << comparisonTable(C.Overall).text();
  if (!C.Levels.empty())
    Out << "\nper level\n" << comparisonByTask(C.Levels, "level").text();
  Out << "\nper task\n" << comparisonByTask(C.Tasks, "task").text();
  return Out.str();
}

Json comparisonToJson(const RunComparison &C, const RunInfo &A,
                      const RunInfo &B) {
  auto Optional = [](const std::optional<double> &V) {
    return V ? Json(roundForOutput(*V)) : Json(nullptr);
  };
  auto Pairs = [&](const std::vector<MetricPair> &List) {
    Json Out = Json::object();
    for (const MetricPair &P : List)
      Out[P.Name] = {{"a", Optional(P.A)},
                     {"b", Optional(P.B)},
                     {"delta", Optional(P.delta())}};
    return Out;
  };
  auto ByName = [&](const std::vector<TaskComparison> &List, const char *Key) {
    Json Out = Json::array();
    for (const TaskComparison &T : List)
      Out.push_back({{Key, T.TaskId}, {"metrics", Pairs(T.Metrics)}});
    return Out;
  };
  return {{"a", runInfoToJson(A)},
          {"b", runInfoToJson(B)},
          {"overall", Pairs(C.Overall)},
          {"levels", ByName(C.Levels, "level")},
          {"tasks", ByName(C.Tasks, "task_id")}};
}

} // namespace kevin
