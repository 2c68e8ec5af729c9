//===-- kevin-run.cpp - build and judge candidates in isolated workers ----===//
//
//   kevin-run --task ref.py cand.py [--device cpu|cuda[:N]] [--trials 5]
//   [--seed S] kevin-check ... | kevin-run [options]          (records on
//   stdin)
//
// Adds a `build` and a `run` section to each record (docs/CommandGuide/
// kevin-run.md). Exit status: 0 every candidate correct (with --build-only:
// every build succeeded), 1 some candidate not, 2 usage or tool error.
//
//===----------------------------------------------------------------------===//
#include "kevin/Build/Builder.h"
#include "kevin/Exec/CandidateInput.h"
#include "kevin/Exec/Judge.h"
#include "kevin/Exec/WorkerToolOptions.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/ToolMain.h"

#include <future>
#include <iostream>

using namespace kevin;

namespace {


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
  Error InputError = Shared.readCandidates(std::cin, "judge", Options.BuildOnly,
                                           nullptr, Queue);
  if (InputError && Direct) {
    Context.usageError(InputError.message());
    return ExitError;
  }

  // Judge up to Jobs candidates at once; write records in input order.
  std::vector<std::future<Expected<Verdict>>> Pending(Queue.size());
  size_t Started = 0;
  auto launch = [&](size_t I) {
    JudgeOptions Mine = Options;
    Mine.Device = Queue[I].Device;
    Pending[I] = std::async(std::launch::async, [Mine, What = Queue[I].What] {
      return judgeCandidate(What, Mine);
    });
  };
  for (; Started < Queue.size() && Started < Jobs; ++Started)
    launch(Started);
  RecordWriter Writer(std::cout);
  bool AllGood = true, ToolError = false;
  for (size_t I = 0; I < Queue.size(); ++I) {
    Expected<Verdict> V = Pending[I].get();
    if (Started < Queue.size())
      launch(Started++);
    if (!V) {
      Context.error(V.error());
      ToolError = true;
      continue;
    }
    Json Out = Queue[I].Record;
    Out["build"] = V->Build;
    if (!Options.BuildOnly)
      Out["run"] = V->Run;
    Writer.write(Out);
    if (Direct)
      std::cerr << summaryLine(Queue[I].What.DisplayName, *V, Options.BuildOnly)
                << "\n";
    if (V->ReferenceFailed) {
      std::string Message = V->Run.value("message", "");
      Context.error(Error::make(Message.substr(0, Message.find('\n'))));
      ToolError = true;
    }
    AllGood &= Options.BuildOnly ? V->BuildOk : V->Correct;
  }
  if (InputError) {
    Context.error(InputError);
    return ExitError;
  }
  if (ToolError)
    return ExitError;
  return AllGood ? ExitClean : ExitFindings;
}
