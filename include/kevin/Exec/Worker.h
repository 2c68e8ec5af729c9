//===-- kevin/Exec/Worker.h - the isolated worker processes -----*- C++ -*-===//
//
// kevin-worker embeds CPython and LibTorch and runs in one of two modes, each
// its own process started by kevin-run (lib/Exec/Judge.cpp):
//
//  reference  trusted: imports the task, builds Model under the fixed init
//             seed, draws inputs from the secret per-trial seeds it reads on
//             stdin, computes the reference outputs, writes them to files.
//             It never sees candidate code.
//  candidate  untrusted: cuts itself off the network, replaces
//             torch.utils.cpp_extension.load_inline/load by kevin's builder,
//             imports the candidate, builds ModelNew under the same init seed,
//             calls it on fresh clones of the inputs, and writes its outputs
//             and the inputs as they were after each call. It never sees the
//             task or the reference outputs. --build-only stops after import.
//
// The modes are lib/Exec/ReferenceWorker.cpp and CandidateWorker.cpp; the
// namespaces a candidate's worker enters are Sandbox.cpp's (Sandbox.h).
//
// Its two timing modes for kevin-bench, bench-reference and bench-candidate,
// are lib/Bench's (runBenchReferenceWorker, runBenchCandidateWorker); they
// take these options too.
//
// Files in the work directory are the whole protocol (lib/Exec/Protocol.h).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_WORKER_H
#define KEVIN_EXEC_WORKER_H

#include "kevin/Build/Builder.h"

#include <string>
#include <vector>

namespace kevin {

struct WorkerOptions {
  std::string Task;      ///< Reference mode: the task file.
  std::string Candidate; ///< Candidate mode: the candidate file.
  /// How the candidate is named in messages (defaults to its path).
  std::string DisplayName;
  std::string Dir;
  std::string Device = "cpu";
  unsigned Trials = 5;
  bool BuildOnly = false;
  BuildOptions Build;
  /// nvcc target (`sm_90a`); empty picks it from the device.
  std::string CudaArch;
  bool IsolateNetwork = true;
  /// False: no namespace of its own at all (see isolateWorker).
  bool UseNamespaces = true;
  /// Candidate mode: directories the candidate must not see (the temporary
  /// directory that holds the reference's and other evaluations'), covered
  /// in its own mount namespace, and the paths below them it keeps (its own
  /// directory, the candidate file, the build cache).
  std::vector<std::string> HiddenDirs;
  std::vector<std::string> KeptPaths;
  /// Directories covered the same way where the OS permits (shared ones:
  /// /tmp, /dev/shm, /run); without them the hidden ones still count.
  std::vector<std::string> PrivateDirs;
  /// Address-space limit for the candidate's run phase, MiB; 0 for none.
  size_t MemoryLimitMiB = 0;
  /// Candidate mode on CUDA: after the trials, one more forward under
  /// torch's profiler; its GPU work goes to the result (KEVIN-RT-009).
  bool ProfileKernels = false;
  /// Bench reference mode: "eager", or "compile" (torch.compile).
  std::string Baseline = "eager";
};

/// Each returns the process exit status: 0 when the result file was
/// written (whatever the verdict), 2 when the worker itself failed. The
/// embedded interpreter is left running: the caller should end the process
/// with _Exit, so no exit handler of the candidate (or of a CUDA context it
/// broke) runs after the result is written.
int runReferenceWorker(const WorkerOptions &Options);
int runCandidateWorker(const WorkerOptions &Options);

/// Trusted set-up, no candidate: makes the objects the CUDA builds of this
/// worker's toolchain share (prepareSharedBuildObjects) in
/// Options.Build.CacheDir. 0 when they are made (or none is needed), 1 when
/// one cannot be.
int runPrepareBuildCacheWorker(const WorkerOptions &Options);

/// Ends the worker process with Code, running no exit handler or destructor
/// (the candidate's, Python's, the CUDA runtime's). In a PID namespace of
/// its own, it first kills every other process the candidate left there:
/// one that waits for the worker to end must not see it end.
[[noreturn]] void endWorkerProcess(int Code);

} // namespace kevin

#endif // KEVIN_EXEC_WORKER_H
