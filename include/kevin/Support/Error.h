//===-- kevin/Support/Error.h - errors, diagnostics and exit codes -*- C++ -*-===//
//
// Every user-visible failure in kevin is an Error value: a lowercase message,
// optionally tied to a file and a position. Libraries return Error or
// Expected<T> and never let an exception escape; tools print them through
// ToolContext, which follows LLVM's layout:
//
//   kevin-run: error: 'cand.py': no such file or directory
//   cand.py:41:9: error: tensor compute in forward [kevin-py-forward-compute]
//
// Exit codes are the same in every tool (like FileCheck): see ExitCode.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_ERROR_H
#define KEVIN_SUPPORT_ERROR_H

#include <cassert>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace kevin {

/// The exit status of every kevin tool.
enum ExitCode : int {
  ExitClean = 0,    ///< Nothing found; the candidate is correct.
  ExitFindings = 1, ///< Findings, or a failed candidate.
  ExitError = 2,    ///< Usage error or internal (tool) error.
};

/// A position in a file; Line and Column are 1-based, 0 means unknown.
struct SourceLocation {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

/// What sort of failure an Error is, for callers that react to some of them
/// (a missing candidate file) without comparing message texts.
enum class ErrorKind {
  Other,        ///< Anything not classified below.
  FileAccess,   ///< A file could not be opened, read or written.
  InvalidInput, ///< The input (a file, an option value) is malformed.
  Internal,     ///< A failure of kevin itself or of its environment.
};

/// A failure: a lowercase message without a trailing period, where it
/// happened when known. A default-constructed Error means success.
class [[nodiscard]] Error {
public:
  Error() = default;
  static Error success() { return Error(); }
  /// A failure with no location.
  static Error make(std::string Message, ErrorKind Kind = ErrorKind::Other) {
    return Error(std::move(Message), SourceLocation(), Kind);
  }
  /// A failure about a whole file: printed as `'path': message`.
  static Error inFile(std::string Path, std::string Message,
                      ErrorKind Kind = ErrorKind::Other) {
    return Error(std::move(Message), SourceLocation{std::move(Path), 0, 0},
                 Kind);
  }
  /// A failure at a position: printed as `path:line:col: message`.
  static Error at(SourceLocation Loc, std::string Message,
                  ErrorKind Kind = ErrorKind::Other) {
    return Error(std::move(Message), std::move(Loc), Kind);
  }

  /// True when this is a failure.
  explicit operator bool() const { return Failed; }
  const std::string &message() const { return Message; }
  const SourceLocation &location() const { return Loc; }
  /// The sort of failure; Other for success.
  ErrorKind kind() const { return Kind; }
  /// Returns a copy with `Context: ` prepended to the message (same location
  /// and kind).
  Error withContext(const std::string &Context) const;

private:
  Error(std::string Message, SourceLocation Loc, ErrorKind Kind)
      : Failed(true), Kind(Kind), Message(std::move(Message)),
        Loc(std::move(Loc)) {}
  bool Failed = false;
  ErrorKind Kind = ErrorKind::Other;
  std::string Message;
  SourceLocation Loc;
};

/// Either a value or an Error, like llvm::Expected.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T Value) : Storage(std::move(Value)) {}
  Expected(Error Err) : Storage(std::move(Err)) {
    assert(std::get<Error>(Storage) && "Expected built from a success Error");
  }
  explicit operator bool() const { return Storage.index() == 0; }
  T &operator*() { return std::get<T>(Storage); }
  const T &operator*() const { return std::get<T>(Storage); }
  T *operator->() { return &std::get<T>(Storage); }
  const T *operator->() const { return &std::get<T>(Storage); }
  /// The error of a failed Expected.
  const Error &error() const { return std::get<Error>(Storage); }

private:
  std::variant<T, Error> Storage;
};

enum class Severity { Error, Warning, Note };

/// Formats `path:line:col: severity: message` (or the parts that are known).
std::string formatDiagnostic(const SourceLocation &Loc, Severity Sev,
                             const std::string &Message);
/// An error as one compiler-style line: `path:line:col: error: message`.
std::string diagnosticLine(const Error &E);
/// Whether an error is about the input (a file that cannot be read, a
/// malformed record or file) rather than about kevin or its installation.
bool isInputError(const Error &E);

/// The context of one tool run: its name for messages, whether an error was
/// reported, and colored output when stderr is a terminal.
class ToolContext {
public:
  explicit ToolContext(std::string ToolName);
  const std::string &toolName() const { return ToolName; }

  /// Prints an error and remembers that one happened. Errors with a position
  /// print compiler-style; others print `tool: error: 'path': message`.
  void error(const Error &Err);
  void warning(const Error &Warn);
  /// Prints a usage error; the tool should then return ExitError.
  void usageError(const std::string &Message);
  bool hadError() const { return HadError; }

private:
  void print(Severity Sev, const Error &Err);
  std::string ToolName;
  bool HadError = false;
  bool UseColor = false;
};

} // namespace kevin

#endif // KEVIN_SUPPORT_ERROR_H
