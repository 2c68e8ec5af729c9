//===-- kevin/Rollout/Turn.h - one turn, shared by rollout and search -*- C++ -*-===//
//
// The steps of one policy turn that kevin rollout and kevin search take the
// same way: the sampling request, the turn's record, the evaluation of its
// code through the stage tools (or a kevin serve), the run description a
// resume must match, and the durable log read back with a torn last line cut
// off. A counting semaphore bounds requests and evaluations in flight.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_ROLLOUT_TURN_H
#define KEVIN_ROLLOUT_TURN_H

#include "kevin/Rollout/Rollout.h"
#include "kevin/Task/ModelResponse.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

namespace kevin {

/// A counting semaphore (C++17 has none).
class Slots {
public:
  explicit Slots(int N) : Free(N < 1 ? 1 : N) {}
  void acquire();
  void release();

private:
  std::mutex M;
  std::condition_variable CV;
  int Free;
};

struct SlotGuard {
  explicit SlotGuard(Slots &S) : S(S) { S.acquire(); }
  ~SlotGuard() { S.release(); }
  Slots &S;
};

/// The request for the choices of one prompt: one choice per entry of
/// Trajectories (the replay policy's keys, with Turn), sampled as O says.
CompletionRequest makeCompletionRequest(const RolloutOptions &O,
                                        const std::string &TaskId,
                                        const BuiltPrompt &Prompt,
                                        std::vector<int> Trajectories,
                                        int Turn);

/// Where a turn sits: its task, trajectory, turn and record id.
struct TurnSlot {
  const TaskFile *Task = nullptr;
  int Trajectory = 0;
  int Turn = 1;
  std::string Id;
};

/// The turn's record before evaluation: its prompt, the policy's reply
/// (Reply's first choice) and what the response was split into.
Json makeTurnRecord(const RolloutOptions &O, const Policy &ThePolicy,
                    const TurnSlot &Slot, const BuiltPrompt &Prompt,
                    const CompletionResult &Reply,
                    const ParsedResponse &Parsed);

/// Saves Code at CandidatePath (making its directory) and runs Record
/// through O's stages, or O.Server's. A record the stages left without a
/// verdict (`--stages check`) gets a `not-run` run section. An Error means a
/// stage failed as a tool, not the candidate.
Expected<Json> evaluateTurnCode(const RolloutOptions &O,
                                const StagePipeline &Pipeline,
                                const std::string &CandidatePath,
                                const std::string &Code, Json Record);

/// The settings every run of the loop must keep across a resume: schema,
/// policy, model, device, tasks, sampling and stages, with Shape (the keys
/// of the run's size: m and n, or a search's budget and strategy) after the
/// model.
Json runIdentity(const RolloutOptions &O, const Policy &P, const Json &Shape);

/// Writes Identity to Path, or checks that the one there matches it; a
/// mismatch names the first setting that differs and both values.
Error checkOrWriteIdentity(const std::string &Path, const Json &Identity);

/// The records of a durable log (none when LogPath does not exist yet). A
/// torn last line (a write cut short by a kill) is cut off the file, so new
/// records start on a line of their own, and reported in Warnings.
Expected<std::vector<Record>> readResumableLog(const std::string &LogPath,
                                               std::vector<Error> &Warnings);

} // namespace kevin

#endif // KEVIN_ROLLOUT_TURN_H
