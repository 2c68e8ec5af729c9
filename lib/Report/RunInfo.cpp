//===-- RunInfo.cpp - where a run is and how it was made ------------------===//
//
// Finding a run's records and run.json, and the configuration a report
// shows: run.json's settings, else what the records say.
//
//===----------------------------------------------------------------------===//
#include "kevin/Report/RunInfo.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/Version.h"

#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <sys/stat.h>

namespace kevin {

namespace stdfs = std::filesystem;

namespace {

/// A time as `2026-12-02 01:57 UTC`.
std::string utcDate(std::time_t Time) {
  std::tm Parts;
  gmtime_r(&Time, &Parts);
  char Buffer[64];
  std::strftime(Buffer, sizeof(Buffer), "%Y-%m-%d %H:%M UTC", &Parts);
  return Buffer;
}

/// A run.json value as shown: strings bare, lists joined, the rest as JSON.
std::string settingText(const Json &Value) {
  if (Value.is_string())
    return Value.get<std::string>();
  if (!Value.is_array())
    return Value.dump();
  std::string Out;
  for (const Json &Item : Value)
    Out += (Out.empty() ? "" : ", ") + settingText(Item);
  return Out;
}

/// Adds run.json's settings (when Path holds one) to Info.
void readRunJson(const stdfs::path &Path, RunInfo &Info) {
  std::error_code EC;
  if (!stdfs::is_regular_file(Path, EC))
    return;
  Json Run = Json::parse(fs::readFileOrEmpty(Path.string()), nullptr, false);
  if (!Run.is_object())
    return;
  const std::pair<const char *, const char *> Shown[] = {
      {"policy", "policy"},
      {"model", "model"},
      {"trajectories", "m (trajectories per task)"},
      {"turns", "n (turns per trajectory)"},
      {"device", "device"},
      {"temperature", "temperature"},
      {"top_p", "top_p"},
      {"max_tokens", "max_tokens"},
      {"context_budget_tokens", "context budget (tokens)"},
      {"stages", "stages"}};
  for (const auto &[Key, Label] : Shown)
    if (Run.contains(Key))
      Info.Settings.emplace_back(Label, settingText(Run[Key]));
  if (Run.contains("tasks") && Run["tasks"].is_array())
    Info.Settings.emplace_back("tasks", std::to_string(Run["tasks"].size()) +
                                            ": " + settingText(Run["tasks"]));
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0)
    Info.Settings.emplace_back("run started", utcDate(St.st_mtime));
}

bool hasSetting(const RunInfo &Info, const std::string &Label) {
  for (const auto &Setting : Info.Settings)
    if (Setting.first == Label)
      return true;
  return false;
}

} // namespace

Expected<RunInfo> locateRun(const std::string &Input) {
  RunInfo Info;
  if (Input == "-") {
    Info.Name = "<stdin>";
    Info.RecordPath = Input;
    return Info;
  }
  std::error_code EC;
  stdfs::path Path = stdfs::path(Input).lexically_normal();
  if (!Path.has_filename())
    Path = Path.parent_path();
  stdfs::path RunDir;
  if (stdfs::is_directory(Path, EC)) {
    RunDir = Path;
    for (const char *Log : {"scored.jsonl", "turns.jsonl"})
      if (stdfs::is_regular_file(Path / Log, EC)) {
        Info.RecordPath = (Path / Log).string();
        break;
      }
    if (Info.RecordPath.empty())
      return Error::inFile(Input, "is a directory without scored.jsonl or "
                                  "turns.jsonl (give a kevin rollout run "
                                  "directory or record files)");
  } else {
    Info.RecordPath = Input;
    stdfs::path Parent = Path.parent_path();
    if (stdfs::is_regular_file(
            (Parent.empty() ? stdfs::path(".") : Parent) / "run.json", EC))
      RunDir = Parent.empty() ? stdfs::current_path(EC) : Parent;
  }
  if (!RunDir.empty()) {
    // "." and ".." name nothing: take the directory's own name.
    stdfs::path Named = RunDir.filename() == "." || RunDir.filename() == ".."
                            ? stdfs::absolute(RunDir, EC).lexically_normal()
                            : RunDir;
    Info.Name = Named.filename().string();
    readRunJson(RunDir / "run.json", Info);
  }
  if (Info.Name.empty())
    Info.Name = Path.filename().string();
  return Info;
}

void describeRun(RunInfo &Info, const std::vector<KernelSample> &Samples) {
  std::map<std::string, std::set<int64_t>> Trajectories;
  std::set<std::string> Devices;
  int64_t Turns = 0;
  for (const KernelSample &K : Samples) {
    Trajectories[K.TaskId].insert(K.Trajectory);
    if (!K.Device.empty())
      Devices.insert(K.Device);
    Turns = std::max(Turns, K.Turn);
  }
  size_t MostTrajectories = 0;
  for (const auto &[Task, Set] : Trajectories)
    MostTrajectories = std::max(MostTrajectories, Set.size());
  auto AddIfUnset = [&](const std::string &Label, const std::string &Value) {
    if (!hasSetting(Info, Label))
      Info.Settings.emplace_back(Label, Value);
  };
  AddIfUnset("tasks", std::to_string(Trajectories.size()));
  AddIfUnset("m (trajectories per task)",
             "up to " + std::to_string(MostTrajectories));
  AddIfUnset("n (turns per trajectory)", "up to " + std::to_string(Turns));
  std::string DeviceList;
  for (const std::string &D : Devices)
    DeviceList += (DeviceList.empty() ? "" : ", ") + D;
  AddIfUnset("device", DeviceList.empty() ? "not recorded" : DeviceList);
  Info.Settings.emplace_back("records", std::to_string(Samples.size()));
  Info.Settings.emplace_back("report", "kevin " KEVIN_VERSION ", " +
                                           utcDate(std::time(nullptr)));
}

} // namespace kevin
