//===-- BenchmarkRuns.h - the state of Benchmarker's runs -------*- C++ -*-===//
//
// Private to lib/Bench: the state Benchmarker keeps per task (the reference's
// report and audit outputs) and per candidate while it is timed. The
// candidate's phases run its worker (Benchmark.cpp) and judge its samples
// (Verdict.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_BENCH_BENCHMARKRUNS_H
#define KEVIN_LIB_BENCH_BENCHMARKRUNS_H

#include "kevin/Bench/Benchmark.h"
#include "kevin/Exec/TensorFile.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/Clock.h"
#include "kevin/Support/DeviceLock.h"
#include "kevin/Support/DiskRoom.h"

#include <atomic>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kevin {

struct Benchmarker::ReferenceRun {
  explicit ReferenceRun(TempDir D) : Dir(std::move(D)) {}
  TempDir Dir;
  Json Report;
  /// The audit outputs, taken out of the candidates' reach as the
  /// reference ended and read once the device is let go (readAudits).
  std::vector<OpenTensorFile> AuditFiles;
  std::vector<std::vector<at::Tensor>> AuditOutputs;
  double Seconds = 0;
  /// When it was timed, how many candidates it has served and when it was
  /// last handed out.
  SteadyClock::time_point TimedAt, LastUsed;
  size_t Uses = 0;
  /// What its directory (the input sets) holds on disk.
  uintmax_t DiskBytes = 0;

  /// Reads the audit outputs not read yet; all of them or none.
  Error readAudits() {
    std::vector<std::vector<at::Tensor>> Read;
    for (const OpenTensorFile &File : AuditFiles) {
      Expected<std::vector<at::Tensor>> Out = File.read();
      if (!Out)
        return Out.error();
      Read.push_back(*Out);
    }
    AuditOutputs.insert(AuditOutputs.end(), Read.begin(), Read.end());
    AuditFiles.clear();
    return Error::success();
  }
};

struct Benchmarker::CandidateRun {
  CandidateRun(const Candidate &C, const BenchOptions &Options);

  /// The candidate's directory: its file and the work directory of its
  /// worker, which will hold the task without its code and the input sets.
  Error makeDirectories();
  /// The secret plan (how many warmups, where the audits fall) drawn from
  /// PlanSeed, and the result's nonce.
  Error drawPlan(uint64_t PlanSeed);
  /// Starts the candidate's worker: it imports torch while the reference is
  /// timed, and gets its plan (and imports the candidate) only after.
  void startWorker();
  /// Stops the worker before its plan came.
  void giveUp();
  /// Gives the worker the reference's input sets and the task; lets it
  /// prepare (its CUDA context, timer and sets) with the device held shared,
  /// then sends its plan with the device held alone; waits for it to end.
  Expected<SubprocessResult> handOff(ReferenceRun &Ref);
  /// The verdict once the reference could not serve.
  void referenceFailed(const std::string &Message);
  /// The verdict from the worker's result and the reference's timing.
  void judge(ReferenceRun &Ref, const SubprocessResult &Proc);

  const Candidate &C;
  const BenchOptions &Options;
  /// When bench began: the verdict's total time counts from here.
  SteadyClock::time_point Start;
  bool Cuda;
  BenchVerdict V;
  /// Room on the work disk for its copies and outputs, let go after Dir is
  /// removed.
  std::optional<DiskRoom::Reservation> Room;
  std::optional<TempDir> Dir;
  std::string CandidatePath, WorkDir;
  /// The secret plan, sent once the device is held alone.
  Json Plan;
  std::string Nonce;
  /// Held shared while the reference and then the worker set up, alone
  /// while either is timed (kevin/Support/DeviceLock.h).
  std::optional<DeviceLock> Device;
  /// The worker's stdin after its start: the preparation line, then the
  /// plan.
  std::shared_ptr<DeferredInput> Preparation =
      std::make_shared<DeferredInput>();
  std::shared_ptr<DeferredInput> Handoff = std::make_shared<DeferredInput>();
  /// Seconds from the preparation line to the worker's prepared line.
  double PreparedSeconds = 0;
  /// The candidates the reference's timing has served, this one included
  /// (1: it was timed for this one).
  size_t ReferenceUses = 0;
  /// Set as the worker ends.
  std::shared_ptr<std::atomic<bool>> Exited =
      std::make_shared<std::atomic<bool>>(false);
  /// The worker's run, on a thread of its own.
  std::future<Expected<SubprocessResult>> Started;

private:
  /// The timing of a worker that reported Ok; a Json::exception where its
  /// fields are malformed.
  void judgeTiming(ReferenceRun &Ref, WorkerVerdict &W,
                   double CandidateSeconds);
  Json seconds(const ReferenceRun &Ref, double CandidateSeconds) const;
  /// Waits for the worker's prepared line (or its end); an Error once it
  /// has taken longer than the timeout.
  Error awaitPrepared();
};

} // namespace kevin

#endif // KEVIN_LIB_BENCH_BENCHMARKRUNS_H
