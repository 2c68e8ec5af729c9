//===-- Score.cpp - the score of one kernel -------------------------------===//
//
// Reading the check/run/bench fields of a record and applying Kevin's score
// formula with its options.
//
//===----------------------------------------------------------------------===//
#include "kevin/Reward/Score.h"
#include "kevin/Support/RecordFields.h"

#include <algorithm>
#include <cmath>

namespace kevin {

static Error wrongKind(const Record &R, const char *Path, const char *Kind,
                       const Json &Field) {
  return Error::at(R.Origin, describeRecord(R) + ": field '" + Path +
                                 "' must be " + Kind + ", not " +
                                 Field.type_name());
}

/// A record whose kernel was never run, or not to the end, says why: a
/// failed build (`build.ok` false, e.g. from a build ahead) or a `run`
/// section without `correct` that still names its outcome.
static bool carriesFailure(const Record &R) {
  const Json *Outcome = findField(R.Value, field::RunOutcome);
  return fieldIsFalse(R.Value, field::BuildOk) ||
         (Outcome && Outcome->is_string());
}

Expected<KernelResult> readKernelResult(const Record &R) {
  KernelResult Result;
  if (const Json *Parsed = findField(R.Value, field::ParseOk)) {
    if (!Parsed->is_boolean())
      return wrongKind(R, field::ParseOk, "a boolean", *Parsed);
    Result.ParseFailed = !Parsed->get<bool>();
  }
  if (const Json *Ok = findField(R.Value, field::CheckOk)) {
    if (!Ok->is_boolean())
      return wrongKind(R, field::CheckOk, "a boolean", *Ok);
    Result.CheckFailed = !Ok->get<bool>();
  }
  if (const Json *Findings = findField(R.Value, field::CheckFindings)) {
    if (!Findings->is_array())
      return wrongKind(R, field::CheckFindings, "an array", *Findings);
    Result.FindingCount = Findings->size();
  }
  const Json *Correct = findField(R.Value, field::RunCorrect);
  if (Correct && !Correct->is_boolean())
    return wrongKind(R, field::RunCorrect, "a boolean", *Correct);
  Result.Correct = Correct && Correct->get<bool>();
  if (const Json *Speedup = findField(R.Value, field::BenchSpeedup)) {
    if (Speedup->is_number())
      Result.Speedup = Speedup->get<double>();
    else if (!Speedup->is_null())
      return wrongKind(R, field::BenchSpeedup, "a number or null", *Speedup);
  }
  if (const Json *Flags = findField(R.Value, field::BenchFlags)) {
    if (!Flags->is_array())
      return wrongKind(R, field::BenchFlags, "an array", *Flags);
    Result.ReviewFlagCount = Flags->size();
  }
  if (const Json *Ok = findField(R.Value, field::BenchOk)) {
    if (!Ok->is_boolean())
      return wrongKind(R, field::BenchOk, "a boolean", *Ok);
    const Json *Outcome = findField(R.Value, field::BenchOutcome);
    bool Skipped = Outcome && Outcome->is_string() &&
                   Outcome->get<std::string>() == "skipped";
    Result.BenchRejected = !Ok->get<bool>() && !Skipped;
  }
  if (!Correct && !Result.ParseFailed && !Result.CheckFailed &&
      !Result.BenchRejected && !carriesFailure(R))
    return Error::at(R.Origin, describeRecord(R) +
                                   ": missing required field '" +
                                   field::RunCorrect + "'");
  return Result;
}

KernelScore scoreKernel(const KernelResult &Result, const ScoreOptions &Opts) {
  KernelScore Out;
  if (Result.ParseFailed) {
    Out.Flags.push_back(score_flag::ParseFailed);
    return Out;
  }
  if (Result.CheckFailed) {
    Out.Flags.push_back(score_flag::CheckFailed);
    return Out;
  }
  if (Opts.ZeroOnFindings && Result.FindingCount) {
    Out.Flags.push_back(score_flag::CheckFindings);
    return Out;
  }
  if (!Result.Correct)
    return Out;
  if (Result.BenchRejected) {
    Out.Flags.push_back(score_flag::BenchRejected);
    return Out;
  }
  Out.Correct = true;
  Out.Score = Opts.CorrectWeight;
  if (!Result.Speedup) {
    Out.Flags.push_back(score_flag::NoSpeedup);
  } else if (!(std::isfinite(*Result.Speedup) && *Result.Speedup > 0)) {
    Out.Flags.push_back(score_flag::BadSpeedup);
  } else {
    Out.Speedup = *Result.Speedup;
    double Term = *Result.Speedup;
    if (Opts.SpeedupCap && Term > *Opts.SpeedupCap) {
      Term = *Opts.SpeedupCap;
      Out.Flags.push_back(score_flag::SpeedupCapped);
    }
    Out.Score += Opts.LogSpeedup ? std::log1p(Term) : Term;
  }
  if (Opts.FlagPenalty > 0 && Result.ReviewFlagCount) {
    Out.Flags.push_back(score_flag::ReviewFlags);
    Out.Score = std::max(
        0.0, Out.Score - Opts.FlagPenalty *
                             static_cast<double>(Result.ReviewFlagCount));
  }
  return Out;
}

} // namespace kevin
