//===-- CudaArchTest.cpp - the machine's nvcc target ----------------------===//
//
// nvidia-smi's capabilities read as nvcc targets, and a stand-in for
// nvidia-smi's query read through cudaArchFromCommand.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/CudaArch.h"

#include <gtest/gtest.h>

using namespace kevin;

TEST(CudaArchTest, CapabilitiesBecomeTargets) {
  EXPECT_EQ(cudaArchFromComputeCaps("9.0\n"), "sm_90a");
  EXPECT_EQ(cudaArchFromComputeCaps("9.0\n9.0\n"), "sm_90a");
  EXPECT_EQ(cudaArchFromComputeCaps("8.6\n"), "sm_86");
  EXPECT_EQ(cudaArchFromComputeCaps("10.0\n"), "sm_100a");
  EXPECT_EQ(cudaArchFromComputeCaps(" 8.0 \n"), "sm_80");
}

TEST(CudaArchTest, MixedOrUnreadableMachinesGiveNone) {
  EXPECT_EQ(cudaArchFromComputeCaps("9.0\n8.0\n"), "");
  EXPECT_EQ(cudaArchFromComputeCaps(""), "");
  EXPECT_EQ(cudaArchFromComputeCaps("[N/A]\n"), "");
  EXPECT_EQ(cudaArchFromComputeCaps("No devices were found\n"), "");
  EXPECT_EQ(cudaArchFromComputeCaps("99999999999999999999.0\n"), "");
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
