//===-- DeviceTest.cpp - tests for kevin/Support/Device.h ----------------===//
#include "kevin/Support/Device.h"

#include <gtest/gtest.h>

using namespace kevin;

TEST(DeviceTest, ParsesTheThreeForms) {
  auto Cpu = Device::parse("cpu");
  ASSERT_TRUE(Cpu);
  EXPECT_TRUE(Cpu->isCpu());
  EXPECT_FALSE(Cpu->isCuda());
  EXPECT_FALSE(Cpu->index());
  EXPECT_EQ(Cpu->str(), "cpu");

  auto Cuda = Device::parse("cuda");
  ASSERT_TRUE(Cuda);
  EXPECT_TRUE(Cuda->isCuda());
  EXPECT_FALSE(Cuda->index());
  EXPECT_EQ(Cuda->str(), "cuda");

  auto Third = Device::parse("cuda:3");
  ASSERT_TRUE(Third);
  EXPECT_TRUE(Third->isCuda());
  EXPECT_EQ(Third->index(), 3u);
  EXPECT_EQ(Third->str(), "cuda:3");
  EXPECT_EQ(*Third, Device::cuda(3));
  EXPECT_NE(*Third, Device::cuda());

  auto Ten = Device::parse("cuda:10");
  ASSERT_TRUE(Ten);
  EXPECT_EQ(Ten->index(), 10u);
}

TEST(DeviceTest, RejectsEverythingElse) {
  for (const char *Bad :
       {"", "cudafoo", "cuda:", "cuda:-1", "cuda:+1", "cuda:1x", "cuda: 1",
        "cuda:0x1", "CUDA", "Cpu", " cpu", "cpu ", "cuda:99999999999999999999",
        "tpu", "cuda:0,cuda:1"}) {
    auto D = Device::parse(Bad);
    ASSERT_FALSE(D) << Bad;
    EXPECT_EQ(D.error().message(), "invalid device '" + std::string(Bad) +
                                       "': expected cpu, cuda or cuda:N");
    EXPECT_EQ(D.error().kind(), ErrorKind::InvalidInput);
  }
}

TEST(DeviceTest, IsCudaDevice) {
  EXPECT_TRUE(isCudaDevice("cuda"));
  EXPECT_TRUE(isCudaDevice("cuda:1"));
  EXPECT_FALSE(isCudaDevice("cpu"));
  EXPECT_FALSE(isCudaDevice("cudafoo"));
  EXPECT_FALSE(isCudaDevice(""));
}

TEST(DeviceTest, ParsesLists) {
  auto One = parseDeviceList("cpu");
  ASSERT_TRUE(One);
  ASSERT_EQ(One->size(), 1u);
  EXPECT_TRUE((*One)[0].isCpu());

  auto Two = parseDeviceList("cuda:0,,cuda:1,");
  ASSERT_TRUE(Two);
  ASSERT_EQ(Two->size(), 2u);
  EXPECT_EQ((*Two)[0].str(), "cuda:0");
  EXPECT_EQ((*Two)[1].str(), "cuda:1");

  auto None = parseDeviceList(",");
  ASSERT_TRUE(None);
  EXPECT_TRUE(None->empty());

  auto Bad = parseDeviceList("cuda:0,gpu1");
  ASSERT_FALSE(Bad);
  EXPECT_EQ(Bad.error().message(),
            "invalid device 'gpu1': expected cpu, cuda or cuda:N");
}
