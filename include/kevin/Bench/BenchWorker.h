//===-- kevin/Bench/BenchWorker.h - kevin-worker's timing modes -*- C++ -*-===//
//
// kevin-worker's two timing modes, each its own process started by
// kevin-bench (lib/Bench/Benchmark.cpp):
//
//  bench-reference  trusted: draws the input sets from secret seeds, writes
//             them and the audit sets' reference outputs, and times Model.
//  bench-candidate  untrusted: times ModelNew by the identical method on the
//             same input sets, with audit calls on unseen sets at secret
//             positions among the timed calls.
//
// Timing runs in native code: events on a fresh non-default current stream
// plus a device-wide synchronize (CUDA), or the wall clock (CPU); an L2
// flush before every call; a thread census after every call.
//
// Files in the work directory are the whole protocol (kevin/Exec/Protocol.h).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_BENCH_BENCHWORKER_H
#define KEVIN_BENCH_BENCHWORKER_H

#include "kevin/Exec/Worker.h"

namespace kevin {

/// Each returns the process exit status, as the modes of kevin/Exec/Worker.h
/// do: 0 when the result file was written (whatever the verdict), 2 when the
/// worker itself failed; the caller ends the process with endWorkerProcess.
int runBenchReferenceWorker(const WorkerOptions &Options);
int runBenchCandidateWorker(const WorkerOptions &Options);

} // namespace kevin

#endif // KEVIN_BENCH_BENCHWORKER_H
