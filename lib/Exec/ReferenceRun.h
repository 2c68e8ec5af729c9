//===-- ReferenceRun.h - the reference's worker -----------------*- C++ -*-===//
//
// Private to lib/Exec: the reference's worker process in one judgement. It
// is trusted and never sees the candidate: it sets up (Python, torch, the
// task) while kevin-run waits for the device, then gets its seeds, draws
// the inputs and computes the outputs. Its outputs are loaded into this
// process, their files deleted before the candidate gets its task.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_EXEC_REFERENCERUN_H
#define KEVIN_LIB_EXEC_REFERENCERUN_H

#include "TrialPlan.h"
#include "kevin/Exec/Judge.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/DeviceLock.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/Subprocess.h"

#include <ATen/Tensor.h>

#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kevin {

class ReferenceRun {
public:
  /// Starts the worker in Dir for Draws input draws; it waits for its seeds.
  void start(const JudgeOptions &Options, const std::string &TaskPath,
             const std::string &Dir, const std::string &CacheDir,
             unsigned Draws);
  /// Sends its secrets (TrialPlan::referenceSecrets); its limit, twice the
  /// run limit, counts from here.
  void sendSeeds(const std::string &Secrets);
  /// Stops the worker before it had its seeds, and waits for it to end.
  void abandon();
  /// Waits for the worker to end, then reads its record into Record and
  /// deletes the file.
  Expected<SubprocessResult> wait();
  /// Why the ended worker failed (its record's message, else how it ended
  /// and its stderr), or nothing.
  std::optional<std::string> failure(const SubprocessResult &Ended) const;
  /// The worker started, seeded, awaited and its outputs read, in Dir,
  /// holding Device shared while it computes; for prepareReference.
  Error runToEnd(const JudgeOptions &Options, const std::string &TaskPath,
                 const std::string &Dir, const TrialPlan &Plan,
                 DeviceLock &Device, std::optional<std::string> &Failure);
  /// Opens the output files of Draws draws, deleting each name at once, and
  /// reads them into Outputs in the background.
  Error openOutputs(unsigned Draws);
  /// Waits for the background read, if one was started.
  Error awaitOutputs();

  /// The worker's record (reference.json): per draw its inputs' files and
  /// its outputs' structure, and what the comparison needs besides.
  Json Record;
  /// Its own time: the wait for its seeds (the device) is not.
  double Seconds = 0;
  /// The outputs of each draw, once awaitOutputs succeeded.
  std::vector<std::vector<at::Tensor>> Outputs;

private:
  std::string Dir;
  std::shared_ptr<DeferredInput> Seeded = std::make_shared<DeferredInput>();
  std::future<Expected<SubprocessResult>> Process;
  // After Outputs, which its read fills: destroyed, the read finished,
  // before them.
  std::future<Error> OutputsRead;
};

struct PreparedReference {
  /// The draws it was made with: a judgement against it takes its seeds.
  TrialPlan Plan;
  /// Holds the input files, removed with it.
  std::optional<TempDir> Root;
  std::string InputsDir;
  /// As ReferenceRun's, once it has ended.
  Json Record;
  std::vector<std::vector<at::Tensor>> Outputs;
  double Seconds = 0;
  /// Why the reference failed, when it did.
  std::optional<std::string> Failure;
};

} // namespace kevin

#endif // KEVIN_LIB_EXEC_REFERENCERUN_H
