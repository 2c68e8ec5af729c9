//===-- Formatting.cpp - numbers and text as the reports print them -------===//
//
// Shared by the text, markdown and HTML reports.
//
//===----------------------------------------------------------------------===//
#include "Formatting.h"
#include "kevin/Reward/Reward.h"

#include <cstdio>
#include <sstream>

namespace kevin {

std::string escapeHtml(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

} // namespace kevin

namespace kevin::report {

std::string fixed(double V, int Digits) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof(Buffer), "%.*f", Digits, roundForOutput(V));
  std::string Text = Buffer;
  if (Text.front() == '-' && Text.find_first_not_of("-0.") == std::string::npos)
    Text.erase(0, 1); // -0.000: a tiny negative shown as zero
  return Text;
}

std::string percent(double V) { return fixed(100 * V, 1) + "%"; }
std::string times(double V) { return fixed(V, 2) + "x"; }

std::string label(double V) {
  std::ostringstream Out;
  Out << V;
  return Out.str();
}

std::string valueOrNA(const std::optional<double> &V, bool Percent) {
  if (!V)
    return "n/a";
  return Percent ? percent(*V) : times(*V);
}

std::string delta(const std::optional<double> &V, bool Percent) {
  if (!V)
    return "n/a";
  std::string Number = Percent ? fixed(100 * *V, 1) : fixed(*V, 2);
  if (Number.front() != '-' &&
      Number.find_first_not_of("0.") != std::string::npos)
    Number = "+" + Number;
  return Number + (Percent ? " pp" : "x");
}


std::string markdownCell(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '|')
      Out += "\\|";
    else if (C == '\n' || C == '\r')
      Out += ' ';
    else
      Out += C;
  }
  return Out;
}

std::vector<MetricRow> metricRows(const TaskMetrics &T, bool Timed,
                                  const ReportOptions &Opts) {
  auto Timing = [&](const std::string &Text) {
    return Timed ? Text : std::string("n/a");
  };
  std::vector<MetricRow> Rows;
  Rows.push_back({"correct", percent(T.BestCorrect), percent(T.AvgCorrect)});
  Rows.push_back(
      {"speedup", Timing(times(T.BestSpeedup)), Timing(times(T.AvgSpeedup))});
  for (size_t I = 0; I < Opts.FastP.size(); ++I)
    Rows.push_back({"fast_" + label(Opts.FastP[I]),
                    Timing(percent(T.BestFast[I])),
                    Timing(percent(T.AvgFast[I]))});
  for (size_t I = 0; I < Opts.PassK.size(); ++I)
    if (I < T.PassAtK.size() && T.PassAtK[I])
      Rows.push_back({"pass@" + std::to_string(Opts.PassK[I]),
                      percent(*T.PassAtK[I]), ""});
  return Rows;
}

std::string speedupText(double V, bool Timed) {
  return Timed ? times(V) : "n/a";
}

bool hasLevels(const RunReport &Report) {
  for (const TaskMetrics &L : Report.Levels)
    if (L.TaskId != "(none)")
      return true;
  return false;
}

} // namespace kevin::report

namespace kevin::report {

std::string Table::text() const {
  std::vector<size_t> Widths(Header.size(), 0);
  auto Measure = [&](const std::vector<std::string> &Row) {
    for (size_t I = 0; I < Row.size() && I < Widths.size(); ++I)
      Widths[I] = std::max(Widths[I], Row[I].size());
  };
  Measure(Header);
  for (const auto &Row : Rows)
    Measure(Row);
  std::string Out;
  auto Line = [&](const std::vector<std::string> &Row) {
    std::string Text = " ";
    for (size_t I = 0; I < Row.size() && I < Widths.size(); ++I) {
      std::string Fill(Widths[I] - Row[I].size(), ' ');
      Text += " " + (I < TextColumns ? Row[I] + Fill : Fill + Row[I]);
    }
    Out += Text.substr(0, Text.find_last_not_of(' ') + 1) + "\n";
  };
  Line(Header);
  for (const auto &Row : Rows)
    Line(Row);
  return Out;
}

std::string Table::markdown() const {
  auto Line = [](const std::vector<std::string> &Row) {
    std::string Text = "|";
    for (const std::string &Cell : Row)
      Text += " " + markdownCell(Cell) + " |";
    return Text + "\n";
  };
  std::string Out = Line(Header) + "|";
  for (size_t I = 0; I < Header.size(); ++I)
    Out += I < TextColumns ? " --- |" : " ---: |";
  Out += "\n";
  for (const auto &Row : Rows)
    Out += Line(Row);
  return Out;
}

std::string Table::html() const {
  // The first column is left-aligned by the page's CSS; later text columns
  // say so.
  auto Open = [&](const char *Tag, size_t I) {
    return std::string("<") + Tag +
           (I > 0 && I < TextColumns ? " class=\"text\">" : ">");
  };
  std::string Out = "<table>\n<tr>";
  for (size_t I = 0; I < Header.size(); ++I)
    Out += Open("th", I) + escapeHtml(Header[I]) + "</th>";
  Out += "</tr>\n";
  for (const auto &Row : Rows) {
    Out += "<tr>";
    for (size_t I = 0; I < Row.size(); ++I)
      Out += Open("td", I) + escapeHtml(Row[I]) + "</td>";
    Out += "</tr>\n";
  }
  return Out + "</table>\n";
}

Table levelTable(const RunReport &Report) {
  Table T{{"level", "tasks", "trajectories", "correct best", "correct avg",
           "speedup best", "speedup avg"},
          {}};
  for (const TaskMetrics &L : Report.Levels) {
    size_t Tasks = 0;
    for (const TaskMetrics &Task : Report.Tasks)
      Tasks += taskLevel(Task.TaskId) == L.TaskId;
    T.Rows.push_back({L.TaskId, std::to_string(Tasks),
                      std::to_string(L.Trajectories), percent(L.BestCorrect),
                      percent(L.AvgCorrect),
                      speedupText(L.BestSpeedup, Report.Timed),
                      speedupText(L.AvgSpeedup, Report.Timed)});
  }
  return T;
}

Table costTable(const RunReport &Report) {
  Table T{{"stage", "kernels", "seconds", "mean", "max"}, {}};
  double Total = 0;
  for (const StageCost &C : Report.Costs) {
    if (!C.Kernels)
      continue;
    Total += C.Seconds;
    T.Rows.push_back({C.Stage, std::to_string(C.Kernels), fixed(C.Seconds, 1),
                      fixed(C.Seconds / C.Kernels, 2), fixed(C.MaxSeconds, 2)});
  }
  if (!T.Rows.empty())
    T.Rows.push_back({"total", "", fixed(Total, 1), "", ""});
  return T;
}

Table flaggedTable(const RunReport &Report) {
  Table T{{"kernel", "flags", "speedup"}, {}, 2};
  for (const FlaggedKernel &F : Report.Flagged) {
    std::string Flags;
    for (const std::string &Flag : F.Flags)
      Flags += (Flags.empty() ? "" : ", ") + Flag;
    T.Rows.push_back({F.TaskId + " trajectory " + std::to_string(F.Trajectory) +
                          " turn " + std::to_string(F.Turn),
                      Flags, F.Speedup ? times(*F.Speedup) : "n/a"});
  }
  return T;
}

Table signalTable(const RunReport &Report) {
  Table T{{"signal", "mean", "min", "max"}, {}};
  auto Row = [&](const char *Name, const std::vector<double> &Values) {
    if (Values.empty())
      return;
    double Sum = 0, Min = Values.front(), Max = Values.front();
    for (double V : Values) {
      Sum += V;
      Min = std::min(Min, V);
      Max = std::max(Max, V);
    }
    T.Rows.push_back(
        {Name, fixed(Sum / Values.size(), 3), fixed(Min, 3), fixed(Max, 3)});
  };
  Row("S (score)", Report.Signal.Scores);
  Row("R (return)", Report.Signal.Returns);
  Row("A (advantage)", Report.Signal.Advantages);
  return T;
}

Table comparisonTable(const std::vector<MetricPair> &Pairs) {
  Table T{{"metric", "A", "B", "delta"}, {}};
  for (const MetricPair &P : Pairs)
    T.Rows.push_back({P.Name, valueOrNA(P.A, P.Percent),
                      valueOrNA(P.B, P.Percent), delta(P.delta(), P.Percent)});
  return T;
}

Table comparisonByTask(const std::vector<TaskComparison> &Tasks,
                       const char *FirstColumn) {
  Table T{{FirstColumn, "metric", "A", "B", "delta"}, {}, 2};
  for (const TaskComparison &Task : Tasks)
    for (const MetricPair &P : Task.Metrics)
      T.Rows.push_back({Task.TaskId, P.Name, valueOrNA(P.A, P.Percent),
                        valueOrNA(P.B, P.Percent),
                        delta(P.delta(), P.Percent)});
  return T;
}

Table settingsTable(const RunInfo &Info) {
  Table T{{"setting", "value"}, {}, 2};
  for (const auto &[Label, Value] : Info.Settings)
    T.Rows.push_back({Label, Value});
  return T;
}

Table overallTable(const RunReport &Report, const ReportOptions &Opts) {
  Table T{{"metric", "best@k", "avg@k"}, {}};
  for (const MetricRow &Row : metricRows(Report.Overall, Report.Timed, Opts))
    T.Rows.push_back({Row.Name, Row.Best, Row.Avg});
  return T;
}

Table taskTable(const RunReport &Report) {
  Table T{{"task", "trajectories", "kernels", "correct best", "correct avg",
           "speedup best", "speedup avg"},
          {}};
  for (const TaskMetrics &Task : Report.Tasks)
    T.Rows.push_back({Task.TaskId, std::to_string(Task.Trajectories),
                      std::to_string(Task.Kernels), percent(Task.BestCorrect),
                      percent(Task.AvgCorrect),
                      speedupText(Task.BestSpeedup, Report.Timed),
                      speedupText(Task.AvgSpeedup, Report.Timed)});
  return T;
}

Table countTable(const char *Column,
                 const std::map<std::string, size_t> &Counts) {
  Table T{{Column, "kernels"}, {}};
  for (const auto &[Name, Count] : Counts)
    T.Rows.push_back({Name, std::to_string(Count)});
  return T;
}

} // namespace kevin::report
