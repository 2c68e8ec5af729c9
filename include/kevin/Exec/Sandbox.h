//===-- kevin/Exec/Sandbox.h - a worker's namespaces ------------*- C++ -*-===//
//
// Where a candidate's worker goes before any candidate code runs: namespaces
// of its own (user, network, PID, mount), with the directories it must not
// see covered. The timing worker (lib/Bench) isolates itself the same way;
// kevin/Exec/WorkerSupport.h includes this header.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_SANDBOX_H
#define KEVIN_EXEC_SANDBOX_H

#include <string>
#include <vector>

namespace kevin {
struct WorkerOptions;
namespace worker {

/// What isolateWorker achieved.
struct WorkerIsolation {
  bool Network = false;   ///< in a network namespace of its own
  bool Hidden = false;    ///< the hidden directories are covered, for good
  bool Processes = false; ///< in a PID namespace of its own, with its /proc
};
/// Moves a candidate's worker, before any candidate code, into namespaces of
/// its own: a user namespace (no privilege outside it), a network namespace
/// when Network, a PID namespace (the calling process then only waits, and
/// ends as the worker ends) and a mount namespace in which each of Hidden
/// (all or none) and each of Private (each where it can be) is covered by a
/// private empty file system, with each of Kept that lay below one put back.
/// Does what the OS permits. Call it before any thread starts.
WorkerIsolation isolateWorker(bool Network,
                              const std::vector<std::string> &Hidden,
                              const std::vector<std::string> &Private = {},
                              const std::vector<std::string> &Kept = {});

/// isolateWorker with a candidate worker's options (its hidden, private and
/// kept paths); no isolation at all without namespaces (UseNamespaces).
WorkerIsolation isolateCandidateWorker(const WorkerOptions &Options);

} // namespace worker
} // namespace kevin

#endif // KEVIN_EXEC_SANDBOX_H
