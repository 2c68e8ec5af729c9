//===-- kevin/GRPO/Advantage.h - group-normalised advantages ----*- C++ -*-===//
//
// GRPO's advantage A = (R - baseline) / (std + eps) over the samples of one
// group, in the variants the RL engines disagree on: population or sample
// standard deviation, no division at all (Dr. GRPO), and the group mean or a
// leave-one-out mean (RLOO) as the baseline. A group whose returns are all
// equal has zero variance: its advantages are exactly 0.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_GRPO_ADVANTAGE_H
#define KEVIN_GRPO_ADVANTAGE_H

#include <cstddef>
#include <vector>

namespace kevin {

/// How the centred returns are scaled.
enum class StdMode {
  Population, ///< divide by sqrt(sum (R - mean)^2 / N) + eps (numpy's std)
  Sample,     ///< divide by sqrt(sum (R - mean)^2 / (N - 1)) + eps (torch.std)
  None,       ///< no division (Dr. GRPO)
};

/// What is subtracted from each return.
enum class Baseline {
  Mean,       ///< the group mean
  LeaveOneOut ///< the mean of the other samples of the group (RLOO)
};

struct AdvantageOptions {
  StdMode Std = StdMode::Population;
  Baseline Base = Baseline::Mean;
  double Eps = 1e-6;
};

const char *stdModeName(StdMode Mode);
const char *baselineName(Baseline Base);

struct GroupStats {
  size_t Size = 0;
  double Mean = 0.0;
  /// The standard deviation the advantages were divided by (population when
  /// StdMode::None, for diagnostics); 0 for a single sample.
  double Std = 0.0;
  bool ZeroVariance = false;
};

/// The advantages of one group's returns, in the same order. A single-sample
/// group has zero variance and advantage 0 in every variant.
std::vector<double> groupAdvantages(const std::vector<double> &Returns,
                                    const AdvantageOptions &Opts,
                                    GroupStats &Stats);

/// The baseline subtracted from Returns[I] (for diagnostics).
double baselineOf(const std::vector<double> &Returns, const GroupStats &Stats,
                  size_t I, Baseline Base);

} // namespace kevin

#endif // KEVIN_GRPO_ADVANTAGE_H
