//===-- DegenerateTaskCheck.cpp - tasks that judge nothing (KEVIN-RT-022) -===//
//
// KEVIN-RT-022's degenerate task: a reference whose output is the same for
// every input draw cannot tell a real kernel from a constant, and the run
// fails as `degenerate-task`. KEVIN-RT-006's scale-aware tolerance: where
// an all-zeros or constant output would pass the plain tolerance test, the
// comparisons scale atol by the reference's root mean square instead.
//
//===----------------------------------------------------------------------===//
#include "RuntimeCheck.h"

namespace kevin {

bool checkDegenerateTask(const RunEvidence &E, FirstFailure &F) {
  const JudgeOptions &Options = E.Options;
  // Judged on the trials' draws at the task's own shapes (not the ghost
  // replay's, nor a held-out batch's, whose output has another shape).
  bool ReferenceConstant = Options.Trials > 1;
  for (unsigned T = 1; T < Options.Trials; ++T)
    if (!isHeldOutTrial(E.RefTrials[T]))
      ReferenceConstant &= sameBits(E.RefOutputs[T], E.RefOutputs[0]);
  // Judged on the task's own draws: heavy-tailed ones (a spiky softmax)
  // would hide a task where zeros pass.
  std::vector<std::vector<at::Tensor>> TaskDraws;
  for (unsigned T = 0; T < Options.Trials; ++T)
    if (!E.heavyTailed(T))
      TaskDraws.push_back(E.RefOutputs[T]);
  bool Degenerate = trivialOutputWouldPass(TaskDraws, Options.Tolerances);
  if (F.ok() && ReferenceConstant)
    F.fail(Outcome::DegenerateTask,
           "the reference output is the same for every input draw: a constant "
           "output cannot be told apart from a real kernel on this task");
  return Degenerate;
}

} // namespace kevin
