//===-- WorkerToolOptions.cpp - options of worker tools -------------------===//
//
// See kevin/Exec/WorkerToolOptions.h.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/WorkerToolOptions.h"
#include "kevin/Exec/CandidateInput.h"
#include "kevin/Support/CacheDir.h"
#include "kevin/Support/Device.h"

namespace kevin {

void WorkerToolOptions::addTo(CLI::App &App, const std::string &Tool) {
  App.add_option("candidates", Files,
                 "candidate .py files ('-' or none: records on stdin)");
  App.add_option("--task", Task, "the task (reference) file");
  DeviceOption =
      App.add_option("--device", Device, "cpu, cuda or cuda:N (default cpu)");
  SeedOption = App.add_option(
      "--seed", Seed, "the secret input seeds derive from (default: random)");
  App.add_option("--cache-dir", CacheDir,
                 "build cache (default $KEVIN_CACHE_DIR, else ~/.cache/kevin)");
  App.add_option("--atol", Atol, "absolute tolerance (default 1e-2)");
  App.add_option("--rtol", Rtol, "relative tolerance (default 1e-2)");
  App.add_option("--tolerance", ToleranceSpecs,
                 "per-dtype tolerance, dtype=atol,rtol (repeatable)");
  App.add_option("--cuda-arch", CudaArch,
                 "nvcc target (default: nvidia-smi's compute_cap, else the "
                 "device's as torch reports it, else sm_90a)");
  App.add_flag("--no-isolate-network", NoIsolation,
               "do not give candidates their own network namespace");
  App.add_flag("--no-namespaces", NoNamespaces,
               "run candidates in kevin's own namespaces: no network "
               "isolation, no private view of the file system");
  App.add_flag("--keep-temps", KeepTemporaries,
               "keep the private work directories");
  App.add_option("--worker", WorkerPath,
                 "the kevin-worker executable (default: next to " + Tool + ")");
}

Error WorkerToolOptions::finish(ToleranceTable &Tolerances) {
  Tolerances.Default = Tolerance{Atol, Rtol};
  for (const std::string &Spec : ToleranceSpecs)
    if (Error E = Tolerances.addSpec(Spec))
      return E;
  if (WorkerPath.empty())
    WorkerPath = siblingExecutable("kevin-worker");
  CacheDir = absolutePath(CacheDir.empty() ? defaultCacheDir() : CacheDir);
  if (!Device.empty())
    if (Expected<kevin::Device> Parsed = kevin::Device::parse(Device); !Parsed)
      return Error::make("--device must be cpu, cuda or cuda:N, not '" +
                         Device + "'");
  return Error::success();
}

bool WorkerToolOptions::direct() const {
  return !Files.empty() && !(Files.size() == 1 && Files[0] == "-");
}

Error WorkerToolOptions::readCandidates(
    std::istream &In, const char *Verb, bool TaskOptional,
    const std::function<std::string(const Json &)> &SkipReason,
    std::vector<QueuedCandidate> &Out) const {
  if (direct()) {
    if (Task.empty() && !TaskOptional)
      return Error::make(std::string("--task is required to ") + Verb +
                         " a candidate file");
    for (const std::string &File : Files) {
      FileCandidate From = candidateFromFile(File, Task, Device);
      Out.push_back({From.From.What, From.From.Device, From.Record, ""});
    }
    return Error::success();
  }
  RecordReader Reader(In, "<stdin>");
  while (true) {
    Record R;
    Expected<bool> More = Reader.next(R);
    if (!More)
      return More.error();
    if (!*More)
      return Error::success();
    QueuedCandidate Q;
    Q.Record = R.Value;
    Q.Skip = SkipReason ? SkipReason(R.Value) : "";
    if (Q.Skip.empty()) {
      Expected<RecordCandidate> From =
          candidateFromRecord(R, Task, !TaskOptional, deviceOverride());
      if (!From)
        return From.error();
      Q.What = From->What;
      Q.Device = From->Device;
    }
    Out.push_back(std::move(Q));
  }
}

std::optional<uint64_t> WorkerToolOptions::seed() const {
  if (SeedOption && SeedOption->count())
    return Seed;
  return std::nullopt;
}

std::string WorkerToolOptions::deviceOverride() const {
  return DeviceOption && DeviceOption->count() ? Device : "";
}

} // namespace kevin
