//===-- Text.cpp - a run report as a terminal table or JSON ---------------===//
//
// Fixed-width tables for the terminal and the JSON form of a RunReport.
//
//===----------------------------------------------------------------------===//
#include "kevin/Report/Format.h"
#include "kevin/Reward/Reward.h"

#include <cstdio>
#include <sstream>

namespace kevin {

namespace {

/// V with Digits decimals, rounded from its 15-digit form so that a mean of
/// 0.775 computed as 0.7749999999999999 still shows as 0.78.
std::string fixed(double V, int Digits) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof(Buffer), "%.*f", Digits, roundForOutput(V));
  return Buffer;
}

std::string percent(double V) { return fixed(100 * V, 1) + "%"; }
std::string times(double V) { return fixed(V, 2) + "x"; }

/// The shortest text of a threshold or k (0.5, 1, 1.5).
std::string label(double V) {
  std::ostringstream Out;
  Out << V;
  return Out.str();
}

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

Json taskJson(const TaskMetrics &T, const ReportOptions &Opts) {
  Json J = Json::object();
  J["task_id"] = T.TaskId;
  J["trajectories"] = T.Trajectories;
  J["kernels"] = T.Kernels;
  J["correct"] = {{"best", number(T.BestCorrect)},
                  {"avg", number(T.AvgCorrect)}};
  J["speedup"] = {{"best", number(T.BestSpeedup)},
                  {"avg", number(T.AvgSpeedup)}};
  Json Fast = Json::object();
  for (size_t I = 0; I < Opts.FastP.size(); ++I)
    Fast[label(Opts.FastP[I])] = {{"best", number(T.BestFast[I])},
                                  {"avg", number(T.AvgFast[I])}};
  J["fast_p"] = std::move(Fast);
  Json Pass = Json::object();
  for (size_t I = 0; I < Opts.PassK.size(); ++I)
    Pass[std::to_string(Opts.PassK[I])] = optionalNumber(T.PassAtK[I]);
  J["pass_at_k"] = std::move(Pass);
  return J;
}

} // namespace

Json reportToJson(const RunReport &Report, const ReportOptions &Opts) {
  Json J = Json::object();
  J["records"] = Report.Records;
  J["overall"] = taskJson(Report.Overall, Opts);
  J["overall"].erase("task_id");
  J["overall"]["tasks"] = Report.Tasks.size();
  Json Tasks = Json::array();
  for (const TaskMetrics &T : Report.Tasks)
    Tasks.push_back(taskJson(T, Opts));
  J["tasks"] = std::move(Tasks);
  Json Turns = Json::array();
  for (const TurnPoint &P : Report.Turns)
    Turns.push_back({{"turn", P.Turn},
                     {"kernels", P.Kernels},
                     {"correct_rate", number(P.CorrectRate)},
                     {"correct_so_far", number(P.CorrectSoFar)},
                     {"mean_best_speedup", number(P.MeanBestSpeedup)}});
  J["turns"] = std::move(Turns);
  J["failures"] = Json(Report.Failures);
  J["rules"] = Json(Report.Rules);
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
  auto Row = [&](const std::string &Name, const std::string &Best,
                 const std::string &Avg) {
    Out << "  " << pad(Name, 24) << pad(Best, 9, true) << pad(Avg, 9, true)
        << "\n";
  };
  Row("correct", percent(O.BestCorrect), percent(O.AvgCorrect));
  Row("speedup", times(O.BestSpeedup), times(O.AvgSpeedup));
  for (size_t I = 0; I < Opts.FastP.size(); ++I)
    Row("fast_" + label(Opts.FastP[I]), percent(O.BestFast[I]),
        percent(O.AvgFast[I]));
  for (size_t I = 0; I < Opts.PassK.size(); ++I)
    if (O.PassAtK[I])
      Row("pass@" + std::to_string(Opts.PassK[I]), percent(*O.PassAtK[I]), "");

  Out << "\nper task                          traj  kernels  correct (best/avg)"
         "  speedup (best/avg)\n";
  for (const TaskMetrics &T : Report.Tasks)
    Out << "  " << pad(T.TaskId, 32)
        << pad(std::to_string(T.Trajectories), 4, true)
        << pad(std::to_string(T.Kernels), 9, true)
        << pad(percent(T.BestCorrect) + " / " + percent(T.AvgCorrect), 20, true)
        << pad(times(T.BestSpeedup) + " / " + times(T.AvgSpeedup), 20, true)
        << "\n";

  Out << "\nper turn   kernels  correct  correct so far  mean best speedup\n";
  for (const TurnPoint &P : Report.Turns)
    Out << "  " << pad(std::to_string(P.Turn), 8)
        << pad(std::to_string(P.Kernels), 8, true)
        << pad(percent(P.CorrectRate), 9, true)
        << pad(percent(P.CorrectSoFar), 16, true)
        << pad(times(P.MeanBestSpeedup), 19, true) << "\n";

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

} // namespace kevin
