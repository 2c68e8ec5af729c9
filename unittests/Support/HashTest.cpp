//===-- HashTest.cpp - tests for kevin/Support/Hash.h --------------------===//
#include "kevin/Support/Hash.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace kevin;

TEST(HashTest, KnownSha256Vectors) {
  EXPECT_EQ(sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(HashTest, PartsAreFramed) {
  ContentHasher A, B, C;
  A.add("ab").add("c");
  B.add("a").add("bc");
  C.add("ab").add("c");
  std::string HA = A.finish(), HB = B.finish(), HC = C.finish();
  EXPECT_NE(HA, HB);
  EXPECT_EQ(HA, HC);
  EXPECT_EQ(HA.size(), 64u);
}

TEST(HashTest, FilePartEqualsStringPart) {
  std::string Path = testing::TempDir() + "/hash." + std::to_string(::getpid());
  {
    std::ofstream Out(Path, std::ios::binary);
    Out << "kernel source\n";
  }
  ContentHasher FromFile, FromString;
  ASSERT_FALSE(FromFile.addFile(Path));
  FromString.add("kernel source\n");
  EXPECT_EQ(FromFile.finish(), FromString.finish());
  std::remove(Path.c_str());
  ContentHasher Missing;
  EXPECT_TRUE(Missing.addFile(Path));
}
