//===-- HeldOutBatchCheck.cpp - a held-out batch size (KEVIN-RT-022) ------===//
//
// KEVIN-RT-022's held-out shape: with --held-out-batch, one trial at a
// secret position draws its inputs with the task's `batch_size` halved
// (where the task has one and its model takes the draw; the reference
// worker marks such a trial `held_out_batch`). A kernel specialized to the
// task's shapes fails it like any other trial; messages and the trial's
// record entry name the batch size.
//
//===----------------------------------------------------------------------===//
#include "RuntimeCheck.h"

namespace kevin {

int64_t heldOutTrial(const JudgeOptions &Options, uint64_t Secret) {
  // After the first trial (the task's own shapes, the reference's to
  // compare with) and before the last two (the last rewrites the buffers
  // of the one before, which needs their shapes).
  if (Options.HeldOutBatch && Options.Trials >= 4)
    return 1 + trialSeed(Secret, 9000004u) % (Options.Trials - 3);
  return -1;
}

bool isHeldOutTrial(const Json &RefTrial) {
  return RefTrial.contains("held_out_batch");
}

std::string heldOutLabel(const Json &RefTrial) {
  if (!isHeldOutTrial(RefTrial))
    return std::string();
  return " (held-out batch size " + RefTrial["held_out_batch"].dump() + ")";
}

void recordHeldOutBatch(const Json &RefTrial, Json &Entry) {
  if (isHeldOutTrial(RefTrial))
    Entry["held_out_batch"] = RefTrial["held_out_batch"];
}

} // namespace kevin
