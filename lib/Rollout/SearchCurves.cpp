//===-- SearchCurves.cpp - budget curves and tables -----------------------===//
//
// Reads kevin search's logs, computes each allocation's curves over the
// kernels spent, and formats them as text, CSV, SVG or the budget table.
//
//===----------------------------------------------------------------------===//
#include "kevin/Rollout/SearchCurves.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

namespace kevin {

Expected<KernelScore> scoreSearchRecord(const Record &R) {
  auto Result = readKernelResult(R);
  if (!Result)
    return Result.error();
  return scoreKernel(*Result, ScoreOptions());
}

Expected<std::vector<SearchKernel>>
readSearchKernels(const std::vector<std::string> &Paths,
                  std::vector<Error> &Warnings) {
  std::vector<SearchKernel> Kernels;
  for (std::string Path : Paths) {
    std::error_code EC;
    if (std::filesystem::is_directory(Path, EC))
      Path += "/search.jsonl";
    auto Log = readRecordLog(Path);
    if (!Log)
      return Log.error();
    if (Log->DroppedTail)
      Warnings.push_back(Error::inFile(
          Path, "dropped a torn last line (a write cut short)"));
    for (const Record &R : Log->Records) {
      if (Error E = checkRequiredFields(R, {{"task_id", JsonKind::String},
                                            {"search.label", JsonKind::String},
                                            {"search.kernel", JsonKind::Integer},
                                            {"search.budget", JsonKind::Integer}}))
        return E;
      auto Score = scoreSearchRecord(R);
      if (!Score)
        return Score.error();
      SearchKernel K;
      K.Label = R.Value["search"]["label"].get<std::string>();
      K.Source = Path;
      K.TaskId = R.Value["task_id"].get<std::string>();
      K.Kernel = R.Value["search"]["kernel"].get<int>();
      K.Budget = R.Value["search"]["budget"].get<int>();
      K.Correct = Score->Correct;
      K.Speedup = Score->Correct && Score->Speedup ? *Score->Speedup : 0;
      Kernels.push_back(std::move(K));
    }
  }
  return Kernels;
}

std::vector<SearchCurve>
computeSearchCurves(const std::vector<SearchKernel> &Kernels) {
  std::vector<std::string> Labels;
  // Label -> (source, task) -> kernels in the order the budget spent them.
  std::map<std::string,
           std::map<std::pair<std::string, std::string>,
                    std::vector<const SearchKernel *>>>
      Samples;
  std::map<std::string, int> Budgets;
  for (const SearchKernel &K : Kernels) {
    if (!Samples.count(K.Label))
      Labels.push_back(K.Label);
    Samples[K.Label][{K.Source, K.TaskId}].push_back(&K);
    Budgets[K.Label] = std::max(Budgets[K.Label], K.Budget);
  }
  std::vector<SearchCurve> Curves;
  for (const std::string &Label : Labels) {
    SearchCurve C;
    C.Label = Label;
    C.Budget = Budgets[Label];
    C.Points.resize(static_cast<size_t>(C.Budget));
    for (int K = 1; K <= C.Budget; ++K)
      C.Points[K - 1].Kernels = K;
    for (auto &[Key, List] : Samples[Label]) {
      std::sort(List.begin(), List.end(),
                [](const SearchKernel *A, const SearchKernel *B) {
                  return A->Kernel < B->Kernel;
                });
      double Best = 0;
      bool Solved = false;
      size_t Next = 0;
      for (int K = 1; K <= C.Budget; ++K) {
        for (; Next < List.size() && List[Next]->Kernel <= K; ++Next) {
          Best = std::max(Best, List[Next]->Speedup);
          Solved |= List[Next]->Correct;
        }
        C.Points[K - 1].BestSpeedup += Best;
        C.Points[K - 1].PassRate += Solved;
      }
      C.FinalBest.push_back(Best);
      C.FinalPass.push_back(Solved);
    }
    double N = static_cast<double>(C.FinalBest.size());
    for (CurvePoint &P : C.Points) {
      P.BestSpeedup /= N;
      P.PassRate /= N;
    }
    Curves.push_back(std::move(C));
  }
  return Curves;
}

Interval bootstrapMeanInterval(const std::vector<double> &Values,
                               unsigned Resamples, uint64_t Seed,
                               double Level) {
  if (Values.empty() || Resamples == 0)
    return {};
  // The generator's raw output (not a distribution, whose algorithm the
  // standard leaves open) keeps the interval the same on every platform.
  std::mt19937_64 Rng(Seed);
  std::vector<double> Means(Resamples);
  for (double &Mean : Means) {
    double Sum = 0;
    for (size_t I = 0; I < Values.size(); ++I)
      Sum += Values[Rng() % Values.size()];
    Mean = Sum / static_cast<double>(Values.size());
  }
  std::sort(Means.begin(), Means.end());
  double Tail = (1 - Level) / 2;
  auto At = [&](double Q) {
    double Index = std::floor(Q * static_cast<double>(Resamples - 1) + 0.5);
    return Means[static_cast<size_t>(Index)];
  };
  return {At(Tail), At(1 - Tail)};
}

namespace {

std::string fixed(double Value, int Digits) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof Buffer, "%.*f", Digits, Value);
  return Buffer;
}

std::string speedup(double Value) { return fixed(Value, 2) + "x"; }
std::string percent(double Value) { return fixed(100 * Value, 0) + "%"; }

} // namespace

std::string formatCurvesText(const std::vector<SearchCurve> &Curves) {
  std::ostringstream Out;
  for (const SearchCurve &C : Curves) {
    Out << C.Label << " (budget " << C.Budget << ", " << C.FinalBest.size()
        << " tasks)\n  kernels  best speedup  pass rate\n";
    for (const CurvePoint &P : C.Points) {
      bool PowerOfTwo = (P.Kernels & (P.Kernels - 1)) == 0;
      if (!PowerOfTwo && P.Kernels != C.Budget)
        continue;
      char Line[96];
      std::snprintf(Line, sizeof Line, "  %7d  %11s  %9s\n", P.Kernels,
                    speedup(P.BestSpeedup).c_str(),
                    percent(P.PassRate).c_str());
      Out << Line;
    }
  }
  return Out.str();
}

std::string formatCurvesCsv(const std::vector<SearchCurve> &Curves) {
  std::ostringstream Out;
  Out << "allocation,kernels,best_speedup,pass_rate,tasks\n";
  for (const SearchCurve &C : Curves)
    for (const CurvePoint &P : C.Points)
      Out << '"' << C.Label << "\"," << P.Kernels << ','
          << fixed(P.BestSpeedup, 4) << ',' << fixed(P.PassRate, 4) << ','
          << C.FinalBest.size() << '\n';
  return Out.str();
}

std::string formatBudgetTable(const std::vector<SearchCurve> &Curves,
                              const TableOptions &Options) {
  std::ostringstream Out;
  std::string Level = fixed(100 * Options.Level, 0) + "%";
  Out << "| allocation | kernels per task | performance (best@B) [" << Level
      << " CI] | pass@B [" << Level << " CI] | tasks |\n"
      << "| --- | --- | --- | --- | --- |\n";
  for (const SearchCurve &C : Curves) {
    const CurvePoint &Last = C.Points.back();
    Interval Best = bootstrapMeanInterval(C.FinalBest, Options.Resamples,
                                          Options.Seed, Options.Level);
    Interval Pass = bootstrapMeanInterval(C.FinalPass, Options.Resamples,
                                          Options.Seed, Options.Level);
    Out << "| " << C.Label << " | " << C.Budget << " | "
        << speedup(Last.BestSpeedup) << " [" << speedup(Best.Low) << ", "
        << speedup(Best.High) << "] | " << percent(Last.PassRate) << " ["
        << percent(Pass.Low) << ", " << percent(Pass.High) << "] | "
        << C.FinalBest.size() << " |\n";
  }
  return Out.str();
}

namespace {

const char *const Colours[] = {"#1f77b4", "#d62728", "#2ca02c",
                               "#9467bd", "#ff7f0e", "#17becf"};

/// One panel of the SVG: Value(point) against kernels spent.
void drawPanel(std::ostringstream &Out, const std::vector<SearchCurve> &Curves,
               double Left, const std::string &Title, double YMax,
               double (*Value)(const CurvePoint &), bool Percent) {
  const double Top = 40, Width = 380, Height = 240;
  int XMax = 1;
  for (const SearchCurve &C : Curves)
    XMax = std::max(XMax, C.Budget);
  Out << "<text x=\"" << Left + Width / 2 << "\" y=\"25\" "
      << "text-anchor=\"middle\">" << Title << "</text>\n"
      << "<rect x=\"" << Left << "\" y=\"" << Top << "\" width=\"" << Width
      << "\" height=\"" << Height << "\" fill=\"none\" stroke=\"#888\"/>\n"
      << "<text x=\"" << Left + Width / 2 << "\" y=\"" << Top + Height + 30
      << "\" text-anchor=\"middle\">kernels spent per task (of "
      << XMax << ")</text>\n"
      << "<text x=\"" << Left - 5 << "\" y=\"" << Top + 5
      << "\" text-anchor=\"end\">"
      << (Percent ? percent(YMax) : speedup(YMax)) << "</text>\n"
      << "<text x=\"" << Left - 5 << "\" y=\"" << Top + Height
      << "\" text-anchor=\"end\">0</text>\n";
  for (size_t I = 0; I < Curves.size(); ++I) {
    Out << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\""
        << Colours[I % 6] << "\" points=\"";
    for (const CurvePoint &P : Curves[I].Points) {
      double X = Left + Width * (XMax > 1 ? (P.Kernels - 1.0) / (XMax - 1) : 0);
      double Y = Top + Height * (1 - Value(P) / YMax);
      Out << fixed(X, 1) << ',' << fixed(Y, 1) << ' ';
    }
    Out << "\"/>\n";
  }
}

} // namespace

std::string formatCurvesSvg(const std::vector<SearchCurve> &Curves) {
  double BestMax = 1;
  for (const SearchCurve &C : Curves)
    for (const CurvePoint &P : C.Points)
      BestMax = std::max(BestMax, P.BestSpeedup);
  std::ostringstream Out;
  Out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" "
         "height=\"" << 330 + 20 * Curves.size()
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  drawPanel(Out, Curves, 60, "best speedup (mean over tasks)", BestMax * 1.1,
            [](const CurvePoint &P) { return P.BestSpeedup; }, false);
  drawPanel(Out, Curves, 510, "pass rate (tasks with a correct kernel)", 1.0,
            [](const CurvePoint &P) { return P.PassRate; }, true);
  for (size_t I = 0; I < Curves.size(); ++I)
    Out << "<text x=\"60\" y=\"" << 330 + 20 * I << "\" fill=\""
        << Colours[I % 6] << "\">" << Curves[I].Label << "</text>\n";
  Out << "</svg>\n";
  return Out.str();
}

} // namespace kevin
