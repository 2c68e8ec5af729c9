//===-- kevin-bench.cpp - time correct candidates against the reference ---===//
//
//   kevin-bench --task ref.py cand.py [--device cpu|cuda[:N]] [options]
//   kevin-run ... | kevin-bench [options]             (records on stdin)
//
// Adds a `bench` section to each record (docs/CommandGuide/kevin-bench.md);
// only records whose `run.correct` is true (and whose `check.ok` is not
// false, unless --ignore-check) are timed, the rest pass through marked
// skipped; a line that is not a record becomes an input-error record.
// Candidates are timed one at a time (they share the device). Over several
// records on stdin, a line per record on stderr (a bar on a terminal; none
// with --quiet). Exit status: 0 every candidate timed without a rejecting
// flag, 1 some not, 2 usage or tool error.
//
//===----------------------------------------------------------------------===//
#include "kevin/Bench/Benchmark.h"
#include "kevin/Exec/CandidateInput.h"
#include "kevin/Exec/WorkerToolOptions.h"
#include "kevin/Build/Builder.h"
#include "kevin/Support/Error.h"
#include "kevin/Support/FileSystem.h"
#include "kevin/Support/Progress.h"
#include "kevin/Support/Record.h"
#include "kevin/Support/RecordFields.h"
#include "kevin/Support/ToolMain.h"

#include <iostream>
#include <map>
#include <unistd.h>

using namespace kevin;

namespace {


Json untimedSection(const char *Outcome, const std::string &Message) {
  return Json{{"ok", false},
              {"outcome", Outcome},
              {"message", Message},
              {"speedup", nullptr},
              {"flags", Json::array()}};
}

Json skippedSection(const std::string &Why) {
  return untimedSection("skipped", "not timed: " + Why);
}

/// The Skip of a stdin line that is not a record: its record has its
/// `bench` section already.
constexpr const char *NotARecord = "the line is not a record";

/// The record of a stdin line that is not a record.
QueuedCandidate unreadableLine(const Error &E) {
  QueuedCandidate Q;
  Q.Skip = NotARecord;
  Q.Record = badLineRecord(E);
  Q.Record["bench"] = untimedSection("input-error", diagnosticLine(E));
  return Q;
}

} // namespace

int main(int Argc, char **Argv) {
  CLI::App App("kevin-bench: time correct candidates against the reference, "
               "each side in its own isolated worker, by the identical method",
               "kevin-bench");
  ToolContext Context("kevin-bench");
  BenchOptions Options;
  WorkerToolOptions Shared;
  Shared.addTo(App, "kevin-bench");
  App.add_option("--baseline", Options.Baseline,
                 "the reference as timed: eager, or compile (torch.compile, "
                 "torch 2.x)")
      ->check(CLI::IsMember({"eager", "compile"}));
  App.add_option("--pool", Options.PoolSize,
                 "input sets the timed calls rotate through")
      ->check(CLI::Range(1u, 64u));
  size_t PoolMiB = 1024;
  auto *PoolMemOpt = App.add_option(
      "--pool-memory", PoolMiB,
      "MiB of inputs the pool may hold; it shrinks to fit, to 2 sets at least "
      "(default 1024)");
  App.add_option("--audits", Options.Audits,
                 "audit calls on unseen inputs at secret positions")
      ->check(CLI::Range(1u, 16u));
  App.add_option("--warmups", Options.Warmups,
                 "warmup calls (a secret 0-2 more are added)");
  App.add_option("--min-trials", Options.MinTrials, "timed calls at least")
      ->check(CLI::Range(size_t(3), size_t(100000)));
  App.add_option("--max-trials", Options.MaxTrials, "timed calls at most")
      ->check(CLI::Range(size_t(3), size_t(1000000)));
  App.add_option("--target-rse", Options.TargetRse,
                 "stop when the median's relative standard error is below "
                 "this (default 0.01)");
  App.add_option("--budget", Options.BudgetSeconds,
                 "seconds of timed calls per side and round at most "
                 "(default 2)");
  App.add_option("--rounds", Options.Rounds,
                 "timing rounds per side at most, each in a fresh memory "
                 "placement (default: 5 on a CUDA device, 1 on the CPU)")
      ->check(CLI::Range(size_t(1), size_t(10)));
  App.add_option("--round-keep", Options.RoundKeep,
                 "median: rounds until three agree within 1%, the median "
                 "one kept (default); fastest: rounds until two agree, the "
                 "fastest kept")
      ->check(CLI::IsMember({"fastest", "median"}));
  uintmax_t ReferenceDiskMiB = Options.ReferenceDiskBytes >> 20;
  App.add_option("--reference-disk-mib", ReferenceDiskMiB,
                 "MiB of disk the kept references' input sets may hold; the "
                 "least recently used task's is let go first (default 4096)");
  App.add_option("--speedup-bound", Options.SpeedupBound,
                 "flag speedups above this for review (default 10)");
  App.add_option("--flush-bytes", Options.FlushBytes,
                 "bytes written to flush L2 before each CUDA call (default: "
                 "twice the L2, at least 256 MiB)");
  App.add_option("--cover-ms", Options.CoverMs,
                 "milliseconds of device work (the flush, repeated) queued "
                 "ahead of each CUDA call, so that launch latency up to "
                 "that long is not timed (default 1; 0: one flush)")
      ->check(CLI::Range(0.0, 100.0));
  App.add_option("--timeout", Options.TimeoutSeconds,
                 "seconds per worker process (default 600)");
  bool IgnoreCheck = false;
  App.add_flag("--ignore-check", IgnoreCheck,
               "time records whose check.ok is false too");
  bool Quiet = false;
  App.add_flag("--quiet", Quiet,
               "nothing on stderr per candidate (by default a line per "
               "record when several come on stdin, a bar on a terminal)");
  if (std::optional<int> Exit = parseCommandLine(App, Argc, Argv))
    return *Exit;

  if (PoolMemOpt->count())
    Options.PoolMemoryBytes = PoolMiB << 20;
  Options.ReferenceDiskBytes = ReferenceDiskMiB << 20;
  if (Options.MaxTrials < Options.MinTrials) {
    Context.usageError("--max-trials must be at least --min-trials");
    return ExitError;
  }
  if (Error E = Shared.finish(Options.Tolerances)) {
    Context.usageError(E.message());
    return ExitError;
  }
  Shared.applyTo(Options);
  if (::access(Options.WorkerPath.c_str(), X_OK) != 0) {
    Context.error(Error::inFile(Options.WorkerPath,
                                "cannot find the kevin-worker executable"));
    return ExitError;
  }
  bool Direct = Shared.direct();
  std::vector<QueuedCandidate> Queue;
  auto NotTimed = [&](const Json &Record) -> std::string {
    const Json *Correct = findField(Record, field::RunCorrect);
    if (!Correct)
      return "no run section (pipe the records through kevin-run first)";
    if (!Correct->is_boolean() || !Correct->get<bool>())
      return "the candidate is not correct (run.correct is not true)";
    if (!IgnoreCheck && fieldIsFalse(Record, field::CheckOk))
      return "kevin-check found errors (check.ok is false)";
    if (!Record.contains("candidate_path") && !Record.contains("code"))
      return "the record names no candidate";
    if (!Record.contains("task_path") && Shared.Task.empty())
      return "the record names no task";
    return "";
  };
  // A line that is not a record ends one reading; it becomes a record of
  // its own and the reading goes on after it.
  Error InputError;
  while ((InputError = Shared.readCandidates(std::cin, "time", false,
                                             NotTimed, Queue))) {
    if (Direct) {
      Context.usageError(InputError.message());
      return ExitError;
    }
    if (std::cin.bad())
      break;
    Queue.push_back(unreadableLine(InputError));
  }

  // One harness per device: the reference of a task is timed once per
  // device and shared by that device's candidates.
  std::map<std::string, std::unique_ptr<Benchmarker>> Harnesses;
  RecordWriter Writer(std::cout);
  // A line per record when several came on stdin; direct mode has its
  // summary lines instead.
  Progress Shown("kevin-bench", Queue.size(),
                 stderrProgress(Quiet || Direct || Queue.size() < 2));
  bool AllGood = true, ToolError = false;
  for (size_t I = 0; I < Queue.size(); ++I) {
    QueuedCandidate &J = Queue[I];
    Json Out = J.Record;
    std::string Name = progressName(Out, I + 1);
    auto Emit = [&] {
      Writer.write(Out);
      Shown.finished(Name, finishedSummary(Out));
    };
    if (!J.Skip.empty()) {
      if (J.Skip != NotARecord)
        Out["bench"] = skippedSection(J.Skip);
      Emit();
      AllGood = false;
      continue;
    }
    const std::string &Path = J.What.CandidatePath;
    if (std::string Why = Path.empty() ? "" : fs::whyUnreadable(Path);
        !Why.empty()) {
      Out["bench"] = untimedSection(
          "input-error", "'" + Path + "': cannot read the candidate: " + Why);
      Emit();
      AllGood = false;
      continue;
    }
    std::unique_ptr<Benchmarker> &H = Harnesses[J.Device];
    if (!H) {
      BenchOptions Mine = Options;
      Mine.Device = J.Device;
      H = std::make_unique<Benchmarker>(Mine);
    }
    Shown.started(Name, "bench");
    Expected<BenchVerdict> V = H->bench(J.What);
    if (!V) {
      // The record is still written; a failure of kevin itself or of its
      // installation also makes the exit status 2.
      bool AboutRecord = isInputError(V.error());
      Context.error(V.error());
      ToolError |= !AboutRecord;
      AllGood = false;
      Out["bench"] = untimedSection(AboutRecord ? "input-error" : "tool-error",
                                    diagnosticLine(V.error()));
      Emit();
      continue;
    }
    Out["bench"] = V->Bench;
    Emit();
    if (Direct && !Quiet)
      std::cerr << J.What.DisplayName << ": "
                << V->Bench.value("outcome", "") << ": "
                << V->Bench.value("message", "") << "\n";
    if (V->ReferenceFailed) {
      std::string Message = V->Bench.value("message", "");
      Context.error(Error::make(Message.substr(0, Message.find('\n'))));
      ToolError = true;
    }
    AllGood &= V->Ok;
  }
  if (InputError) {
    Context.error(InputError);
    return ExitError;
  }
  if (ToolError)
    return ExitError;
  return AllGood ? ExitClean : ExitFindings;
}
