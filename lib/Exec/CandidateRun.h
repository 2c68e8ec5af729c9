//===-- CandidateRun.h - the candidate's worker -----------------*- C++ -*-===//
//
// Private to lib/Exec: the candidate's worker process in one judgement. It
// starts beside the reference's and sets up; its nonce starts its build
// phase (it imports the candidate, building its extensions), its task its
// run phase (ModelNew and the trials), each phase with its own time limit.
// One candidate process per judgement.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_LIB_EXEC_CANDIDATERUN_H
#define KEVIN_LIB_EXEC_CANDIDATERUN_H

#include "TrialPlan.h"
#include "kevin/Exec/Judge.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/Subprocess.h"

#include <future>
#include <memory>
#include <string>

namespace kevin {

class CandidatePhases;

class CandidateRun {
public:
  CandidateRun();

  /// Starts the worker in Dir. With Options.BuildOnly it gets its nonce at
  /// once and only builds; otherwise it sets up and waits for sendNonce and
  /// sendTask.
  void start(const JudgeOptions &Options, const std::string &CandidatePath,
             const std::string &DisplayName, const std::string &Dir,
             const std::string &CacheDir, const std::string &WorkerNonce);
  void sendNonce();
  /// Hands the worker its task: the reference's input files of every draw
  /// linked (copied with CopyInputs: files other candidates will get too)
  /// into Dir/InputsName (a fresh directory), then the task on its stdin.
  /// Returns why the inputs could not be handed over: an ErrorKind::Internal
  /// error when the disk failed or is full, any other when the candidate
  /// changed its directory; success once the task is sent.
  Error handOff(const std::string &RefDir, const std::string &InputsName,
                      const Json &Reference, const TrialPlan &Plan,
                      bool CopyInputs);
  /// The reference or the hand-off failed: stops the worker and waits for
  /// it to end.
  void giveUp();
  /// Waits for the worker to end.
  Expected<SubprocessResult> wait();
  /// How the ended worker did; a timeout is reported against the phase it
  /// happened in.
  WorkerVerdict classify(SubprocessResult Ended) const;

private:
  std::string Dir, Nonce, NonceLine;
  unsigned Trials = 0;
  double BuildLimit = 0, RunLimit = 0;
  size_t MaxMessageBytes = 0;
  std::shared_ptr<CandidatePhases> Phases;
  std::future<Expected<SubprocessResult>> Process;
};

/// The record's `build` section, from how the candidate's worker ended.
Json buildSection(const WorkerVerdict &Ran, size_t MaxMessageBytes);

} // namespace kevin

#endif // KEVIN_LIB_EXEC_CANDIDATERUN_H
