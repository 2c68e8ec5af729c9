//===-- TrialPlan.cpp - the secrets of one judgement ----------------------===//
//
// Draws a judgement's secrets (TrialPlan.h). The seeds and positions derive
// from one secret by SHA-256 and mt19937_64, so --seed reproduces a run
// everywhere.
//
//===----------------------------------------------------------------------===//
#include "TrialPlan.h"
#include "RuntimeCheck.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/Hash.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace kevin {

bool profilesKernels(const JudgeOptions &Options) {
  return Options.KernelCoverage > 0 && !Options.BuildOnly &&
         isCudaDevice(Options.Device);
}

bool replaysGhost(const JudgeOptions &Options) {
  return Options.GhostReplay && Options.Trials > 0 && !Options.BuildOnly &&
         isCudaDevice(Options.Device);
}

uint64_t trialSeed(uint64_t Secret, unsigned Trial) {
  ContentHasher H;
  H.add("kevin-trial-seed")
      .add(std::to_string(Secret))
      .add(std::to_string(Trial));
  std::string Hex = H.finish().substr(0, 16);
  return std::stoull(Hex, nullptr, 16) & 0x7fffffffffffffffULL;
}

Expected<TrialPlan> TrialPlan::draw(const JudgeOptions &Options) {
  TrialPlan Plan;
  if (Options.Seed) {
    Plan.Secret = *Options.Seed;
  } else {
    Expected<std::string> Hex = randomHex(8);
    if (!Hex)
      return Hex.error();
    Plan.Secret = std::stoull(*Hex, nullptr, 16);
  }
  uint64_t Secret = Plan.Secret;
  // The reference draws one more input set for the ghost replay, after the
  // trials' (its index is Options.Trials).
  Plan.Draws = Options.Trials + (replaysGhost(Options) ? 1 : 0);
  for (unsigned T = 0; T < Plan.Draws; ++T)
    Plan.Seeds.push_back(trialSeed(Secret, T));
  // Which trials draw heavy-tailed inputs: secret positions, one trial at
  // least on the task's own distribution.
  // (Fisher-Yates on mt19937_64, whose numbers every library agrees on, so
  // --seed picks the same trials everywhere.)
  std::vector<unsigned> Order(Options.Trials);
  std::iota(Order.begin(), Order.end(), 0u);
  std::mt19937_64 Shuffle(trialSeed(Secret, 9000001u));
  for (unsigned K = Options.Trials; K > 1; --K)
    std::swap(Order[K - 1], Order[Shuffle() % K]);
  Plan.HeavyTailed.assign(Plan.Draws, false);
  for (unsigned K = 0; K < Options.HeavyTailedTrials && K + 1 < Options.Trials;
       ++K)
    Plan.HeavyTailed[Order[K]] = true;
  Plan.HeldOutTrial = heldOutTrial(Options, Secret);
  // The replay comes before a secret trial after the first, or after the
  // last: a candidate that counts its calls cannot tell which it is.
  if (Plan.Draws > Options.Trials)
    Plan.GhostBeforeTrial = 1 + trialSeed(Secret, 9000003u) % Options.Trials;
  // KEVIN-RT-009 profiles one of the checked calls, at a secret trial
  // after the first: a forward that ends the process (exit() from C++)
  // under an active profiler crashes in CUPTI's teardown instead of
  // exiting, and the first call is where such candidates end it.
  if (profilesKernels(Options) && Options.Trials > 0)
    Plan.ProfiledTrial = Options.Trials == 1 ? 0
                                             : 1 + trialSeed(Secret, 9000002u) %
                                                       (Options.Trials - 1);
  // Drawn, like the rest, before any worker starts: nothing returns early
  // while one waits for its secrets.
  Expected<std::string> Nonce = randomHex(16);
  if (!Nonce)
    return Nonce.error();
  Plan.Nonce = *Nonce;
  return Plan;
}

void TrialPlan::takeDrawsOf(const TrialPlan &Shared) {
  Draws = Shared.Draws;
  Seeds = Shared.Seeds;
  HeavyTailed = Shared.HeavyTailed;
  HeldOutTrial = Shared.HeldOutTrial;
}

std::string TrialPlan::referenceSecrets(const JudgeOptions &Options) const {
  return Json{{"seeds", Seeds},
              {"heavy_tailed", HeavyTailed},
              {"held_out_batch", HeldOutTrial},
              {"float64", Options.Precision.Factor > 0}}
      .dump();
}

} // namespace kevin
