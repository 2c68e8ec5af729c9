//===-- kevin/Exec/CandidateInput.h - where a candidate comes from -*- C++ -*-===//
//
// What kevin-run and kevin-bench share about their input: a candidate named
// on the command line or carried by a JSON Lines record (candidate_path or
// code, task_path, device), the file a worker is given for it, and the
// kevin-worker executable installed next to the tool.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_CANDIDATEINPUT_H
#define KEVIN_EXEC_CANDIDATEINPUT_H

#include "kevin/Exec/Judge.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <string>

namespace kevin {

/// Path made absolute against the working directory.
std::string absolutePath(const std::string &Path);

/// The executable Name in the directory of the running executable.
std::string siblingExecutable(const std::string &Name);

/// The file a worker runs: C.CandidatePath when readable, or C.Code written
/// to Dir/candidate.py.
Expected<std::string> candidateFile(const Candidate &C, const std::string &Dir);

/// A candidate read from a record: candidate_path, else code (named after
/// the record's id); task_path, else DefaultTask (an error when both are
/// missing and NeedTask); the record's device unless DeviceOverride is set
/// (default cpu).
struct RecordCandidate {
  Candidate What;
  std::string Device;
};
Expected<RecordCandidate> candidateFromRecord(const Record &R,
                                              const std::string &DefaultTask,
                                              bool NeedTask,
                                              const std::string &DeviceOverride);

/// A candidate file named on the command line (run against Task on Device,
/// default cpu), and the record that will carry its verdict.
struct FileCandidate {
  RecordCandidate From;
  Json Record;
};
FileCandidate candidateFromFile(const std::string &File,
                                const std::string &Task,
                                const std::string &Device);

} // namespace kevin

#endif // KEVIN_EXEC_CANDIDATEINPUT_H
