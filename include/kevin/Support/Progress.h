//===-- kevin/Support/Progress.h - progress display for long runs -*- C++ -*-===//
//
// A one-line progress bar on stderr for evaluations and rollouts, redrawn at
// most ten times a second. It prints nothing at all unless stderr is a
// terminal, so logs, pipes and CI output stay clean. Thread-safe.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_PROGRESS_H
#define KEVIN_SUPPORT_PROGRESS_H

#include "kevin/Support/Clock.h"

#include <cstddef>
#include <mutex>
#include <ostream>
#include <string>

namespace kevin {

class Progress {
public:
  /// Shows progress towards Total items under Label. Enabled decides whether
  /// anything is drawn; by default, whether stderr is a terminal.
  Progress(std::string Label, size_t Total);
  Progress(std::string Label, size_t Total, std::ostream &Out, bool Enabled);
  ~Progress();

  /// Marks N more items done; Note (e.g. the current task) is shown after.
  void advance(size_t N = 1, const std::string &Note = "");
  /// Draws the final state and ends the line (once).
  void finish();
  size_t done() const;
  bool enabled() const { return Enabled; }

  /// The line as it would be drawn, for tests.
  std::string render() const;

private:
  void draw(bool Force);
  std::string Label;
  size_t Total;
  size_t Done = 0;
  std::string Note;
  std::ostream &Out;
  bool Enabled;
  bool Finished = false;
  SteadyClock::time_point Start, LastDraw;
  mutable std::mutex Lock;
};

/// True when stderr is an interactive terminal (and TERM is not "dumb").
bool stderrIsTerminal();

} // namespace kevin

#endif // KEVIN_SUPPORT_PROGRESS_H
