//===-- kevin/Report/RunInfo.h - a run and its configuration ----*- C++ -*-===//
//
// A report names its run and shows its configuration. An input of
// `kevin report` is a run directory of kevin rollout (its scored.jsonl, else
// its turns.jsonl, and its run.json) or a record file (with the run.json
// beside it, if any). The configuration comes from run.json where there is
// one (policy, model, m, n, device, sampling, stages) and from the records
// otherwise, plus what made the report (kevin's version, the date).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_REPORT_RUNINFO_H
#define KEVIN_REPORT_RUNINFO_H

#include "kevin/Report/Metrics.h"
#include "kevin/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace kevin {

struct RunInfo {
  /// What the report is titled: the run directory's name, else the record
  /// file's name; never an absolute path.
  std::string Name;
  std::string RecordPath; ///< the file to read ('-' is stdin)
  /// The configuration, in the order shown.
  std::vector<std::pair<std::string, std::string>> Settings;
};

/// Resolves one input of `kevin report`. A directory without turns.jsonl or
/// scored.jsonl is an error.
Expected<RunInfo> locateRun(const std::string &Input);

/// Adds to Info's settings what the run's samples tell where run.json did
/// not (tasks, trajectories per task, turns, devices), the record count, and
/// the kevin version and UTC date of the report.
void describeRun(RunInfo &Info, const std::vector<KernelSample> &Samples);

} // namespace kevin

#endif // KEVIN_REPORT_RUNINFO_H
