//===-- kevin/Support/Progress.h - progress display for long runs -*- C++ -*-===//
//
// What kevin eval, kevin rollout, kevin serve, kevin-run and kevin-bench
// show on stderr while they work, in one of three styles:
//
//   Bar    one line redrawn in place at most ten times a second (stderr is
//          a terminal);
//   Lines  a line per finished item, `[12/480] level1/19_ReLU#3 correct
//          1.82x (run 4.1 s, bench 2.3 s)`, and, while nothing finishes, a
//          heartbeat every KEVIN_HEARTBEAT_SECONDS (default 30) naming what
//          runs, `[12/480] still running: level1/19_ReLU#4 (run, 41 s)` (logs,
//          pipes, CI, batch jobs);
//   Off    nothing (--quiet).
//
// Thread-safe: items are started and finished from any thread.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_PROGRESS_H
#define KEVIN_SUPPORT_PROGRESS_H

#include "kevin/Support/Clock.h"
#include "kevin/Support/Record.h"

#include <condition_variable>
#include <cstddef>
#include <iostream>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace kevin {

enum class ProgressStyle { Off, Bar, Lines };

/// Off when Quiet, else Bar when stderr is a terminal, else Lines.
ProgressStyle progressStyleFor(bool Quiet);

/// The heartbeat interval: KEVIN_HEARTBEAT_SECONDS when it is a positive
/// number, else 30.
double heartbeatSeconds();

struct ProgressOptions {
  ProgressStyle Style = ProgressStyle::Off;
  std::ostream *Out = &std::cerr;
  /// Before every line of the Lines style (kevin serve's "kevin-serve: ").
  std::string LinePrefix;
  /// 0: no heartbeat.
  double HeartbeatSeconds = heartbeatSeconds();
};

/// Progress on stderr in the style progressStyleFor(Quiet) picks.
ProgressOptions stderrProgress(bool Quiet);

class Progress {
public:
  /// Shows progress towards Total items (0: open-ended, as kevin serve's)
  /// under Label (the bar's).
  Progress(std::string Label, size_t Total, ProgressOptions Options);
  ~Progress();
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  /// Item Id entered Stage (a first stage or the next), for the heartbeat.
  /// Items in flight at once are told apart by their ids (two with one id
  /// are one entry).
  void started(const std::string &Id, const std::string &Stage);
  /// Item Id is done; Summary (finishedSummary) follows its id on its line.
  void finished(const std::string &Id, const std::string &Summary);
  /// Draws the bar's final state and ends its line, stops the heartbeat
  /// (once).
  void finish();
  size_t done() const;
  ProgressStyle style() const { return Options.Style; }

  /// The bar as it would be drawn, for tests.
  std::string render() const;
  /// The heartbeat line as it would be written now ("" when nothing runs).
  std::string heartbeat() const;

private:
  struct Running {
    std::string Stage;
    SteadyClock::time_point Since;
  };
  std::string counter() const;
  std::string renderLocked() const;
  std::string heartbeatLocked() const;
  void draw(bool Force);
  void writeLine(const std::string &Line);
  void beat();

  std::string Label;
  size_t Total;
  ProgressOptions Options;
  size_t Done = 0;
  std::string Note;
  std::map<std::string, Running> InFlight;
  bool Finished = false;
  SteadyClock::time_point Start, LastDraw, LastLine;
  mutable std::mutex Lock;
  std::condition_variable Wake;
  std::thread Heart;
};

/// The outcome a finished record is counted under: its run's outcome, else
/// its failed build's, else check-failed (check.ok false), format-error
/// (parse.ok false), built (a build-only record whose build succeeded), its
/// bench section's outcome (a record that never ran), else unknown.
std::string evaluationOutcome(const Json &Record);

/// What a progress line says of a finished record after its id: `correct`
/// and the speedup (`1.82x`, or `n/a` when it was not timed, with the
/// timing's outcome when that failed), or Outcome when the record is not
/// correct; then the stages' seconds where the record has them, e.g.
/// `correct 1.82x (build 3.0 s, run 4.1 s, bench 2.3 s)`, `mismatch (run
/// 2.0 s)`.
std::string finishedSummary(const Json &Record, const std::string &Outcome);
inline std::string finishedSummary(const Json &Record) {
  return finishedSummary(Record, evaluationOutcome(Record));
}

/// A record's name in progress lines: its id, else its candidate_path, else
/// its task_id, else `record N` for the Nth record of a stream (N from 1),
/// else "".
std::string progressName(const Json &Record, size_t N = 0);

/// True when stderr is an interactive terminal (and TERM is not "dumb").
bool stderrIsTerminal();

} // namespace kevin

#endif // KEVIN_SUPPORT_PROGRESS_H
