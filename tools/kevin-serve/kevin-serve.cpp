//===-- kevin-serve.cpp - the warm reward service over HTTP ---------------===//
//
//   kevin serve --tasks DIR [--device cpu|cuda[:N][,cuda:M...]]
//               [--host 127.0.0.1] [--port 8765] [--token T]
//
// Loads the tasks, starts the warm engine (a zygote with torch imported, the
// reference cache, one benchmarker per device) and serves /healthz,
// /v1/evaluate and /get_reward (docs/CommandGuide/kevin-serve.md) until
// SIGTERM or SIGINT. The log (stderr) gets a line per request and, unless
// --quiet, a line per finished sample and a heartbeat while samples run.
// Exit status: 0 after a clean stop, 2 usage or start-up error.
//
//===----------------------------------------------------------------------===//

#include "kevin/Exec/WorkerProcess.h"
#include "kevin/Rollout/Prompt.h"
#include "kevin/Serve/HttpServer.h"
#include "kevin/Support/CacheDir.h"
#include "kevin/Support/Device.h"
#include "kevin/Support/DeviceLock.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/ToolMain.h"

#include <iostream>

using namespace kevin;

int main(int Argc, char **Argv) {
  // Before any thread starts: only the server's stopper takes the signals.
  blockStopSignals();
  ToolContext Tool("kevin-serve");
  CLI::App App("kevin-serve: kevin's judge as a long-running reward service "
               "with warm workers",
               "kevin-serve");
  std::string Devices = "cpu", CheckPreset;
  ServiceOptions Service;
  HttpOptions Http;
  WarmEngineOptions Engine;
  size_t CacheMiB = Engine.ReferenceCacheBytes >> 20;
  uintmax_t DiskMiB = Engine.Timing.ReferenceDiskBytes >> 20;
  size_t BodyMiB = Http.MaxBodyBytes >> 20;
  bool NoCheck = false, NoBench = false, NoZygote = false, NoNamespaces = false;
  App.add_option("--tasks", Service.TasksDir, "Directory of KernelBench-format tasks")
      ->required();
  App.add_option("--device", Devices,
                 "Devices, comma-separated (cpu, cuda, cuda:0,cuda:1, ...)")
      ->capture_default_str();
  App.add_option("--host", Http.Host,
                 "Address to listen on (other than loopback needs --token)")
      ->capture_default_str();
  App.add_option("--port", Http.Port, "Port (0: any free port)")
      ->capture_default_str();
  App.add_option("--token", Http.Token,
                 "Require 'Authorization: Bearer TOKEN' on every request");
  App.add_option("--max-queue", Service.MaxPending,
                 "Samples queued or in flight at most; more gets 503")
      ->capture_default_str();
  App.add_option("--max-body-mib", BodyMiB, "Largest request body, in MiB")
      ->capture_default_str();
  App.add_option("-j,--jobs", Service.Scheduling.BuildJobs,
                 "Check and build jobs on the CPU pool (default: half the "
                 "cores, at least 2; a build runs two compiles at once)")
      ->check(CLI::PositiveNumber);
  App.add_option("--device-jobs", Service.Scheduling.DeviceJobs,
                 "Candidates in flight per device (default: one per core, "
                 "4 to 16, on a CUDA device; 1 on the CPU)")
      ->check(CLI::PositiveNumber);
  App.add_option("--check-preset", CheckPreset,
                 "kevin-check preset (default: cpu when every device is the "
                 "CPU, else strict)");
  App.add_flag("--no-check", NoCheck, "Skip kevin-check");
  App.add_flag("--no-bench", NoBench,
               "Skip timing (rewards count correctness only)");
  App.add_option("--reference-reuse", Engine.ReferenceReuse,
                 "Candidates served by one secret draw of a task's reference "
                 "inputs and one reference timing")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  App.add_option("--reference-cache-mib", CacheMiB,
                 "Memory for cached reference outputs, in MiB (default: an "
                 "eighth of the machine's memory, 2048 to 16384)");
  App.add_option("--reference-disk-mib", DiskMiB,
                 "Disk (in TMPDIR) for the input sets of the timed "
                 "references, in MiB; the least recently used task's is let "
                 "go first and timed again when it returns")
      ->capture_default_str();
  App.add_option("--reference-max-age", Engine.Timing.ReferenceMaxAgeSeconds,
                 "Seconds after which a reference timing is taken again "
                 "(0: only after --reference-reuse candidates)")
      ->capture_default_str();
  App.add_flag("--no-zygote", NoZygote,
               "Start every worker afresh instead of forking a warm one");
  App.add_flag("--no-namespaces", NoNamespaces,
               "Candidates get no namespaces of their own");
  bool Quiet = false;
  App.add_flag("--quiet", Quiet,
               "No line per finished sample and no heartbeat in the log "
               "(the listening and request lines stay)");
  if (auto Exit = parseCommandLine(App, Argc, Argv))
    return *Exit;
  Expected<std::vector<Device>> Parsed = parseDeviceList(Devices);
  if (!Parsed) {
    Tool.usageError("--device: " + Parsed.error().message());
    return ExitError;
  }
  if (!isLoopbackHost(Http.Host) && Http.Token.empty()) {
    Tool.usageError("--host " + Http.Host +
                    " is reachable from other machines: give --token");
    return ExitError;
  }
  Service.Scheduling.Devices.clear();
  for (const Device &D : *Parsed)
    Service.Scheduling.Devices.push_back(D.str());
  Service.PromptFile = defaultPromptFile();
  if (!Quiet)
    Service.ProgressLog = &std::cerr;
  Http.MaxBodyBytes = BodyMiB << 20;

  Engine.ToolsDir = fs::selfExecutableDirectory();
  bool OnlyCpu = onlyCpuDevices(Service.Scheduling.Devices);
  Engine.CheckPreset = NoCheck                ? ""
                       : !CheckPreset.empty() ? CheckPreset
                       : OnlyCpu              ? "cpu"
                                              : "strict";
  Engine.Bench = !NoBench;
  Engine.UseZygote = !NoZygote;
  Engine.Devices = Service.Scheduling.Devices;
  Engine.ReferenceCacheBytes = CacheMiB << 20;
  Engine.Timing.ReferenceDiskBytes = DiskMiB << 20;
  Engine.Judge.CacheDir = defaultCacheDir();
  Engine.Timing.CacheDir = Engine.Judge.CacheDir;
  Engine.Judge.UseNamespaces = Engine.Timing.UseNamespaces = !NoNamespaces;

  // A killed server's work directories (its input sets) go first.
  if (std::string Swept = sweptMessage(TempDir::sweepAbandoned());
      !Swept.empty())
    std::cerr << "kevin-serve: " << Swept << "\n";
  Expected<std::unique_ptr<WarmEngine>> Started = WarmEngine::start(Engine);
  if (!Started) {
    Tool.error(Started.error());
    return ExitError;
  }
  Expected<std::unique_ptr<EvaluationService>> Made =
      EvaluationService::create(Service, std::move(*Started));
  if (!Made) {
    Tool.error(Made.error());
    return ExitError;
  }
  if (Error E = serveHttp(**Made, Http, std::cerr)) {
    Tool.error(E);
    return ExitError;
  }
  return ExitClean;
}
