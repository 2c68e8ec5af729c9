//===-- ToolIOTest.cpp - tests for kevin/Support/ToolIO.h ----------------===//
#include "kevin/Support/ToolIO.h"
#include "kevin/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <unistd.h>

using namespace kevin;

namespace {

class ToolIOTest : public testing::Test {
protected:
  void SetUp() override {
    char Template[] = "/tmp/kevin-toolio-test-XXXXXX";
    ASSERT_NE(::mkdtemp(Template), nullptr);
    Dir = Template;
  }
  void TearDown() override {
    std::string Command = "rm -rf '" + Dir + "'";
    ASSERT_EQ(std::system(Command.c_str()), 0);
  }
  std::string Dir;
};

/// A filter that copies each line as it is.
Error copyLines(std::istream &In, const std::string &, LineWriter &Out) {
  for (std::string Line; std::getline(In, Line);)
    if (Error Err = Out.writeLine(Line))
      return Err;
  return Error::success();
}

} // namespace

TEST_F(ToolIOTest, NamesStdinAndStdout) {
  auto In = ToolInput::open("-");
  ASSERT_TRUE(In);
  EXPECT_EQ(In->name(), "<stdin>");
  EXPECT_FALSE(In->isFile());
  auto Out = ToolOutput::open("-");
  ASSERT_TRUE(Out);
  EXPECT_EQ(Out->name(), "<stdout>");
  EXPECT_EQ(Out->fd(), STDOUT_FILENO);
}

TEST_F(ToolIOTest, MissingInputAndUnwritableOutput) {
  auto In = ToolInput::open(Dir + "/missing.jsonl");
  ASSERT_FALSE(In);
  EXPECT_EQ(In.error().message(), "No such file or directory");
  EXPECT_EQ(In.error().location().File, Dir + "/missing.jsonl");
  auto Out = ToolOutput::open(Dir + "/no/such/out.jsonl");
  ASSERT_FALSE(Out);
  EXPECT_EQ(Out.error().message(), "No such file or directory");
  auto Full = ToolOutput::open("/dev/full");
  ASSERT_TRUE(Full);
  Error Err = Full->write("x\n");
  ASSERT_TRUE(Err);
  EXPECT_EQ(Err.message(), "No space left on device");
  EXPECT_EQ(Err.location().File, "/dev/full");
}

TEST_F(ToolIOTest, RunsAFilterFromFileToFile) {
  std::string Input = Dir + "/in.jsonl", Output = Dir + "/out.jsonl";
  std::ofstream(Input) << "{\"a\":1}\n{\"b\":2}\n";
  std::string Source;
  ASSERT_FALSE(runRecordFilter(
      Input, Output,
      [&](std::istream &In, const std::string &Name, LineWriter &Out) {
        Source = Name;
        return copyLines(In, Name, Out);
      }));
  EXPECT_EQ(Source, Input);
  EXPECT_EQ(fs::readFileOrEmpty(Output), "{\"a\":1}\n{\"b\":2}\n");
}

TEST_F(ToolIOTest, FilterErrorsWinAndWhatWasWrittenStays) {
  std::string Input = Dir + "/in.jsonl", Output = Dir + "/out.jsonl";
  std::ofstream(Input) << "one\n";
  Error Err = runRecordFilter(
      Input, Output, [](std::istream &, const std::string &, LineWriter &Out) {
        (void)Out.writeLine("kept");
        return Error::make("bad record");
      });
  ASSERT_TRUE(Err);
  EXPECT_EQ(Err.message(), "bad record");
  EXPECT_EQ(fs::readFileOrEmpty(Output), "kept\n");

  // The input is opened first: a missing one leaves the output untouched.
  std::ofstream(Output) << "old\n";
  Err = runRecordFilter(Dir + "/missing", Output, copyLines);
  ASSERT_TRUE(Err);
  EXPECT_EQ(Err.message(), "No such file or directory");
  EXPECT_EQ(fs::readFileOrEmpty(Output), "old\n");
}
