//===-- CudaArchSettleTest.cpp - a worker's nvcc target, asked late -------===//
//
// A worker given no --cuda-arch keeps a question for its first CUDA build
// (askCudaArchUnlessGiven); settleCudaArch asks it once and takes its answer,
// or keeps the default when the answer is empty. A stand-in question here:
// the H200 answers sm_90a, the default, so the GPU lit test
// (kevin-run/gpu/cuda-arch-fallback.test) cannot tell an answer taken from
// one ignored.
//
//===----------------------------------------------------------------------===//
#include "kevin/Exec/WorkerSupport.h"

#include <gtest/gtest.h>

using namespace kevin;
using namespace kevin::worker;

TEST(CudaArchSettleTest, TheAnswerIsTakenOnce) {
  BuilderState State;
  State.Toolchain.CudaArch = "sm_90a";
  unsigned Asked = 0;
  State.AskCudaArch = [&Asked] {
    ++Asked;
    return std::string("sm_80");
  };
  settleCudaArch(State);
  EXPECT_EQ(State.Toolchain.CudaArch, "sm_80");
  EXPECT_FALSE(State.AskCudaArch);
  settleCudaArch(State);
  EXPECT_EQ(Asked, 1u);
}

TEST(CudaArchSettleTest, NoAnswerKeepsTheDefault) {
  BuilderState State;
  State.Toolchain.CudaArch = "sm_90a";
  State.AskCudaArch = [] { return std::string(); };
  settleCudaArch(State);
  EXPECT_EQ(State.Toolchain.CudaArch, "sm_90a");
  EXPECT_FALSE(State.AskCudaArch);
}

TEST(CudaArchSettleTest, AGivenTargetLeavesNothingToAsk) {
  BuilderState State;
  py::module_ NoPrelude; // not touched when the target is given
  askCudaArchUnlessGiven(State, NoPrelude, "sm_86", "cuda:0");
  EXPECT_FALSE(State.AskCudaArch);
}
