//===-- KernelCoverageCheck.cpp - whose kernels ran (KEVIN-RT-009) --------===//
//
// KEVIN-RT-009 on CUDA: one checked forward, at a secret trial, runs under
// torch's profiler in the candidate's worker. The kernels it recorded are
// sorted by KernelCoverage.h; the candidate's own must have run
// (`no-candidate-kernel`) and done at least --kernel-coverage of the GPU
// time, torch's fills and copies aside (`low-kernel-coverage`). The run
// section's `kernels` tells the details.
//
//===----------------------------------------------------------------------===//
#include "RuntimeCheck.h"
#include "TrialPlan.h"
#include "kevin/Exec/KernelCoverage.h"

#include <cmath>
#include <optional>
#include <set>
#include <utility>

namespace kevin {

namespace {

/// A kernel's name as messages show it (ATen's run to kilobytes).
std::string shortKernelName(const std::string &Name) {
  return Name.size() <= 120 ? Name : Name.substr(0, 117) + "...";
}

/// The record's `kernels` section: GPU time by kind, the kernels with the
/// most time first.
Json kernelCoverageJson(const KernelCoverage &KC, double Required) {
  Json Kernels = Json::array();
  for (size_t I = 0; I < KC.Kernels.size() && I < 8; ++I)
    Kernels.push_back({{"name", shortKernelName(KC.Kernels[I].first)},
                       {"kind", kernelKindName(KC.Kernels[I].second.first)},
                       {"us", KC.Kernels[I].second.second}});
  return {{"available", true},
          {"required", Required},
          {"coverage", KC.coverage()},
          {"candidate_launches", KC.CandidateLaunches},
          {"candidate_us", KC.CandidateMicros},
          {"glue_us", KC.GlueMicros},
          {"other_us", KC.OtherMicros},
          {"kernels", Kernels}};
}

/// Why a profiled forward fails KEVIN-RT-009, or nothing.
std::optional<std::pair<Outcome, std::string>>
kernelCoverageFailure(const KernelCoverage &KC, double Required) {
  auto percent = [](double Share) {
    return std::to_string(static_cast<int>(std::lround(Share * 100))) + "%";
  };
  // The kernel with the most time of those not the candidate's (of the
  // others' alone when the share is what failed: glue counts for neither).
  bool OthersOnly = KC.CandidateLaunches > 0;
  std::string Top;
  for (const auto &[Name, KindMicros] : KC.Kernels)
    if (OthersOnly ? KindMicros.first == KernelKind::Other
                   : KindMicros.first != KernelKind::Candidate) {
      double All = KC.CandidateMicros + KC.GlueMicros + KC.OtherMicros;
      Top = shortKernelName(Name) + " (" + kernelKindName(KindMicros.first) +
            ", " + percent(All > 0 ? KindMicros.second / All : 0) +
            " of the GPU time)";
      break;
    }
  if (KC.CandidateLaunches == 0)
    return std::make_pair(
        Outcome::NoCandidateKernel,
        "the profiled forward ran none of the candidate's own kernels (the "
        "__global__ functions in its source)" +
            (Top.empty() ? std::string()
                         : "; the most GPU time went to " + Top) +
            " [KEVIN-RT-009]");
  if (KC.coverage() < Required)
    return std::make_pair(
        Outcome::LowKernelCoverage,
        "the candidate's kernels did " + percent(KC.coverage()) +
            " of the profiled forward's GPU time, torch's fills and copies "
            "aside (at least " +
            percent(Required) + " is required); the most went to " + Top +
            " [KEVIN-RT-009]");
  return std::nullopt;
}

} // namespace

Json checkKernelCoverage(const RunEvidence &E, FirstFailure &F,
                         unsigned &CandidateLaunches) {
  if (!profilesKernels(E.Options))
    return Json();
  const Json &Result = E.Result;
  if (!Result.contains("kernels") || Result["kernels"].empty())
    return {{"available", false},
            {"why", Result.value("kernels_unavailable",
                                 Result.contains("kernels")
                                     ? "the profiler recorded no GPU work"
                                     : "the worker reported no profile")}};
  std::vector<std::pair<std::string, double>> Events;
  for (const Json &K : Result["kernels"])
    Events.emplace_back(K.at(0).get<std::string>(), K.at(1).get<double>());
  // The __global__ functions of the sources the candidate's extensions were
  // built from (`load`'s .cu files included).
  auto namesIn = [&](const char *Key) {
    std::set<std::string> Names;
    for (const Json &Name : Result.value(Key, Json::array()))
      if (Name.is_string())
        Names.insert(Name.get<std::string>());
    return Names;
  };
  KernelCoverage KC = measureKernelCoverage(Events, namesIn("kernel_names"),
                                            namesIn("kernel_namespaces"));
  Json Record = kernelCoverageJson(KC, E.Options.KernelCoverage);
  CandidateLaunches = KC.CandidateLaunches;
  if (auto Failure = kernelCoverageFailure(KC, E.Options.KernelCoverage))
    F.fail(Failure->first, Failure->second);
  return Record;
}

} // namespace kevin
