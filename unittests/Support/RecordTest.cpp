//===-- RecordTest.cpp - tests for kevin/Support/Record.h ----------------===//
#include "kevin/Support/Record.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace kevin;

namespace {

std::vector<Record> readAll(const std::string &Text, Error &Err) {
  std::istringstream In(Text);
  RecordReader Reader(In, "in.jsonl");
  std::vector<Record> Records;
  Record R;
  while (true) {
    auto More = Reader.next(R);
    if (!More) {
      Err = More.error();
      break;
    }
    if (!*More)
      break;
    Records.push_back(R);
  }
  return Records;
}

std::string tempPath(const char *Name) {
  return testing::TempDir() + "/" + Name + "." + std::to_string(::getpid());
}

} // namespace

TEST(RecordTest, ReadsLinesSkippingBlanks) {
  Error Err;
  auto Records = readAll("{\"id\":\"a\"}\n\n  \n{\"id\":\"b\",\"x\":1}\n", Err);
  ASSERT_FALSE(Err);
  ASSERT_EQ(Records.size(), 2u);
  EXPECT_EQ(Records[1].Value["x"], 1);
  EXPECT_EQ(Records[1].Origin.Line, 4u);
  EXPECT_EQ(Records[1].Origin.File, "in.jsonl");
}

TEST(RecordTest, InvalidJsonNamesLineAndColumn) {
  Error Err;
  auto Records = readAll("{\"id\":\"a\"}\n{\"id\": tru}\n", Err);
  ASSERT_TRUE(Err);
  EXPECT_EQ(Records.size(), 1u);
  EXPECT_EQ(Err.location().File, "in.jsonl");
  EXPECT_EQ(Err.location().Line, 2u);
  EXPECT_GT(Err.location().Column, 0u);
  EXPECT_NE(Err.message().find("invalid JSON"), std::string::npos);
}

TEST(RecordTest, NonObjectIsAnError) {
  Error Err;
  readAll("[1,2]\n", Err);
  ASSERT_TRUE(Err);
  EXPECT_EQ(Err.message(), "a record must be a JSON object, not array");
}

TEST(RecordTest, SchemaVersionIsChecked) {
  Error Err;
  readAll("{\"schema_version\":1}\n", Err);
  EXPECT_FALSE(Err);
  readAll("{\"schema_version\":7}\n", Err);
  ASSERT_TRUE(Err);
  EXPECT_NE(Err.message().find("version 7 is not supported"),
            std::string::npos);
  readAll("{\"schema_version\":\"1\"}\n", Err);
  ASSERT_TRUE(Err);
}

TEST(RecordTest, RequiredFieldsByDottedPath) {
  Error Err;
  auto Records = readAll(
      "{\"id\":\"t1\",\"run\":{\"correct\":true,\"outcome\":\"ok\"}}\n", Err);
  ASSERT_EQ(Records.size(), 1u);
  const Record &R = Records[0];
  EXPECT_FALSE(checkRequiredFields(
      R, {{"run.correct", JsonKind::Boolean}, {"id", JsonKind::String}}));
  Error Missing = checkRequiredFields(R, {{"bench.speedup", JsonKind::Number}});
  ASSERT_TRUE(Missing);
  EXPECT_EQ(Missing.message(),
            "record 't1': missing required field 'bench.speedup'");
  EXPECT_EQ(Missing.location().Line, 1u);
  Error Wrong = checkRequiredFields(R, {{"run.outcome", JsonKind::Number}});
  ASSERT_TRUE(Wrong);
  EXPECT_EQ(Wrong.message(),
            "record 't1': field 'run.outcome' must be a number, not string");
}

TEST(RecordTest, UnknownFieldsPassThroughInOrder) {
  std::string Line =
      "{\"zeta\":1,\"alpha\":{\"nested\":[1,2,{\"k\":null}]},\"id\":\"x\"}";
  auto Value = parseRecordLine(Line, {"s", 1, 0});
  ASSERT_TRUE(Value);
  (*Value)["reward"] = Json{{"score", 1.5}};
  EXPECT_EQ(formatRecordLine(*Value),
            "{\"zeta\":1,\"alpha\":{\"nested\":[1,2,{\"k\":null}]},\"id\":\"x\","
            "\"reward\":{\"score\":1.5}}");
}

TEST(RecordTest, InvalidUtf8IsReplacedNotThrown) {
  Json V = {{"text", std::string("a\xff" "b")}};
  std::string Out = formatRecordLine(V);
  EXPECT_NE(Out.find("a\xEF\xBF\xBD" "b"), std::string::npos);
}

TEST(RecordTest, DurableLogAppendsAndDropsTornTail) {
  std::string Path = tempPath("durable.jsonl");
  std::remove(Path.c_str());
  {
    auto Log = DurableRecordLog::open(Path);
    ASSERT_TRUE(Log);
    EXPECT_FALSE(Log->append(Json{{"turn", 1}}));
    EXPECT_FALSE(Log->append(Json{{"turn", 2}}));
  }
  {
    // Simulate a write cut short by SIGKILL.
    std::ofstream Out(Path, std::ios::app);
    Out << "{\"turn\": 3, \"resp";
  }
  auto Log = readRecordLog(Path);
  ASSERT_TRUE(Log);
  EXPECT_TRUE(Log->DroppedTail);
  ASSERT_EQ(Log->Records.size(), 2u);
  EXPECT_EQ(Log->Records[1].Value["turn"], 2);
  std::remove(Path.c_str());
}

TEST(RecordTest, MissingLogFileIsAnError) {
  auto Log = readRecordLog("/nonexistent/kevin/log.jsonl");
  ASSERT_FALSE(Log);
  EXPECT_EQ(Log.error().location().File, "/nonexistent/kevin/log.jsonl");
}

TEST(RecordTest, NumberOverflowIsAnErrorNotAnException) {
  auto Value = parseRecordLine(R"({"x":1e999})", {"in.jsonl", 3, 0});
  ASSERT_FALSE(Value);
  EXPECT_EQ(Value.error().message(),
            "invalid JSON: number overflow parsing '1e999'");
}

TEST(RecordTest, FieldsAreReadWithoutTheRest) {
  FieldPaths Paths({"id", "run.correct", "bench.speedup", "missing.x", "list",
                    "esc"});
  SourceLocation Where{"in.jsonl", 4, 0};
  auto Fields = parseRecordFields(
      R"({"id":"a","run":{"stage":"x","correct":true},"other":[1,{"run":2}],)"
      R"("bench":{"speedup":1.25e0},"list":[1, 2],"esc":"q\"\u00e9\ud83d\ude00",)"
      R"("schema_version":1})",
      Where, Paths);
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_EQ((*Fields)["id"], "a");
  EXPECT_EQ((*Fields)["run"]["correct"], true);
  EXPECT_FALSE((*Fields)["run"].contains("stage"));
  EXPECT_EQ((*Fields)["bench"]["speedup"], 1.25);
  EXPECT_EQ((*Fields)["list"], Json::parse("[1,2]"));
  EXPECT_EQ((*Fields)["esc"], "q\"\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_FALSE(Fields->contains("other"));
  EXPECT_FALSE(Fields->contains("missing"));
}

TEST(RecordTest, FieldReadingRejectsWhatTheParserRejects) {
  FieldPaths Paths({"id"});
  SourceLocation Where{"in.jsonl", 9, 0};
  for (const char *Bad :
       {R"({"id":"a",})", R"({"id":"a"} x)", R"({"id":tru})",
        R"({"id":"\ud800"})", "{\"id\":\"\xff\"}", R"({"id":01})",
        R"({"id":1e999})", R"({"id":NaN})", R"([1])", "{\"id\":\"a\tb\"}",
        R"({"schema_version":2})"}) {
    auto Fields = parseRecordFields(Bad, Where, Paths);
    auto Full = parseRecordLine(Bad, Where);
    ASSERT_FALSE(Fields) << Bad;
    ASSERT_FALSE(Full) << Bad;
    EXPECT_EQ(Fields.error().message(), Full.error().message()) << Bad;
    EXPECT_EQ(Fields.error().location().Line, 9u);
  }
  // What the scanner leaves to the parser still reads the same.
  auto Bom = parseRecordFields("\xef\xbb\xbf{\"id\":\"b\"}", Where, Paths);
  ASSERT_TRUE(Bom);
  EXPECT_EQ((*Bom)["id"], "b");
}

TEST(RecordTest, SectionsAreAppendedToTheLineAsItCame) {
  EXPECT_EQ(appendFieldToLine(R"({"a": 1 }  )", "reward", R"({"s":1})"),
            R"({"a": 1 ,"reward":{"s":1}})");
  EXPECT_EQ(appendFieldToLine("{ }", "grpo", "{}"), R"({ "grpo":{}})");
  Json Value = Json::parse(R"({"a":1,"reward":{"old":true},"b":2})");
  EXPECT_EQ(lineWithoutField("ignored", Value, "reward"), R"({"a":1,"b":2})");
  EXPECT_EQ(lineWithoutField("kept", Value, "grpo"), "kept");
}

TEST(RecordTest, LineWriterWritesWholeLines) {
  std::string Path = tempPath("lines");
  FILE *File = std::fopen(Path.c_str(), "w");
  ASSERT_NE(File, nullptr);
  {
    LineWriter Out(fileno(File), Path, /*FlushEachLine=*/false);
    EXPECT_FALSE(Out.writeLine("{\"n\":1}"));
    EXPECT_FALSE(Out.writeRecord(Json::parse(R"({"n":2})")));
    // Nothing is written until the buffer fills or is flushed.
    std::ifstream Before(Path);
    EXPECT_EQ(Before.peek(), std::ifstream::traits_type::eof());
  }
  std::fclose(File);
  std::ifstream After(Path);
  std::stringstream Text;
  Text << After.rdbuf();
  EXPECT_EQ(Text.str(), "{\"n\":1}\n{\"n\":2}\n");
  std::remove(Path.c_str());
}

TEST(RecordTest, ReaderKeepsTheLineText) {
  std::istringstream In("\n{\"id\": \"a\", \"x\": [1]}\n");
  RecordReader Reader(In, "in.jsonl");
  Record R;
  auto More = Reader.nextFields(R, FieldPaths({"id"}));
  ASSERT_TRUE(More && *More);
  EXPECT_EQ(Reader.line(), "{\"id\": \"a\", \"x\": [1]}");
  EXPECT_EQ(R.Value, Json::parse(R"({"id":"a"})"));
  EXPECT_EQ(R.Origin.Line, 2u);
}
