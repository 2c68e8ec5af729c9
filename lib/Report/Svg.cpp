//===-- Svg.cpp - inline SVG charts of the HTML report --------------------===//
//
// Chart geometry, axes with four grid lines, bars and polylines.
//
//===----------------------------------------------------------------------===//
#include "Svg.h"
#include "Formatting.h"

#include <algorithm>
#include <sstream>

namespace kevin::report {

namespace {

// Chart geometry shared by both kinds of chart.
constexpr double Width = 420, Height = 240, Left = 48, Right = 12, Top = 28,
                 Bottom = 36;
constexpr double PlotW = Width - Left - Right, PlotH = Height - Top - Bottom;

std::string chartFrame(const std::string &Title, double YMax,
                       const std::string &YUnit) {
  std::ostringstream Out;
  Out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Width
      << "\" height=\"" << Height << "\" viewBox=\"0 0 " << Width << " "
      << Height << "\" role=\"img\" aria-label=\"" << escapeHtml(Title)
      << "\">\n"
      << "<text x=\"" << Width / 2 << "\" y=\"16\" class=\"title\">"
      << escapeHtml(Title) << "</text>\n";
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

} // namespace

std::string barChart(const std::string &Title,
                     const std::vector<std::string> &Labels,
                     const std::vector<size_t> &Counts,
                     const std::string &XLabel) {
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
        << "\" class=\"bar\"><title>" << escapeHtml(Labels[I]) << ": "
        << Counts[I] << "</title></rect>"
        << "<text x=\"" << X + Slot / 2 << "\" y=\"" << Top + PlotH + 16
        << "\" class=\"xlabel\">" << escapeHtml(Labels[I]) << "</text>\n";
  }
  Out << "<text x=\"" << Left + PlotW / 2 << "\" y=\"" << Height - 4
      << "\" class=\"xlabel\">" << escapeHtml(XLabel) << "</text>\n";
  Out << "</svg>\n";
  return Out.str();
}

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
          << escapeHtml(Line.Name) << ", turn " << I + 1 << ": "
          << fixed(Line.Values[I] * YScale, 2) << YUnit << "</title></circle>";
    }
    Out << "<polyline points=\"" << Points.str() << "\" class=\"" << Line.Class
        << "\"/>\n"
        << "<text x=\"" << Left + 8 << "\" y=\"" << Top + 14 + 14 * S
        << "\" class=\"legend " << Line.Class << "\">" << escapeHtml(Line.Name)
        << "</text>\n";
  }
  Out << "</svg>\n";
  return Out.str();
}

std::string histogram(const std::string &Title,
                      const std::vector<double> &Values,
                      const std::string &XLabel, size_t Bins) {
  if (Values.empty())
    return barChart(Title, {"none"}, {0}, XLabel);
  auto [MinIt, MaxIt] = std::minmax_element(Values.begin(), Values.end());
  double Min = *MinIt, Max = *MaxIt;
  if (Min == Max)
    return barChart(Title, {label(Min)}, {Values.size()}, XLabel);
  double Step = (Max - Min) / static_cast<double>(Bins);
  std::vector<std::string> Labels;
  for (size_t I = 0; I < Bins; ++I) {
    std::ostringstream Edge;
    Edge.precision(3);
    Edge << Min + Step * static_cast<double>(I);
    Labels.push_back(Edge.str());
  }
  std::vector<size_t> Counts(Bins, 0);
  for (double V : Values)
    ++Counts[std::min(Bins - 1, static_cast<size_t>((V - Min) / Step))];
  return barChart(Title, Labels, Counts, XLabel + " (bin lower edges)");
}

} // namespace kevin::report
