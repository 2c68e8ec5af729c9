//===-- kevin/Exec/WorkerToolOptions.h - options of worker tools -*- C++ -*-===//
//
// The command line kevin-run and kevin-bench share: the candidates (files or
// records on stdin) and the task, the device, the comparison tolerances, the
// build cache, the nvcc target, the worker executable and its isolation.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_WORKERTOOLOPTIONS_H
#define KEVIN_EXEC_WORKERTOOLOPTIONS_H

#include "kevin/Exec/Compare.h"
#include "kevin/Exec/Judge.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/ToolMain.h"

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace kevin {

/// One candidate to process, and the record its verdict is added to.
struct QueuedCandidate {
  Candidate What;
  std::string Device;
  Json Record;
  /// Why the record is passed through unprocessed; empty when it is not.
  std::string Skip;
};

struct WorkerToolOptions {
  std::vector<std::string> Files;
  std::string Task, Device, CacheDir, CudaArch, WorkerPath;
  std::vector<std::string> ToleranceSpecs;
  double Atol = 1e-2, Rtol = 1e-2;
  bool NoIsolation = false, NoNamespaces = false, KeepTemporaries = false;
  uint64_t Seed = 0;

  /// Adds the shared options to App; Tool is the program's name (its
  /// kevin-worker is the one next to it).
  void addTo(CLI::App &App, const std::string &Tool);
  /// After parsing: fills Tolerances, defaults the worker path and the cache
  /// directory (made absolute), checks the device. A usage Error otherwise.
  Error finish(ToleranceTable &Tolerances);

  /// Copies the worker settings into a tool's options (JudgeOptions,
  /// BenchOptions: the same field names).
  template <typename ToolOptions> void applyTo(ToolOptions &O) const {
    O.IsolateNetwork = !NoIsolation;
    O.UseNamespaces = !NoNamespaces;
    O.KeepTemporaries = KeepTemporaries;
    O.Seed = seed();
    O.WorkerPath = WorkerPath;
    O.CacheDir = CacheDir;
    O.CudaArch = CudaArch;
  }

  /// Candidate files were named (not records on stdin).
  bool direct() const;
  /// The candidates: the named files (a usage Error without --task unless
  /// TaskOptional; Verb says what the tool does to one, for that message),
  /// else the records on In. SkipReason, given a record, says why it is not
  /// to be processed (it then needs no candidate fields). Candidates read
  /// before a bad record are kept in Out; the Error names the record's line.
  Error readCandidates(std::istream &In, const char *Verb, bool TaskOptional,
                       const std::function<std::string(const Json &)> &SkipReason,
                       std::vector<QueuedCandidate> &Out) const;
  /// --seed when given.
  std::optional<uint64_t> seed() const;
  /// --device when given (it overrides the records' device), else "".
  std::string deviceOverride() const;

private:
  CLI::Option *DeviceOption = nullptr, *SeedOption = nullptr;
};

} // namespace kevin

#endif // KEVIN_EXEC_WORKERTOOLOPTIONS_H
