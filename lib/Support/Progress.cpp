//===-- Progress.cpp - progress display for long runs --------------------===//
//
// The bar's rendering and rate-limited redrawing, the progress lines and the
// heartbeat thread of the Lines style, and the summary of a finished record.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/Progress.h"
#include "kevin/Support/RecordFields.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>

namespace kevin {

bool stderrIsTerminal() {
  const char *Term = std::getenv("TERM");
  return isatty(STDERR_FILENO) && !(Term && std::string(Term) == "dumb");
}

ProgressStyle progressStyleFor(bool Quiet) {
  if (Quiet)
    return ProgressStyle::Off;
  return stderrIsTerminal() ? ProgressStyle::Bar : ProgressStyle::Lines;
}

double heartbeatSeconds() {
  if (const char *Text = std::getenv("KEVIN_HEARTBEAT_SECONDS")) {
    char *End = nullptr;
    double Seconds = std::strtod(Text, &End);
    if (End != Text && *End == '\0' && Seconds > 0)
      return Seconds;
  }
  return 30;
}

ProgressOptions stderrProgress(bool Quiet) {
  ProgressOptions Options;
  Options.Style = progressStyleFor(Quiet);
  return Options;
}

Progress::Progress(std::string Label, size_t Total, ProgressOptions O)
    : Label(std::move(Label)), Total(Total), Options(std::move(O)),
      Start(SteadyClock::now()), LastLine(Start) {
  draw(true);
  if (Options.Style == ProgressStyle::Lines && Options.HeartbeatSeconds > 0)
    Heart = std::thread([this] { beat(); });
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
  std::lock_guard<std::mutex> Guard(Lock);
  return renderLocked();
}

std::string Progress::renderLocked() const {
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

std::string Progress::counter() const {
  return "[" + std::to_string(Done) +
         (Total ? "/" + std::to_string(Total) : std::string()) + "]";
}

std::string Progress::heartbeat() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return heartbeatLocked();
}

std::string Progress::heartbeatLocked() const {
  if (InFlight.empty())
    return "";
  // The longest-running first: they are the ones a reader looks for.
  std::vector<std::pair<std::string, Running>> Items(InFlight.begin(),
                                                     InFlight.end());
  std::stable_sort(Items.begin(), Items.end(),
                   [](const auto &A, const auto &B) {
                     return A.second.Since < B.second.Since;
                   });
  constexpr size_t Named = 4;
  std::string Line = counter() + " still running:";
  const char *Separator = " ";
  for (size_t I = 0; I < std::min(Named, Items.size()); ++I) {
    long Seconds = static_cast<long>(secondsSince(Items[I].second.Since));
    Line += Separator + Items[I].first + " (" + Items[I].second.Stage + ", " +
            std::to_string(Seconds) + " s)";
    Separator = ", ";
  }
  if (Items.size() > Named)
    Line += " and " + std::to_string(Items.size() - Named) + " more";
  return Line;
}

void Progress::draw(bool Force) {
  if (Options.Style != ProgressStyle::Bar)
    return;
  auto Now = SteadyClock::now();
  if (!Force && Now - LastDraw < std::chrono::milliseconds(100))
    return;
  LastDraw = Now;
  // \r and erase-line redraw in place.
  *Options.Out << "\r\033[K" << renderLocked() << std::flush;
}

void Progress::writeLine(const std::string &Line) {
  // One insertion, so that lines of other writers to the stream do not cut
  // into it.
  *Options.Out << (Options.LinePrefix + Line + "\n") << std::flush;
  LastLine = SteadyClock::now();
}

void Progress::started(const std::string &Id, const std::string &Stage) {
  std::lock_guard<std::mutex> Guard(Lock);
  InFlight[Id] = Running{Stage, SteadyClock::now()};
}

void Progress::finished(const std::string &Id, const std::string &Summary) {
  std::lock_guard<std::mutex> Guard(Lock);
  InFlight.erase(Id);
  ++Done;
  if (Options.Style == ProgressStyle::Lines) {
    writeLine(counter() + " " + Id + (Summary.empty() ? "" : " " + Summary));
    return;
  }
  Note = Id;
  draw(Total && Done >= Total);
}

void Progress::beat() {
  auto Interval = std::chrono::duration_cast<SteadyClock::duration>(
      std::chrono::duration<double>(Options.HeartbeatSeconds));
  std::unique_lock<std::mutex> Guard(Lock);
  while (!Finished) {
    if (Wake.wait_until(Guard, LastLine + Interval, [&] { return Finished; }))
      return;
    if (SteadyClock::now() < LastLine + Interval)
      continue; // A line was written meanwhile.
    std::string Line = heartbeatLocked();
    if (Line.empty())
      LastLine = SteadyClock::now(); // Nothing runs: nothing to tell.
    else
      writeLine(Line);
  }
}

void Progress::finish() {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Finished)
      return;
    Finished = true;
    if (Options.Style == ProgressStyle::Bar) {
      Note.clear();
      draw(true);
      *Options.Out << '\n' << std::flush;
    }
  }
  Wake.notify_all();
  if (Heart.joinable())
    Heart.join();
}

//--- Finished records ---------------------------------------------------------

std::string evaluationOutcome(const Json &Record) {
  if (std::string Run = fieldString(Record, field::RunOutcome); !Run.empty())
    return Run;
  std::string Build = fieldString(Record, field::BuildOutcome);
  if (fieldIsFalse(Record, field::BuildOk) && !Build.empty())
    return Build;
  if (fieldIsFalse(Record, field::CheckOk))
    return "check-failed";
  if (fieldIsFalse(Record, field::ParseOk))
    return "format-error";
  if (fieldIsTrue(Record, field::BuildOk))
    return "built";
  if (std::string Bench = fieldString(Record, field::BenchOutcome);
      !Bench.empty())
    return Bench;
  return "unknown";
}

namespace {

/// Seconds at Path: a number, or an object's `total`.
const Json *stageSeconds(const Json &Record, const char *Path) {
  const Json *Seconds = findField(Record, Path);
  if (Seconds && Seconds->is_object())
    Seconds = findField(*Seconds, "total");
  return Seconds && Seconds->is_number() ? Seconds : nullptr;
}

std::string stageTimes(const Json &Record) {
  // The build pool's compile, when kevin eval built ahead (the device
  // stage's build then mostly finds the cache).
  const Json *Build = stageSeconds(Record, "build_ahead.seconds");
  if (!Build)
    Build = stageSeconds(Record, "build.seconds");
  const std::pair<const char *, const Json *> Stages[] = {
      {"build", Build},
      {"run", stageSeconds(Record, "run.seconds")},
      {"bench", stageSeconds(Record, "bench.seconds")}};
  std::string Times;
  for (const auto &[Name, Seconds] : Stages) {
    if (!Seconds)
      continue;
    char Buffer[64];
    std::snprintf(Buffer, sizeof(Buffer), "%s%s %.1f s",
                  Times.empty() ? "" : ", ", Name, Seconds->get<double>());
    Times += Buffer;
  }
  return Times.empty() ? "" : " (" + Times + ")";
}

} // namespace

std::string finishedSummary(const Json &Record, const std::string &Outcome) {
  if (!fieldIsTrue(Record, field::RunCorrect))
    return Outcome + stageTimes(Record);
  std::string Line = "correct ";
  const Json *Speedup = findField(Record, field::BenchSpeedup);
  if (Speedup && Speedup->is_number()) {
    char Buffer[32];
    std::snprintf(Buffer, sizeof(Buffer), "%.2fx", Speedup->get<double>());
    Line += Buffer;
  } else {
    Line += "n/a";
    std::string Bench = fieldString(Record, field::BenchOutcome);
    if (fieldIsFalse(Record, field::BenchOk) && !Bench.empty() &&
        Bench != "skipped")
      Line += ", bench " + Bench;
  }
  return Line + stageTimes(Record);
}

std::string progressName(const Json &Record, size_t N) {
  for (const char *Key : {"id", "candidate_path", "task_id"})
    if (std::string Name = fieldString(Record, Key); !Name.empty())
      return Name;
  return N ? "record " + std::to_string(N) : "";
}

} // namespace kevin
