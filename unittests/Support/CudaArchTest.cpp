//===-- CudaArchTest.cpp - the machine's nvcc target ----------------------===//
//
// nvidia-smi's capabilities read as nvcc targets, and a stand-in for
// nvidia-smi's query read through cudaArchFromCommand.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/CudaArch.h"

#include <gtest/gtest.h>

#include <utility>

using namespace kevin;

TEST(CudaArchTest, CapabilitiesBecomeTargets) {
  // nvidia-smi's lines and the target they name; none for a machine of
  // mixed GPUs or an output that is not a list of capabilities.
  const std::pair<const char *, const char *> Cases[] = {
      {"9.0\n", "sm_90a"},
      {"9.0\n9.0\n", "sm_90a"},
      {"8.6\n", "sm_86"},
      {"10.0\n", "sm_100a"},
      {" 8.0 \n", "sm_80"},
      {"9.0\n8.0\n", ""},
      {"", ""},
      {"[N/A]\n", ""},
      {"No devices were found\n", ""},
      {"99999999999999999999.0\n", ""}};
  for (const auto &[Output, Arch] : Cases)
    EXPECT_EQ(cudaArchFromComputeCaps(Output), Arch) << Output;
}

TEST(CudaArchTest, TheCommandsOutputIsRead) {
  EXPECT_EQ(cudaArchFromCommand({"/bin/sh", "-c", "printf '7.5\\n7.5\\n'"}),
            "sm_75");
  // A failing command or a missing program tells nothing.
  EXPECT_EQ(cudaArchFromCommand({"/bin/sh", "-c", "echo 7.5; exit 9"}), "");
  EXPECT_EQ(cudaArchFromCommand({"/nonexistent/nvidia-smi"}), "");
}

TEST(CudaArchTest, AGivenTargetIsKept) {
  EXPECT_EQ(cudaArchOr("sm_80"), "sm_80");
  EXPECT_EQ(cudaArchOr(""), machineCudaArch());
}
