//===-- TempDirTest.cpp - tests for TempDir in kevin/Exec/WorkerProcess.h -===//
//
// TempDir::sweepAbandoned removes the work directories of processes that
// ended without removing them (killed), and never one in use, one kept on
// purpose or one made a moment ago.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/WorkerProcess.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sys/wait.h>
#include <unistd.h>

using namespace kevin;

namespace {

bool exists(const std::string &Path) {
  return std::filesystem::exists(Path);
}

/// A TempDir made by a child process that then ends without its
/// destructors, as a killed kevin does; its path.
std::string abandonedDir(size_t Bytes, bool Kept = false) {
  int Pipe[2];
  if (::pipe(Pipe) != 0)
    return "";
  pid_t Child = ::fork();
  if (Child == 0) {
    ::close(Pipe[0]);
    Expected<TempDir> Dir = TempDir::create("kevin-dead");
    std::string Path = Dir ? Dir->path() : "";
    if (Dir && Kept)
      Dir->keep();
    if (Dir) {
      std::ofstream Out(Path + "/inputs.bin", std::ios::binary);
      Out << std::string(Bytes, 'x');
    }
    (void)!::write(Pipe[1], Path.data(), Path.size());
    ::_exit(0);
  }
  ::close(Pipe[1]);
  std::string Path;
  char Buffer[4096];
  for (ssize_t N; (N = ::read(Pipe[0], Buffer, sizeof(Buffer))) > 0;)
    Path.append(Buffer, static_cast<size_t>(N));
  ::close(Pipe[0]);
  int Status = 0;
  ::waitpid(Child, &Status, 0);
  return Path;
}

class TempDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    Root = ::testing::TempDir() + "/kevin-tempdir-" + std::to_string(::getpid());
    std::filesystem::remove_all(Root);
    std::filesystem::create_directories(Root);
    const char *Old = std::getenv("TMPDIR");
    OldTmpdir = Old ? Old : "";
    HadTmpdir = Old != nullptr;
    ::setenv("TMPDIR", Root.c_str(), 1);
  }
  void TearDown() override {
    if (HadTmpdir)
      ::setenv("TMPDIR", OldTmpdir.c_str(), 1);
    else
      ::unsetenv("TMPDIR");
    std::filesystem::remove_all(Root);
  }
  std::string Root, OldTmpdir;
  bool HadTmpdir = false;
};

TEST_F(TempDirTest, SweepsOnlyDirectoriesNoProcessHolds) {
  Expected<TempDir> Live = TempDir::create("kevin-live");
  ASSERT_TRUE(static_cast<bool>(Live));
  std::string KeptPath;
  {
    Expected<TempDir> Kept = TempDir::create("kevin-kept");
    ASSERT_TRUE(static_cast<bool>(Kept));
    Kept->keep();
    KeptPath = Kept->path();
  }
  std::string Stranger = TempDir::sharedParent() + "/not-kevins";
  std::filesystem::create_directories(Stranger);
  std::string Dead = abandonedDir(1 << 20);
  ASSERT_FALSE(Dead.empty());
  // Kept on purpose by a run that was then killed: kept.
  std::string DeadKept = abandonedDir(16, /*Kept=*/true);
  ASSERT_FALSE(DeadKept.empty());
  ASSERT_TRUE(exists(Dead));

  // Made a moment ago: not yet old enough to be judged.
  EXPECT_EQ(TempDir::sweepAbandoned(3600).Removed, 0u);
  EXPECT_TRUE(exists(Dead));

  SweptDirs Swept = TempDir::sweepAbandoned(0);
  EXPECT_EQ(Swept.Removed, 1u);
  EXPECT_GE(Swept.Bytes, uintmax_t(1) << 20);
  EXPECT_FALSE(exists(Dead));
  EXPECT_TRUE(exists(Live->path()));
  EXPECT_TRUE(exists(KeptPath));
  EXPECT_TRUE(exists(DeadKept));
  EXPECT_TRUE(exists(Stranger));
  EXPECT_NE(sweptMessage(Swept).find("removed 1 work directories (1 MiB)"),
            std::string::npos)
      << sweptMessage(Swept);
  EXPECT_EQ(sweptMessage(TempDir::sweepAbandoned(0)), "");
}

TEST_F(TempDirTest, MovedDirectoryStaysLocked) {
  std::optional<TempDir> Moved;
  {
    Expected<TempDir> Made = TempDir::create("kevin-moved");
    ASSERT_TRUE(static_cast<bool>(Made));
    Moved.emplace(std::move(*Made));
  } // The moved-from object is gone: only the move's fd holds the lock.
  EXPECT_EQ(TempDir::sweepAbandoned(0).Removed, 0u);
  EXPECT_TRUE(exists(Moved->path()));
}

TEST_F(TempDirTest, UnmarkedDirectoriesStay) {
  // A kevin that takes no locks (an older release) made it: not swept.
  std::string Unmarked = TempDir::sharedParent() + "/kevin-run.OLDREL";
  std::filesystem::create_directories(Unmarked);
  EXPECT_EQ(TempDir::sweepAbandoned(0).Removed, 0u);
  EXPECT_TRUE(exists(Unmarked));
}

} // namespace
