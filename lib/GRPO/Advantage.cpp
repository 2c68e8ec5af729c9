//===-- Advantage.cpp - group-normalised advantages -----------------------===//
//
// Two-pass mean and variance per group, then one advantage per sample.
//
//===----------------------------------------------------------------------===//
#include "kevin/GRPO/Advantage.h"

#include <cmath>

namespace kevin {

const char *stdModeName(StdMode Mode) {
  switch (Mode) {
  case StdMode::Population:
    return "population";
  case StdMode::Sample:
    return "sample";
  case StdMode::None:
    return "none";
  }
  return "population";
}

const char *baselineName(Baseline Base) {
  return Base == Baseline::Mean ? "mean" : "leave-one-out";
}

double baselineOf(const std::vector<double> &Returns, const GroupStats &Stats,
                  size_t I, Baseline Base) {
  if (Base == Baseline::Mean)
    return Stats.Mean;
  if (Stats.Size < 2)
    return Returns[I];
  double N = static_cast<double>(Stats.Size);
  return (Stats.Mean * N - Returns[I]) / (N - 1);
}

std::vector<double> groupAdvantages(const std::vector<double> &Returns,
                                    const AdvantageOptions &Opts,
                                    GroupStats &Stats) {
  Stats = GroupStats();
  Stats.Size = Returns.size();
  std::vector<double> Advantages(Returns.size(), 0.0);
  if (Returns.empty())
    return Advantages;
  double Sum = 0;
  bool AllEqual = true;
  for (double R : Returns) {
    Sum += R;
    AllEqual = AllEqual && R == Returns.front();
  }
  double N = static_cast<double>(Returns.size());
  Stats.Mean = Sum / N;
  Stats.ZeroVariance = AllEqual;
  if (AllEqual)
    return Advantages;
  double Squares = 0;
  for (double R : Returns)
    Squares += (R - Stats.Mean) * (R - Stats.Mean);
  double Divisor = Opts.Std == StdMode::Sample ? N - 1 : N;
  Stats.Std = std::sqrt(Squares / Divisor);
  for (size_t I = 0; I < Returns.size(); ++I) {
    double Centred = Returns[I] - baselineOf(Returns, Stats, I, Opts.Base);
    Advantages[I] =
        Opts.Std == StdMode::None ? Centred : Centred / (Stats.Std + Opts.Eps);
  }
  return Advantages;
}

} // namespace kevin
