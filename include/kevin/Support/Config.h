//===-- kevin/Support/Config.h - TOML configuration files -------*- C++ -*-===//
//
// kevin.toml, check policies and prompt templates are TOML files read with
// toml++ (built without exceptions). A syntax error, a value of the wrong
// type or an unknown key is an Error at `file:line:col`, so a typo in a
// policy is never silently ignored.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_CONFIG_H
#define KEVIN_SUPPORT_CONFIG_H

#include "kevin/Support/Error.h"

#include <toml++/toml.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kevin {

/// A parsed TOML document and the name of the file it came from.
class ConfigFile {
public:
  /// Reads and parses a file.
  static Expected<ConfigFile> load(const std::string &Path);
  /// Parses text; Name is used in error positions.
  static Expected<ConfigFile> parse(std::string_view Text, std::string Name);

  const toml::table &table() const { return Table; }
  const std::string &name() const { return Name; }

  /// The location of a node, for diagnostics.
  SourceLocation locationOf(const toml::node &Node) const;

  /// Reads an optional value at a dotted path (`bench.warmup`). Absent gives
  /// std::nullopt; a value of another type is an error at its position.
  /// Integers are accepted where a double is asked for.
  Expected<std::optional<std::string>> getString(std::string_view Path) const;
  Expected<std::optional<int64_t>> getInteger(std::string_view Path) const;
  Expected<std::optional<double>> getDouble(std::string_view Path) const;
  Expected<std::optional<bool>> getBoolean(std::string_view Path) const;
  Expected<std::optional<std::vector<std::string>>>
  getStringArray(std::string_view Path) const;

  /// Rejects keys of the table at Path (the root when empty) that are not in
  /// Known, naming the first unknown key at its position.
  Error rejectUnknownKeys(std::string_view Path,
                          std::initializer_list<std::string_view> Known) const;

private:
  ConfigFile(toml::table Table, std::string Name)
      : Table(std::move(Table)), Name(std::move(Name)) {}
  template <typename T>
  Expected<std::optional<T>> getValue(std::string_view Path,
                                      const char *TypeName) const;
  toml::table Table;
  std::string Name;
};

} // namespace kevin

#endif // KEVIN_SUPPORT_CONFIG_H
