//===-- ShellWordsTest.cpp - flags as the shell splits them ---------------===//
//
// The words torch's build line gives the compiler for load_inline's extra
// flags: the builder passes them, kevin-check judges them.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/ShellWords.h"

#include <gtest/gtest.h>

using namespace kevin;

namespace {

using Words = std::vector<std::string>;

TEST(ShellWordsTest, ExtraFlagsAreSplitAsTheShellSplitsThem) {
  // extra_cflags=[""], common in published answers, is no flag at all.
  EXPECT_EQ(shellWords({""}), Words{});
  EXPECT_EQ(shellWords({"", "-O3"}), Words{"-O3"});
  EXPECT_EQ(shellWords({"-O3 --use_fast_math"}),
            (Words{"-O3", "--use_fast_math"}));
  EXPECT_EQ(shellWords({"  -DA=1\t-DB=2 "}), (Words{"-DA=1", "-DB=2"}));
  // Quotes group, backslashes escape, nothing is expanded.
  EXPECT_EQ(shellWords({"-DNAME='a b'"}), Words{"-DNAME=a b"});
  EXPECT_EQ(shellWords({"-DS=\"x \\\"y\\\" $HOME\""}),
            Words{"-DS=x \"y\" $HOME"});
  EXPECT_EQ(shellWords({"-DP=a\\ b"}), Words{"-DP=a b"});
  EXPECT_EQ(shellWords({"''"}), Words{""});
}

} // namespace
