//===-- Comparison.cpp - judge a candidate's run against the reference ----===//
//
// Reads the candidate's output files of every trial, then runs the runtime
// checks in their fixed order (RuntimeCheck.h): the result's structure,
// devices and aliasing (RT-003/004), input mutation (RT-004), shapes and
// dtypes (RT-003), the degenerate task (RT-022), input sensitivity
// (RT-007), each trial's values with the precision budget and the repeated
// call (RT-006/023/005), kernel coverage (RT-009) and the ghost replay
// (RT-010). The first failure is the verdict; the later checks still fill
// their record fields.
//
//===----------------------------------------------------------------------===//
#include "Comparison.h"
#include "RuntimeCheck.h"
#include "kevin/Exec/Protocol.h"
#include "kevin/Exec/TensorFile.h"
#include "kevin/Exec/WorkerProcess.h"

#include <cmath>

namespace kevin {

bool RunEvidence::heavyTailed(unsigned T) const {
  return RefTrials[T].value("inputs_distribution", "task") == "heavy-tailed";
}

std::string RunEvidence::trialLabel(unsigned T) const {
  std::string Label = "trial " + std::to_string(T) + heldOutLabel(RefTrials[T]);
  return Label + (heavyTailed(T) ? " (heavy-tailed inputs)" : "");
}

TrialComparison
RunEvidence::compare(const std::vector<at::Tensor> &Reference,
                     const std::vector<at::Tensor> &Candidate) const {
  return compareTrial(Reference, Candidate, Options.Tolerances, Degenerate);
}

namespace {

std::string describeStructure(const Json &Outputs) {
  std::string Kind = Outputs.value("kind", "tensor");
  size_t Count = Outputs.contains("tensors") ? Outputs["tensors"].size() : 0;
  if (Kind == "tensor")
    return "a tensor";
  return "a " + Kind + " of " + std::to_string(Count) + " tensors";
}

/// Reads the candidate's outputs of each trial (and of its repeated call)
/// into E, checking on the way what the worker reported of them: their
/// structure (RT-003), devices and aliasing (RT-004), and whether the
/// inputs changed (RT-004). Stops at the first trial that fails.
void readCandidateOutputs(RunEvidence &E, FirstFailure &F) {
  const JudgeOptions &Options = E.Options;
  const Json &Got = E.Got;
  if (!Got.is_array() || Got.size() != Options.Trials)
    F.fail(Outcome::InvalidResult,
           "the worker reported " +
               std::to_string(Got.is_array() ? Got.size() : 0) +
               " trials, expected " + std::to_string(Options.Trials));
  for (unsigned T = 0; F.ok() && T < Options.Trials; ++T) {
    std::string Trial = E.trialLabel(T) + ": ";
    const Json &Want = E.RefTrials[T]["outputs"];
    const Json &Have = Got[T]["outputs"];
    if (Want["kind"] != Have["kind"] ||
        Want["tensors"].size() != Have["tensors"].size()) {
      F.fail(Outcome::TypeMismatch,
             Trial + "forward returned " + describeStructure(Have) +
                 ", expected " + describeStructure(Want));
      break;
    }
    checkOutputStorage(Trial, Want, Have, F);
    const std::vector<at::Tensor> &Ref = E.RefOutputs[T];
    Expected<std::vector<at::Tensor>> Outs = readTensorFile(
        protocol::trialFile(E.CandDir, T, "outputs"), outputReadLimit(Ref));
    const Json &Changed = Got[T]["inputs_changed"];
    if (!Outs || !Changed.is_boolean() || Outs->size() != Ref.size()) {
      F.fail(Outcome::InvalidResult,
             Trial + "missing or malformed output files" +
                 (Outs ? "" : " (" + Outs.error().message() + ")"));
      break;
    }
    checkInputsUnchanged(Trial, Changed.get<bool>(), F);
    E.CandOutputs.push_back(*Outs);
    E.RepeatOutputs.emplace_back();
    if (Got[T].value("repeat_differs", false)) {
      Expected<std::vector<at::Tensor>> Again = readTensorFile(
          protocol::trialFile(E.CandDir, T, "repeat"), outputReadLimit(Ref));
      if (!Again || Again->size() != Ref.size()) {
        F.fail(Outcome::InvalidResult,
               Trial + "missing or malformed repeat output file" +
                   (Again ? "" : " (" + Again.error().message() + ")"));
        break;
      }
      E.RepeatOutputs.back() = std::move(*Again);
    }
  }
}

/// Shapes and dtypes before the rest, so their messages are the ones given.
void checkShapesAndDtypes(const RunEvidence &E, FirstFailure &F) {
  for (unsigned T = 0; F.ok() && T < E.CandOutputs.size(); ++T)
    for (size_t I = 0; I < E.RefOutputs[T].size(); ++I) {
      const at::Tensor &R = E.RefOutputs[T][I], &Cd = E.CandOutputs[T][I];
      if (R.scalar_type() != Cd.scalar_type() ||
          !R.sizes().equals(Cd.sizes())) {
        TrialComparison TC =
            compareTrial({R}, {Cd}, E.Options.Tolerances, false);
        F.fail(TC.Result, E.trialLabel(T) + ": " + TC.Message);
      }
    }
}

/// Compares each trial's values (RT-006), with the precision budget
/// (RT-023) and the repeated call (RT-005); returns the run section's
/// `trials` and counts those that passed.
Json judgeTrials(const RunEvidence &E, FirstFailure &F, unsigned &Passed) {
  Json Trials = Json::array();
  for (unsigned T = 0; T < E.CandOutputs.size(); ++T) {
    Json Entry;
    Entry["trial"] = T;
    TrialComparison TC = E.compare(E.RefOutputs[T], E.CandOutputs[T]);
    // The precision contract (KEVIN-RT-023), on outputs that passed the
    // tolerance test, for the first call and the repeated one alike.
    applyPrecisionBudget(E, T, TC);
    const std::vector<at::Tensor> &Judged = judgeRepeatCall(E, T, TC);
    Entry["inputs"] = E.heavyTailed(T) ? "heavy-tailed" : "task";
    recordHeldOutBatch(E.RefTrials[T], Entry);
    recordPrecisionErrors(E, T, TC, Entry);
    Entry["ok"] = TC.Result == Outcome::Ok;
    Entry["max_abs_error"] =
        std::isfinite(TC.MaxAbsError) ? Json(TC.MaxAbsError) : Json("inf");
    Entry["max_rel_error"] =
        std::isfinite(TC.MaxRelError) ? Json(TC.MaxRelError) : Json("inf");
    Entry["seconds"] = E.Got[T].value("seconds", 0.0);
    Entry["repeat_differs"] = !E.RepeatOutputs[T].empty();
    Passed += TC.Result == Outcome::Ok;
    noteUnwrittenOutputs(E, Judged, TC);
    if (TC.Result != Outcome::Ok)
      F.fail(TC.Result, E.trialLabel(T) + ": " + TC.Message);
    Trials.push_back(Entry);
  }
  return Trials;
}

} // namespace

bool compareWithReference(
    const JudgeOptions &Options, const Json &Reference,
    const std::vector<std::vector<at::Tensor>> &RefOutputs, Json &Result,
    const std::string &CandDir, Json &Run) {
  // Looked up for writing: a result without `trials` gets a null one (an
  // invalid result below).
  const Json &Got = Result["trials"];
  const Json &RefTrials = Reference.at("trials");
  RunEvidence E(Options, RefTrials, RefOutputs, Result, Got, CandDir);
  FirstFailure F;
  readCandidateOutputs(E, F);
  checkShapesAndDtypes(E, F);
  E.Degenerate = checkDegenerateTask(E, F);
  checkInputSensitivity(E, F);
  unsigned Passed = 0;
  E.Poisoned = Result.value("fresh_memory_poisoned", false);
  Json Trials = judgeTrials(E, F, Passed);
  // KEVIN-RT-009, on a candidate correct so far; the candidate's kernel
  // launches the profile saw (RT-010 reads them).
  unsigned CandidateLaunches = 0;
  Json KernelsRecord = checkKernelCoverage(E, F, CandidateLaunches);
  // KEVIN-RT-010, on a candidate correct so far: the forward replayed
  // with the candidate's kernel launches skipped must not be right.
  Json GhostRecord = checkGhostReplay(E, F, CandidateLaunches);

  bool Correct = F.ok();
  Run["correct"] = Correct;
  Run["stage"] = "compare";
  Run["outcome"] = outcomeName(F.outcome());
  Run["message"] =
      Correct ? "correct on " + std::to_string(Options.Trials) + " trials"
              : truncated(F.message(), Options.MaxMessageBytes);
  Run["device"] = Options.Device;
  Run["trials"] = Trials;
  Run["trials_passed"] = Passed;
  Run["num_trials"] = Options.Trials;
  Run["degenerate_task"] = E.Degenerate;
  Tolerance Tol = Options.Tolerances.Default;
  Run["tolerance"] = {
      {"atol", Tol.Atol}, {"rtol", Tol.Rtol}, {"scale_aware", E.Degenerate}};
  Run["precision_budget"] = precisionBudgetJson(Options, Reference);
  Run["network_isolated"] = Result.value("network_isolated", false);
  Run["reference_hidden"] = Result.value("reference_hidden", false);
  Run["processes_isolated"] = Result.value("processes_isolated", false);
  Run["fresh_memory_poisoned"] = E.Poisoned;
  if (!KernelsRecord.is_null())
    Run["kernels"] = KernelsRecord;
  if (!GhostRecord.is_null())
    Run["ghost_replay"] = GhostRecord;
  return Correct;
}

} // namespace kevin
