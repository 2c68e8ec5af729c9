//===-- FileSystemTest.cpp - tests for kevin/Support/FileSystem.h --------===//
#include "kevin/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace kevin;

namespace {

class FileSystemTest : public testing::Test {
protected:
  void SetUp() override {
    char Template[] = "/tmp/kevin-fs-test-XXXXXX";
    ASSERT_NE(::mkdtemp(Template), nullptr);
    Dir = Template;
  }
  void TearDown() override {
    std::string Command = "rm -rf '" + Dir + "'";
    ASSERT_EQ(std::system(Command.c_str()), 0);
  }
  /// The names in Dir.
  std::vector<std::string> entries() const {
    std::vector<std::string> Names;
    DIR *D = ::opendir(Dir.c_str());
    while (dirent *E = ::readdir(D))
      if (std::string(E->d_name) != "." && std::string(E->d_name) != "..")
        Names.push_back(E->d_name);
    ::closedir(D);
    return Names;
  }
  std::string Dir;
};

} // namespace

TEST_F(FileSystemTest, ReadsAWholeFile) {
  std::string Path = Dir + "/a.txt";
  std::ofstream(Path, std::ios::binary) << std::string("one\0two\n", 8);
  auto Text = fs::readFile(Path);
  ASSERT_TRUE(Text);
  EXPECT_EQ(*Text, std::string("one\0two\n", 8));
  EXPECT_EQ(fs::readFileOrEmpty(Path), std::string("one\0two\n", 8));
}

TEST_F(FileSystemTest, MissingFileIsAFileAccessError) {
  std::string Path = Dir + "/missing.txt";
  auto Text = fs::readFile(Path);
  ASSERT_FALSE(Text);
  EXPECT_EQ(Text.error().message(), "cannot open file");
  EXPECT_EQ(Text.error().location().File, Path);
  EXPECT_EQ(Text.error().kind(), ErrorKind::FileAccess);
  EXPECT_EQ(fs::readFileOrEmpty(Path), "");
}

TEST_F(FileSystemTest, WritesAtomicallyAndLeavesNoTemporary) {
  std::string Path = Dir + "/out.json";
  ASSERT_FALSE(fs::writeFileAtomically(Path, "first\n"));
  ASSERT_FALSE(fs::writeFileAtomically(Path, "second\n"));
  EXPECT_EQ(fs::readFileOrEmpty(Path), "second\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.json"});
  ASSERT_FALSE(fs::writeFileAtomically(Path, ""));
  EXPECT_EQ(fs::readFileOrEmpty(Path), "");
}

TEST_F(FileSystemTest, WriteFailureIsAFileAccessError) {
  std::string Path = Dir + "/no/such/dir/out.json";
  Error E = fs::writeFileAtomically(Path, "x");
  ASSERT_TRUE(E);
  EXPECT_EQ(E.message(), "cannot write file: No such file or directory");
  EXPECT_EQ(E.location().File, Path);
  EXPECT_EQ(E.kind(), ErrorKind::FileAccess);

  // Over a directory: the rename fails and the temporary file goes.
  std::string Sub = Dir + "/sub";
  ASSERT_EQ(::mkdir(Sub.c_str(), 0755), 0);
  ASSERT_FALSE(::mkdir((Sub + "/x").c_str(), 0755));
  EXPECT_TRUE(fs::writeFileAtomically(Sub, "x"));
  EXPECT_EQ(entries(), std::vector<std::string>{"sub"});
}

TEST_F(FileSystemTest, TreeBytesCountsFilesInSubdirectories) {
  ASSERT_FALSE(fs::writeFileAtomically(Dir + "/a", std::string(100, 'x')));
  ASSERT_EQ(::mkdir((Dir + "/sub").c_str(), 0700), 0);
  ASSERT_FALSE(fs::writeFileAtomically(Dir + "/sub/b", std::string(23, 'y')));
  EXPECT_EQ(fs::treeBytes(Dir), 123u);
  EXPECT_EQ(fs::treeBytes(Dir + "/sub/b"), 23u);
  EXPECT_EQ(fs::treeBytes(Dir + "/missing"), 0u);
}

TEST(FileSystemSelfTest, FindsTheRunningExecutable) {
  std::string Self = fs::selfExecutablePath();
  ASSERT_FALSE(Self.empty());
  EXPECT_EQ(Self[0], '/');
  EXPECT_NE(Self.find("SupportTests"), std::string::npos);
  std::string Dir = fs::selfExecutableDirectory();
  EXPECT_EQ(Self.substr(0, Dir.size() + 1), Dir + "/");
  EXPECT_EQ(Self.find('/', Dir.size() + 1), std::string::npos);
}

TEST_F(FileSystemTest, ADirectoryCannotBeRead) {
  auto Text = fs::readFile(Dir);
  ASSERT_FALSE(Text);
  EXPECT_EQ(Text.error().message(), "cannot read file");
  EXPECT_EQ(Text.error().kind(), ErrorKind::FileAccess);
  auto System = fs::readFileWithSystemMessage(Dir);
  ASSERT_FALSE(System);
  EXPECT_EQ(System.error().message(), "Is a directory");
  auto Missing = fs::readFileWithSystemMessage(Dir + "/missing");
  ASSERT_FALSE(Missing);
  EXPECT_EQ(Missing.error().message(), "No such file or directory");
  EXPECT_EQ(Missing.error().location().File, Dir + "/missing");
}
