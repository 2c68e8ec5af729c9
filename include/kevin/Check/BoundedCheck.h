//===-- kevin/Check/BoundedCheck.h - one check within its limits *- C++ -*-===//
//
// kevin-check checks each candidate in a child process of its own, forked
// for it, so that its time and memory on one candidate are bounded and no
// candidate can take the others' results with it: the child runs under an
// address-space cap (kevin-limit-check-memory) and is killed at a deadline
// (kevin-limit-check-time); its result comes back through a pipe. Whatever
// the child does, the caller gets one result for the candidate.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_CHECK_BOUNDEDCHECK_H
#define KEVIN_CHECK_BOUNDEDCHECK_H

#include "kevin/Check/Checker.h"
#include "kevin/Task/CandidateLimits.h"

#include <functional>
#include <string>

namespace kevin {

/// Runs Check in a forked child under Limits' check time and memory. A
/// child past its deadline, or out of memory, gives a result whose one
/// finding is that limit's, at Path:1:1. An Error comes from Check itself,
/// or says how a child that crashed ended (kind Internal).
Expected<CheckResult>
checkWithinLimits(const std::function<Expected<CheckResult>()> &Check,
                  const CandidateLimits &Limits, const std::string &Path);

} // namespace kevin

#endif // KEVIN_CHECK_BOUNDEDCHECK_H
