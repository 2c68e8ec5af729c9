//===-- Comparison.h - judge a run against the reference --------*- C++ -*-===//
//
// Private to lib/Exec: the judge's last phase, in kevin-run's own process
// on the files both workers wrote. It reads the candidate's outputs and
// calls the runtime checks of RuntimeCheck.h in their fixed order.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_EXEC_COMPARISON_H
#define KEVIN_LIB_EXEC_COMPARISON_H

#include "kevin/Exec/Judge.h"
#include "kevin/Support/Record.h"

#include <ATen/Tensor.h>

#include <string>
#include <vector>

namespace kevin {

/// Judges the candidate worker's result (attested, its outcome ok) against
/// the reference's record and its outputs (one list per draw). Writes the
/// run section's fields but `seconds` into Run, in the record's order, and
/// returns whether the candidate is correct. The result came from the
/// candidate's process: a field of the wrong type throws Json::exception,
/// which the caller turns into an invalid result.
bool compareWithReference(
    const JudgeOptions &Options, const Json &Reference,
    const std::vector<std::vector<at::Tensor>> &RefOutputs, Json &Result,
    const std::string &CandDir, Json &Run);

} // namespace kevin

#endif // KEVIN_LIB_EXEC_COMPARISON_H
