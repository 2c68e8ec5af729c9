//===-- kevin/Support/ToolIO.h - a tool's input and output -----*- C++ -*-===//
//
// How kevin's filters open what they read and write: a path, or `-` for
// stdin or stdout, named in messages as the path or `<stdin>`/`<stdout>`; a
// file that cannot be opened is `'path': <the system's reason>`.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_TOOLIO_H
#define KEVIN_SUPPORT_TOOLIO_H

#include "kevin/Support/Error.h"
#include "kevin/Support/Record.h"

#include <functional>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

namespace kevin {

/// What a tool reads: stdin for `-`, else the file.
class ToolInput {
public:
  static Expected<ToolInput> open(const std::string &Path);
  /// The file, or std::cin.
  std::istream &stream();
  /// The path, or `<stdin>`.
  const std::string &name() const { return Name; }
  /// True for a file, false for stdin.
  bool isFile() const { return File != nullptr; }

private:
  ToolInput(std::unique_ptr<std::istream> File, std::string Name)
      : File(std::move(File)), Name(std::move(Name)) {}
  std::unique_ptr<std::istream> File; ///< null for stdin
  std::string Name;
};

/// Where a tool writes: stdout for `-`, else the file, created (mode 0644)
/// or truncated. A file is closed with its ToolOutput.
class ToolOutput {
public:
  static Expected<ToolOutput> open(const std::string &Path);
  ToolOutput(ToolOutput &&Other) noexcept;
  ToolOutput &operator=(ToolOutput &&) = delete;
  ToolOutput(const ToolOutput &) = delete;
  ToolOutput &operator=(const ToolOutput &) = delete;
  ~ToolOutput();

  int fd() const { return Fd; }
  /// The path, or `<stdout>`.
  const std::string &name() const { return Name; }
  /// True when the output is a terminal (a reader waiting for each line).
  bool isTerminal() const;
  /// Writes all of Text; a failure is `'name': <the system's reason>`.
  Error write(std::string_view Text);

private:
  ToolOutput(int Fd, std::string Name) : Fd(Fd), Name(std::move(Name)) {}
  int Fd;
  std::string Name;
};

/// The body of a record filter: reads records from In (named Source in
/// messages) and writes lines to Out.
using RecordFilter = std::function<Error(
    std::istream &In, const std::string &Source, LineWriter &Out)>;

/// Runs Filter from InputPath to OutputPath (each `-` or a file, opened in
/// that order) through a LineWriter that flushes each line on a terminal.
/// The output is flushed after Filter, even when it failed; the first error
/// (opening, Filter's, flushing) is returned.
Error runRecordFilter(const std::string &InputPath,
                      const std::string &OutputPath,
                      const RecordFilter &Filter);

} // namespace kevin

#endif // KEVIN_SUPPORT_TOOLIO_H
