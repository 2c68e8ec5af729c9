//===-- ConfigTest.cpp - tests for kevin/Support/Config.h ----------------===//
#include "kevin/Support/Config.h"

#include <gtest/gtest.h>

using namespace kevin;

TEST(ConfigTest, SyntaxErrorHasFileLineColumn) {
  auto C = ConfigFile::parse("[bench]\nwarmup = = 3\n", "kevin.toml");
  ASSERT_FALSE(C);
  EXPECT_EQ(C.error().location().File, "kevin.toml");
  EXPECT_EQ(C.error().location().Line, 2u);
  EXPECT_GT(C.error().location().Column, 0u);
}

TEST(ConfigTest, TypedLookups) {
  auto C = ConfigFile::parse("[bench]\nwarmup = 3\nbound = 10\nflush = true\n"
                             "name = \"x\"\nflags = [\"-O3\", \"-g\"]\n",
                             "k.toml");
  ASSERT_TRUE(C);
  auto Warmup = C->getInteger("bench.warmup");
  ASSERT_TRUE(Warmup);
  EXPECT_EQ(**Warmup, 3);
  auto Bound = C->getDouble("bench.bound");
  ASSERT_TRUE(Bound);
  EXPECT_DOUBLE_EQ(**Bound, 10.0);
  auto Flush = C->getBoolean("bench.flush");
  ASSERT_TRUE(Flush);
  EXPECT_TRUE(**Flush);
  auto Flags = C->getStringArray("bench.flags");
  ASSERT_TRUE(Flags);
  EXPECT_EQ((*Flags)->size(), 2u);
  auto Absent = C->getString("bench.missing");
  ASSERT_TRUE(Absent);
  EXPECT_FALSE(Absent->has_value());
}

TEST(ConfigTest, WrongTypeIsPositioned) {
  auto C = ConfigFile::parse("[bench]\n\nwarmup = \"three\"\n", "k.toml");
  ASSERT_TRUE(C);
  auto Warmup = C->getInteger("bench.warmup");
  ASSERT_FALSE(Warmup);
  EXPECT_EQ(Warmup.error().message(), "'bench.warmup' must be an integer");
  EXPECT_EQ(Warmup.error().location().Line, 3u);
  EXPECT_EQ(Warmup.error().location().Column, 10u);
  auto Mixed = ConfigFile::parse("f = [\"a\", 2]\n", "k.toml");
  ASSERT_TRUE(Mixed);
  EXPECT_FALSE(Mixed->getStringArray("f"));
}

TEST(ConfigTest, UnknownKeysAreRejected) {
  auto C = ConfigFile::parse("[bench]\nwarmup = 3\nwarmpu = 4\n", "k.toml");
  ASSERT_TRUE(C);
  Error E = C->rejectUnknownKeys("bench", {"warmup", "trials"});
  ASSERT_TRUE(E);
  EXPECT_EQ(E.message(), "unknown key 'warmpu' in [bench]");
  EXPECT_EQ(E.location().Line, 3u);
  EXPECT_FALSE(C->rejectUnknownKeys("", {"bench"}));
  EXPECT_TRUE(C->rejectUnknownKeys("", {"run"}));
}

TEST(ConfigTest, MissingFileIsAnError) {
  auto C = ConfigFile::load("/nonexistent/kevin.toml");
  ASSERT_FALSE(C);
  EXPECT_EQ(C.error().location().File, "/nonexistent/kevin.toml");
}
