//===-- Html.cpp - a run report as a self-contained HTML page -------------===//
//
// One HTML file with inline CSS and inline SVG charts (the distribution of
// trajectory speedups, the per-turn curves) and the report's tables. No
// script and no external resource, so it renders offline in any browser.
//
//===----------------------------------------------------------------------===//
#include "kevin/Report/Format.h"
#include "kevin/Reward/Reward.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace kevin {

namespace {

std::string escape(const std::string &Text) {
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

/// V with Digits decimals, rounded from its 15-digit form so that a mean of
/// 0.775 computed as 0.7749999999999999 still shows as 0.78.
std::string fixed(double V, int Digits) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof(Buffer), "%.*f", Digits, roundForOutput(V));
  return Buffer;
}

std::string percent(double V) { return fixed(100 * V, 1) + "%"; }
std::string times(double V) { return fixed(V, 2) + "x"; }

std::string label(double V) {
  std::ostringstream Out;
  Out << V;
  return Out.str();
}

// Chart geometry shared by both kinds of chart.
constexpr double Width = 420, Height = 240, Left = 48, Right = 12, Top = 28,
                 Bottom = 36;
constexpr double PlotW = Width - Left - Right, PlotH = Height - Top - Bottom;

std::string chartFrame(const std::string &Title, double YMax,
                       const std::string &YUnit) {
  std::ostringstream Out;
  Out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Width
      << "\" height=\"" << Height << "\" viewBox=\"0 0 " << Width << " "
      << Height << "\" role=\"img\" aria-label=\"" << escape(Title) << "\">\n"
      << "<text x=\"" << Width / 2 << "\" y=\"16\" class=\"title\">"
      << escape(Title) << "</text>\n";
  for (int I = 0; I <= 4; ++I) {
    double Y = Top + PlotH - PlotH * I / 4;
    Out << "<line x1=\"" << Left << "\" x2=\"" << Left + PlotW << "\" y1=\""
        << Y << "\" y2=\"" << Y << "\" class=\"grid\"/>"
        << "<text x=\"" << Left - 6 << "\" y=\"" << Y + 4
        << "\" class=\"ylabel\">" << label(YMax * I / 4) << YUnit
        << "</text>\n";
  }
  return Out.str();
}

/// A bar chart of Counts labelled by Labels.
std::string barChart(const std::string &Title,
                     const std::vector<std::string> &Labels,
                     const std::vector<size_t> &Counts) {
  size_t Max = 1;
  for (size_t C : Counts)
    Max = std::max(Max, C);
  // Round the axis up to a multiple of 4 so the grid labels are integers.
  double YMax = static_cast<double>((Max + 3) / 4 * 4);
  std::ostringstream Out;
  Out << chartFrame(Title, YMax, "");
  double Slot = PlotW / static_cast<double>(Labels.size());
  for (size_t I = 0; I < Labels.size(); ++I) {
    double H = PlotH * static_cast<double>(Counts[I]) / YMax;
    double X = Left + Slot * static_cast<double>(I);
    Out << "<rect x=\"" << X + Slot * 0.15 << "\" y=\"" << Top + PlotH - H
        << "\" width=\"" << Slot * 0.7 << "\" height=\"" << H
        << "\" class=\"bar\"><title>" << escape(Labels[I]) << ": " << Counts[I]
        << "</title></rect>"
        << "<text x=\"" << X + Slot / 2 << "\" y=\"" << Top + PlotH + 16
        << "\" class=\"xlabel\">" << escape(Labels[I]) << "</text>\n";
  }
  Out << "<text x=\"" << Left + PlotW / 2 << "\" y=\"" << Height - 4
      << "\" class=\"xlabel\">speedup of the fastest correct kernel</text>\n";
  Out << "</svg>\n";
  return Out.str();
}

struct Series {
  std::string Name;
  std::vector<double> Values;
  std::string Class;
};

/// A line chart over turns 1..n.
std::string lineChart(const std::string &Title, const std::vector<Series> &All,
                      double YMax, const std::string &YUnit, double YScale) {
  std::ostringstream Out;
  Out << chartFrame(Title, YMax * YScale, YUnit);
  size_t N = All.empty() ? 0 : All.front().Values.size();
  auto XOf = [&](size_t I) {
    return N < 2 ? Left + PlotW / 2
                 : Left + PlotW * static_cast<double>(I) /
                              static_cast<double>(N - 1);
  };
  for (size_t I = 0; I < N; ++I)
    Out << "<text x=\"" << XOf(I) << "\" y=\"" << Top + PlotH + 16
        << "\" class=\"xlabel\">" << I + 1 << "</text>";
  Out << "<text x=\"" << Left + PlotW / 2 << "\" y=\"" << Height - 4
      << "\" class=\"xlabel\">turn</text>\n";
  for (size_t S = 0; S < All.size(); ++S) {
    const Series &Line = All[S];
    std::ostringstream Points;
    for (size_t I = 0; I < N; ++I) {
      double Y = Top + PlotH - PlotH * std::min(Line.Values[I], YMax) / YMax;
      Points << (I ? " " : "") << XOf(I) << "," << Y;
      Out << "<circle cx=\"" << XOf(I) << "\" cy=\"" << Y
          << "\" r=\"3\" class=\"" << Line.Class << "\"><title>"
          << escape(Line.Name) << ", turn " << I + 1 << ": "
          << fixed(Line.Values[I] * YScale, 2) << YUnit << "</title></circle>";
    }
    Out << "<polyline points=\"" << Points.str() << "\" class=\"" << Line.Class
        << "\"/>\n"
        << "<text x=\"" << Left + 8 << "\" y=\"" << Top + 14 + 14 * S
        << "\" class=\"legend " << Line.Class << "\">" << escape(Line.Name)
        << "</text>\n";
  }
  Out << "</svg>\n";
  return Out.str();
}

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
)";

} // namespace

std::string formatReportHtml(const RunReport &Report, const ReportOptions &Opts,
                             const std::string &Title) {
  const TaskMetrics &O = Report.Overall;
  std::ostringstream Out;
  Out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
         "charset=\"utf-8\">\n"
      << "<title>kevin report: " << escape(Title) << "</title>\n<style>\n"
      << Style << "</style>\n</head>\n<body>\n"
      << "<h1>kevin report: " << escape(Title) << "</h1>\n"
      << "<p>" << Report.Records << " records, " << Report.Tasks.size()
      << " tasks, " << O.Trajectories << " trajectories, "
      << "up to " << Report.Turns.size() << " turns.</p>\n";

  Out << "<h2>Overall (mean over tasks)</h2>\n<table>\n"
      << "<tr><th>metric</th><th>best@k</th><th>avg@k</th></tr>\n";
  auto Row = [&](const std::string &Name, const std::string &Best,
                 const std::string &Avg) {
    Out << "<tr><td>" << escape(Name) << "</td><td>" << Best << "</td><td>"
        << Avg << "</td></tr>\n";
  };
  Row("correct", percent(O.BestCorrect), percent(O.AvgCorrect));
  Row("speedup", times(O.BestSpeedup), times(O.AvgSpeedup));
  for (size_t I = 0; I < Opts.FastP.size(); ++I)
    Row("fast_" + label(Opts.FastP[I]), percent(O.BestFast[I]),
        percent(O.AvgFast[I]));
  for (size_t I = 0; I < Opts.PassK.size(); ++I)
    if (O.PassAtK[I])
      Row("pass@" + std::to_string(Opts.PassK[I]), percent(*O.PassAtK[I]), "");
  Out << "</table>\n";

  // The charts.
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
  Out << "<h2>Charts</h2>\n<div class=\"charts\">\n"
      << barChart("Correct trajectories by speedup", Labels, Counts)
      << lineChart("Correctness by turn", {Correct, SoFar}, 1.0, "%", 100)
      << lineChart("Mean best speedup by turn", {Speedup}, SpeedupAxis, "x", 1)
      << "</div>\n";

  Out << "<h2>Per task</h2>\n<table>\n<tr><th>task</th><th>trajectories</th>"
         "<th>kernels</th><th>correct best</th><th>correct avg</th>"
         "<th>speedup best</th><th>speedup avg</th></tr>\n";
  for (const TaskMetrics &T : Report.Tasks)
    Out << "<tr><td>" << escape(T.TaskId) << "</td><td>" << T.Trajectories
        << "</td><td>" << T.Kernels << "</td><td>" << percent(T.BestCorrect)
        << "</td><td>" << percent(T.AvgCorrect) << "</td><td>"
        << times(T.BestSpeedup) << "</td><td>" << times(T.AvgSpeedup)
        << "</td></tr>\n";
  Out << "</table>\n";

  Out << "<h2>Per turn</h2>\n<table>\n<tr><th>turn</th><th>kernels</th>"
         "<th>correct</th><th>correct so far</th><th>mean best speedup</th>"
         "</tr>\n";
  for (const TurnPoint &P : Report.Turns)
    Out << "<tr><td>" << P.Turn << "</td><td>" << P.Kernels << "</td><td>"
        << percent(P.CorrectRate) << "</td><td>" << percent(P.CorrectSoFar)
        << "</td><td>" << times(P.MeanBestSpeedup) << "</td></tr>\n";
  Out << "</table>\n";

  auto CountTable = [&](const char *Heading, const char *Column,
                        const std::map<std::string, size_t> &Counts) {
    Out << "<h2>" << Heading << "</h2>\n";
    if (Counts.empty()) {
      Out << "<p class=\"note\">none</p>\n";
      return;
    }
    Out << "<table>\n<tr><th>" << Column << "</th><th>kernels</th></tr>\n";
    for (const auto &[Name, Count] : Counts)
      Out << "<tr><td>" << escape(Name) << "</td><td>" << Count
          << "</td></tr>\n";
    Out << "</table>\n";
  };
  CountTable("Failures by stage", "stage/outcome", Report.Failures);
  CountTable("Check findings by rule", "rule", Report.Rules);

  const StabilitySignals &S = Report.Stability;
  Out << "<h2>Training stability (" << S.Responses << " responses)</h2>\n"
      << "<table>\n<tr><th>signal</th><th>value</th></tr>\n"
      << "<tr><td>not-okay ratio (prefix &quot;" << escape(Opts.OkayPrefix)
      << "&quot;)</td><td>" << percent(S.NotOkayRatio) << "</td></tr>\n"
      << "<tr><td>repetition (4-gram), mean / max</td><td>"
      << fixed(S.MeanRepetition, 3) << " / " << fixed(S.MaxRepetition, 3)
      << "</td></tr>\n"
      << "<tr><td>length in chars, mean / p50 / p95 / max</td><td>"
      << fixed(S.MeanChars, 0) << " / " << fixed(S.P50Chars, 0) << " / "
      << fixed(S.P95Chars, 0) << " / " << fixed(S.MaxChars, 0)
      << "</td></tr>\n";
  if (S.WithTokens)
    Out << "<tr><td>length in tokens, mean / p95 / max</td><td>"
        << fixed(S.MeanTokens, 0) << " / " << fixed(S.P95Tokens, 0) << " / "
        << fixed(S.MaxTokens, 0) << "</td></tr>\n";
  if (S.WithFinishReason)
    Out << "<tr><td>truncated (finish_reason length)</td><td>"
        << percent(S.TruncatedShare) << "</td></tr>\n";
  Out << "</table>\n<p class=\"note\">Generated by kevin report.</p>\n"
      << "</body>\n</html>\n";
  return Out.str();
}

} // namespace kevin
