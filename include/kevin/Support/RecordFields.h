//===-- kevin/Support/RecordFields.h - names of record fields ---*- C++ -*-===//
//
// The dotted paths (findField, FieldPaths) of the record fields that code
// reads or requires by name, spelled once: a typo in one is a compile error
// instead of a field silently never found. docs/RecordFormat.md describes
// each section. The scanner that reads a few fields of a record line quickly
// is parseRecordFields in kevin/Support/Record.h.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_RECORDFIELDS_H
#define KEVIN_SUPPORT_RECORDFIELDS_H

namespace kevin {
namespace field {

// parse: a policy's response turned into a candidate (kevin rollout).
inline constexpr const char *ParseOk = "parse.ok";
inline constexpr const char *ParseProblem = "parse.problem";

// check: kevin-check.
inline constexpr const char *CheckOk = "check.ok";
inline constexpr const char *CheckFindings = "check.findings";

// build: kevin-run (or --build-only).
inline constexpr const char *BuildOk = "build.ok";
inline constexpr const char *BuildOutcome = "build.outcome";

// run: kevin-run.
inline constexpr const char *RunCorrect = "run.correct";
inline constexpr const char *RunStage = "run.stage";
inline constexpr const char *RunOutcome = "run.outcome";
inline constexpr const char *RunMessage = "run.message";

// bench: kevin-bench.
inline constexpr const char *BenchOk = "bench.ok";
inline constexpr const char *BenchOutcome = "bench.outcome";
inline constexpr const char *BenchSpeedup = "bench.speedup";
inline constexpr const char *BenchFlags = "bench.flags";

// reward: kevin-reward.
inline constexpr const char *RewardScore = "reward.score";
inline constexpr const char *RewardReturn = "reward.return";
inline constexpr const char *RewardCorrect = "reward.correct";
inline constexpr const char *RewardSpeedup = "reward.speedup";
inline constexpr const char *RewardFlags = "reward.flags";
inline constexpr const char *RewardGamma = "reward.gamma";
inline constexpr const char *RewardAggregation = "reward.aggregation";
inline constexpr const char *RewardTrajectoryTurns = "reward.trajectory.turns";

// usage: the policy's token counts (kevin rollout).
inline constexpr const char *UsageCompletionTokens = "usage.completion_tokens";

} // namespace field
} // namespace kevin

#endif // KEVIN_SUPPORT_RECORDFIELDS_H
