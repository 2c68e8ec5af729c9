//===-- kevin/Exec/Protocol.h - files between run and worker ----*- C++ -*-===//
//
// Workers and kevin-run talk through files in a private directory, never
// through the workers' stdout (which candidate code can write to):
//
//   reference dir   reference.json   init args, per-trial input layout,
//                                    distribution, output metadata, float64
//                                    errors and norms, timings (deleted once
//                                    kevin-run has read it)
//                   trial<N>.inputs  the inputs of trial N (pristine)
//                   trial<N>.reference  the reference outputs of trial N
//   candidate dir   inputs-<hex>/trial<N>.inputs  hard links of the
//                                    reference's inputs, in a directory made
//                                    after the candidate's import (which
//                                    runs beside the reference)
//                   progress         one line per stage reached
//                   result.json      the worker's report, attested by the
//                                    nonce kevin-run sent on stdin
//                   trial<N>.outputs the candidate's outputs (CPU copies;
//                                    whether the call changed its inputs is
//                                    a field of the trial in result.json)
//                   trial<N>.repeat  the outputs of forward called again on
//                                    trial N's inputs, when their bits
//                                    differ from trial<N>.outputs
//
// kevin-bench's workers (bench-reference, bench-candidate) use the same
// layout with input *sets* instead of trials:
//
//   reference dir   bench-reference.json  init args, set layouts, audit
//                                         output metadata, timings
//                   set<N>.inputs         input set N (the first `pool`
//                                         sets rotate through the timed
//                                         calls; the rest are audit sets)
//                   audit<K>.reference    reference outputs of audit set K
//   candidate dir   task.json, set<N>.inputs (links), progress, result.json
//                   audit<K>.outputs      audit K's outputs, copied on the
//                                         timing stream as forward returned
//
// Tensor files are lists of CPU tensors (see TensorFile.h); secrets
// (trial seeds, the nonce) travel on stdin, never in argv or the environment.
// Workers start before all of their input exists: a candidate worker gets
// its nonce line at once and the task (init args, input layouts, the inputs
// directory) after it, when the reference is done; a bench-candidate worker
// gets its plan once the reference is timed, and a bench-reference worker's
// stdin closes when its timing may start.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_PROTOCOL_H
#define KEVIN_EXEC_PROTOCOL_H

#include <string>

namespace kevin {
namespace protocol {

inline std::string trialFile(const std::string &Dir, unsigned Trial,
                             const char *Kind) {
  return Dir + "/trial" + std::to_string(Trial) + "." + Kind;
}
inline std::string setFile(const std::string &Dir, unsigned Set,
                           const char *Kind) {
  return Dir + "/set" + std::to_string(Set) + "." + Kind;
}
inline std::string auditFile(const std::string &Dir, unsigned Audit,
                             const char *Kind) {
  return Dir + "/audit" + std::to_string(Audit) + "." + Kind;
}
constexpr const char *BenchReferenceJson = "bench-reference.json";
constexpr const char *ReferenceJson = "reference.json";
constexpr const char *TaskJson = "task.json";
constexpr const char *ResultJson = "result.json";
constexpr const char *Progress = "progress";
/// The bench-reference worker's progress line once its inputs and audit
/// outputs are made and only the timing loops remain.
constexpr const char *TimingReady = "timing ready";
/// The bench-candidate worker's progress line once its trusted set-up on
/// the device (the CUDA context, the timer, the input sets) is done, with
/// the device held shared: only the candidate's import and its timing
/// remain, which need the device alone.
constexpr const char *CandidatePrepared = "prepared";
/// The candidate worker's progress line when it could not hide the
/// reference's directory and waits for its task before importing the
/// candidate.
constexpr const char *ImportAfterTask = "import after task";
/// The seed Model and ModelNew are built under (KernelBench's).
constexpr unsigned long long InitSeed = 42;

} // namespace protocol
} // namespace kevin

#endif // KEVIN_EXEC_PROTOCOL_H
