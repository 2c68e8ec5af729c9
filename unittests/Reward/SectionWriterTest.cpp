//===-- SectionWriterTest.cpp - tests for kevin/Reward/SectionWriter.h ----===//
#include "kevin/Reward/SectionWriter.h"
#include "kevin/Support/Record.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace kevin;

TEST(SectionWriterTest, WritesValidJson) {
  SectionWriter W;
  W.number("a", 0.1 + 0.2)
      .number("b", 2)
      .number("c", NAN)
      .integer("d", -4)
      .boolean("e", true)
      .null("f")
      .raw("g", "[1,\"x\"]");
  std::string Text = W.finish();
  EXPECT_EQ(
      Text,
      R"({"a":0.3,"b":2.0,"c":null,"d":-4,"e":true,"f":null,"g":[1,"x"]})");
  EXPECT_EQ(Json::parse(Text)["g"][1], "x");
  EXPECT_EQ(SectionWriter().finish(), "{}");
}

TEST(SectionWriterTest, NumbersRoundTripAtFifteenDigits) {
  for (double V : {1e-7, 123456789.125, -0.000123, 1e300, 0.72}) {
    std::string Text;
    appendNumber(Text, V);
    double Back = Json::parse(Text).get<double>();
    EXPECT_NEAR(Back, V, std::abs(V) * 1e-14) << Text;
  }
}
