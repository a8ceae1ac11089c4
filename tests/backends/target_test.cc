#include "backends/target.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

TEST(Target, ParsesBackendDeviceAndOptions) {
  auto t = ParseTarget("ort:cpu?threads=2&opt=all");
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t.value().backend, "ort");
  EXPECT_EQ(t.value().device, "cpu");
  EXPECT_EQ(t.value().options.at("threads"), "2");
  EXPECT_EQ(t.value().options.at("opt"), "all");
  EXPECT_EQ(t.value().Canonical(), "ort:cpu?opt=all&threads=2");
}

TEST(Target, DeviceDefaultsToCpu) {
  auto t = ParseTarget("ort");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t.value().Canonical(), "ort:cpu");
}

TEST(Target, RejectsMalformedText) {
  EXPECT_FALSE(ParseTarget("").ok());
  EXPECT_FALSE(ParseTarget("ort:").ok());
  EXPECT_FALSE(ParseTarget("ort:cpu?threads").ok());
  EXPECT_FALSE(ParseTarget("ort:cpu?threads=1&threads=2").ok());
  EXPECT_FALSE(ParseTarget("o rt:cpu").ok());
}

TEST(Target, ListSplitsOnCommas) {
  auto list = ParseTargetList("ort:cpu,ort:xnnpack?threads=1,null:spin");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list.value().size(), 3u);
  EXPECT_EQ(list.value()[1].options.at("threads"), "1");
  auto bad = ParseTargetList("ort:cpu,,ort:dnnl");
  ASSERT_FALSE(bad.ok());
}

TEST(TargetOptions, TypedReadsAndUnknownKeys) {
  auto t = ParseTarget("x:y?threads=3&opt=fast&typo=1").take();
  TargetOptions o(t);
  EXPECT_EQ(o.Int("threads", 1, 1, 8).value(), 3);
  auto opt = o.Choice("opt", "all", {"all", "basic"});
  ASSERT_FALSE(opt.ok());
  EXPECT_NE(opt.error().find("not one of: all, basic"), std::string::npos);
  const Status unused = o.CheckAllUsed();
  ASSERT_FALSE(unused.ok());
  EXPECT_NE(unused.message().find("unknown option(s) typo; this backend accepts: threads, opt"), std::string::npos)
      << unused.message();
  auto range = TargetOptions(ParseTarget("x:y?threads=0").take()).Int("threads", 1, 1, 8);
  EXPECT_FALSE(range.ok());
}

}  // namespace
}  // namespace edgebench
