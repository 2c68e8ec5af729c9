//===-- kevin/GRPO/GRPO.h - the kevin-grpo pass over records ----*- C++ -*-===//
//
// kevin-grpo reads records that carry a `reward` section, groups them (by
// task, as Kevin normalises over the m*n turn samples of a task, or by task
// and turn), computes each sample's advantage (Advantage.h) and writes either
// the records with a `grpo` section or one training row per record: the
// shape an RL engine consumes (docs/Integration.md). A group needs all its
// samples, so the whole input is read before anything is written.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_GRPO_GRPO_H
#define KEVIN_GRPO_GRPO_H

#include "kevin/GRPO/Advantage.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <cstddef>
#include <istream>
#include <string>

namespace kevin {

enum class GroupBy {
  Task,    ///< one group per task_id
  TaskTurn ///< one group per (task_id, turn)
};

enum class EmitKind {
  Records, ///< the input records with a `grpo` section
  Rows     ///< training rows
};

struct GrpoOptions {
  AdvantageOptions Advantage;
  GroupBy By = GroupBy::Task;
  EmitKind Emit = EmitKind::Records;
};

const char *groupByName(GroupBy By);

/// What a pass saw, for the tool's closing notes.
struct GrpoSummary {
  size_t Records = 0;
  size_t Groups = 0;
  size_t ZeroVarianceGroups = 0;
  size_t SingleSampleGroups = 0;
};

/// Reads every record of In (named SourceName in messages), then writes the
/// records or rows to Out in input order. A bad record is an error naming its
/// line, and nothing is written.
Error grpoRecords(std::istream &In, const std::string &SourceName,
                  LineWriter &Out, const GrpoOptions &Opts,
                  GrpoSummary &Summary);

/// The advantage of one record and the statistics of its group.
struct SampleAdvantage {
  std::string Group;
  double Advantage = 0.0;
  double Baseline = 0.0;
  GroupStats Stats;
};

/// Checks that a record has what a training row needs (`prompt`, an array of
/// messages, and `response`, a string).
Error checkRowFields(const Record &R);

/// The training row of a record that kevin-reward scored.
Json trainingRow(const Json &Record, const SampleAdvantage &Sample,
                 const GrpoOptions &Opts);

} // namespace kevin

#endif // KEVIN_GRPO_GRPO_H
