//===-- CandidateInput.cpp - where a candidate comes from -----------------===//
//
// Shared input handling of kevin-run and kevin-bench (CandidateInput.h).
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/CandidateInput.h"
#include "kevin/Support/FileSystem.h"

#include <climits>
#include <fstream>
#include <unistd.h>

namespace kevin {

std::string absolutePath(const std::string &Path) {
  if (Path.empty() || Path[0] == '/')
    return Path;
  char Cwd[PATH_MAX];
  if (!::getcwd(Cwd, sizeof(Cwd)))
    return Path;
  return std::string(Cwd) + "/" + Path;
}

std::string siblingExecutable(const std::string &Name) {
  std::string Dir = fs::selfExecutableDirectory();
  return Dir.empty() ? Name : Dir + "/" + Name;
}

Expected<std::string> candidateFile(const Candidate &C,
                                    const std::string &Dir) {
  if (!C.CandidatePath.empty()) {
    if (::access(C.CandidatePath.c_str(), R_OK) != 0)
      return Error::inFile(C.CandidatePath, "cannot read the candidate");
    return C.CandidatePath;
  }
  std::string Path = Dir + "/candidate.py";
  std::ofstream Out(Path, std::ios::binary);
  Out << C.Code;
  if (!Out)
    return Error::inFile(Path, "cannot write the candidate");
  return Path;
}

Expected<RecordCandidate>
candidateFromRecord(const Record &R, const std::string &DefaultTask,
                    bool NeedTask, const std::string &DeviceOverride) {
  RecordCandidate Out;
  const Json *Path = findField(R.Value, "candidate_path");
  const Json *Code = findField(R.Value, "code");
  const Json *TaskPath = findField(R.Value, "task_path");
  if (Path && Path->is_string()) {
    Out.What.CandidatePath = absolutePath(Path->get<std::string>());
    Out.What.DisplayName = Path->get<std::string>();
  } else if (Code && Code->is_string()) {
    Out.What.Code = Code->get<std::string>();
    const Json *Id = findField(R.Value, "id");
    Out.What.DisplayName =
        (Id && Id->is_string() ? Id->get<std::string>()
                               : "line-" + std::to_string(R.Origin.Line)) +
        ".py";
  } else {
    return Error::at(R.Origin,
                     describeRecord(R) +
                         ": missing required field 'candidate_path' or 'code'");
  }
  if (TaskPath && TaskPath->is_string())
    Out.What.TaskPath = absolutePath(TaskPath->get<std::string>());
  else if (!DefaultTask.empty())
    Out.What.TaskPath = absolutePath(DefaultTask);
  else if (NeedTask)
    return Error::at(R.Origin, describeRecord(R) +
                                   ": missing required field 'task_path'");
  const Json *Device = findField(R.Value, "device");
  Out.Device = !DeviceOverride.empty()          ? DeviceOverride
               : Device && Device->is_string() ? Device->get<std::string>()
                                               : "cpu";
  return Out;
}

FileCandidate candidateFromFile(const std::string &File,
                                const std::string &Task,
                                const std::string &Device) {
  FileCandidate Out;
  Out.From.What.TaskPath = absolutePath(Task);
  Out.From.What.CandidatePath = absolutePath(File);
  Out.From.What.DisplayName = File;
  Out.From.Device = Device.empty() ? "cpu" : Device;
  Out.Record[SchemaVersionKey] = RecordSchemaVersion;
  Out.Record["id"] = File;
  if (!Task.empty())
    Out.Record["task_path"] = Task;
  Out.Record["candidate_path"] = File;
  Out.Record["device"] = Out.From.Device;
  return Out;
}

} // namespace kevin
