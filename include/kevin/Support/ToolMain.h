//===-- kevin/Support/ToolMain.h - shared command-line plumbing -*- C++ -*-===//
//
// What every kevin tool's main does the same way: the --version text, and
// CLI11 parsing with kevin's exit codes (help and version exit 0, any usage
// error prints one message and exits 2 instead of CLI11's 100+ codes).
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_TOOLMAIN_H
#define KEVIN_SUPPORT_TOOLMAIN_H

#include "kevin/Support/Config.h"
#include "kevin/Support/Error.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kevin {

/// `<tool> (kevin) <version>` followed by the component versions.
std::string versionText(const std::string &ToolName);

/// Adds --version to App. Parses argv; returns std::nullopt when the tool
/// should go on, or the exit code to return right away.
std::optional<int> parseCommandLine(CLI::App &App, int Argc, char **Argv);

/// The items of a comma-separated option value (`--stages check,run`), empty
/// items dropped.
std::vector<std::string> splitCommaList(const std::string &List);

/// Adds an option whose value is one of the names in Choices, stored in
/// Target as the matching value: help shows `--return sum|max (default:
/// sum)` and a wrong value is `--return: mean not in {sum,max}`.
template <typename T>
CLI::Option *addChoiceOption(CLI::App &App, const std::string &Name,
                             T &Target,
                             std::vector<std::pair<std::string, T>> Choices,
                             const std::string &Description) {
  std::vector<std::string> Names;
  std::string Default;
  for (const auto &[Text, Value] : Choices) {
    Names.push_back(Text);
    if (Value == Target)
      Default = Text;
  }
  std::string Text;
  for (const std::string &N : Names)
    Text += (Text.empty() ? "" : "|") + N;
  return App
      .add_option_function<std::string>(
          Name,
          [&Target, Choices](const std::string &Value) {
            for (const auto &Choice : Choices)
              if (Choice.first == Value)
                Target = Choice.second;
          },
          Description + " (default: " + Default + ")")
      ->check(CLI::IsMember(Names))
      ->option_text(Text);
}

/// Sets the options of App that the command line left unset from the keys of
/// the table Section of File (`[reward]` of a kevin.toml), each key named as
/// its option's long name (`gamma = 0.8` for `--gamma`), so that options are
/// bound once and the command line wins over the file. Call it after
/// parseCommandLine. An unknown key or a value an option rejects is an error
/// at its position in the file.
Error applyConfigSection(CLI::App &App, const ConfigFile &File,
                         const std::string &Section);

/// Adds `--config FILE` to App: a TOML file whose table Section holds
/// defaults for App's options (see applyConfigSection).
CLI::Option *addConfigOption(CLI::App &App, std::string &Path,
                             const std::string &Section);

/// Loads the file named by addConfigOption's option, when one was given, and
/// applies its Section.
Error applyConfigFile(CLI::App &App, const std::string &Path,
                      const std::string &Section);

} // namespace kevin

#endif // KEVIN_SUPPORT_TOOLMAIN_H
