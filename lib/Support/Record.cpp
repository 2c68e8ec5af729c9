//===-- Record.cpp - JSON Lines records ----------------------------------===//
//
// Reading, validating and writing kevin's JSON Lines records.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/Record.h"
#include "kevin/Support/FileSystem.h"

#include <cassert>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <unistd.h>

namespace kevin {

RecordReader::RecordReader(std::istream &In, std::string SourceName)
    : In(In), SourceName(std::move(SourceName)) {}

Expected<Json> parseRecordLine(std::string_view Line,
                               const SourceLocation &Where) {
  Json Value = Json::parse(Line, /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (Value.is_discarded()) {
    // Re-parse with exceptions to learn the byte position of the problem.
    SourceLocation Loc = Where;
    std::string Why = "invalid JSON";
    try {
      [[maybe_unused]] Json Unused = Json::parse(Line);
    } catch (const Json::parse_error &E) {
      Loc.Column = static_cast<unsigned>(E.byte ? E.byte : 1);
      std::string What = E.what();
      auto Colon = What.rfind(": ");
      if (Colon != std::string::npos)
        Why += ": " + What.substr(Colon + 2);
    } catch (const Json::exception &E) {
      // A number that overflows a double is an out_of_range error, which
      // carries no position.
      std::string What = E.what();
      auto Bracket = What.find("] ");
      Why += ": " + (Bracket == std::string::npos ? What
                                                  : What.substr(Bracket + 2));
    }
    return Error::at(Loc, Why);
  }
  if (!Value.is_object())
    return Error::at(Where, "a record must be a JSON object, not " +
                                std::string(Value.type_name()));
  auto It = Value.find(SchemaVersionKey);
  if (It != Value.end()) {
    if (!It->is_number_integer())
      return Error::at(Where, std::string("'") + SchemaVersionKey +
                                  "' must be an integer");
    int Version = It->get<int>();
    if (Version < 1 || Version > RecordSchemaVersion)
      return Error::at(Where, "record schema version " +
                                  std::to_string(Version) +
                                  " is not supported (this kevin reads " +
                                  std::to_string(RecordSchemaVersion) + ")");
  }
  return Value;
}

Expected<bool> RecordReader::next(Record &Out) {
  while (std::getline(In, Line)) {
    ++LineNumber;
    if (Line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    SourceLocation Where{SourceName, LineNumber, 0};
    auto Value = parseRecordLine(Line, Where);
    if (!Value)
      return Value.error();
    Out.Value = std::move(*Value);
    Out.Origin = Where;
    return true;
  }
  if (In.bad())
    return Error::inFile(SourceName, "read error");
  return false;
}

Expected<bool> RecordReader::nextFields(Record &Out, const FieldPaths &Paths) {
  while (std::getline(In, Line)) {
    ++LineNumber;
    if (Line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    SourceLocation Where{SourceName, LineNumber, 0};
    auto Value = parseRecordFields(Line, Where, Paths);
    if (!Value)
      return Value.error();
    Out.Value = std::move(*Value);
    Out.Origin = Where;
    return true;
  }
  if (In.bad())
    return Error::inFile(SourceName, "read error");
  return false;
}

const Json *findField(const Json &Value, std::string_view DottedPath) {
  const Json *Node = &Value;
  while (!DottedPath.empty()) {
    auto Dot = DottedPath.find('.');
    std::string Key(DottedPath.substr(0, Dot));
    if (!Node->is_object())
      return nullptr;
    auto It = Node->find(Key);
    if (It == Node->end())
      return nullptr;
    Node = &*It;
    DottedPath = Dot == std::string_view::npos ? std::string_view()
                                               : DottedPath.substr(Dot + 1);
  }
  return Node;
}

Json badLineRecord(const Error &E) {
  return Json{{SchemaVersionKey, RecordSchemaVersion},
              {"input_line", E.location().Line}};
}

bool fieldIsTrue(const Json &Value, std::string_view DottedPath) {
  const Json *Field = findField(Value, DottedPath);
  return Field && Field->is_boolean() && Field->get<bool>();
}

bool fieldIsFalse(const Json &Value, std::string_view DottedPath) {
  const Json *Field = findField(Value, DottedPath);
  return Field && Field->is_boolean() && !Field->get<bool>();
}

std::string fieldString(const Json &Value, std::string_view DottedPath) {
  const Json *Field = findField(Value, DottedPath);
  return Field && Field->is_string() ? Field->get<std::string>() : "";
}

static bool hasKind(const Json &V, JsonKind Kind) {
  switch (Kind) {
  case JsonKind::Any:
    return true;
  case JsonKind::Object:
    return V.is_object();
  case JsonKind::Array:
    return V.is_array();
  case JsonKind::String:
    return V.is_string();
  case JsonKind::Number:
    return V.is_number();
  case JsonKind::Integer:
    return V.is_number_integer();
  case JsonKind::Boolean:
    return V.is_boolean();
  }
  return false;
}

static const char *kindName(JsonKind Kind) {
  switch (Kind) {
  case JsonKind::Any:
    return "a value";
  case JsonKind::Object:
    return "an object";
  case JsonKind::Array:
    return "an array";
  case JsonKind::String:
    return "a string";
  case JsonKind::Number:
    return "a number";
  case JsonKind::Integer:
    return "an integer";
  case JsonKind::Boolean:
    return "a boolean";
  }
  return "a value";
}

std::string describeRecord(const Record &R) {
  auto It = R.Value.find("id");
  if (It != R.Value.end() && It->is_string())
    return "record '" + It->get<std::string>() + "'";
  return "record at line " + std::to_string(R.Origin.Line);
}

Error checkRequiredFields(const Record &R,
                          const std::vector<FieldSpec> &Specs) {
  for (const FieldSpec &Spec : Specs) {
    const Json *Field = findField(R.Value, Spec.Path);
    if (!Field)
      return Error::at(R.Origin, describeRecord(R) +
                                     ": missing required field '" +
                                     Spec.Path + "'");
    if (!hasKind(*Field, Spec.Kind))
      return Error::at(R.Origin, describeRecord(R) + ": field '" + Spec.Path +
                                     "' must be " + kindName(Spec.Kind) +
                                     ", not " + Field->type_name());
  }
  return Error::success();
}

std::string formatRecordLine(const Json &Value) {
  return Value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void RecordWriter::write(const Json &Value) {
  Out << formatRecordLine(Value) << '\n';
  Out.flush();
}

std::string lineWithoutField(std::string_view Line, const Json &Value,
                             const std::string &Key) {
  if (!Value.contains(Key))
    return std::string(Line);
  Json Copy = Value;
  Copy.erase(Key);
  return formatRecordLine(Copy);
}

std::string appendFieldToLine(std::string_view Line, std::string_view Key,
                              std::string_view FieldText) {
  size_t End = Line.find_last_not_of(" \t\r\n");
  assert(End != std::string_view::npos && Line[End] == '}' &&
         "a record line ends with '}'");
  size_t Last = Line.find_last_not_of(" \t\r\n", End - 1);
  bool Empty = Last != std::string_view::npos && Line[Last] == '{';
  std::string Out;
  Out.reserve(End + Key.size() + FieldText.size() + 8);
  Out.append(Line.substr(0, End));
  if (!Empty)
    Out += ',';
  Out += '"';
  Out.append(Key);
  Out += "\":";
  Out.append(FieldText);
  Out += '}';
  return Out;
}

static Error writeAll(int Fd, const std::string &Name, const char *Data,
                      size_t Left) {
  while (Left) {
    ssize_t N = ::write(Fd, Data, Left);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return Error::inFile(Name, std::string("write failed: ") +
                                     std::strerror(errno));
    }
    Data += N;
    Left -= static_cast<size_t>(N);
  }
  return Error::success();
}

LineWriter::LineWriter(int Fd, std::string Name, bool FlushEachLine)
    : Fd(Fd), Name(std::move(Name)), FlushEachLine(FlushEachLine) {}

LineWriter::~LineWriter() { (void)flush(); }

Error LineWriter::writeLine(std::string_view Line) {
  constexpr size_t FlushThreshold = 1 << 16;
  Buffer.append(Line);
  Buffer += '\n';
  if (FlushEachLine || Buffer.size() >= FlushThreshold)
    return flush();
  return Error::success();
}

Error LineWriter::flush() {
  Error Err = writeAll(Fd, Name, Buffer.data(), Buffer.size());
  Buffer.clear();
  return Err;
}

Expected<DurableRecordLog> DurableRecordLog::open(const std::string &Path) {
  int Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (Fd < 0)
    return Error::inFile(Path, std::strerror(errno));
  return DurableRecordLog(Fd, Path);
}

DurableRecordLog::DurableRecordLog(DurableRecordLog &&Other) noexcept
    : Fd(Other.Fd), Path(std::move(Other.Path)) {
  Other.Fd = -1;
}

DurableRecordLog::~DurableRecordLog() {
  if (Fd >= 0)
    ::close(Fd);
}

Error DurableRecordLog::append(const Json &Value) {
  std::string Line = formatRecordLine(Value) + "\n";
  const char *Data = Line.data();
  size_t Left = Line.size();
  while (Left) {
    ssize_t N = ::write(Fd, Data, Left);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return Error::inFile(Path, std::string("write failed: ") +
                                     std::strerror(errno));
    }
    Data += N;
    Left -= static_cast<size_t>(N);
  }
  if (::fsync(Fd) != 0)
    return Error::inFile(Path, std::string("fsync failed: ") +
                                   std::strerror(errno));
  return Error::success();
}

Expected<RecordLog> readRecordLog(const std::string &Path) {
  Expected<std::string> Read = fs::readFileWithSystemMessage(Path);
  if (!Read)
    return Read.error();
  std::string &Text = *Read;
  RecordLog Log;
  if (!Text.empty() && Text.back() != '\n') {
    Text.erase(Text.find_last_of('\n') == std::string::npos
                   ? 0
                   : Text.find_last_of('\n') + 1);
    Log.DroppedTail = true;
  }
  std::istringstream Lines(Text);
  RecordReader Reader(Lines, Path);
  Record R;
  while (true) {
    auto More = Reader.next(R);
    if (!More)
      return More.error();
    if (!*More)
      break;
    Log.Records.push_back(std::move(R));
  }
  return Log;
}

} // namespace kevin
