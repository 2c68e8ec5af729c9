//===-- kevin/Rollout/Search.h - spending a budget of kernels ---*- C++ -*-===//
//
// kevin search: for each task, generate and evaluate exactly B kernels, spent
// one of three ways:
//   parallel  B independent single-turn samples;
//   serial    B/n trajectories of n turns (kevin rollout's schedule);
//   beam      rounds: the first samples k*b kernels; each later round keeps
//             the top k kernels of the round before (by score, a correct
//             kernel first on a tie, then the earlier one) and extends each
//             with b refinements, until B kernels are spent.
// A refinement's prompt carries its ancestors' code, summaries and feedback,
// as a rollout turn's does. Every kernel is evaluated once and appended to
// RUN/search.jsonl; a rerun of the same command resumes from it. A kernel
// whose code repeats one of its task's earlier kernels verbatim takes that
// kernel's verdict (unless EvaluateDuplicates).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_SEARCH_H
#define KEVIN_ROLLOUT_SEARCH_H

#include "kevin/Rollout/Rollout.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kevin {

enum class SearchStrategy { Parallel, Serial, Beam };

struct SearchOptions {
  /// Tasks, run directory, device, model, sampling, concurrency and stages,
  /// as kevin rollout takes them. Run.Turns is serial's n; Run.Trajectories
  /// is not used.
  RolloutOptions Run;
  SearchStrategy Strategy = SearchStrategy::Beam;
  int Budget = 128;      ///< Kernels per task (B).
  int BeamWidth = 4;     ///< k
  int Branching = 8;     ///< b
  bool EvaluateDuplicates = false;
};

/// "parallel 128x1", "serial 32x4", "beam k=4 b=8": the allocation a search
/// spends its budget on, as curves and tables name it.
std::string searchLabel(const SearchOptions &O);

/// Checks that the budget can be spent as the strategy says (serial: B a
/// multiple of n).
Error validateSearch(const SearchOptions &O);

/// One evaluated kernel of a task's search, as the plan reads it.
struct SearchNode {
  int Round = 1;    ///< The kernel's turn: 1 for a first sample.
  int Slot = 0;     ///< Its index within the round.
  int Parent = -1;  ///< The slot of its parent in the round before; -1: none.
  double Score = 0; ///< kevin-reward's S, with the default options.
  bool Correct = false;
};

/// A kernel to generate in a round.
struct PlannedKernel {
  int Slot = 0;
  int Parent = -1;
};

/// The nodes in beam order: score descending, a correct kernel first on a
/// tie, then by slot.
std::vector<SearchNode> rankNodes(std::vector<SearchNode> Nodes);

/// The kernels of round Round, given the nodes of the round before (empty
/// for round 1) and the kernels the task may still spend; none when the
/// search of the task is over. Never more than BudgetLeft.
std::vector<PlannedKernel> planRound(const SearchOptions &O, int Round,
                                     const std::vector<SearchNode> &Previous,
                                     int BudgetLeft);

/// One task's progress, reported after each of its rounds.
struct SearchProgress {
  std::string TaskId;
  int Round = 0;
  int Spent = 0;  ///< Kernels of the task so far.
  int Correct = 0;
  double BestSpeedup = 0; ///< Of its correct kernels; 0 when none.
};

struct SearchSummary {
  int KernelsRun = 0;
  int KernelsResumed = 0;
  int KernelsReused = 0; ///< Took an identical earlier kernel's verdict.
  int KernelsCorrect = 0; ///< Over every kernel of the log.
  int Tasks = 0;
  int TasksSolved = 0;     ///< With a correct kernel.
  double MeanBestSpeedup = 0; ///< best@B averaged over tasks.
  std::vector<Error> Warnings;
};

/// Runs (or resumes) the search of every task. Writes RUN/search.json (what a
/// resume must match), RUN/search.jsonl and RUN/candidates/. OnRound, when
/// set, is called after each round of each task (from worker threads, one
/// call at a time).
Expected<SearchSummary>
runSearch(const SearchOptions &O, const PromptTemplates &Templates,
          Policy &ThePolicy, const StagePipeline &Pipeline,
          std::function<void(const SearchProgress &)> OnRound = nullptr);

} // namespace kevin

#endif // KEVIN_ROLLOUT_SEARCH_H
