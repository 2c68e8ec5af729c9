//===-- Progress.cpp - progress display for long runs --------------------===//
//
// Rendering and rate-limited redrawing of the progress line.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/Progress.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace kevin {

bool stderrIsTerminal() {
  const char *Term = std::getenv("TERM");
  return isatty(STDERR_FILENO) && !(Term && std::string(Term) == "dumb");
}

Progress::Progress(std::string Label, size_t Total)
    : Progress(std::move(Label), Total, std::cerr, stderrIsTerminal()) {}

Progress::Progress(std::string Label, size_t Total, std::ostream &Out,
                   bool Enabled)
    : Label(std::move(Label)), Total(Total), Out(Out), Enabled(Enabled),
      Start(SteadyClock::now()) {
  draw(true);
}

Progress::~Progress() { finish(); }

size_t Progress::done() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Done;
}

static std::string formatDuration(double Seconds) {
  char Buffer[32];
  long S = static_cast<long>(Seconds + 0.5);
  if (S >= 3600)
    std::snprintf(Buffer, sizeof(Buffer), "%ldh%02ldm", S / 3600,
                  (S / 60) % 60);
  else if (S >= 60)
    std::snprintf(Buffer, sizeof(Buffer), "%ldm%02lds", S / 60, S % 60);
  else
    std::snprintf(Buffer, sizeof(Buffer), "%lds", S);
  return Buffer;
}

std::string Progress::render() const {
  constexpr size_t Width = 24;
  size_t Filled = Total ? std::min(Width, Done * Width / Total) : 0;
  std::string Bar(Filled, '=');
  if (Filled < Width)
    Bar += '>' + std::string(Width - Filled - 1, ' ');
  double Elapsed = secondsSince(Start);
  std::string Line = Label + " [" + Bar + "] " + std::to_string(Done) + "/" +
                     std::to_string(Total) + " " + formatDuration(Elapsed);
  if (Done && Done < Total)
    Line += " eta " + formatDuration(Elapsed / Done * (Total - Done));
  if (!Note.empty())
    Line += "  " + Note;
  return Line;
}

void Progress::draw(bool Force) {
  if (!Enabled)
    return;
  auto Now = SteadyClock::now();
  if (!Force && Now - LastDraw < std::chrono::milliseconds(100))
    return;
  LastDraw = Now;
  // \r and erase-line redraw in place.
  Out << "\r\033[K" << render() << std::flush;
}

void Progress::advance(size_t N, const std::string &NewNote) {
  std::lock_guard<std::mutex> Guard(Lock);
  Done += N;
  if (!NewNote.empty())
    Note = NewNote;
  draw(Done >= Total);
}

void Progress::finish() {
  std::lock_guard<std::mutex> Guard(Lock);
  if (Finished)
    return;
  Finished = true;
  if (!Enabled)
    return;
  Note.clear();
  draw(true);
  Out << '\n' << std::flush;
}

} // namespace kevin
