//===-- kevin/Reward/Reward.h - the kevin-reward pass -----------*- C++ -*-===//
//
// kevin-reward reads records, scores each kernel (Score.h) and, for the turns
// of multi-turn trajectories (`task_id`, `trajectory`, `turn`), computes the
// discounted per-turn returns (Returns.h) and trajectory aggregates. Each
// record is written back with a `reward` section and every other field as it
// came. Single-turn records stream through; once a multi-turn record is seen,
// the rest of the input is held until its end (a return needs the later
// turns) and written in input order.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_REWARD_REWARD_H
#define KEVIN_REWARD_REWARD_H

#include "kevin/Reward/Returns.h"
#include "kevin/Reward/Score.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <cstdint>
#include <istream>
#include <optional>
#include <string>

namespace kevin {

struct RewardOptions {
  ScoreOptions Score;
  ReturnMode Mode = ReturnMode::Sum;
  double Gamma = 0.4;
};

/// Checks the options a user can get wrong (gamma < 0, a cap <= 0, ...).
Error validateRewardOptions(const RewardOptions &Opts);

/// Where a multi-turn record sits: its task, trajectory (0-based) and turn
/// (1-based).
struct TurnKey {
  std::string TaskId;
  int64_t Trajectory = 0;
  int64_t Turn = 0;
};

/// Reads the multi-turn keys of a record: std::nullopt when it has neither
/// `trajectory` (alias `trajectory_id`) nor `turn`; an error when it has one
/// of them without the others or a key has the wrong kind or range.
Expected<std::optional<TurnKey>> readTurnKey(const Record &R);

/// Rounds V to 15 significant digits, so that printed values read like the
/// arithmetic done by hand (1.42, not 1.4200000000000002). The change is far
/// below any precision a trainer uses.
double roundForOutput(double V);

/// Reads records from In (named SourceName in messages) and writes each with
/// its `reward` section to Out. A line that is not a record becomes a record
/// of its own (`input_line`, a `run` section with outcome input-error) that
/// scores 0, except a final line without a newline, a write cut short, which
/// is dropped with a warning added to Warnings (when given). Stops at the
/// first bad record or trajectory (a missing turn, a duplicate turn) with an
/// error naming its line; records written before stay written, held ones are
/// not written.
Error rewardRecords(std::istream &In, const std::string &SourceName,
                    LineWriter &Out, const RewardOptions &Opts,
                    std::vector<Error> *Warnings = nullptr);

} // namespace kevin

#endif // KEVIN_REWARD_REWARD_H
