//===-- AliasingCheck.cpp - outputs alias nothing (KEVIN-RT-004) ----------===//
//
// KEVIN-RT-004's aliasing rule, with KEVIN-RT-003's device test on the same
// per-output description: every output of forward must be on the
// reference's device and share storage with none of the call's inputs and
// none of ModelNew's parameters or buffers (the candidate's worker tests
// the storage; the output files hold CPU copies, so this is where the
// device is compared).
//
//===----------------------------------------------------------------------===//
#include "RuntimeCheck.h"

namespace kevin {

void checkOutputStorage(const std::string &Trial, const Json &Want,
                        const Json &Have, FirstFailure &F) {
  for (size_t I = 0; I < Want["tensors"].size(); ++I) {
    const Json &W = Want["tensors"][I], &H = Have["tensors"][I];
    std::string Which = Want["tensors"].size() > 1
                            ? "output " + std::to_string(I) + " "
                            : "output ";
    if (W["device"] != H["device"])
      F.fail(Outcome::DeviceMismatch,
             Trial + Which + "is on " + H["device"].get<std::string>() +
                 ", expected " + W["device"].get<std::string>());
    if (H.value("aliases_input", false))
      F.fail(Outcome::OutputAliasesInput,
             Trial + Which +
                 "shares storage with an input: "
                 "return a new tensor, not an input or a view of one");
    if (H.value("aliases_parameter", false))
      F.fail(Outcome::OutputAliasesInput,
             Trial + Which +
                 "shares storage with a parameter or buffer of ModelNew");
  }
}

} // namespace kevin
