//===-- TensorFileTest.cpp - tests for kevin/Exec/TensorFile.h ------------===//
#include "kevin/Exec/Compare.h"
#include "kevin/Exec/TensorFile.h"
#include "kevin/Exec/WorkerSupport.h"

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

using namespace kevin;

namespace {

std::string tempPath(const std::string &Name) {
  return ::testing::TempDir() + "/kevin-tensorfile-" + Name;
}

std::string readBytes(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(In)), {});
}

void writeBytes(const std::string &Path, const std::string &Bytes) {
  std::ofstream(Path, std::ios::binary) << Bytes;
}

} // namespace

TEST(TensorFileTest, RoundTripsDtypesShapesAndEmptyTensors) {
  std::string Path = tempPath("roundtrip");
  std::vector<at::Tensor> Ts = {
      at::randn({2, 3}),
      at::arange(4),
      at::randn({3, 5}).to(at::kHalf),
      at::randn({2}).to(at::kBFloat16),
      at::arange(4).gt(1),
      at::empty({0, 7}),
      at::scalar_tensor(2.5, at::kDouble)};
  ASSERT_FALSE(writeTensorFile(Path, Ts));
  Expected<std::vector<at::Tensor>> Back = readTensorFile(Path);
  ASSERT_TRUE(Back) << Back.error().message();
  ASSERT_EQ(Back->size(), Ts.size());
  EXPECT_TRUE(sameBits(Ts, *Back));
  EXPECT_EQ((*Back)[6].dim(), 0);
  EXPECT_FALSE(readTensorFile(Path + ".missing"));
}

TEST(TensorFileTest, LargeTensorsRoundTripThroughHugePageBuffers) {
  // 6 MiB and an odd size: the advised range is the 2 MiB pages inside.
  at::Tensor Empty = emptyHostTensor({3 << 19}, at::kFloat);
  EXPECT_EQ(Empty.numel(), 3 << 19);
  EXPECT_EQ(Empty.scalar_type(), at::kFloat);
  std::string Path = tempPath("large");
  std::vector<at::Tensor> Ts = {
      at::randn({3 << 19}), at::randint(0, 255, {(5 << 20) + 7}, at::kByte)};
  ASSERT_FALSE(writeTensorFile(Path, Ts));
  Expected<std::vector<at::Tensor>> Back = readTensorFile(Path);
  ASSERT_TRUE(Back) << Back.error().message();
  EXPECT_TRUE(sameBits(Ts, *Back));
}

TEST(TensorFileTest, NonContiguousTensorsAreSavedByValue) {
  std::string Path = tempPath("strided");
  at::Tensor T = at::randn({4, 6}).t();
  ASSERT_FALSE(T.is_contiguous());
  ASSERT_FALSE(writeTensorFile(Path, {T}));
  Expected<std::vector<at::Tensor>> Back = readTensorFile(Path);
  ASSERT_TRUE(Back);
  EXPECT_TRUE(at::equal((*Back)[0], T));
  EXPECT_TRUE((*Back)[0].is_contiguous());
}

TEST(TensorFileTest, RefusesSparseTensors) {
  Error E = writeTensorFile(tempPath("sparse"), {at::eye(3).to_sparse()});
  ASSERT_TRUE(E);
  EXPECT_NE(E.message().find("only dense tensors"), std::string::npos);
}

TEST(TensorFileTest, UntrustedFilesAreChecked) {
  std::string Good = tempPath("good");
  ASSERT_FALSE(writeTensorFile(Good, {at::randn({16, 16})}));
  std::string Bytes = readBytes(Good);
  std::string Bad = tempPath("bad");
  auto expectMalformed = [&](const std::string &Content) {
    writeBytes(Bad, Content);
    Expected<std::vector<at::Tensor>> R = readTensorFile(Bad);
    ASSERT_FALSE(R);
    EXPECT_NE(R.error().message().find("malformed tensor file"),
              std::string::npos)
        << R.error().message();
  };
  // Truncated data, a foreign file, a header that claims more bytes.
  expectMalformed(Bytes.substr(0, Bytes.size() - 1));
  expectMalformed("not a tensor file at all");
  std::string Huge = Bytes;
  size_t At = Huge.find("\"sizes\":[16,16]");
  ASSERT_NE(At, std::string::npos);
  Huge.replace(At, 15, "\"sizes\":[16,99]");
  expectMalformed(Huge);
  std::string Negative = Bytes;
  Negative.replace(At, 15, "\"sizes\":[-1,16]");
  expectMalformed(Negative);
}

TEST(TensorFileTest, ReadsStopAtTheCallersLimit) {
  std::string Path = tempPath("limit");
  ASSERT_FALSE(writeTensorFile(Path, {at::zeros({256}), at::zeros({256})}));
  EXPECT_TRUE(readTensorFile(Path, 2048));
  Expected<std::vector<at::Tensor>> R = readTensorFile(Path, 2047);
  ASSERT_FALSE(R);
  EXPECT_NE(R.error().message().find("more than 2047 bytes"),
            std::string::npos);
  EXPECT_EQ(outputReadLimit({at::zeros({256})}), size_t(64) << 20);
  EXPECT_EQ(outputReadLimit({at::zeros({int64_t(1) << 24})}),
            size_t(256) << 20);
}

TEST(TensorFileTest, LazyConjugateAndNegativeViewsAreSavedByValue) {
  std::string Path = tempPath("conj");
  at::Tensor Z = at::randn({5}, at::kComplexFloat);
  at::Tensor Conj = Z.conj(), NegImag = at::imag(Z.conj());
  ASSERT_TRUE(Conj.is_conj());
  ASSERT_FALSE(writeTensorFile(Path, {Conj, NegImag}));
  Expected<std::vector<at::Tensor>> Back = readTensorFile(Path);
  ASSERT_TRUE(Back);
  EXPECT_TRUE(at::equal((*Back)[0], Conj.resolve_conj()));
  EXPECT_TRUE(at::equal((*Back)[1], NegImag.resolve_neg()));
  EXPECT_TRUE(at::equal((*Back)[1], -at::imag(Z)));
}

// Opened, then unlinked: still read (twice, as often as asked); errors name
// the path it was opened by; a moved-from file is not closed twice.
TEST(TensorFileTest, OpenFilesAreReadAfterTheirNameIsGone) {
  std::string Path = tempPath("open");
  at::Tensor T = at::randn({4, 4});
  ASSERT_FALSE(writeTensorFile(Path, {T}));
  Expected<OpenTensorFile> File = OpenTensorFile::open(Path);
  ASSERT_TRUE(File) << File.error().message();
  ASSERT_EQ(::unlink(Path.c_str()), 0);
  OpenTensorFile Moved = std::move(*File);
  for (int Read = 0; Read < 2; ++Read) {
    Expected<std::vector<at::Tensor>> Back = Moved.read();
    ASSERT_TRUE(Back) << Back.error().message();
    ASSERT_EQ(Back->size(), 1u);
    EXPECT_TRUE(at::equal((*Back)[0], T));
  }
  Expected<std::vector<at::Tensor>> Small = Moved.read(8);
  ASSERT_FALSE(Small);
  EXPECT_EQ(Small.error().location().File, Path);
  Expected<OpenTensorFile> Missing = OpenTensorFile::open(Path);
  ASSERT_FALSE(Missing);
  EXPECT_NE(Missing.error().message().find("cannot open tensor file"),
            std::string::npos);
}

TEST(TensorFileTest, TheWorkersReportOfAFailedWriteNamesTheFile) {
  // Under a full disk the record's message is all a user has to go on.
  std::string Dir = tempPath("no-such-dir");
  testing::internal::CaptureStderr();
  EXPECT_FALSE(
      worker::writeTrialTensors(Dir, 0, "outputs", {at::zeros({2})}));
  std::string Said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(Said.rfind("kevin-worker: " + Dir + "/", 0), 0u) << Said;
  EXPECT_NE(Said.find(": error: cannot write tensor file: No such file"),
            std::string::npos)
      << Said;
}

TEST(TensorFileTest, AFailedWriteSaysWhy) {
  at::Tensor T = at::randn({256, 256});
  Error Missing = writeTensorFile(tempPath("no-such-dir") + "/t.kt", {T});
  ASSERT_TRUE(Missing);
  EXPECT_NE(Missing.message().find("cannot write tensor file: No such file"),
            std::string::npos)
      << Missing.message();
  // A file size limit fails the write itself, as a full disk does.
  struct rlimit Old;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &Old), 0);
  auto OldHandler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit Small = Old;
  Small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &Small), 0);
  std::string Path = tempPath("too-large");
  Error TooLarge = writeTensorFile(Path, {T});
  ::setrlimit(RLIMIT_FSIZE, &Old);
  ::signal(SIGXFSZ, OldHandler);
  ASSERT_TRUE(TooLarge);
  EXPECT_NE(TooLarge.message().find("cannot write tensor file: File too large"),
            std::string::npos)
      << TooLarge.message();
  EXPECT_NE(::access((Path + ".tmp").c_str(), F_OK), 0);
}
