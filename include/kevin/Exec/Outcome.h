//===-- kevin/Exec/Outcome.h - typed outcomes of a candidate ----*- C++ -*-===//
//
// kevin-run's verdict on a candidate is one stage (how far it got) and one
// outcome (what happened there), both from closed sets, so consumers such as
// kevin-reward and the rollout feedback can switch on them. The names are the
// strings written in the `build` and `run` record sections.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_OUTCOME_H
#define KEVIN_EXEC_OUTCOME_H

#include <optional>
#include <string>

namespace kevin {

/// How far a candidate got.
enum class Stage { Format, Build, Load, Run, Compare };

enum class Outcome {
  Ok,
  FormatError,   ///< Not Python, or no ModelNew class.
  BuildError,    ///< The compiler or linker rejected the sources.
  LoadError,     ///< Importing the module or constructing ModelNew failed.
  RuntimeError,  ///< forward raised.
  CudaError,     ///< A CUDA error (illegal address, launch failure).
  Crash,         ///< Killed by a signal or exited non-zero before reporting.
  EarlyExit,     ///< Exited with status 0 before reporting.
  Timeout,       ///< Ran past its wall-clock limit.
  Oom,           ///< Out of host or device memory.
  InvalidResult, ///< The result file is missing fields or not attested.
  TypeMismatch,  ///< Not a plain torch.Tensor, or another container.
  ShapeMismatch,
  DtypeMismatch,
  DeviceMismatch,
  Nan,                ///< NaN/Inf where the reference is finite.
  Mismatch,           ///< Values outside the tolerance.
  InputMutated,       ///< An input changed during the call.
  OutputAliasesInput, ///< An output shares storage with an input or parameter.
  NotInputSensitive,  ///< Same output for different inputs (caching, constant).
  NoCandidateKernel,  ///< No kernel of the candidate's ran (KEVIN-RT-009).
  LowKernelCoverage,  ///< Others' kernels did too much of the work (RT-009).
  KernelsUnused,      ///< Right without the candidate's kernels (RT-010).
  DegenerateTask,     ///< The reference ignores its inputs: nothing to judge.
  ReferenceError,     ///< The task itself failed (a tool error).
};

const char *stageName(Stage S);
const char *outcomeName(Outcome O);
std::optional<Outcome> parseOutcome(const std::string &Name);
std::optional<Stage> parseStage(const std::string &Name);

} // namespace kevin

#endif // KEVIN_EXEC_OUTCOME_H
