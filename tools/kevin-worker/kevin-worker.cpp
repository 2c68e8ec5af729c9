//===-- kevin-worker.cpp - the isolated worker process of kevin-run -------===//
//
// Not meant to be run by hand: kevin-run starts it, once as the trusted
// reference worker and twice per candidate (build stage, run stage), and
// kevin-bench in its two timing modes, each in its own process group with a
// scrubbed environment. Secrets (trial seeds,
// the result nonce) come on stdin. See kevin/Exec/Worker.h and
// kevin/Bench/BenchWorker.h. `kevin-worker zygote` imports torch once and
// forks these workers on request (kevin/Exec/Zygote.h).
//
//===----------------------------------------------------------------------===//
#include "kevin/Bench/BenchWorker.h"
#include "kevin/Exec/Worker.h"
#include "kevin/Exec/Zygote.h"
#include "kevin/Support/ToolMain.h"

#include <cstdio>
#include <cstdlib>
#include <malloc.h>

using namespace kevin;

/// Parses a worker's command line (Args[0] the program) and runs its mode;
/// the mode's exit status. What main runs, and what each child of the zygote
/// runs with the argv of its request.
static int runWorkerCommandLine(std::vector<std::string> Args) {
  CLI::App App("kevin-worker: reference and candidate worker of kevin-run",
               "kevin-worker");
  WorkerOptions Options;
  std::string Mode;
  App.add_option("mode", Mode,
                 "reference, candidate, bench-reference, bench-candidate "
                 "or prepare-build-cache (or zygote --socket PATH: the warm "
                 "parent of workers)")
      ->required()
      ->check(CLI::IsMember({"reference", "candidate", "bench-reference",
                             "bench-candidate", "prepare-build-cache"}));
  App.add_option("--task", Options.Task, "the task file (reference mode)");
  App.add_option("--candidate", Options.Candidate,
                 "the candidate file (candidate mode)");
  App.add_option("--display-name", Options.DisplayName,
                 "the candidate's name in messages");
  App.add_option("--dir", Options.Dir, "the work directory")->required();
  App.add_option("--device", Options.Device, "cpu, cuda or cuda:N");
  App.add_option("--trials", Options.Trials, "number of trials");
  App.add_option("--build-jobs", Options.Build.Jobs, "parallel compile jobs");
  App.add_option("--build-timeout", Options.Build.TimeoutSeconds,
                 "seconds per compile");
  App.add_option("--memory-limit", Options.MemoryLimitMiB,
                 "address-space limit in MiB (0: none)");
  App.add_option("--cuda-arch", Options.CudaArch, "nvcc target such as sm_90a");
  App.add_option("--baseline", Options.Baseline,
                 "bench-reference: eager or compile (torch.compile)")
      ->check(CLI::IsMember({"eager", "compile"}));
  App.add_flag("--profile-kernels", Options.ProfileKernels,
               "candidate mode on CUDA: profile one more forward "
               "(KEVIN-RT-009)");
  App.add_flag("--build-only", Options.BuildOnly,
               "stop after importing the candidate");
  bool NoIsolation = false;
  App.add_option("--hide", Options.HiddenDirs,
                 "a directory the candidate must not see (repeatable)");
  App.add_option("--private", Options.PrivateDirs,
                 "a directory to cover where the OS permits (repeatable)");
  App.add_option("--keep", Options.KeptPaths,
                 "a path below a hidden directory that stays (repeatable)");
  App.add_flag("--no-isolate-network", NoIsolation,
               "keep the network namespace");
  bool NoNamespaces = false;
  App.add_flag("--no-namespaces", NoNamespaces,
               "enter no namespace of its own");
  std::vector<char *> Argv;
  for (std::string &Arg : Args)
    Argv.push_back(Arg.data());
  if (std::optional<int> Exit =
          parseCommandLine(App, static_cast<int>(Argv.size()), Argv.data()))
    return *Exit;
  Options.IsolateNetwork = !NoIsolation;
  Options.UseNamespaces = !NoNamespaces;
  Options.Build.CacheDir = defaultCacheDir();
  return Mode == "reference"             ? runReferenceWorker(Options)
         : Mode == "candidate"           ? runCandidateWorker(Options)
         : Mode == "bench-reference"     ? runBenchReferenceWorker(Options)
         : Mode == "prepare-build-cache" ? runPrepareBuildCacheWorker(Options)
                                         : runBenchCandidateWorker(Options);
}

/// A worker from its command line to its end: the result file is written,
/// so it leaves without running exit handlers or destructors, and with
/// nothing of the candidate's left running.
[[noreturn]] static int runWorker(std::vector<std::string> Args) {
  endWorkerProcess(runWorkerCommandLine(std::move(Args)));
}

/// `kevin-worker zygote --socket PATH` (kevin/Exec/Zygote.h).
static int runZygoteCommandLine(int Argc, char **Argv) {
  CLI::App App("kevin-worker zygote: imports torch once, then forks a "
               "worker per request on its socket (kevin serve)",
               "kevin-worker zygote");
  std::string Socket;
  App.add_option("--socket", Socket,
                 "the Unix socket to listen on, in a private directory; "
                 "the zygote exits once it is removed")
      ->required();
  if (std::optional<int> Exit = parseCommandLine(App, Argc - 1, Argv + 1))
    return *Exit;
  return runZygote(Socket, runWorker);
}

int main(int Argc, char **Argv) {
  // A worker allocates and frees host tensors of hundreds of megabytes per
  // trial (inputs read, outputs copied back, files written). Served by
  // mmap, each is page-faulted in fresh zeroed memory (about a third of a
  // gpu-sized CPU run's profile); from the heap, kept, they are reused.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  if (Argc > 1 && std::string(Argv[1]) == "zygote")
    return runZygoteCommandLine(Argc, Argv);
  runWorker(std::vector<std::string>(Argv, Argv + Argc));
}
