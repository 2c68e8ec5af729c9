//===-- ToolIO.cpp - a tool's input and output ---------------------------===//
//
// See kevin/Support/ToolIO.h.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/ToolIO.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace kevin {

std::istream &ToolInput::stream() { return File ? *File : std::cin; }

Expected<ToolInput> ToolInput::open(const std::string &Path) {
  if (Path == "-")
    return ToolInput(nullptr, "<stdin>");
  auto File = std::make_unique<std::ifstream>(Path, std::ios::binary);
  if (!*File)
    return Error::inFile(Path, std::strerror(errno), ErrorKind::FileAccess);
  return ToolInput(std::move(File), Path);
}

Expected<ToolOutput> ToolOutput::open(const std::string &Path) {
  if (Path == "-")
    return ToolOutput(STDOUT_FILENO, "<stdout>");
  int Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return Error::inFile(Path, std::strerror(errno), ErrorKind::FileAccess);
  return ToolOutput(Fd, Path);
}

ToolOutput::ToolOutput(ToolOutput &&Other) noexcept
    : Fd(Other.Fd), Name(std::move(Other.Name)) {
  Other.Fd = -1;
}

ToolOutput::~ToolOutput() {
  if (Fd >= 0 && Fd != STDOUT_FILENO)
    ::close(Fd);
}

bool ToolOutput::isTerminal() const { return ::isatty(Fd); }

Error ToolOutput::write(std::string_view Text) {
  while (!Text.empty()) {
    ssize_t N = ::write(Fd, Text.data(), Text.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return Error::inFile(Name, std::strerror(errno), ErrorKind::FileAccess);
    Text.remove_prefix(static_cast<size_t>(N));
  }
  return Error::success();
}

Error runRecordFilter(const std::string &InputPath,
                      const std::string &OutputPath,
                      const RecordFilter &Filter) {
  Expected<ToolInput> Input = ToolInput::open(InputPath);
  if (!Input)
    return Input.error();
  Expected<ToolOutput> Output = ToolOutput::open(OutputPath);
  if (!Output)
    return Output.error();
  LineWriter Out(Output->fd(), Output->name(), Output->isTerminal());
  Error Err = Filter(Input->stream(), Input->name(), Out);
  if (Error FlushErr = Out.flush(); FlushErr && !Err)
    return FlushErr;
  return Err;
}

} // namespace kevin
