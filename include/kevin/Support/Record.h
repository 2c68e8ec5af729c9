//===-- kevin/Support/Record.h - JSON Lines records -------------*- C++ -*-===//
//
// Every kevin tool reads and writes JSON Lines: one record (a JSON object)
// per candidate or per turn. A tool adds its own section (`check`, `build`,
// `run`, `bench`, `reward`, `grpo`) and passes every other field through
// untouched and in order. Records carry `schema_version`; a record from a
// newer major version, a line that is not a JSON object, or a record that
// lacks a field a tool requires is an error naming the source and line.
// The format is documented in docs/RecordFormat.md.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_RECORD_H
#define KEVIN_SUPPORT_RECORD_H

#include "kevin/Support/Error.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace kevin {

/// JSON that keeps the order of keys, so that pass-through is byte-stable.
using Json = nlohmann::ordered_json;

/// The record schema version this kevin reads and writes.
constexpr int RecordSchemaVersion = 1;
constexpr const char *SchemaVersionKey = "schema_version";

/// The JSON kinds a required field may be declared with.
enum class JsonKind { Any, Object, Array, String, Number, Integer, Boolean };

/// A field a tool needs, as a dotted path (`run.outcome`).
struct FieldSpec {
  std::string Path;
  JsonKind Kind = JsonKind::Any;
};

/// A record read from a stream and where it came from.
struct Record {
  Json Value;
  SourceLocation Origin; ///< File (or `<stdin>`) and line.
};

/// A set of dotted field paths (`run.correct`), at most 63, prepared once
/// for RecordReader::nextFields and parseRecordFields.
class FieldPaths {
public:
  explicit FieldPaths(std::vector<std::string> Paths);
  const std::vector<std::string> &paths() const { return Paths; }
  /// The paths split at their dots, plus `schema_version` at the end.
  const std::vector<std::vector<std::string>> &components() const {
    return Components;
  }

private:
  std::vector<std::string> Paths;
  std::vector<std::vector<std::string>> Components;
};

/// Reads records one line at a time; blank lines are skipped.
class RecordReader {
public:
  RecordReader(std::istream &In, std::string SourceName);
  /// Reads the next record into Out. Returns false at the end of input, or
  /// an Error for a line that is not a valid record.
  Expected<bool> next(Record &Out);
  /// Like next(), but Out.Value holds only the fields at Paths (dotted, as
  /// findField takes them) that the record has. The whole line is still
  /// validated as next() does; a fast scanner skips everything else, which
  /// makes reading several times faster for tools that need a few fields.
  Expected<bool> nextFields(Record &Out, const FieldPaths &Paths);
  /// The text of the line the last successful next() parsed.
  const std::string &line() const { return Line; }

private:
  std::istream &In;
  std::string SourceName;
  unsigned LineNumber = 0;
  std::string Line;
};

/// Parses one line as a record (a JSON object of a known schema version).
Expected<Json> parseRecordLine(std::string_view Line,
                               const SourceLocation &Where);

/// Parses one line as parseRecordLine does, keeping only the fields at Paths
/// in the result.
Expected<Json> parseRecordFields(std::string_view Line,
                                 const SourceLocation &Where,
                                 const FieldPaths &Paths);

/// Looks up a dotted path; returns nullptr when any step is missing.
const Json *findField(const Json &Value, std::string_view DottedPath);
/// The record that stands for a stream line that is not a record (E, from
/// RecordReader::next): the schema version and the line's number. The
/// caller adds the section that says why.
Json badLineRecord(const Error &E);
/// Whether the field at a dotted path is the boolean true (a missing field,
/// or one of another kind, is not).
bool fieldIsTrue(const Json &Value, std::string_view DottedPath);
/// Whether the field at a dotted path is the boolean false (a missing field,
/// or one of another kind, is not).
bool fieldIsFalse(const Json &Value, std::string_view DottedPath);
/// The string at a dotted path; "" when it is missing or not a string.
std::string fieldString(const Json &Value, std::string_view DottedPath);

/// Checks that every field in Specs is present with its kind. The error
/// names the record (its `id` when it has one) and the first bad field.
Error checkRequiredFields(const Record &R, const std::vector<FieldSpec> &Specs);

/// A short name for a record in messages: its `id`, else `line N`.
std::string describeRecord(const Record &R);

/// Serialises one record as a single line (no trailing newline). Invalid
/// UTF-8 in strings is replaced rather than thrown on.
std::string formatRecordLine(const Json &Value);

/// Writes records to a stream, one line each, flushed per record.
class RecordWriter {
public:
  explicit RecordWriter(std::ostream &Out) : Out(Out) {}
  void write(const Json &Value);

private:
  std::ostream &Out;
};

/// Returns a record line without its top-level field Key: Line itself when
/// Value (its parsed form) has no such field, else Value re-serialised
/// without it. Tools call this before appendFieldToLine, so that a record
/// that already carries their section (an earlier run) gets a fresh one.
std::string lineWithoutField(std::string_view Line, const Json &Value,
                             const std::string &Key);

/// Appends the field `"Key": FieldText` to a record line that has no field
/// Key, keeping every other byte of the line as it came. Key is a plain
/// identifier (a section name); FieldText is serialised JSON.
std::string appendFieldToLine(std::string_view Line, std::string_view Key,
                              std::string_view FieldText);

/// Writes whole lines to a file descriptor. Lines gather in a buffer that is
/// written when it grows large, on flush() and on destruction; every write(2)
/// ends on a line boundary, so a reader never sees half a record. With
/// FlushEachLine (an interactive terminal), each line is written at once.
class LineWriter {
public:
  LineWriter(int Fd, std::string Name, bool FlushEachLine);
  LineWriter(const LineWriter &) = delete;
  LineWriter &operator=(const LineWriter &) = delete;
  ~LineWriter();
  /// Appends Line and a newline.
  Error writeLine(std::string_view Line);
  Error writeRecord(const Json &Value) {
    return writeLine(formatRecordLine(Value));
  }
  Error flush();

private:
  int Fd;
  std::string Name;
  bool FlushEachLine;
  std::string Buffer;
};

/// Appends records to a file durably: each record is written whole with a
/// single write(2) in O_APPEND mode and fsync'ed before append() returns, so
/// a kill at any point leaves only complete lines (and at worst a torn last
/// line, which readRecordLog drops).
class DurableRecordLog {
public:
  static Expected<DurableRecordLog> open(const std::string &Path);
  DurableRecordLog(DurableRecordLog &&Other) noexcept;
  DurableRecordLog &operator=(DurableRecordLog &&) = delete;
  ~DurableRecordLog();
  Error append(const Json &Value);

private:
  DurableRecordLog(int Fd, std::string Path) : Fd(Fd), Path(std::move(Path)) {}
  int Fd = -1;
  std::string Path;
};

/// Reads every record of a log file written by DurableRecordLog. A final line
/// without a newline (a write cut short by a kill) is dropped and reported in
/// DroppedTail; a malformed line elsewhere is an error.
struct RecordLog {
  std::vector<Record> Records;
  bool DroppedTail = false;
};
Expected<RecordLog> readRecordLog(const std::string &Path);

} // namespace kevin

#endif // KEVIN_SUPPORT_RECORD_H
