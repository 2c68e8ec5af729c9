//===-- kevin/Support/ToolMain.h - shared command-line plumbing -*- C++ -*-===//
//
// What every kevin tool's main does the same way: the --version text, and
// CLI11 parsing with kevin's exit codes (help and version exit 0, any usage
// error prints one message and exits 2 instead of CLI11's 100+ codes).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_TOOLMAIN_H
#define KEVIN_SUPPORT_TOOLMAIN_H

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace kevin {

/// `<tool> (kevin) <version>` followed by the component versions.
std::string versionText(const std::string &ToolName);

/// Adds --version to App. Parses argv; returns std::nullopt when the tool
/// should go on, or the exit code to return right away.
std::optional<int> parseCommandLine(CLI::App &App, int Argc, char **Argv);

} // namespace kevin

#endif // KEVIN_SUPPORT_TOOLMAIN_H
