//===-- kevin/Exec/Judge.h - judge one candidate ----------------*- C++ -*-===//
//
// The trusted side of kevin-run. For one (task, candidate) pair it draws the
// secret trial seeds, runs the reference worker, then the candidate worker
// twice (a build stage, then a run stage, each with its own timeout), each in
// its own process group with a scrubbed environment and a private temporary
// directory, and compares the results in C++. The verdict is the record's
// `build` and `run` sections.
//
// lib/Exec/Judge.cpp runs the phases in order: TrialPlan.cpp draws the
// secrets, ReferenceRun.cpp and CandidateRun.cpp drive the two workers,
// Comparison.cpp calls the runtime checks (one file per KEVIN-RT rule, see
// lib/Exec/RuntimeCheck.h).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_JUDGE_H
#define KEVIN_EXEC_JUDGE_H

#include "kevin/Exec/Compare.h"
#include "kevin/Support/DeviceLock.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/Subprocess.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace kevin {

struct JudgeOptions {
  std::string WorkerPath; ///< The kevin-worker executable.
  std::string Device = "cpu";
  unsigned Trials = 5;
  /// The per-evaluation secret; random for every evaluation when unset.
  std::optional<uint64_t> Seed;
  double RunTimeoutSeconds = 120;
  double BuildTimeoutSeconds = 600;
  unsigned BuildJobs = 2;
  std::string CacheDir;
  /// Where the device locks live (kevin/Support/DeviceLock.h).
  std::string LockDir = defaultLockDir();
  std::string CudaArch;
  bool BuildOnly = false;
  bool IsolateNetwork = true;
  /// False: candidates stay in kevin's namespaces (no user, network or
  /// mount namespace); they are then imported only after the reference's
  /// files are gone.
  bool UseNamespaces = true;
  size_t MemoryLimitMiB = 0;
  ToleranceTable Tolerances;
  /// Trials, at secret positions, whose inputs get heavy-tailed magnitudes
  /// (KEVIN-RT-022); at most Trials - 1, so one trial keeps the task's own
  /// distribution.
  unsigned HeavyTailedTrials = 2;
  /// KEVIN-RT-022's held-out shape: one trial, at a secret position before
  /// the last two, draws its inputs with the task's `batch_size` halved
  /// (where the task has one and its model takes the draw).
  bool HeldOutBatch = false;
  /// KEVIN-RT-023: on each trial, the candidate's error against a float64
  /// reference may be at most this many times the float32 reference's own
  /// error, plus PrecisionFloor of the output's norm; 0 turns it off.
  PrecisionBudget Precision;
  /// KEVIN-RT-009 on CUDA: one profiled forward must run a kernel of the
  /// candidate's, and the candidate's kernels must take at least this share
  /// of its GPU time (torch's fills and copies aside); 0 turns it off.
  double KernelCoverage = 0.9;
  /// KEVIN-RT-010 on CUDA: one more forward, on inputs no call has seen,
  /// with the candidate's own kernel launches skipped, must not return the
  /// right answer.
  bool GhostReplay = true;
  /// Bytes of message kept in the record.
  size_t MaxMessageBytes = 2000;
  bool KeepTemporaries = false;
  /// Added to the nice value of the workers that are not timed (the
  /// candidate's and the reference's, compiles included): kevin serve's
  /// engine yields the cores to kevin-bench's timing loops.
  int Niceness = 0;
  /// Starts the workers in place of fork and exec (kevin serve's warm
  /// zygote, kevin/Exec/Zygote.h); empty: a fresh kevin-worker each.
  ChildLauncher Launcher;
};

struct Candidate {
  std::string TaskPath;      ///< Unused with BuildOnly.
  std::string CandidatePath; ///< A file, or empty when Code is given.
  std::string Code;
  std::string DisplayName; ///< Used in messages; defaults to the path.
};

struct Verdict {
  Json Build; ///< The record's `build` section.
  Json Run;   ///< The record's `run` section (absent with BuildOnly).
  bool Correct = false;
  bool BuildOk = false;
  /// The task (reference) failed: a tool error, exit status 2.
  bool ReferenceFailed = false;
};

/// A task's reference run once for one draw of secrets and shared by the
/// judgements of many candidates (kevin serve's warm engine): the secret
/// seeds, the input files (in a private directory no candidate sees; each
/// candidate gets copies) and the outputs, held in memory. Each judgement
/// still draws its own nonce and its own positions of the ghost replay and
/// the profiled call. Defined in lib/Exec/ReferenceRun.h.
struct PreparedReference;

/// Runs the reference worker of TaskPath once (on Options.Device, holding
/// it shared). An Error means kevin could not do its job; a reference that
/// fails is prepared too, and every judgement against it is a
/// reference-error.
Expected<std::shared_ptr<const PreparedReference>>
prepareReference(const std::string &TaskPath, const JudgeOptions &Options);

/// The bytes of reference outputs it holds (for a cache's memory bound).
size_t referenceBytes(const PreparedReference &Reference);

/// Whether the reference failed (every judgement against it is a
/// reference-error).
bool referenceFailed(const PreparedReference &Reference);

/// Judges one candidate. An Error means kevin itself could not do its job
/// (no worker, cannot create the temporary directory). With Reference (made
/// by prepareReference with the same trial options) its reference worker is
/// not run again.
Expected<Verdict>
judgeCandidate(const Candidate &C, const JudgeOptions &Options,
               std::shared_ptr<const PreparedReference> Reference = nullptr);

/// Derives the seed of trial T from the evaluation secret (SHA-256 based,
/// so seeds of one evaluation say nothing about another's).
uint64_t trialSeed(uint64_t Secret, unsigned Trial);

} // namespace kevin

#endif // KEVIN_EXEC_JUDGE_H
