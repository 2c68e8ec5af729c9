//===-- Judge.cpp - judge one candidate -----------------------------------===//
//
// Process model: the reference worker and the candidate worker start
// together; the candidate worker imports the candidate (building its
// extensions) and waits; the reference outputs are loaded into this process
// (their files deleted), the inputs linked into a fresh directory and the
// task sent on the candidate's stdin; it runs the trials; comparison here.
// A worker that dies, hangs, exits early or writes an unattested result is
// classified from how it ended and the last stage it reported in its
// progress file; a missing result is never a pass.
//
// A Judgement runs the phases in order, each a method below; the workers
// are in ReferenceRun.cpp and CandidateRun.cpp, the secrets in
// TrialPlan.cpp, the comparison in Comparison.cpp.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/Judge.h"
#include "CandidateRun.h"
#include "Comparison.h"
#include "ReferenceRun.h"
#include "TrialPlan.h"
#include "kevin/Exec/CandidateInput.h"
#include "kevin/Exec/Outcome.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Support/Clock.h"
#include "kevin/Support/DeviceLock.h"
#include "kevin/Support/DiskRoom.h"
#include "kevin/Support/FileSystem.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace kevin {

namespace {

/// The judging of one candidate. run() calls the phases in order; a phase
/// either fails (kevin could not do its job: an Error), decides the verdict
/// early (Decided: the phases left are skipped), or hands on to the next.
class Judgement {
public:
  Judgement(const Candidate &C, const JudgeOptions &Options,
            std::shared_ptr<const PreparedReference> Prepared)
      : C(C), Options(Options), Prepared(std::move(Prepared)) {}
  Expected<Verdict> run();

private:
  Error prepare();
  void reserveDiskRoom();
  void startWorkers();
  Error handOutSecrets();
  Error awaitReference();
  Error handTaskToCandidate();
  Error awaitCandidate();
  void compare();

  /// The run section of a candidate that failed before the comparison.
  void failRun(Stage S, Outcome O, const std::string &Message);
  /// The build section of a candidate that was never judged.
  void notJudged(const char *OutcomeName, const std::string &Why);

  /// The reference's record and outputs: this judgement's worker's, or the
  /// prepared reference's.
  const Json &referenceRecord() const {
    return Prepared ? Prepared->Record : Reference.Record;
  }
  double referenceSeconds() const {
    return Prepared ? 0.0 : Reference.Seconds;
  }

  const Candidate &C;
  const JudgeOptions &Options;
  /// Made earlier and shared with other judgements; its worker does not
  /// run again.
  std::shared_ptr<const PreparedReference> Prepared;
  SteadyClock::time_point Start;
  Verdict V;
  bool Decided = false;
  // The members below are destroyed bottom up: the workers' processes end
  // (their futures wait for them) before the device lock is released, the
  // temporary directories are removed and their disk room let go.
  std::optional<DiskRoom::Reservation> Room;
  std::optional<TempDir> Root;
  std::string RefDir, CandDir, CandidatePath, Display, CacheDir;
  std::optional<DeviceLock> DeviceHold;
  TrialPlan Plan;
  double DeviceWait = 0;
  /// The judgement's own timeline (run.seconds): the wait for disk room,
  /// the inputs' hand-off, and the worker from its task to its end.
  double DiskWaitSeconds = 0, HandOffSeconds = 0, AfterTaskSeconds = 0;
  std::optional<SteadyClock::time_point> TaskSent;
  /// The candidate's inputs directory, a fresh name in CandDir.
  std::string InputsName;
  ReferenceRun Reference;
  CandidateRun CandidateWorker;
  WorkerVerdict Ran;
};

Expected<Verdict> Judgement::run() {
  Start = SteadyClock::now();
  guardFromCandidates();
  if (Error E = prepare())
    return E;
  Expected<TrialPlan> Drawn = TrialPlan::draw(Options);
  if (!Drawn)
    return Drawn.error();
  Plan = std::move(*Drawn);
  if (Prepared)
    Plan.takeDrawsOf(Prepared->Plan);
  reserveDiskRoom();
  startWorkers();
  if (Error E = handOutSecrets())
    return E;
  if (!Options.BuildOnly) {
    if (Error E = awaitReference())
      return E;
    if (!Decided)
      if (Error E = handTaskToCandidate())
        return E;
  }
  if (!Decided)
    if (Error E = awaitCandidate())
      return E;
  if (!Decided)
    compare();
  return V;
}

/// The temporary directories, the candidate's and the task's files, the
/// build cache and the device's lock (not held yet).
Error Judgement::prepare() {
  if (::access(Options.WorkerPath.c_str(), X_OK) != 0)
    return Error::inFile(Options.WorkerPath,
                         "cannot find the kevin-worker executable");
  Expected<TempDir> Made = TempDir::create();
  if (!Made)
    return Made.error();
  Root.emplace(std::move(*Made));
  if (Options.KeepTemporaries)
    Root->keep();
  RefDir = Root->path() + "/reference";
  CandDir = Root->path() + "/candidate";
  for (const std::string &D : {RefDir, CandDir})
    if (::mkdir(D.c_str(), 0700) != 0)
      return Error::inFile(D, std::string("cannot create directory: ") +
                                  std::strerror(errno));

  Expected<std::string> File = candidateFile(C, Root->path());
  if (!File)
    return File.error();
  CandidatePath = *File;
  Display = C.DisplayName.empty() ? CandidatePath : C.DisplayName;
  // A task that cannot be read (missing, a directory) is the record's input
  // error, named as such, before any worker starts.
  if (!Options.BuildOnly && !Prepared)
    if (std::string Why = fs::whyUnreadable(C.TaskPath); !Why.empty())
      return Error::inFile(C.TaskPath, "cannot read the task: " + Why,
                           ErrorKind::FileAccess);
  CacheDir = Options.CacheDir;
  // It must exist before the worker keeps it through its cover.
  std::error_code Ignored;
  std::filesystem::create_directories(CacheDir, Ignored);

  // The device is shared with other correctness runs, never with a timing
  // loop (kevin-bench holds it alone). It is held from the moment the
  // reference gets its seeds (its process start, torch's import and the
  // task's run before, off the device) until both workers have ended.
  if (!Options.BuildOnly) {
    Expected<DeviceLock> Lock =
        DeviceLock::open(Options.Device, Options.LockDir);
    if (!Lock)
      return Lock.error();
    DeviceHold.emplace(std::move(*Lock));
  }
  return Error::success();
}

/// Against a prepared reference (kevin serve, kevin eval), many candidates
/// of one task are judged at once, each with its own copy of the task's
/// input sets and its own outputs: what they will write is reserved on the
/// work disk first, and a judgement waits for room rather than meet a full
/// disk (kevin/Support/DiskRoom.h).
void Judgement::reserveDiskRoom() {
  if (!Prepared || Options.BuildOnly || Prepared->Failure)
    return;
  uintmax_t Inputs = 0;
  for (unsigned T = 0; T < Plan.Draws; ++T) {
    std::error_code Unknown;
    uintmax_t Size = std::filesystem::file_size(
        protocol::trialFile(Prepared->InputsDir, T, "inputs"), Unknown);
    Inputs += Unknown ? 0 : Size;
  }
  // The outputs of every trial, and of one repeated call.
  uintmax_t Outputs = referenceBytes(*Prepared);
  uintmax_t Need = Inputs + Outputs + Outputs / std::max(Plan.Draws, 1u);
  auto WaitStart = SteadyClock::now();
  Room.emplace(DiskRoom::of(TempDir::base()).reserve(Need));
  DiskWaitSeconds = secondsSince(WaitStart);
}

/// The reference (trusted, never sees the candidate) and the candidate's
/// worker start together and set up (Python, torch, the task) while this
/// process waits for the device. One candidate process per evaluation.
void Judgement::startWorkers() {
  if (!Options.BuildOnly && !Prepared)
    Reference.start(Options, C.TaskPath, RefDir, CacheDir, Plan.Draws);
  CandidateWorker.start(Options, CandidatePath, Display, CandDir, CacheDir,
                        Plan.Nonce);
}

/// Once the device is held the reference gets its seeds and makes the
/// inputs and outputs, and the candidate's worker its nonce: it imports the
/// candidate, building its extensions, and waits for its task on stdin.
Error Judgement::handOutSecrets() {
  if (Options.BuildOnly)
    return Error::success();
  if (Error Held = DeviceHold->lockShared()) {
    Reference.abandon();
    CandidateWorker.giveUp();
    return Held;
  }
  DeviceWait = DeviceHold->waitedSeconds();
  if (!Prepared)
    Reference.sendSeeds(Plan.referenceSecrets(Options));
  CandidateWorker.sendNonce();
  return Error::success();
}

/// The reference's results: its record, then its output files, opened and
/// read in the background while the candidate runs.
Error Judgement::awaitReference() {
  std::optional<std::string> Why;
  if (Prepared) {
    Why = Prepared->Failure;
  } else {
    Expected<SubprocessResult> Ended = Reference.wait();
    if (!Ended) {
      CandidateWorker.giveUp();
      return Ended.error();
    }
    Why = Reference.failure(*Ended);
  }
  if (Why) {
    CandidateWorker.giveUp();
    V.ReferenceFailed = true;
    notJudged("reference-error", "the reference failed");
    failRun(Stage::Run, Outcome::ReferenceError,
            "'" + C.TaskPath + "': " + *Why);
    Decided = true;
    return Error::success();
  }
  // A fresh directory the candidate could not have prepared.
  Expected<std::string> Hex = randomHex(8);
  if (!Hex) {
    CandidateWorker.giveUp();
    return Hex.error();
  }
  InputsName = "inputs-" + *Hex;
  if (Prepared)
    return Error::success();
  if (Error Failed = Reference.openOutputs(Plan.Draws)) {
    CandidateWorker.giveUp();
    return Failed;
  }
  return Error::success();
}

/// The candidate's task: its inputs, linked into a fresh directory, and
/// what to run on its stdin.
Error Judgement::handTaskToCandidate() {
  auto HandOffStart = SteadyClock::now();
  Error Handoff = CandidateWorker.handOff(
      Prepared ? Prepared->InputsDir : RefDir, InputsName, referenceRecord(),
      Plan, /*CopyInputs=*/Prepared != nullptr);
  HandOffSeconds = secondsSince(HandOffStart);
  if (!Handoff) {
    TaskSent = SteadyClock::now();
    return Error::success();
  }
  CandidateWorker.giveUp();
  // A full disk is kevin's failure: the record says `error`, never that
  // the candidate failed.
  if (Handoff.kind() == ErrorKind::Internal)
    return Handoff.withContext("cannot hand the inputs to the candidate's "
                               "worker");
  std::string Where = Handoff.location().File;
  failRun(Stage::Load, Outcome::InvalidResult,
          "could not hand the inputs to the candidate's worker (its "
          "directory was changed): " +
              (Where.empty() ? "" : Where + ": ") + Handoff.message());
  notJudged("invalid-result", "its directory was changed");
  Decided = true;
  return Error::success();
}

/// The candidate's verdict: build, then run, from how its worker ended.
Error Judgement::awaitCandidate() {
  Expected<SubprocessResult> Ended = CandidateWorker.wait();
  if (TaskSent)
    AfterTaskSeconds = secondsSince(*TaskSent);
  if (Error Failed = Reference.awaitOutputs())
    return Failed;
  if (!Ended)
    return Ended.error();
  // Both workers have ended; the comparison needs no device.
  DeviceHold.reset();
  Ran = CandidateWorker.classify(*Ended);
  V.Build = buildSection(Ran, Options.MaxMessageBytes);
  V.BuildOk = V.Build["ok"].get<bool>();
  if (Options.BuildOnly) {
    if (Ran.Result_ == Outcome::Ok)
      V.BuildOk = true;
    Decided = true;
    return Error::success();
  }
  if (Ran.Result_ != Outcome::Ok) {
    failRun(Ran.StageReached, Ran.Result_, Ran.Message);
    V.Run["seconds"]["reference"] = referenceSeconds();
    Decided = true;
  }
  return Error::success();
}

/// Compares, in this process.
void Judgement::compare() {
  // The result came from the candidate's process: a field of the wrong type
  // makes the result invalid, never the tool fail.
  try {
    auto CompareStart = SteadyClock::now();
    V.Correct = compareWithReference(
        Options, referenceRecord(),
        Prepared ? Prepared->Outputs : Reference.Outputs, Ran.Result, CandDir,
        V.Run);
    double Load = Ran.Result.contains("seconds")
                      ? Ran.Result["seconds"].value("load", 0.0)
                      : 0.0;
    double RunSeconds = Ran.Result.contains("seconds")
                            ? Ran.Result["seconds"].value("run", 0.0)
                            : 0.0;
    V.Run["seconds"] = {{"device_wait", DeviceWait},
                        {"reference", referenceSeconds()},
                        {"load", Load},
                        {"run", RunSeconds},
                        {"compare", secondsSince(CompareStart)},
                        {"disk_wait", DiskWaitSeconds},
                        {"hand_off", HandOffSeconds},
                        {"after_task", AfterTaskSeconds},
                        {"total", secondsSince(Start)}};
    if (Ran.Result.contains("seconds") &&
        Ran.Result["seconds"].contains("profiler_start"))
      V.Run["seconds"]["profiler_start"] =
          Ran.Result["seconds"].value("profiler_start", 0.0);
  } catch (const Json::exception &E) {
    V.Correct = false;
    failRun(Stage::Compare, Outcome::InvalidResult,
            std::string("the worker's result is malformed: ") + E.what());
  }
}

void Judgement::failRun(Stage S, Outcome O, const std::string &Message) {
  V.Run["correct"] = false;
  V.Run["stage"] = stageName(S);
  V.Run["outcome"] = outcomeName(O);
  V.Run["message"] = truncated(Message, Options.MaxMessageBytes);
  V.Run["device"] = Options.Device;
  V.Run["trials"] = Json::array();
  V.Run["seconds"] = {{"total", secondsSince(Start)}};
}

void Judgement::notJudged(const char *OutcomeName, const std::string &Why) {
  V.Build = Json{{"ok", false},
                 {"outcome", OutcomeName},
                 {"message", "not judged: " + Why},
                 {"cache_hit", false},
                 {"seconds", 0},
                 {"extensions", Json::array()}};
}

} // namespace

Expected<Verdict>
judgeCandidate(const Candidate &C, const JudgeOptions &Options,
               std::shared_ptr<const PreparedReference> Reference) {
  try {
    return Judgement(C, Options, std::move(Reference)).run();
  } catch (const std::exception &E) {
    return Error::make(
        std::string("internal error while judging '") +
        (C.CandidatePath.empty() ? C.DisplayName : C.CandidatePath) +
        "': " + E.what());
  }
}

} // namespace kevin
