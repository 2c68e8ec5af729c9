//===-- Config.cpp - TOML configuration files ----------------------------===//
//
// toml++ parse results and typed lookups turned into positioned Errors.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/Config.h"
#include "kevin/Support/FileSystem.h"

namespace kevin {

Expected<ConfigFile> ConfigFile::parse(std::string_view Text,
                                       std::string Name) {
  toml::parse_result Result = toml::parse(Text, Name);
  if (!Result) {
    const toml::parse_error &E = Result.error();
    SourceLocation Loc{Name, static_cast<unsigned>(E.source().begin.line),
                       static_cast<unsigned>(E.source().begin.column)};
    return Error::at(Loc, std::string(E.description()));
  }
  return ConfigFile(std::move(Result).table(), std::move(Name));
}

Expected<ConfigFile> ConfigFile::load(const std::string &Path) {
  Expected<std::string> Text = fs::readFileWithSystemMessage(Path);
  if (!Text)
    return Text.error();
  return parse(*Text, Path);
}

SourceLocation ConfigFile::locationOf(const toml::node &Node) const {
  return SourceLocation{Name, static_cast<unsigned>(Node.source().begin.line),
                        static_cast<unsigned>(Node.source().begin.column)};
}

template <typename T>
Expected<std::optional<T>> ConfigFile::getValue(std::string_view Path,
                                                const char *TypeName) const {
  toml::node_view<const toml::node> View = Table.at_path(Path);
  if (!View)
    return std::optional<T>();
  std::optional<T> Value = View.value_exact<T>();
  if constexpr (std::is_same_v<T, double>) {
    if (!Value && View.is_integer())
      Value = static_cast<double>(*View.value<int64_t>());
  }
  if (!Value)
    return Error::at(locationOf(*View.node()),
                     "'" + std::string(Path) + "' must be " + TypeName);
  return Value;
}

Expected<std::optional<std::string>>
ConfigFile::getString(std::string_view Path) const {
  return getValue<std::string>(Path, "a string");
}

Expected<std::optional<int64_t>>
ConfigFile::getInteger(std::string_view Path) const {
  return getValue<int64_t>(Path, "an integer");
}

Expected<std::optional<double>>
ConfigFile::getDouble(std::string_view Path) const {
  return getValue<double>(Path, "a number");
}

Expected<std::optional<bool>>
ConfigFile::getBoolean(std::string_view Path) const {
  return getValue<bool>(Path, "a boolean");
}

Expected<std::optional<std::vector<std::string>>>
ConfigFile::getStringArray(std::string_view Path) const {
  using Result = std::optional<std::vector<std::string>>;
  toml::node_view<const toml::node> View = Table.at_path(Path);
  if (!View)
    return Result();
  const toml::array *Array = View.as_array();
  if (!Array)
    return Error::at(locationOf(*View.node()),
                     "'" + std::string(Path) + "' must be an array of strings");
  std::vector<std::string> Values;
  for (const toml::node &Element : *Array) {
    std::optional<std::string> S = Element.value_exact<std::string>();
    if (!S)
      return Error::at(locationOf(Element), "'" + std::string(Path) +
                                                "' must hold only strings");
    Values.push_back(std::move(*S));
  }
  return Result(std::move(Values));
}

Error ConfigFile::rejectUnknownKeys(
    std::string_view Path,
    std::initializer_list<std::string_view> Known) const {
  const toml::table *Section = &Table;
  if (!Path.empty()) {
    toml::node_view<const toml::node> View = Table.at_path(Path);
    if (!View)
      return Error::success();
    Section = View.as_table();
    if (!Section)
      return Error::at(locationOf(*View.node()),
                       "'" + std::string(Path) + "' must be a table");
  }
  for (const auto &[Key, Node] : *Section) {
    bool IsKnown = false;
    for (std::string_view K : Known)
      IsKnown |= Key.str() == K;
    if (!IsKnown) {
      SourceLocation Loc = Key.source().begin.line ? SourceLocation{
          Name, static_cast<unsigned>(Key.source().begin.line),
          static_cast<unsigned>(Key.source().begin.column)}
                                                   : locationOf(Node);
      std::string Where = Path.empty() ? "" : " in [" + std::string(Path) + "]";
      return Error::at(Loc, "unknown key '" + std::string(Key.str()) + "'" +
                                Where);
    }
  }
  return Error::success();
}

} // namespace kevin
