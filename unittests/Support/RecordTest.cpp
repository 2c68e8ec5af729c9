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
