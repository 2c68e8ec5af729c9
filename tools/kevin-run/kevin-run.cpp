//===-- kevin-run.cpp - build and judge candidates in isolated workers ----===//
//
//   kevin-run --task ref.py cand.py [--device cpu|cuda[:N]] [--trials 5]
//   [--seed S] kevin-check ... | kevin-run [options]          (records on
//   stdin)
//
// Adds a `build` and a `run` section to each record (docs/CommandGuide/
// kevin-run.md). Over several records on stdin, a line per record on stderr
// (a bar on a terminal; none with --quiet). Exit status: 0 every candidate
// correct (with --build-only: every build succeeded), 1 some candidate not,
// 2 usage or tool error.
//
//===----------------------------------------------------------------------===//
#include "kevin/Build/Builder.h"
#include "kevin/Exec/CandidateInput.h"
#include "kevin/Exec/Judge.h"
#include "kevin/Exec/WorkerToolOptions.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/Progress.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/RecordFields.h"
#include "kevin/Support/ToolMain.h"
#include "kevin/Task/CandidateLimits.h"
#include "kevin/Task/ModelResponse.h"

#include <future>
#include <iostream>

using namespace kevin;

namespace {

/// The `run` section of a record that is not judged, and why.
Json notJudged(const char *Stage, const char *Outcome,
               const std::string &Message) {
  return Json{{"correct", false},
              {"stage", Stage},
              {"outcome", Outcome},
              {"message", Message}};
}

/// Why one record on stdin is not judged: the `run` section it gets instead,
/// or null when its candidate (in Out) is to be judged. A record that carries
/// only a `response` gets the response's code in `code` first.
Json intakeRecord(Record &R, const WorkerToolOptions &Shared, bool NeedTask,
                  bool IgnoreCheck, QueuedCandidate &Out) {
  if (!IgnoreCheck && fieldIsFalse(R.Value, field::CheckOk))
    return notJudged("check", "skipped-check",
                     "not run: kevin-check found errors (check.ok is false; "
                     "--ignore-check runs it anyway)");
  std::string Problem = fillCodeFromResponse(R.Value);
  if (!Problem.empty())
    return notJudged("format", "format-error",
                     "the response has no candidate: " + Problem);
  Expected<RecordCandidate> From = candidateFromRecord(
      R, Shared.Task, NeedTask, Shared.deviceOverride());
  if (!From)
    return notJudged("input", "input-error", diagnosticLine(From.error()));
  for (auto [Path, What] : {std::pair(From->What.CandidatePath, "candidate"),
                            std::pair(From->What.TaskPath, "task")})
    if (std::string Why = Path.empty() ? "" : fs::whyUnreadable(Path);
        !Why.empty())
      return notJudged("input", "input-error",
                       "'" + Path + "': cannot read the " + What + ": " + Why);
  Out.What = From->What;
  Out.Device = From->Device;
  return nullptr;
}

/// Reads the records on In into Queue. Every line gives one entry, and
/// Unjudged (parallel to Queue) the `run` section of an entry that is not to
/// be judged: a line that is not a record gets a record of its own. Only a
/// read error of the stream is an Error.
Error readRecords(std::istream &In, const WorkerToolOptions &Shared,
                  bool NeedTask, bool IgnoreCheck,
                  std::vector<QueuedCandidate> &Queue,
                  std::vector<Json> &Unjudged) {
  RecordReader Reader(In, "<stdin>");
  while (true) {
    Record R;
    Expected<bool> More = Reader.next(R);
    if (More && !*More)
      return Error::success();
    if (!More && In.bad())
      return More.error();
    QueuedCandidate Q;
    if (More) {
      Unjudged.push_back(intakeRecord(R, Shared, NeedTask, IgnoreCheck, Q));
      Q.Record = std::move(R.Value);
    } else {
      Q.Record = badLineRecord(More.error());
      Unjudged.push_back(
          notJudged("input", "input-error", diagnosticLine(More.error())));
    }
    Queue.push_back(std::move(Q));
  }
}

/// Puts a record's unjudged verdict in place: the `run` section, or with
/// --build-only the `build` section (ok false, the same outcome and message).
void writeUnjudged(Json &Out, Json Run, bool BuildOnly) {
  if (!BuildOnly) {
    Out["run"] = std::move(Run);
    return;
  }
  Out["build"] = Json{{"ok", false},
                      {"outcome", Run["outcome"]},
                      {"message", Run["message"]}};
}

/// One line for a person reading stderr in direct mode.
std::string summaryLine(const std::string &Name, const Verdict &V,
                        bool BuildOnly) {
  if (BuildOnly || V.Run.is_null())
    return Name + ": build " + V.Build.value("outcome", "ok") +
           (V.Build.value("cache_hit", false) ? " (cache hit)" : "");
  std::string Outcome = V.Run.value("outcome", "");
  std::string Message = V.Run.value("message", "");
  if (V.Correct)
    return Name + ": " + Message;
  return Name + ": " + Outcome + " at the " + V.Run.value("stage", "") +
         " stage: " + Message;
}

} // namespace

int main(int Argc, char **Argv) {
  CLI::App App("kevin-run: build a candidate and judge its correctness against "
               "the reference, each in an isolated worker process",
               "kevin-run");
  ToolContext Context("kevin-run");
  JudgeOptions Options;
  WorkerToolOptions Shared;
  unsigned Jobs = 1;
  Shared.addTo(App, "kevin-run");
  App.add_option("--trials", Options.Trials,
                 "correctness trials, each on fresh inputs")
      ->check(CLI::Range(1u, 1000u));
  App.add_option("--heavy-tailed-trials", Options.HeavyTailedTrials,
                 "trials (at secret positions) whose inputs get "
                 "heavy-tailed magnitudes, KEVIN-RT-022 (default 2; at most "
                 "trials - 1; 0: none)");
  App.add_flag("--held-out-batch", Options.HeldOutBatch,
               "KEVIN-RT-022: one trial (at a secret position) draws its "
               "inputs with the task's batch_size halved, where the task "
               "has one and its model takes it (needs --trials 4 or more)");
  App.add_option("--precision-budget", Options.Precision.Factor,
                 "KEVIN-RT-023: the candidate's error against a float64 "
                 "reference may be this many times the float32 reference's "
                 "own error, plus 1e-5 of the output's norm (default 100; "
                 "0: off)")
      ->check(CLI::NonNegativeNumber);
  App.add_option("--kernel-coverage", Options.KernelCoverage,
                 "KEVIN-RT-009 on CUDA: one profiled forward must run the "
                 "candidate's own kernels, taking at least this share of "
                 "its GPU time beside other libraries' kernels (default "
                 "0.9; 0: no profile)");
  bool NoGhostReplay = false;
  App.add_flag("--no-ghost-replay", NoGhostReplay,
               "KEVIN-RT-010 off: on CUDA, by default one more forward runs "
               "with the candidate's own kernel launches skipped and must "
               "not return the right output");
  App.add_option("--timeout", Options.RunTimeoutSeconds,
                 "seconds for the candidate's run stage");
  App.add_option("--build-timeout", Options.BuildTimeoutSeconds,
                 "seconds per compile or link");
  App.add_option("-j,--jobs", Jobs, "candidates judged at once")
      ->check(CLI::Range(1u, 256u));
  App.add_option("--build-jobs", Options.BuildJobs,
                 "parallel compiles within one candidate");
  App.add_flag("--build-only", Options.BuildOnly,
               "only compile (fill the cache); no reference, no run");
  App.add_option("--memory-limit", Options.MemoryLimitMiB,
                 "candidate address-space limit in MiB (0: none)");
  uint64_t MaxCandidateBytes = limitInfo(LimitKind::CandidateBytes).Default;
  App.add_option("--max-candidate-bytes", MaxCandidateBytes,
                 "a larger candidate is a format-error, never built "
                 "(kevin-limit-candidate-size; default 1048576)")
      ->check(CLI::PositiveNumber);
  bool IgnoreCheck = false;
  App.add_flag("--ignore-check", IgnoreCheck,
               "judge records whose check.ok is false too (by default they "
               "pass through with run.outcome skipped-check)");
  bool Quiet = false;
  App.add_flag("--quiet", Quiet,
               "nothing on stderr per candidate (by default a line per "
               "record when several come on stdin, a bar on a terminal)");
  if (std::optional<int> Exit = parseCommandLine(App, Argc, Argv))
    return *Exit;
  if (Error E = Shared.finish(Options.Tolerances)) {
    Context.usageError(E.message());
    return ExitError;
  }
  if (!(Options.Precision.Factor >= 0)) {
    Context.usageError("--precision-budget must be a number, 0 or more");
    return ExitError;
  }
  if (!(Options.KernelCoverage >= 0 && Options.KernelCoverage <= 1)) {
    Context.usageError("--kernel-coverage must be a number from 0 to 1");
    return ExitError;
  }
  Options.GhostReplay = !NoGhostReplay;
  Shared.applyTo(Options);
  bool Direct = Shared.direct();
  std::vector<QueuedCandidate> Queue;
  std::vector<Json> Unjudged;
  if (Direct) {
    if (Error E = Shared.readCandidates(std::cin, "judge", Options.BuildOnly,
                                        nullptr, Queue)) {
      Context.usageError(E.message());
      return ExitError;
    }
    Unjudged.resize(Queue.size());
  } else if (Error E = readRecords(std::cin, Shared, !Options.BuildOnly,
                                   IgnoreCheck, Queue, Unjudged)) {
    Context.error(E);
    return ExitError;
  }
  CandidateLimits Limits;
  Limits.set(LimitKind::CandidateBytes, MaxCandidateBytes);
  for (size_t I = 0; I < Queue.size(); ++I)
    if (Unjudged[I].is_null())
      if (Error E = checkCandidateSize(
              Queue[I].What.DisplayName,
              candidateBytes(Queue[I].What.CandidatePath, Queue[I].What.Code),
              Limits))
        Unjudged[I] = notJudged("format", "format-error", diagnosticLine(E));

  // A line per record when several came on stdin; direct mode has its
  // summary lines instead.
  Progress Shown("kevin-run", Queue.size(),
                 stderrProgress(Quiet || Direct || Queue.size() < 2));
  auto nameOf = [&](size_t I) { return progressName(Queue[I].Record, I + 1); };
  // Judge up to Jobs candidates at once; write records in input order.
  std::vector<std::future<Expected<Verdict>>> Pending(Queue.size());
  size_t Started = 0, Running = 0;
  auto launchMore = [&] {
    for (; Started < Queue.size() && Running < Jobs; ++Started) {
      if (!Unjudged[Started].is_null())
        continue;
      Shown.started(nameOf(Started), Options.BuildOnly ? "build" : "run");
      JudgeOptions Mine = Options;
      Mine.Device = Queue[Started].Device;
      Pending[Started] = std::async(
          std::launch::async,
          [Mine, What = Queue[Started].What] { return judgeCandidate(What, Mine); });
      ++Running;
    }
  };
  launchMore();
  RecordWriter Writer(std::cout);
  bool AllGood = true, ToolError = false;
  for (size_t I = 0; I < Queue.size(); ++I) {
    std::string Name = nameOf(I);
    Json Out = std::move(Queue[I].Record);
    auto Emit = [&] {
      Writer.write(Out);
      Shown.finished(Name, finishedSummary(Out));
    };
    AllGood &= Unjudged[I].is_null();
    if (!Unjudged[I].is_null()) {
      writeUnjudged(Out, std::move(Unjudged[I]), Options.BuildOnly);
      Emit();
      continue;
    }
    Expected<Verdict> V = Pending[I].get();
    --Running;
    launchMore();
    if (!V) {
      // The record is still written; a failure of kevin itself or of its
      // installation also makes the exit status 2.
      bool AboutRecord = isInputError(V.error());
      Context.error(V.error());
      ToolError |= !AboutRecord;
      AllGood = false;
      writeUnjudged(Out,
                    notJudged("input", AboutRecord ? "input-error" : "tool-error",
                              diagnosticLine(V.error())),
                    Options.BuildOnly);
      Emit();
      continue;
    }
    Out["build"] = V->Build;
    if (!Options.BuildOnly)
      Out["run"] = V->Run;
    Emit();
    if (Direct && !Quiet)
      std::cerr << summaryLine(Queue[I].What.DisplayName, *V, Options.BuildOnly)
                << "\n";
    if (V->ReferenceFailed) {
      std::string Message = V->Run.value("message", "");
      Context.error(Error::make(Message.substr(0, Message.find('\n'))));
      ToolError = true;
    }
    AllGood &= Options.BuildOnly ? V->BuildOk : V->Correct;
  }
  if (ToolError)
    return ExitError;
  return AllGood ? ExitClean : ExitFindings;
}
