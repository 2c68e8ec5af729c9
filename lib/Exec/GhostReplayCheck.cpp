//===-- GhostReplayCheck.cpp - kernels compute the output (KEVIN-RT-010) --===//
//
// KEVIN-RT-010 on CUDA, the ghost replay: one more forward, on an input
// draw no call has seen and before a secret trial, runs with every launch
// of the candidate's own kernels through kevin's launch gate skipped. If it
// still returns the right output, its kernels do not compute the result
// (`kernels-unused`); so does a candidate whose kernels ran in the profiled
// call while none of its launches went through the gate. The run section's
// `ghost_replay` tells what the replay returned.
//
//===----------------------------------------------------------------------===//
#include "RuntimeCheck.h"
#include "TrialPlan.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/TensorFile.h"

namespace kevin {

namespace {

/// The replay tells nothing when the answer on its draw would also be
/// right on a trial's (a near-constant output, such as a loss).
bool replayIsInformative(const RunEvidence &E) {
  const std::vector<at::Tensor> &Want = E.RefOutputs[E.Options.Trials];
  bool Informative = true;
  for (unsigned T = 0; Informative && T < E.Options.Trials; ++T)
    Informative = Want.size() != E.RefOutputs[T].size() ||
                  E.compare(E.RefOutputs[T], Want).Result != Outcome::Ok;
  return Informative;
}

/// What the replay returned, from its output file: `right`, `stale` (an
/// earlier call's output left in its buffer is not an answer) or `wrong`.
const char *replayResult(const RunEvidence &E, const Json &Ghost) {
  unsigned Replay = E.Options.Trials;
  const std::vector<at::Tensor> &Want = E.RefOutputs[Replay];
  Expected<std::vector<at::Tensor>> Outs = readTensorFile(
      protocol::trialFile(E.CandDir, Replay, "ghost"), outputReadLimit(Want));
  bool Stale = false;
  for (unsigned T = 0; Outs && !Stale && T < E.CandOutputs.size(); ++T)
    Stale =
        sameBits(*Outs, E.CandOutputs[T]) ||
        (!E.RepeatOutputs[T].empty() && sameBits(*Outs, E.RepeatOutputs[T]));
  bool Right =
      Outs && !Stale && Outs->size() == Want.size() &&
      Ghost.value("kind", "") == E.RefTrials[Replay]["outputs"]["kind"] &&
      E.compare(Want, *Outs).Result == Outcome::Ok;
  return Right ? "right" : Stale ? "stale" : "wrong";
}

} // namespace

Json checkGhostReplay(const RunEvidence &E, FirstFailure &F,
                      unsigned CandidateLaunches) {
  if (!replaysGhost(E.Options))
    return Json();
  const Json Ghost = E.Result.value("ghost", Json::object());
  uint64_t Skipped = Ghost.value("skipped_launches", uint64_t(0));
  bool Informative = replayIsInformative(E);
  Json Record = Json::object();
  auto unavailable = [&](const std::string &Why) {
    Record["available"] = false;
    Record["why"] = Why;
  };
  if (!E.Result.contains("ghost")) {
    unavailable("the worker reported no ghost replay");
  } else if (Skipped == 0 && CandidateLaunches > 0) {
    // Its kernels ran in the profiled call, yet none passed the gate
    // in the replay: they were launched around it.
    Record["available"] = true;
    Record["result"] = "gate-bypassed";
    F.fail(Outcome::KernelsUnused,
           "the candidate's kernels ran in the profiled call, but none of "
           "its launches went through kevin's launch gate in the replay "
           "without them: launch kernels with <<<...>>> or the CUDA "
           "runtime's or driver's launch functions [KEVIN-RT-010]");
  } else if (Skipped == 0) {
    // A pure-PyTorch forward (RT-009 judges those).
    unavailable("no launch of the candidate's passed the gate");
  } else if (!Informative) {
    unavailable("the answer on the replay's draw is also right on a "
                "trial's draw");
  } else if (Ghost.contains("raised")) {
    Record["available"] = true;
    Record["result"] = "raised";
  } else {
    Record["available"] = true;
    std::string Result = replayResult(E, Ghost);
    Record["result"] = Result;
    if (Result == "right")
      F.fail(Outcome::KernelsUnused,
             "with the " + std::to_string(Skipped) +
                 " kernel launches of the candidate's own extensions "
                 "skipped, forward still returned the right output (on "
                 "inputs no call had seen): its kernels do not compute the "
                 "result [KEVIN-RT-010]");
  }
  Record["skipped_launches"] = Skipped;
  return Record;
}

} // namespace kevin
