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
#include "kevin/Exec/Evaluator.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/ToolMain.h"

#include <future>
#include <iostream>

using namespace kevin;

namespace {

struct Job {
  Candidate What;
  Json Record;
  std::string Device;
};

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
  EvaluatorOptions Options;
  std::string Task, Device, CacheDir;
  std::vector<std::string> Files, ToleranceSpecs;
  unsigned Jobs = 1;
  uint64_t Seed = 0;
  double Atol = 1e-2, Rtol = 1e-2;
  bool NoIsolation = false;
  App.add_option("candidates", Files,
                 "candidate .py files ('-' or none: records on stdin)");
  App.add_option("--task", Task, "the task (reference) file");
  auto *DeviceOpt =
      App.add_option("--device", Device, "cpu, cuda or cuda:N (default cpu)");
  App.add_option("--trials", Options.Trials,
                 "correctness trials, each on fresh inputs")
      ->check(CLI::Range(1u, 1000u));
  auto *SeedOpt = App.add_option(
      "--seed", Seed, "the evaluation secret (default: random per evaluation)");
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
  App.add_option("--cache-dir", CacheDir,
                 "build cache (default $KEVIN_CACHE_DIR, else ~/.cache/kevin)");
  App.add_option("--atol", Atol, "absolute tolerance (default 1e-2)");
  App.add_option("--rtol", Rtol, "relative tolerance (default 1e-2)");
  App.add_option("--tolerance", ToleranceSpecs,
                 "per-dtype tolerance, dtype=atol,rtol (repeatable)");
  App.add_option("--cuda-arch", Options.CudaArch,
                 "nvcc target (default: the device's, else sm_90a)");
  App.add_option("--memory-limit", Options.MemoryLimitMiB,
                 "candidate address-space limit in MiB (0: none)");
  App.add_flag("--no-isolate-network", NoIsolation,
               "do not give candidates their own network namespace");
  App.add_flag("--keep-temps", Options.KeepTemporaries,
               "keep the private work directories");
  App.add_option("--worker", Options.WorkerPath,
                 "the kevin-worker executable (default: next to kevin-run)");
  if (std::optional<int> Exit = parseCommandLine(App, Argc, Argv))
    return *Exit;

  Options.Tolerances.Default = Tolerance{Atol, Rtol};
  for (const std::string &Spec : ToleranceSpecs)
    if (Error E = Options.Tolerances.addSpec(Spec)) {
      Context.usageError(E.message());
      return ExitError;
    }
  Options.IsolateNetwork = !NoIsolation;
  if (SeedOpt->count())
    Options.Seed = Seed;
  if (Options.WorkerPath.empty())
    Options.WorkerPath = siblingExecutable("kevin-worker");
  Options.CacheDir =
      absolutePath(CacheDir.empty() ? defaultCacheDir() : CacheDir);
  if (!Device.empty() && Device != "cpu" && Device.rfind("cuda", 0) != 0) {
    Context.usageError("--device must be cpu, cuda or cuda:N, not '" + Device +
                       "'");
    return ExitError;
  }

  bool Direct = !Files.empty() && !(Files.size() == 1 && Files[0] == "-");
  std::vector<Job> Queue;
  Error InputError;
  if (Direct) {
    if (Task.empty() && !Options.BuildOnly) {
      Context.usageError("--task is required to judge a candidate file");
      return ExitError;
    }
    for (const std::string &File : Files) {
      FileCandidate From = candidateFromFile(File, Task, Device);
      Job J;
      J.What = From.From.What;
      J.Device = From.From.Device;
      J.Record = From.Record;
      Queue.push_back(std::move(J));
    }
  } else {
    RecordReader Reader(std::cin, "<stdin>");
    while (true) {
      Record R;
      Expected<bool> More = Reader.next(R);
      if (!More) {
        InputError = More.error();
        break;
      }
      if (!*More)
        break;
      Expected<RecordCandidate> From = candidateFromRecord(
          R, Task, !Options.BuildOnly, DeviceOpt->count() ? Device : "");
      if (!From) {
        InputError = From.error();
        break;
      }
      Job J;
      J.Record = R.Value;
      J.What = From->What;
      J.Device = From->Device;
      Queue.push_back(std::move(J));
    }
  }

  // Judge up to Jobs candidates at once; write records in input order.
  std::vector<std::future<Expected<Verdict>>> Pending(Queue.size());
  size_t Started = 0;
  auto launch = [&](size_t I) {
    EvaluatorOptions Mine = Options;
    Mine.Device = Queue[I].Device;
    Pending[I] = std::async(std::launch::async, [Mine, What = Queue[I].What] {
      return evaluateCandidate(What, Mine);
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
