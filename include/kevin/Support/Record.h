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

/// Reads records one line at a time; blank lines are skipped.
class RecordReader {
public:
  RecordReader(std::istream &In, std::string SourceName);
  /// Reads the next record into Out. Returns false at the end of input, or
  /// an Error for a line that is not a valid record.
  Expected<bool> next(Record &Out);

private:
  std::istream &In;
  std::string SourceName;
  unsigned LineNumber = 0;
};

/// Parses one line as a record (a JSON object of a known schema version).
Expected<Json> parseRecordLine(std::string_view Line,
                               const SourceLocation &Where);

/// Looks up a dotted path; returns nullptr when any step is missing.
const Json *findField(const Json &Value, std::string_view DottedPath);

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
