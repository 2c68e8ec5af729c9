//===-- Outcome.cpp - typed outcomes of building and running --------------===//
#include "kevin/Exec/Outcome.h"

namespace kevin {

namespace {
struct OutcomeEntry {
  Outcome Value;
  const char *Name;
};
constexpr OutcomeEntry Outcomes[] = {
    {Outcome::Ok, "ok"},
    {Outcome::FormatError, "format-error"},
    {Outcome::BuildError, "build-error"},
    {Outcome::LoadError, "load-error"},
    {Outcome::RuntimeError, "runtime-error"},
    {Outcome::CudaError, "cuda-error"},
    {Outcome::Crash, "crash"},
    {Outcome::EarlyExit, "early-exit"},
    {Outcome::Timeout, "timeout"},
    {Outcome::Oom, "oom"},
    {Outcome::InvalidResult, "invalid-result"},
    {Outcome::TypeMismatch, "type-mismatch"},
    {Outcome::ShapeMismatch, "shape-mismatch"},
    {Outcome::DtypeMismatch, "dtype-mismatch"},
    {Outcome::DeviceMismatch, "device-mismatch"},
    {Outcome::Nan, "nan"},
    {Outcome::Mismatch, "mismatch"},
    {Outcome::InputMutated, "input-mutated"},
    {Outcome::OutputAliasesInput, "output-aliases-input"},
    {Outcome::NotInputSensitive, "not-input-sensitive"},
    {Outcome::NoCandidateKernel, "no-candidate-kernel"},
    {Outcome::LowKernelCoverage, "low-kernel-coverage"},
    {Outcome::KernelsUnused, "kernels-unused"},
    {Outcome::DegenerateTask, "degenerate-task"},
    {Outcome::ReferenceError, "reference-error"},
};
constexpr const char *Stages[] = {"format", "build", "load", "run", "compare"};
} // namespace

const char *stageName(Stage S) { return Stages[static_cast<int>(S)]; }

const char *outcomeName(Outcome O) {
  for (const OutcomeEntry &E : Outcomes)
    if (E.Value == O)
      return E.Name;
  return "unknown";
}

std::optional<Outcome> parseOutcome(const std::string &Name) {
  for (const OutcomeEntry &E : Outcomes)
    if (Name == E.Name)
      return E.Value;
  return std::nullopt;
}

std::optional<Stage> parseStage(const std::string &Name) {
  for (int I = 0; I < 5; ++I)
    if (Name == Stages[I])
      return static_cast<Stage>(I);
  return std::nullopt;
}

} // namespace kevin
