//===-- LaunchGateSwitch.cpp - the variables the launch gates read --------===//
//
// Defined in kevin-worker and exported from it (tools/kevin-worker links with
// --export-dynamic-symbol for both): a gate in an extension the worker loads
// binds its weak references to them. In any other process the references
// stay null and the gates pass every launch on.
//
//===----------------------------------------------------------------------===//
#include "LaunchGateSwitch.h"

extern "C" {
__attribute__((visibility("default"), used)) int kevin_skip_candidate_launches =
    0;
__attribute__((visibility("default"),
               used)) unsigned long long kevin_skipped_candidate_launches = 0;
}

namespace kevin {
namespace worker {

void skipCandidateLaunches(bool On) {
  __atomic_store_n(&kevin_skip_candidate_launches, On ? 1 : 0,
                   __ATOMIC_SEQ_CST);
}

uint64_t skippedCandidateLaunches() {
  return __atomic_load_n(&kevin_skipped_candidate_launches, __ATOMIC_SEQ_CST);
}

} // namespace worker
} // namespace kevin
