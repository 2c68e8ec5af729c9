//===-- TrialPlan.h - the secrets of one judgement --------------*- C++ -*-===//
//
// Private to lib/Exec. Everything the candidate must not predict is drawn
// here, once per judgement and before any worker starts: the trial seeds,
// which trials draw heavy-tailed inputs (KEVIN-RT-022), the held-out batch's
// trial (KEVIN-RT-022), where the ghost replay (KEVIN-RT-010) and the
// profiled forward (KEVIN-RT-009) happen, and the nonce that attests the
// candidate worker's result.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_EXEC_TRIALPLAN_H
#define KEVIN_LIB_EXEC_TRIALPLAN_H

#include "kevin/Exec/Judge.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kevin {

/// Whether the candidate's worker profiles a forward (KEVIN-RT-009).
bool profilesKernels(const JudgeOptions &Options);

/// Whether the candidate's worker replays a forward without its kernels
/// (KEVIN-RT-010) on one more input draw, the last of the reference's.
bool replaysGhost(const JudgeOptions &Options);

struct TrialPlan {
  /// The judgement's secret: every seed and position below derives from it.
  uint64_t Secret = 0;
  /// The reference's input draws: the trials', then one for the ghost
  /// replay (its index is Options.Trials) when there is one.
  unsigned Draws = 0;
  /// Per draw.
  std::vector<uint64_t> Seeds;
  std::vector<bool> HeavyTailed;
  /// The trial drawn at the held-out batch size, or -1.
  int64_t HeldOutTrial = -1;
  /// The trial the ghost replay comes before (Options.Trials: after the
  /// last), when there is a replay.
  std::optional<uint64_t> GhostBeforeTrial;
  /// The checked call that runs under the profiler, when one does.
  std::optional<uint64_t> ProfiledTrial;
  /// What the candidate worker's result must carry.
  std::string Nonce;

  /// Draws the plan: from Options.Seed when set, else from /dev/urandom.
  static Expected<TrialPlan> draw(const JudgeOptions &Options);

  /// Takes the reference's draws (seeds, heavy-tailed trials, held-out
  /// batch) of Shared, a plan drawn with the same options: a judgement
  /// against a prepared reference. The nonce and this judgement's own
  /// positions (ghost replay, profiled call) stay as drawn.
  void takeDrawsOf(const TrialPlan &Shared);

  /// The reference worker's secrets, the line sent on its stdin.
  std::string referenceSecrets(const JudgeOptions &Options) const;
};

} // namespace kevin

#endif // KEVIN_LIB_EXEC_TRIALPLAN_H
