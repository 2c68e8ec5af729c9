//===-- Html.cpp - a run report as a self-contained HTML page -------------===//
//
// One HTML file with inline CSS, inline SVG charts (the distribution of
// trajectory speedups, the per-turn curves, histograms of S, R and A), the
// report's tables and a drill-down into every kept trajectory's turns in
// nested <details>. No script and no external resource, so it renders
// offline in any browser.
//
//===----------------------------------------------------------------------===//
#include "Formatting.h"
#include "Svg.h"
#include "kevin/Report/Format.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace kevin {

using namespace report;

namespace {

constexpr const char *Style = R"(body {
  font-family: system-ui, sans-serif; margin: 2em; color: #222;
  max-width: 1100px;
}
h1 { font-size: 1.4em; }
h2 { font-size: 1.1em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: .9em; }
td, th { padding: 3px 10px; border-bottom: 1px solid #eee; text-align: right; }
td:first-child, th:first-child { text-align: left; }
th { background: #f4f4f4; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
svg { border: 1px solid #ddd; background: #fff; }
.title { font-size: 13px; text-anchor: middle; font-weight: 600; }
.ylabel { font-size: 10px; text-anchor: end; fill: #555; }
.xlabel { font-size: 10px; text-anchor: middle; fill: #555; }
.grid { stroke: #e4e4e4; }
.bar { fill: #4a7fc1; }
polyline { fill: none; stroke-width: 2; }
.legend { font-size: 11px; stroke: none; }
polyline.s1 { stroke: #4a7fc1; }
circle.s1, .legend.s1 { fill: #4a7fc1; }
polyline.s2 { stroke: #d9822b; }
circle.s2, .legend.s2 { fill: #d9822b; }
.note { color: #666; font-size: .85em; }
nav a { margin-right: .8em; font-size: .9em; }
details { margin: .3em 0 .3em 1em; }
summary { cursor: pointer; }
summary.correct::marker, .correct { color: #2a7a2a; }
summary.incorrect::marker, .incorrect { color: #a33; }
pre { background: #f7f7f7; border: 1px solid #e4e4e4; padding: .5em;
  overflow-x: auto; font-size: .85em; max-height: 40em; }
td.text, th.text { text-align: left; }
.runs { display: flex; flex-wrap: wrap; gap: 24px; }
)";

/// The page up to its first section: head, style, title and navigation.
std::string
pageStart(const std::string &Title,
          const std::vector<std::pair<std::string, std::string>> &Sections) {
  std::string Out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
                    "charset=\"utf-8\">\n<title>" +
                    escapeHtml(Title) + "</title>\n<style>\n" + Style +
                    "</style>\n</head>\n<body>\n<h1>" + escapeHtml(Title) +
                    "</h1>\n<nav>";
  for (const auto &[Id, Heading] : Sections)
    Out += "<a href=\"#" + Id + "\">" + escapeHtml(Heading) + "</a>";
  return Out + "</nav>\n";
}

std::string section(const std::string &Id, const std::string &Heading,
                    const std::string &Body) {
  return "<section id=\"" + Id + "\">\n<h2>" + escapeHtml(Heading) + "</h2>\n" +
         Body + "</section>\n";
}

std::string note(const std::string &Text) {
  return "<p class=\"note\">" + escapeHtml(Text) + "</p>\n";
}

/// The speedup distribution and the per-turn curves.
std::string charts(const RunReport &Report) {
  const std::vector<double> Edges = {0.5, 0.8, 1, 1.5, 2, 4};
  std::vector<std::string> Labels = {"<0.5"};
  for (size_t I = 0; I + 1 < Edges.size(); ++I)
    Labels.push_back(label(Edges[I]) + "-" + label(Edges[I + 1]));
  Labels.push_back(">=" + label(Edges.back()));
  std::vector<size_t> Counts(Labels.size(), 0);
  for (double S : Report.CorrectSpeedups)
    ++Counts[static_cast<size_t>(
        std::upper_bound(Edges.begin(), Edges.end(), S) - Edges.begin())];
  Series Correct{"correct at this turn", {}, "s1"};
  Series SoFar{"correct so far", {}, "s2"};
  Series Speedup{"mean best speedup so far", {}, "s1"};
  double MaxSpeedup = 1;
  for (const TurnPoint &P : Report.Turns) {
    Correct.Values.push_back(P.CorrectRate);
    SoFar.Values.push_back(P.CorrectSoFar);
    Speedup.Values.push_back(P.MeanBestSpeedup);
    MaxSpeedup = std::max(MaxSpeedup, P.MeanBestSpeedup);
  }
  double SpeedupAxis = 1;
  while (SpeedupAxis < MaxSpeedup)
    SpeedupAxis *= 2;
  std::string Out = "<div class=\"charts\">\n";
  if (Report.Timed)
    Out += barChart("Correct trajectories by speedup", Labels, Counts,
                    "speedup of the fastest correct kernel");
  Out += lineChart("Correctness by turn", {Correct, SoFar}, 1.0, "%", 100);
  if (Report.Timed)
    Out +=
        lineChart("Mean best speedup by turn", {Speedup}, SpeedupAxis, "x", 1);
  Out += "</div>\n";
  if (!Report.Timed)
    Out += note("No record was timed (no bench section, e.g. kevin eval "
                "--no-bench): speedups are n/a.");
  return Out;
}

std::string rlSignal(const RunReport &Report) {
  const RLSignal &S = Report.Signal;
  return "<div class=\"charts\">\n" +
         histogram("S: kernel scores", S.Scores, "S") +
         histogram("R: per-turn returns", S.Returns, "R") +
         histogram("A: advantages", S.Advantages, "A") + "</div>\n" +
         signalTable(Report).html() + "<p>Zero-variance groups (all returns " +
         "equal, no learning signal): <b>" +
         std::to_string(S.ZeroVarianceGroups) + " of " +
         std::to_string(S.Groups) + " (" + percent(S.zeroVarianceShare()) +
         ")</b>.</p>\n" +
         note("R and A from the records' reward and grpo sections where "
              "present, else as kevin-reward and kevin-grpo compute them "
              "with their defaults (gamma 0.4, sum; groups by task).");
}

std::string stabilityTable(const RunReport &Report, const ReportOptions &Opts) {
  const StabilitySignals &S = Report.Stability;
  Table T{{"signal", "value"},
          {{"not-okay ratio (prefix \"" + Opts.OkayPrefix + "\")",
            percent(S.NotOkayRatio)},
           {"repetition (4-gram), mean / max",
            fixed(S.MeanRepetition, 3) + " / " + fixed(S.MaxRepetition, 3)},
           {"length in chars, mean / p50 / p95 / max",
            fixed(S.MeanChars, 0) + " / " + fixed(S.P50Chars, 0) + " / " +
                fixed(S.P95Chars, 0) + " / " + fixed(S.MaxChars, 0)}}};
  if (S.WithTokens)
    T.Rows.push_back({"length in tokens, mean / p95 / max",
                      fixed(S.MeanTokens, 0) + " / " + fixed(S.P95Tokens, 0) +
                          " / " + fixed(S.MaxTokens, 0)});
  if (S.WithFinishReason)
    T.Rows.push_back(
        {"truncated (finish_reason length)", percent(S.TruncatedShare)});
  return T.html();
}

std::string turnTable(const RunReport &Report) {
  Table T{{"turn", "kernels", "correct", "correct so far", "mean best speedup"},
          {}};
  for (const TurnPoint &P : Report.Turns)
    T.Rows.push_back({std::to_string(P.Turn), std::to_string(P.Kernels),
                      percent(P.CorrectRate), percent(P.CorrectSoFar),
                      speedupText(P.MeanBestSpeedup, Report.Timed)});
  return T.html();
}

/// One turn of the drill-down: its outcome and signal in the summary, then
/// its message, findings, feedback and code.
std::string turnDetails(const KernelSample &K) {
  const KernelDetails &D = *K.Details;
  std::ostringstream Out;
  Out << "<details class=\"turn\"><summary class=\""
      << (K.Correct ? "correct" : "incorrect") << "\">turn " << K.Turn << ": "
      << escapeHtml(D.Outcome);
  if (K.Correct && K.Speedup)
    Out << " " << times(*K.Speedup);
  Out << " · S " << fixed(K.Score, 3) << " · R "
      << fixed(K.Return.value_or(0), 3) << " · A "
      << fixed(K.Advantage.value_or(0), 3) << "</summary>\n";
  if (!D.Id.empty())
    Out << note("record " + D.Id);
  if (!D.Message.empty())
    Out << "<pre class=\"message\">" << escapeHtml(D.Message) << "</pre>\n";
  if (!D.Findings.empty()) {
    Table Findings{{"rule", "severity", "message", "line"}, {}, 3};
    for (const KernelDetails::Finding &F : D.Findings)
      Findings.Rows.push_back({F.Rule, F.Severity, F.Message,
                               F.Line ? std::to_string(F.Line) : ""});
    Out << "<p>check findings</p>\n" << Findings.html();
  }
  for (const std::string &Flag : K.ReviewFlags)
    Out << "<p class=\"incorrect\">kevin-bench review flag: "
        << escapeHtml(Flag) << "</p>\n";
  if (!D.Feedback.empty())
    Out << "<p>feedback</p>\n<pre class=\"feedback\">" << escapeHtml(D.Feedback)
        << "</pre>\n";
  auto Block = [&](const char *Class, const std::string &Text) {
    if (!Text.empty())
      Out << "<details class=\"" << Class << "\"><summary>" << Class << " ("
          << std::count(Text.begin(), Text.end(), '\n') + 1
          << " lines)</summary>\n<pre><code>" << escapeHtml(Text)
          << "</code></pre>\n</details>\n";
  };
  Block("code", D.Code);
  Block("response", D.Response);
  Out << "</details>\n";
  return Out.str();
}

/// Every kept trajectory, task by task, turn by turn.
std::string drillDown(const std::vector<KernelSample> &Samples) {
  std::vector<std::string> TaskOrder;
  std::map<std::string, std::map<int64_t, std::vector<const KernelSample *>>>
      Tasks;
  size_t Kept = 0;
  for (const KernelSample &K : Samples) {
    if (!K.Details)
      continue;
    auto &Trajectories = Tasks[K.TaskId];
    if (Trajectories.empty())
      TaskOrder.push_back(K.TaskId);
    auto &Turns = Trajectories[K.Trajectory];
    Kept += Turns.empty();
    Turns.push_back(&K);
  }
  if (TaskOrder.empty())
    return note("No trajectory kept (--drill-down 0).");
  std::ostringstream Out;
  Out << note(std::to_string(Kept) + " trajectories; open a task, a "
                                     "trajectory, then a turn.");
  for (const std::string &Task : TaskOrder) {
    Out << "<details class=\"task\"><summary>" << escapeHtml(Task) << " ("
        << Tasks[Task].size() << " trajectories)</summary>\n";
    for (auto &[Index, Turns] : Tasks[Task]) {
      std::stable_sort(Turns.begin(), Turns.end(),
                       [](const KernelSample *A, const KernelSample *B) {
                         return A->Turn < B->Turn;
                       });
      bool Correct =
          std::any_of(Turns.begin(), Turns.end(),
                      [](const KernelSample *K) { return K->Correct; });
      Out << "<details class=\"trajectory\"><summary class=\""
          << (Correct ? "correct" : "incorrect") << "\">trajectory " << Index
          << ": " << (Correct ? "correct" : "never correct") << ", "
          << Turns.size() << (Turns.size() == 1 ? " turn" : " turns")
          << "</summary>\n";
      for (const KernelSample *K : Turns)
        Out << turnDetails(*K);
      Out << "</details>\n";
    }
    Out << "</details>\n";
  }
  return Out.str();
}

} // namespace

std::string formatReportHtml(const RunReport &Report,
                             const std::vector<KernelSample> &Samples,
                             const ReportOptions &Opts, const RunInfo &Info) {
  const TaskMetrics &O = Report.Overall;
  std::vector<std::pair<std::string, std::string>> Sections = {
      {"configuration", "Configuration"},
      {"overall", "Overall"},
      {"charts", "Charts"},
      {"rl-signal", "RL signal"}};
  if (hasLevels(Report))
    Sections.push_back({"per-level", "Per level"});
  for (const auto &Entry : std::vector<std::pair<std::string, std::string>>{
           {"per-task", "Per task"},
           {"per-turn", "Per turn"},
           {"look-at-these", "Look at these"},
           {"cost", "Cost by stage"},
           {"failures", "Failures by stage"},
           {"rules", "Check findings by rule"},
           {"stability", "Training stability"},
           {"trajectories", "Trajectories"}})
    Sections.push_back(Entry);
  std::ostringstream Out;
  Out << pageStart("kevin report: " + Info.Name, Sections) << "<p>"
      << Report.Records << " records, " << Report.Tasks.size() << " tasks, "
      << O.Trajectories << " trajectories, up to " << Report.Turns.size()
      << " turns.</p>\n"
      << section("configuration", "Configuration", settingsTable(Info).html())
      << section("overall", "Overall (mean over tasks)",
                 overallTable(Report, Opts).html())
      << section("charts", "Charts", charts(Report))
      << section("rl-signal", "RL signal: S, R and A", rlSignal(Report));
  if (hasLevels(Report))
    Out << section("per-level", "Per level (mean over its tasks)",
                   levelTable(Report).html());
  Table Cost = costTable(Report);
  Out << section("per-task", "Per task", taskTable(Report).html())
      << section("per-turn", "Per turn", turnTable(Report))
      << section("look-at-these", "Look at these: kevin-bench review flags",
                 Report.Flagged.empty() ? note("No kernel was flagged.")
                                        : flaggedTable(Report).html())
      << section("cost", "Cost by stage (seconds)",
                 Cost.Rows.empty() ? note("No record carries stage seconds.")
                                   : Cost.html())
      << section("failures", "Failures by stage",
                 Report.Failures.empty()
                     ? note("none")
                     : countTable("stage/outcome", Report.Failures).html())
      << section("rules", "Check findings by rule",
                 Report.Rules.empty() ? note("none")
                                      : countTable("rule", Report.Rules).html())
      << section("stability",
                 "Training stability (" +
                     std::to_string(Report.Stability.Responses) + " responses)",
                 stabilityTable(Report, Opts))
      << section("trajectories", "Trajectories", drillDown(Samples))
      << note("Generated by kevin report.") << "</body>\n</html>\n";
  return Out.str();
}

std::string formatComparisonHtml(const RunComparison &C, const RunInfo &A,
                                 const RunInfo &B) {
  std::ostringstream Out;
  Out << pageStart("kevin report: " + A.Name + " vs " + B.Name,
                   {{"configuration", "Configuration"},
                    {"overall", "Overall"},
                    {"per-level", "Per level"},
                    {"per-task", "Per task"}})
      << section("configuration", "Configuration",
                 "<div class=\"runs\">\n<div><h3>A: " + escapeHtml(A.Name) +
                     "</h3>\n" + settingsTable(A).html() +
                     "</div>\n<div><h3>B: " + escapeHtml(B.Name) + "</h3>\n" +
                     settingsTable(B).html() + "</div>\n</div>\n")
      << section("overall", "Overall (mean over tasks); delta = B - A",
                 comparisonTable(C.Overall).html())
      << section("per-level", "Per level",
                 comparisonByTask(C.Levels, "level").html())
      << section("per-task", "Per task",
                 comparisonByTask(C.Tasks, "task").html())
      << note("Generated by kevin report; pp are percentage points.")
      << "</body>\n</html>\n";
  return Out.str();
}

} // namespace kevin
