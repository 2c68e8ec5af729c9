//===-- kevin/Serve/EvaluationService.h - requests to records ---*- C++ -*-===//
//
// What kevin serve does with a batch, apart from HTTP: each sample (a record
// with task_id and code, or a raw model response) is resolved against the
// tasks directory, goes through the warm engine on the stage scheduler, and
// comes back, in input order, as the record kevin eval writes plus
// `feedback` (the text kevin rollout puts in the next turn's prompt) and
// `outcome` (the first failing stage's). A sample kevin cannot evaluate
// (unknown task, no code, past the deadline, a failure of kevin's own) gets
// its record too, with reward 0: one bad sample never fails the batch.
//
//===----------------------------------------------------------------------===//

#ifndef KEVIN_SERVE_EVALUATIONSERVICE_H
#define KEVIN_SERVE_EVALUATIONSERVICE_H

#include "kevin/Rollout/Prompt.h"
#include "kevin/Rollout/Rollout.h"
#include "kevin/Rollout/StageProgress.h"
#include "kevin/Rollout/StageScheduler.h"
#include "kevin/Serve/WarmEngine.h"
#include "kevin/Support/Progress.h"

#include <atomic>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kevin {

/// The stages a request may ask for (`stages=`); the reward always follows.
struct StageSelection {
  bool Check = true;
  bool Run = true;
  bool Bench = true;
  /// "check,run,bench" or a subset; an Error names an unknown stage.
  static Expected<StageSelection> parse(const std::string &List);
};

struct ServiceOptions {
  std::string TasksDir;
  SchedulerOptions Scheduling;
  /// Samples queued or in flight at most; a batch that would pass it is
  /// refused (the server answers 503).
  size_t MaxPending = 4096;
  std::string PromptFile;
  /// Gets a line per finished sample and, while samples are in flight and
  /// none finishes, a heartbeat naming them (kevin/Support/Progress.h); null:
  /// none.
  std::ostream *ProgressLog = nullptr;
};

/// The batch could not be taken: the queue is full.
struct QueueFull {
  size_t Pending = 0;
};

class EvaluationService {
public:
  /// Loads the tasks and the prompt templates of each device kind.
  static Expected<std::unique_ptr<EvaluationService>>
  create(ServiceOptions Options, std::unique_ptr<WarmEngine> Engine);
  ~EvaluationService();

  /// Evaluates the samples; every one gets its record, in order. Waits at
  /// most DeadlineSeconds (0: no deadline); samples not done by then are
  /// timeouts. std::nullopt when the queue cannot take the batch.
  std::optional<std::vector<Json>> evaluate(std::vector<Json> Samples,
                                            const StageSelection &Stages,
                                            double DeadlineSeconds);

  /// /healthz's object.
  Json health() const;
  /// Stops taking batches and waits for those in flight.
  void drain();

private:
  EvaluationService(ServiceOptions Options, std::unique_ptr<WarmEngine> Engine);
  /// A sample made ready for the engine, or its finished record.
  Json intake(Json Sample, const StageSelection &Stages, bool &Ready) const;
  /// outcome, feedback and (for a sample the engine never saw) reward.
  Json finish(Json Record) const;
  /// The sample's line in the progress log, if there is one.
  void logFinished(const Json &Record) const;

  ServiceOptions Options;
  std::unique_ptr<WarmEngine> Engine;
  std::map<std::string, std::string> TaskPaths; ///< By task id.
  std::map<std::string, PromptTemplates> Templates; ///< "cpu", "cuda".
  std::unique_ptr<Progress> Activity; ///< With ProgressLog.
  std::unique_ptr<StageProgress> Tracked; ///< The engine, telling Activity.
  std::unique_ptr<StageScheduler> Scheduler;
  std::atomic<size_t> Evaluated{0};
  std::atomic<size_t> Requests{0};
};

/// The first failing stage's outcome of a finished record ("ok" when none).
std::string recordOutcome(const Json &Record);

} // namespace kevin

#endif // KEVIN_SERVE_EVALUATIONSERVICE_H
