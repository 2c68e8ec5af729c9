//===-- CopyFileTest.cpp - tests for copyFile in kevin/Exec/WorkerProcess.h -===//
//
// A copy onto a full disk is kevin's failure (ErrorKind::Internal), so the
// engine reports it as an error instead of blaming the candidate. The full
// disk is a 64 KiB tmpfs mounted in a child's own user and mount namespaces.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/WorkerProcess.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <fstream>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace kevin;

namespace {

std::string tempPath(const std::string &Name) {
  return ::testing::TempDir() + "/kevin-copyfile-" + Name;
}

void writeBytes(const std::string &Path, size_t Bytes) {
  std::ofstream Out(Path, std::ios::binary);
  Out << std::string(Bytes, 'x');
}

bool writeFile(const char *Path, const std::string &Text) {
  int Fd = ::open(Path, O_WRONLY);
  if (Fd < 0)
    return false;
  bool Ok = ::write(Fd, Text.data(), Text.size()) ==
            static_cast<ssize_t>(Text.size());
  ::close(Fd);
  return Ok;
}

/// What the child saw copying onto a full tmpfs.
enum ChildExit { InternalError = 10, OtherError, Copied, NoNamespace };

TEST(CopyFileTest, CopiesAndReportsAMissingSourceAsOther) {
  std::string From = tempPath("from"), To = tempPath("to");
  writeBytes(From, 4096);
  EXPECT_FALSE(copyFile(From, To));
  std::ifstream In(To, std::ios::binary | std::ios::ate);
  EXPECT_EQ(In.tellg(), 4096);
  Error Missing = copyFile(tempPath("absent"), To);
  ASSERT_TRUE(Missing);
  EXPECT_EQ(Missing.kind(), ErrorKind::Other);
}

TEST(CopyFileTest, AFullDiskIsKevinsFailure) {
  std::string From = tempPath("big"), Mount = tempPath("full");
  writeBytes(From, 1 << 20);
  ::mkdir(Mount.c_str(), 0700);
  uid_t Uid = ::getuid();
  gid_t Gid = ::getgid();
  pid_t Child = ::fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0 ||
        !writeFile("/proc/self/setgroups", "deny") ||
        !writeFile("/proc/self/uid_map", "0 " + std::to_string(Uid) + " 1") ||
        !writeFile("/proc/self/gid_map", "0 " + std::to_string(Gid) + " 1") ||
        ::mount("tmpfs", Mount.c_str(), "tmpfs", 0, "size=64k") != 0)
      ::_exit(NoNamespace);
    Error E = copyFile(From, Mount + "/inputs.bin");
    if (!E)
      ::_exit(Copied);
    bool Named = E.message().find("No space left on device") !=
                 std::string::npos;
    ::_exit(E.kind() == ErrorKind::Internal && Named ? InternalError
                                                     : OtherError);
  }
  int Status = 0;
  ASSERT_EQ(::waitpid(Child, &Status, 0), Child);
  ASSERT_TRUE(WIFEXITED(Status));
  if (WEXITSTATUS(Status) == NoNamespace)
    GTEST_SKIP() << "no user and mount namespaces here for a small tmpfs";
  EXPECT_EQ(WEXITSTATUS(Status), InternalError);
}

} // namespace
