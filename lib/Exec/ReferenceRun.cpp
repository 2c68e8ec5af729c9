//===-- ReferenceRun.cpp - the reference's worker -------------------------===//
//
// Starts the reference worker, sends its seeds, reads its record and its
// outputs (ReferenceRun.h). Every file of the reference's that the
// candidate could use is unlinked as soon as this process holds it.
//
//===----------------------------------------------------------------------===//
#include "ReferenceRun.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/TensorFile.h"
#include "kevin/Support/FileSystem.h"

#include <filesystem>
#include <unistd.h>

namespace kevin {

void ReferenceRun::start(const JudgeOptions &Options,
                         const std::string &TaskPath,
                         const std::string &WorkDir,
                         const std::string &CacheDir, unsigned Draws) {
  Dir = WorkDir;
  SubprocessOptions Run;
  Run.Argv = {Options.WorkerPath,   "reference",    "--task",
              TaskPath,             "--dir",        Dir,
              "--device",           Options.Device, "--trials",
              std::to_string(Draws)};
  Run.Environment = workerEnvironment(Dir, CacheDir);
  Run.WorkingDirectory = Dir;
  Run.Launcher = Options.Launcher;
  Run.Niceness = Options.Niceness;
  // Its limit, twice the run limit, counts from its seeds: the wait for the
  // device is bounded on its own.
  std::shared_ptr<DeferredInput> Seeds = Seeded;
  Run.StdinLater = {[Seeds] { return Seeds->poll(); }};
  Run.StopWhen = [Seeds, Limit = Options.RunTimeoutSeconds * 2] {
    return Seeds->overdue(Limit);
  };
  Run.MaxCaptureBytes = 64 * 1024;
  Process =
      std::async(std::launch::async, [Run] { return runSubprocess(Run); });
}

void ReferenceRun::sendSeeds(const std::string &Secrets) {
  Seeded->send(Secrets);
}

void ReferenceRun::abandon() {
  Seeded->abandon();
  Process.wait();
}

Expected<SubprocessResult> ReferenceRun::wait() {
  Expected<SubprocessResult> Ended = Process.get();
  if (!Ended)
    return Ended;
  std::string RecordPath = Dir + "/" + protocol::ReferenceJson;
  Record = Json::parse(fs::readFileOrEmpty(RecordPath), nullptr, false);
  // It names the heavy-tailed trials and holds the float64 norms (a
  // scalar output's answer): gone before the candidate gets its task,
  // for runs without namespaces, where it could read the directory.
  ::unlink(RecordPath.c_str());
  Seconds = Ended->WallSeconds;
  if (const Json *Wait = Record.is_discarded()
                             ? nullptr
                             : findField(Record, "seconds.seeds_wait"))
    if (Wait->is_number())
      Seconds -= Wait->get<double>();
  return Ended;
}

std::optional<std::string>
ReferenceRun::failure(const SubprocessResult &Ended) const {
  if (Ended.succeeded() && !Record.is_discarded() && Record.value("ok", false))
    return std::nullopt;
  return !Record.is_discarded() && Record.contains("message")
             ? Record["message"].get<std::string>()
             : "the reference worker " + Ended.describe() + "\n" +
                   stderrTail(Ended.Stderr, 800);
}

Error ReferenceRun::openOutputs(unsigned Draws) {
  std::vector<OpenTensorFile> Files;
  for (unsigned T = 0; T < Draws; ++T) {
    std::string File = protocol::trialFile(Dir, T, "reference");
    Expected<OpenTensorFile> Opened = OpenTensorFile::open(File);
    // The outputs now live only in this process.
    ::unlink(File.c_str());
    if (!Opened) {
      for (unsigned Rest = T + 1; Rest < Draws; ++Rest)
        ::unlink(protocol::trialFile(Dir, Rest, "reference").c_str());
      return Opened.error();
    }
    Files.push_back(std::move(*Opened));
  }
  // Read while the candidate runs: the names are gone before it gets its
  // task, the open files stay with this process.
  OutputsRead = std::async(
      std::launch::async, [this, Files = std::move(Files)]() -> Error {
        for (const OpenTensorFile &File : Files) {
          Expected<std::vector<at::Tensor>> Out = File.read();
          if (!Out)
            return Out.error();
          Outputs.push_back(*Out);
        }
        return Error::success();
      });
  return Error::success();
}

Error ReferenceRun::awaitOutputs() {
  if (!OutputsRead.valid())
    return Error::success();
  return OutputsRead.get();
}

Error ReferenceRun::runToEnd(const JudgeOptions &Options,
                             const std::string &TaskPath,
                             const std::string &WorkDir,
                             const TrialPlan &Plan, DeviceLock &Device,
                             std::optional<std::string> &Failure) {
  start(Options, TaskPath, WorkDir, Options.CacheDir, Plan.Draws);
  if (Error Held = Device.lockShared()) {
    abandon();
    return Held;
  }
  sendSeeds(Plan.referenceSecrets(Options));
  Expected<SubprocessResult> Ended = wait();
  if (!Ended)
    return Ended.error();
  Failure = failure(*Ended);
  if (Failure)
    return Error::success();
  if (Error Failed = openOutputs(Plan.Draws))
    return Failed;
  return awaitOutputs();
}

Expected<std::shared_ptr<const PreparedReference>>
prepareReference(const std::string &TaskPath, const JudgeOptions &Options) {
  guardFromCandidates();
  if (::access(Options.WorkerPath.c_str(), X_OK) != 0)
    return Error::inFile(Options.WorkerPath,
                         "cannot find the kevin-worker executable");
  auto Prepared = std::make_shared<PreparedReference>();
  Expected<TrialPlan> Drawn = TrialPlan::draw(Options);
  if (!Drawn)
    return Drawn.error();
  Prepared->Plan = std::move(*Drawn);
  Expected<TempDir> Made = TempDir::create("kevin-reference");
  if (!Made)
    return Made.error();
  Prepared->Root.emplace(std::move(*Made));
  if (Options.KeepTemporaries)
    Prepared->Root->keep();
  Prepared->InputsDir = Prepared->Root->path();
  std::error_code Ignored;
  std::filesystem::create_directories(Options.CacheDir, Ignored);
  Expected<DeviceLock> Device = DeviceLock::open(Options.Device, Options.LockDir);
  if (!Device)
    return Device.error();
  ReferenceRun Run;
  if (Error E = Run.runToEnd(Options, TaskPath, Prepared->InputsDir,
                             Prepared->Plan, *Device, Prepared->Failure))
    return E;
  Prepared->Record = std::move(Run.Record);
  Prepared->Outputs = std::move(Run.Outputs);
  Prepared->Seconds = Run.Seconds;
  return std::shared_ptr<const PreparedReference>(std::move(Prepared));
}

bool referenceFailed(const PreparedReference &Reference) {
  return Reference.Failure.has_value();
}

size_t referenceBytes(const PreparedReference &Reference) {
  size_t Bytes = 0;
  for (const std::vector<at::Tensor> &Draw : Reference.Outputs)
    for (const at::Tensor &T : Draw)
      Bytes += T.defined() ? T.nbytes() : 0;
  return Bytes;
}

} // namespace kevin
