#include "core/sample_codec.h"

#include <gtest/gtest.h>

#include <limits>

namespace edgebench {
namespace {

TEST(SampleCodec, ExactBytes) {
  EXPECT_EQ(EncodeSamples({}), "");
  EXPECT_EQ(EncodeSamples({0}), "AA==");    // varint 0x00
  EXPECT_EQ(EncodeSamples({1}), "Ag==");    // zigzag(1) = 2
  EXPECT_EQ(EncodeSamples({-1}), "AQ==");   // zigzag(-1) = 1
  EXPECT_EQ(EncodeSamples({300}), "2AQ=");  // zigzag 600 = 0xd8 0x04
  EXPECT_EQ(EncodeSamples({300, 300}), "2AQA");  // second delta 0
}

TEST(SampleCodec, RoundTripsExtremesAndDeltasThatOverflow) {
  const std::vector<int64_t> values = {0, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                                       -5, 1'000'000'007, 1'000'000'006, 42};
  auto back = DecodeSamples(EncodeSamples(values));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value(), values);
}

TEST(SampleCodec, CorruptTextIsAnError) {
  EXPECT_NE(DecodeSamples("A").error().find("not base64"), std::string::npos);
  EXPECT_NE(DecodeSamples("A*==").error().find("not base64"), std::string::npos);
  EXPECT_NE(DecodeSamples("gA==").error().find("ends inside a value"), std::string::npos);  // 0x80
}

}  // namespace
}  // namespace edgebench
