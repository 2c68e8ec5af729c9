//===-- InputMutationCheck.cpp - inputs stay unchanged (KEVIN-RT-004) -----===//
//
// KEVIN-RT-004's mutation rule: forward must leave its input tensors as it
// got them. The candidate's worker compares them, bit for bit, with their
// input file after the call and reports `inputs_changed`.
//
//===----------------------------------------------------------------------===//
#include "RuntimeCheck.h"

namespace kevin {

void checkInputsUnchanged(const std::string &Trial, bool Changed,
                          FirstFailure &F) {
  if (Changed)
    F.fail(Outcome::InputMutated,
           Trial + "forward modified its input tensors; inputs must be left "
                   "unchanged");
}

} // namespace kevin
