//===-- Error.cpp - errors, diagnostics and exit codes -------------------===//
//
// Formatting and printing of kevin's Error values.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/Error.h"

#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace kevin {

Error Error::withContext(const std::string &Context) const {
  if (!Failed)
    return *this;
  return Error(Context + ": " + Message, Loc, Kind);
}

static const char *severityName(Severity Sev) {
  switch (Sev) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

std::string formatDiagnostic(const SourceLocation &Loc, Severity Sev,
                             const std::string &Message) {
  std::string Out;
  if (!Loc.File.empty()) {
    Out += Loc.File;
    if (Loc.Line) {
      Out += ":" + std::to_string(Loc.Line);
      if (Loc.Column)
        Out += ":" + std::to_string(Loc.Column);
    }
    Out += ": ";
  }
  Out += severityName(Sev);
  Out += ": ";
  Out += Message;
  return Out;
}

std::string diagnosticLine(const Error &E) {
  return formatDiagnostic(E.location(), Severity::Error, E.message());
}

bool isInputError(const Error &E) {
  return E.kind() == ErrorKind::FileAccess ||
         E.kind() == ErrorKind::InvalidInput;
}

ToolContext::ToolContext(std::string Name) : ToolName(std::move(Name)) {
  // Keep only the basename, like LLVM tools do with argv[0].
  auto Slash = ToolName.find_last_of('/');
  if (Slash != std::string::npos)
    ToolName = ToolName.substr(Slash + 1);
  const char *Term = std::getenv("TERM");
  UseColor = isatty(STDERR_FILENO) && !std::getenv("NO_COLOR") &&
             !(Term && std::string(Term) == "dumb");
}

void ToolContext::print(Severity Sev, const Error &Err) {
  const SourceLocation &Loc = Err.location();
  std::string Prefix, Body;
  if (Loc.Line) {
    Body = formatDiagnostic(Loc, Sev, Err.message());
  } else {
    Prefix = ToolName + ": ";
    Body = formatDiagnostic(SourceLocation(), Sev, "");
    if (!Loc.File.empty())
      Body += "'" + Loc.File + "': ";
    Body += Err.message();
  }
  if (UseColor) {
    const char *Color = Sev == Severity::Error     ? "\033[1;31m"
                        : Sev == Severity::Warning ? "\033[1;35m"
                                                   : "\033[1;30m";
    std::string Name = severityName(Sev);
    auto At = Body.find(Name + ":");
    if (At != std::string::npos)
      Body = Body.substr(0, At) + Color + Name + ":\033[0m" +
             Body.substr(At + Name.size() + 1);
  }
  std::cerr << Prefix << Body << '\n';
}

void ToolContext::error(const Error &Err) {
  HadError = true;
  print(Severity::Error, Err);
}

void ToolContext::warning(const Error &Warn) { print(Severity::Warning, Warn); }

void ToolContext::usageError(const std::string &Message) {
  HadError = true;
  print(Severity::Error, Error::make(Message));
  std::cerr << "Run '" << ToolName << " --help' for usage.\n";
}

} // namespace kevin
