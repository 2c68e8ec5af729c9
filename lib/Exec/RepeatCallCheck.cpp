//===-- RepeatCallCheck.cpp - run twice on poisoned memory (KEVIN-RT-005) -===//
//
// KEVIN-RT-005: forward runs twice per trial on the same inputs, with fresh
// memory filled with a pattern before the calls (FreshMemoryPoison.h on
// the CPU, the caching allocator's free blocks on CUDA). A second output
// whose bits differ from the first is judged too; and a failed output whose
// elements still hold the fill is told how many the kernel never wrote.
//
//===----------------------------------------------------------------------===//
#include "FreshMemoryPoison.h"
#include "RuntimeCheck.h"

namespace kevin {

const std::vector<at::Tensor> &judgeRepeatCall(const RunEvidence &E, unsigned T,
                                               TrialComparison &TC) {
  const std::vector<at::Tensor> &Repeat = E.RepeatOutputs[T];
  // Called again on the same inputs, forward must be right again.
  if (TC.Result == Outcome::Ok && !Repeat.empty()) {
    TrialComparison Again = E.compare(E.RefOutputs[T], Repeat);
    applyPrecisionBudget(E, T, Again);
    if (Again.Result != Outcome::Ok) {
      TC = Again;
      TC.Message = "forward called again on the same inputs: " + Again.Message +
                   " (the first call passed: an output the kernel does "
                   "not always write, or a race?)";
      return Repeat;
    }
  }
  return E.CandOutputs[T];
}

void noteUnwrittenOutputs(const RunEvidence &E,
                          const std::vector<at::Tensor> &Judged,
                          TrialComparison &TC) {
  if (int64_t Unwritten = TC.Result != Outcome::Ok && E.Poisoned
                              ? worker::countFreshMemoryPattern(Judged)
                              : 0)
    TC.Message += "; " + std::to_string(Unwritten) +
                  " output elements still hold the fill pattern of "
                  "fresh memory: the kernel never wrote them";
}

} // namespace kevin
