//===-- kevin/Exec/Compare.h - trusted comparison of outputs ----*- C++ -*-===//
//
// The judge of correctness, in C++ on plain LibTorch tensors that the
// workers wrote to files: nothing here calls into candidate objects. It
// checks dtype, shape and device exactly, treats NaN/Inf where the reference
// is finite as a failure, and applies |c - r| <= atol + rtol * |r| per
// element with tolerances chosen per dtype (KernelBench: 1e-2 for both).
//
// On a degenerate task, where an all-zeros or a constant output would pass
// that test, the comparison is scale-aware instead: atol is multiplied by
// the reference's root mean square, so a constant no longer passes.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_EXEC_COMPARE_H
#define KEVIN_EXEC_COMPARE_H

#include "kevin/Exec/Outcome.h"
#include "kevin/Support/Error.h"

#include <ATen/Tensor.h>

#include <map>
#include <string>
#include <vector>

namespace kevin {

struct Tolerance {
  double Atol = 1e-2;
  double Rtol = 1e-2;
};

/// Tolerances by dtype name (`float32`, `float16`, ...), with a default.
struct ToleranceTable {
  Tolerance Default;
  std::map<std::string, Tolerance> PerDtype;
  Tolerance forDtype(const std::string &Dtype) const;
  /// Parses `dtype=atol,rtol` (e.g. `float16=1e-2,1e-2`).
  Error addSpec(const std::string &Spec);
};

/// kevin's name for a dtype: `float32`, `int64`, `bool`, ... (as torch prints
/// them without the `torch.` prefix).
std::string dtypeName(const at::Tensor &T);

/// How one trial compared.
struct TrialComparison {
  Outcome Result = Outcome::Ok;
  std::string Message;
  double MaxAbsError = 0;
  double MaxRelError = 0;
  /// Per output, the L2 norm of candidate - reference over the positions
  /// where both are finite (NaN for outputs not compared).
  std::vector<double> ErrorNorms;
};

/// KEVIN-RT-023, the precision contract: with the reference's float32
/// output r, its float64 twin r64 and the candidate's output c,
/// |c - r64| >= |c - r| - |r - r64| (L2 norms) must stay within
/// Factor * |r - r64| + Floor * |r64|. Factor 0 turns it off.
struct PrecisionBudget {
  double Factor = 100;
  double Floor = 1e-5;
};

/// The message for an output whose error exceeds Budget, or an empty string.
/// CandidateError is |c - r|, ReferenceError |r - r64|, Norm |r64|.
std::string precisionExcess(double CandidateError, double ReferenceError,
                            double Norm, const PrecisionBudget &Budget);

/// Compares candidate outputs against reference outputs of one trial, both
/// already checked for count. Devices are compared by the caller (the files
/// hold CPU copies).
TrialComparison compareTrial(const std::vector<at::Tensor> &Reference,
                             const std::vector<at::Tensor> &Candidate,
                             const ToleranceTable &Tolerances, bool ScaleAware);

/// True when an all-zeros or a per-output constant (the reference's mean)
/// output would pass the plain tolerance test on every given trial.
bool trivialOutputWouldPass(
    const std::vector<std::vector<at::Tensor>> &ReferenceTrials,
    const ToleranceTable &Tolerances);

/// Bitwise equality of two lists of tensors (NaN equals NaN); a pair not
/// both on the CPU is compared on the device that holds one of them.
bool sameBits(const std::vector<at::Tensor> &A,
              const std::vector<at::Tensor> &B);

} // namespace kevin

#endif // KEVIN_EXEC_COMPARE_H
