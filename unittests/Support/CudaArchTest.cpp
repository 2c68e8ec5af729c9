//===-- CudaArchTest.cpp - the machine's nvcc target ----------------------===//
//
// nvidia-smi's capabilities read as nvcc targets, and the machine's asked of
// a stand-in nvidia-smi first on PATH.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/CudaArch.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

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
}

TEST(CudaArchTest, TheMachineIsAskedOfNvidiaSmi) {
  char Template[] = "/tmp/kevin-cudaarch-XXXXXX";
  ASSERT_NE(::mkdtemp(Template), nullptr);
  std::string Dir = Template, Smi = Dir + "/nvidia-smi";
  std::ofstream(Smi) << "#!/bin/sh\n"
                        "[ \"$1\" = --query-gpu=compute_cap ] || exit 3\n"
                        "printf '9.0\\n9.0\\n'\n";
  ::chmod(Smi.c_str(), 0755);
  std::string Path = Dir + ":" + std::getenv("PATH");
  ::setenv("PATH", Path.c_str(), 1);
  EXPECT_EQ(machineCudaArch(), "sm_90a");
  EXPECT_EQ(cudaArchOr(""), "sm_90a");
  EXPECT_EQ(cudaArchOr("sm_80"), "sm_80");
  ::unlink(Smi.c_str());
  ::rmdir(Dir.c_str());
}
