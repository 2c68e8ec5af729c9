//===-- SearchTest.cpp - tests for kevin/Rollout/Search.h -----------------===//
#include "kevin/Rollout/Search.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/Version.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

using namespace kevin;

namespace {

SearchNode node(int Slot, double Score, bool Correct) {
  SearchNode N;
  N.Slot = Slot;
  N.Score = Score;
  N.Correct = Correct;
  return N;
}

SearchOptions options(SearchStrategy Strategy, int Budget) {
  SearchOptions O;
  O.Strategy = Strategy;
  O.Budget = Budget;
  return O;
}

/// Plans every round of a task whose kernels all score Score(slot, round),
/// as the runner does; returns the rounds' plans.
std::vector<std::vector<PlannedKernel>> planAll(const SearchOptions &O) {
  std::vector<std::vector<PlannedKernel>> Rounds;
  std::vector<SearchNode> Previous;
  int Spent = 0;
  for (int Round = 1;; ++Round) {
    std::vector<PlannedKernel> Plan =
        planRound(O, Round, Previous, O.Budget - Spent);
    if (Plan.empty())
      break;
    Previous.clear();
    for (const PlannedKernel &K : Plan)
      Previous.push_back(node(K.Slot, (K.Slot * 7 + Round) % 5, K.Slot % 2));
    Spent += static_cast<int>(Plan.size());
    Rounds.push_back(Plan);
  }
  return Rounds;
}

size_t total(const std::vector<std::vector<PlannedKernel>> &Rounds) {
  size_t N = 0;
  for (const auto &Round : Rounds)
    N += Round.size();
  return N;
}

TEST(SearchTest, BeamRanksByScoreThenCorrectnessThenSlot) {
  std::vector<SearchNode> Ranked = rankNodes(
      {node(0, 0.0, false), node(1, 1.3, true), node(2, 0.3, true),
       node(3, 0.3, false), node(4, 1.3, true), node(5, 0.0, false)});
  std::vector<int> Slots;
  for (const SearchNode &N : Ranked)
    Slots.push_back(N.Slot);
  EXPECT_EQ(Slots, (std::vector<int>{1, 4, 2, 3, 0, 5}));
}

TEST(SearchTest, BeamExtendsTheTopKernelsOfTheRoundBefore) {
  SearchOptions O = options(SearchStrategy::Beam, 100);
  O.BeamWidth = 2;
  O.Branching = 3;
  std::vector<PlannedKernel> Plan = planRound(
      O, 2,
      {node(0, 0.0, false), node(1, 2.3, true), node(2, 0.0, true),
       node(3, 1.3, true), node(4, 2.3, true), node(5, 0.0, false)},
      100);
  ASSERT_EQ(Plan.size(), 6u);
  for (int I = 0; I < 6; ++I) {
    EXPECT_EQ(Plan[I].Slot, I);
    EXPECT_EQ(Plan[I].Parent, I < 3 ? 1 : 4);
  }
  // A tie at 0: the correct kernel goes first.
  O.BeamWidth = 1;
  Plan = planRound(O, 2, {node(0, 0.0, false), node(1, 0.0, true)}, 100);
  ASSERT_EQ(Plan.size(), 3u);
  EXPECT_EQ(Plan[0].Parent, 1);
}

TEST(SearchTest, EveryStrategySpendsExactlyTheBudget) {
  SearchOptions Parallel = options(SearchStrategy::Parallel, 128);
  auto P = planAll(Parallel);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(total(P), 128u);

  SearchOptions Serial = options(SearchStrategy::Serial, 128);
  Serial.Run.Turns = 4;
  auto S = planAll(Serial);
  ASSERT_EQ(S.size(), 4u);
  for (const auto &Round : S) {
    ASSERT_EQ(Round.size(), 32u);
    for (const PlannedKernel &K : Round)
      EXPECT_EQ(K.Parent, &Round == &S.front() ? -1 : K.Slot);
  }

  // 4 x 8 = 32 per round: 128 is four full rounds; 100 ends with a round of
  // 4, spent on the first kept kernel's refinements.
  SearchOptions Beam = options(SearchStrategy::Beam, 128);
  EXPECT_EQ(planAll(Beam).size(), 4u);
  EXPECT_EQ(total(planAll(Beam)), 128u);
  Beam.Budget = 100;
  auto B = planAll(Beam);
  ASSERT_EQ(B.size(), 4u);
  EXPECT_EQ(total(B), 100u);
  EXPECT_EQ(B.back().size(), 4u);
  // A budget smaller than one round is one partial round.
  Beam.Budget = 5;
  EXPECT_EQ(total(planAll(Beam)), 5u);
}

TEST(SearchTest, SerialNeedsAMultipleOfTheTurns) {
  SearchOptions O = options(SearchStrategy::Serial, 10);
  O.Run.Turns = 4;
  Error E = validateSearch(O);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(E.message().find("not a multiple of --turns 4"), std::string::npos);
  O.Budget = 12;
  EXPECT_FALSE(bool(validateSearch(O)));
  EXPECT_EQ(searchLabel(O), "serial 3x4");
}

/// A policy whose every answer is a correct-looking kernel; counts the
/// kernels it was asked for.
class CountingPolicy : public Policy {
public:
  Expected<CompletionResult> complete(const CompletionRequest &R) override {
    std::lock_guard<std::mutex> Lock(M);
    CompletionResult Result;
    for (int I = 0; I < R.N; ++I) {
      Asked.insert({R.TaskId, R.Turn, R.Trajectories[I]});
      Result.Choices.push_back(
          {"```python\n# kernel " + std::to_string(R.Turn) + "." +
               std::to_string(R.Trajectories[I]) + "\nclass ModelNew: pass\n```\n",
           "stop",
           {},
           {}});
    }
    return Result;
  }
  std::string describe() const override { return "counting"; }
  std::set<std::tuple<std::string, int, int>> Asked;
  std::mutex M;
};

std::vector<std::string> logIds(const std::string &Path) {
  std::vector<std::string> Ids;
  std::ifstream In(Path);
  for (std::string Line; std::getline(In, Line);)
    Ids.push_back(Json::parse(Line)["id"].get<std::string>());
  return Ids;
}

TEST(SearchTest, ResumeAsksOnlyForTheKernelsNotLogged) {
  std::string Dir = testing::TempDir() + "/search-resume";
  std::filesystem::remove_all(Dir);
  std::filesystem::create_directories(Dir + "/tasks");
  std::ofstream(Dir + "/tasks/t.py") << "class Model: pass\n";
  auto Tasks = findTasks(Dir + "/tasks", {});
  ASSERT_TRUE(bool(Tasks));
  auto Templates = loadPromptTemplates(
      std::string(KEVIN_SOURCE_DIR) + "/share/kevin/prompts/kevin.toml", "cpu");
  ASSERT_TRUE(bool(Templates));
  SearchOptions O = options(SearchStrategy::Beam, 7);
  O.BeamWidth = 1;
  O.Branching = 3;
  O.Run.Tasks = *Tasks;
  O.Run.RunDir = Dir + "/run";
  StagePipeline Pipeline(Dir, 10); // no stages: every kernel is not-run

  CountingPolicy First;
  auto Done = runSearch(O, *Templates, First, Pipeline);
  ASSERT_TRUE(bool(Done)) << Done.error().message();
  EXPECT_EQ(Done->KernelsRun, 7);
  EXPECT_EQ(First.Asked.size(), 7u);
  std::vector<std::string> All = logIds(O.Run.RunDir + "/search.jsonl");
  ASSERT_EQ(All.size(), 7u);

  // Keep four whole lines and half of the fifth.
  std::string Log = *fs::readFile(O.Run.RunDir + "/search.jsonl");
  size_t Cut = 0;
  for (int Line = 0; Line < 4; ++Line)
    Cut = Log.find('\n', Cut) + 1;
  std::ofstream(O.Run.RunDir + "/search.jsonl", std::ios::trunc)
      << Log.substr(0, Cut + 20);

  CountingPolicy Second;
  auto Resumed = runSearch(O, *Templates, Second, Pipeline);
  ASSERT_TRUE(bool(Resumed)) << Resumed.error().message();
  EXPECT_EQ(Resumed->KernelsResumed, 4);
  EXPECT_EQ(Resumed->KernelsRun, 3);
  EXPECT_EQ(Resumed->Warnings.size(), 1u);
  EXPECT_EQ(Second.Asked.size(), 3u);
  for (const auto &Key : Second.Asked)
    EXPECT_EQ(First.Asked.count(Key), 1u);
  std::vector<std::string> After = logIds(O.Run.RunDir + "/search.jsonl");
  EXPECT_EQ(std::set<std::string>(After.begin(), After.end()),
            std::set<std::string>(All.begin(), All.end()));
  EXPECT_EQ(After.size(), 7u);

  // A finished search asks for nothing.
  CountingPolicy Third;
  auto Again = runSearch(O, *Templates, Third, Pipeline);
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(Again->KernelsRun, 0);
  EXPECT_TRUE(Third.Asked.empty());
}

} // namespace
