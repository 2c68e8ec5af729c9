//===-- BuildFlagsTest.cpp - the candidate's extra flags as words ---------===//
//
// load_inline's extra flags reach the compiler through the shell of torch's
// ninja build: kevin's command lines must give the compiler the same words
// (kevin/Support/ShellWords.h).
//
//===----------------------------------------------------------------------===//
#include "BuildFlags.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace kevin;

namespace {

using Words = std::vector<std::string>;

TEST(BuildFlagsTest, TheCompilerGetsTheWords) {
  // extra_cflags=[""], common in published answers, is no flag at all.
  ExtensionSpec Spec;
  Spec.Name = "ext";
  Spec.ExtraCflags = {"", "-O2 -DKEVIN_WORD=1"};
  Spec.ExtraLdflags = {""};
  TorchToolchain Toolchain;
  Words Cxx = cxxFlags(Spec, Toolchain);
  EXPECT_EQ(std::count(Cxx.begin(), Cxx.end(), ""), 0);
  EXPECT_NE(std::find(Cxx.begin(), Cxx.end(), "-DKEVIN_WORD=1"), Cxx.end());
  // The candidate chose -O2, so kevin adds no -O3.
  EXPECT_EQ(std::find(Cxx.begin(), Cxx.end(), "-O3"), Cxx.end());
  Words Link = linkFlags(Spec, Toolchain, /*WithCuda=*/false);
  EXPECT_EQ(std::count(Link.begin(), Link.end(), ""), 0);
}

} // namespace
