//===-- PrecisionBudgetCheck.cpp - float64 error budget (KEVIN-RT-023) ----===//
//
// KEVIN-RT-023, the precision contract, on outputs that passed the
// tolerance test, for the first call and the repeated one alike: the
// reference worker runs a float64 twin of the reference on every trial and
// reports, per output, the float32 reference's own error against it and
// its norm; the candidate's error may be at most --precision-budget times
// that error, plus a floor of the norm (precisionExcess in Compare.h).
//
//===----------------------------------------------------------------------===//
#include "RuntimeCheck.h"

namespace kevin {

namespace {

/// The float64 twin's `error` and `norm` for output I of trial T, or null
/// when the reference reported none.
const Json *budgetOf(const RunEvidence &E, unsigned T, size_t I) {
  const Json &Trial = E.RefTrials[T];
  if (!Trial.contains("float64"))
    return nullptr;
  const Json &Float64 = Trial["float64"];
  if (I >= Float64.size() || !Float64[I].is_object() ||
      !Float64[I]["error"].is_number() || !Float64[I]["norm"].is_number())
    return nullptr;
  return &Float64[I];
}

} // namespace

void applyPrecisionBudget(const RunEvidence &E, unsigned T,
                          TrialComparison &C) {
  for (size_t I = 0; C.Result == Outcome::Ok && I < C.ErrorNorms.size(); ++I)
    if (const Json *B = budgetOf(E, T, I)) {
      std::string Excess =
          precisionExcess(C.ErrorNorms[I], (*B)["error"].get<double>(),
                          (*B)["norm"].get<double>(), E.Options.Precision);
      if (!Excess.empty()) {
        C.Result = Outcome::Mismatch;
        C.Message =
            (C.ErrorNorms.size() > 1 ? "output " + std::to_string(I) + ": "
                                     : std::string()) +
            Excess;
      }
    }
}

void recordPrecisionErrors(const RunEvidence &E, unsigned T,
                           const TrialComparison &C, Json &Entry) {
  if (const Json *B = budgetOf(E, T, 0))
    if ((*B)["norm"].get<double>() > 0 && !C.ErrorNorms.empty()) {
      double Norm = (*B)["norm"].get<double>();
      Entry["l2_error"] = C.ErrorNorms[0] / Norm;
      Entry["reference_float64_error"] = (*B)["error"].get<double>() / Norm;
    }
}

Json precisionBudgetJson(const JudgeOptions &Options, const Json &Reference) {
  return {
      {"factor", Options.Precision.Factor},
      {"floor", Options.Precision.Floor},
      {"float64_reference", Options.Precision.Factor > 0 &&
                                !Reference.contains("float64_unavailable")}};
}

} // namespace kevin
