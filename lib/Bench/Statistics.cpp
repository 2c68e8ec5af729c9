//===-- Statistics.cpp - timing statistics -------------------------------===//
//
// Order-statistic standard errors, bootstrap intervals, stopping rule.
//
//===----------------------------------------------------------------------===//
#include "kevin/Bench/Statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace kevin {

static double sortedMedian(const std::vector<double> &Sorted) {
  size_t N = Sorted.size();
  if (!N)
    return 0;
  return N % 2 ? Sorted[N / 2] : (Sorted[N / 2 - 1] + Sorted[N / 2]) / 2;
}

double medianStandardError(std::vector<double> Samples) {
  size_t N = Samples.size();
  if (N < 3)
    return 0;
  std::sort(Samples.begin(), Samples.end());
  // Ranks j < k with P(x_(j) <= median <= x_(k)) ~ 95% (normal approximation
  // of Binomial(n, 1/2)), clamped to the sample.
  double Half = 1.96 * std::sqrt(static_cast<double>(N)) / 2;
  double Centre = static_cast<double>(N) / 2;
  long J = std::max(1L, static_cast<long>(std::floor(Centre - Half)));
  long K = std::min(static_cast<long>(N), static_cast<long>(std::ceil(Centre + Half + 1)));
  return (Samples[K - 1] - Samples[J - 1]) / (2 * 1.96);
}

TimingSummary summarize(std::vector<double> Samples) {
  TimingSummary S;
  S.Trials = Samples.size();
  if (Samples.empty())
    return S;
  std::sort(Samples.begin(), Samples.end());
  S.Median = sortedMedian(Samples);
  S.Min = Samples.front();
  S.Max = Samples.back();
  S.Mean = std::accumulate(Samples.begin(), Samples.end(), 0.0) / S.Trials;
  if (S.Trials > 1) {
    double Sum = 0;
    for (double X : Samples)
      Sum += (X - S.Mean) * (X - S.Mean);
    S.Std = std::sqrt(Sum / (S.Trials - 1));
  }
  if (S.Trials >= 3 && S.Median > 0)
    S.MedianRelativeStandardError = medianStandardError(Samples) / S.Median;
  return S;
}

SpeedupEstimate estimateSpeedup(const std::vector<double> &Reference,
                                const std::vector<double> &Candidate,
                                int Resamples, uint64_t Seed) {
  SpeedupEstimate E;
  if (Reference.empty() || Candidate.empty())
    return E;
  auto Median = [](std::vector<double> V) {
    std::sort(V.begin(), V.end());
    return sortedMedian(V);
  };
  double C = Median(Candidate);
  E.Speedup = C > 0 ? Median(Reference) / C : 0;
  std::mt19937_64 Rng(Seed);
  std::vector<double> Ratios, R(Reference.size()), K(Candidate.size());
  std::uniform_int_distribution<size_t> PickR(0, Reference.size() - 1),
      PickC(0, Candidate.size() - 1);
  for (int I = 0; I < Resamples; ++I) {
    for (double &X : R)
      X = Reference[PickR(Rng)];
    for (double &X : K)
      X = Candidate[PickC(Rng)];
    double Mc = Median(K);
    if (Mc > 0)
      Ratios.push_back(Median(R) / Mc);
  }
  if (Ratios.empty()) {
    E.Low = E.High = E.Speedup;
    return E;
  }
  std::sort(Ratios.begin(), Ratios.end());
  E.Low = Ratios[static_cast<size_t>(0.025 * (Ratios.size() - 1))];
  E.High = Ratios[static_cast<size_t>(0.975 * (Ratios.size() - 1))];
  return E;
}

bool StoppingRule::shouldStop(const std::vector<double> &Samples,
                              double ElapsedSeconds) const {
  if (Samples.size() >= MaxTrials)
    return true;
  // The budget never cuts a run below MinTrials.
  if (Samples.size() < MinTrials)
    return false;
  if (ElapsedSeconds >= BudgetSeconds)
    return true;
  return summarize(Samples).MedianRelativeStandardError < TargetRse;
}

bool TimingRounds::settled(const std::vector<double> &RoundMedians) const {
  if (RoundMedians.size() >= MaxRounds)
    return true;
  if (KeepMedian) {
    if (RoundMedians.size() < MinMedianRounds)
      return false;
    auto [Low, High] =
        std::minmax_element(RoundMedians.begin(), RoundMedians.end());
    return *High / *Low - 1 <= Agreement;
  }
  if (RoundMedians.size() < 2)
    return false;
  double Last = RoundMedians.back();
  for (size_t I = 0; I + 1 < RoundMedians.size(); ++I)
    if (std::abs(Last / RoundMedians[I] - 1) <= Agreement)
      return true;
  return false;
}

size_t TimingRounds::keep(const std::vector<double> &RoundMedians) const {
  if (!KeepMedian)
    return std::min_element(RoundMedians.begin(), RoundMedians.end()) -
           RoundMedians.begin();
  std::vector<size_t> Order(RoundMedians.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return RoundMedians[A] < RoundMedians[B];
  });
  return Order[(Order.size() - 1) / 2];
}

bool medianExcessExceeds(const std::vector<double> &Timed,
                         const std::vector<double> &Wider, double Overhead,
                         double Fraction, double Slack) {
  if (Timed.empty() || Timed.size() != Wider.size())
    return false;
  std::vector<double> Excess;
  for (size_t I = 0; I < Timed.size(); ++I)
    Excess.push_back(Wider[I] - Timed[I] - Overhead);
  double Limit = std::max(Fraction * summarize(Timed).Median, Slack);
  return summarize(std::move(Excess)).Median > Limit;
}

EscapeCheck checkEscape(const std::vector<double> &Ms,
                        std::vector<double> Synced,
                        const std::vector<double> &Cover, double SyncOverhead,
                        double CoverBaseline) {
  EscapeCheck C;
  C.Ms = Ms;
  if (Ms.empty() || Synced.size() != Ms.size())
    return C;
  if (Cover.size() == Synced.size()) {
    // Honest calls ran the cover up to 0.07 ms (7%) long beside a 34 ms
    // GEMM on the H200 and up to 0.014 ms (1.4%) beside 0.25 ms kernels.
    double Allowed = CoverBaseline * (1 + CoverAllowance);
    std::vector<double> Excess;
    for (size_t I = 0; I < Synced.size(); ++I) {
      Excess.push_back(std::max(0.0, Cover[I] - Allowed));
      Synced[I] += Excess.back();
    }
    C.CoverExcessMs = summarize(std::move(Excess)).Median;
  }
  C.Escaped = medianExcessExceeds(Ms, Synced, SyncOverhead, 0.5, 0.02);
  if (C.Escaped)
    for (size_t I = 0; I < Ms.size(); ++I)
      C.Ms[I] = std::max(Ms[I], Synced[I] - SyncOverhead);
  return C;
}

} // namespace kevin
