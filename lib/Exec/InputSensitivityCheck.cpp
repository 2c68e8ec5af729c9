//===-- InputSensitivityCheck.cpp - outputs follow inputs (KEVIN-RT-007) --===//
//
// KEVIN-RT-007: two consecutive trials whose reference outputs differ must
// not get bitwise-identical outputs from the candidate (a cached, replayed
// or constant result). Outputs left unwritten repeat the fresh-memory fill:
// those are told as `nan` by the comparison, not as a cache.
//
//===----------------------------------------------------------------------===//
#include "RuntimeCheck.h"

namespace kevin {

void checkInputSensitivity(const RunEvidence &E, FirstFailure &F) {
  for (unsigned T = 1; F.ok() && T < E.CandOutputs.size(); ++T)
    if (sameBits(E.CandOutputs[T], E.CandOutputs[T - 1]) &&
        !sameBits(E.RefOutputs[T], E.RefOutputs[T - 1]) &&
        E.compare(E.RefOutputs[T], E.CandOutputs[T]).Result != Outcome::Nan)
      F.fail(Outcome::NotInputSensitive,
             "trials " + std::to_string(T - 1) + " and " + std::to_string(T) +
                 " had different inputs but forward returned identical "
                 "outputs (cached, replayed or constant results)");
}

} // namespace kevin
