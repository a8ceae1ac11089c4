#include "backends/ort/ort_log.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

TEST(OrtLog, ParsesPlacementLines) {
  auto placed = ParseOrtPlacementLine(" Node(s) placed on [XnnpackExecutionProvider]. Number of nodes: 12");
  ASSERT_TRUE(placed.has_value());
  EXPECT_EQ(placed->first, "XnnpackExecutionProvider");
  EXPECT_EQ(placed->second, 12);
  auto all = ParseOrtPlacementLine("All nodes placed on [CPUExecutionProvider]. Number of nodes: 61");
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->second, 61);
  EXPECT_FALSE(ParseOrtPlacementLine("Node placements").has_value());
}

TEST(OrtLog, ProviderNamesBecomeDeviceNames) {
  EXPECT_EQ(OrtProviderToDevice("CPUExecutionProvider"), "cpu");
  EXPECT_EQ(OrtProviderToDevice("XnnpackExecutionProvider"), "xnnpack");
  EXPECT_EQ(OrtProviderToDevice("DnnlExecutionProvider"), "dnnl");
  EXPECT_EQ(OrtProviderToDevice("QNNExecutionProvider"), "QNNExecutionProvider");
}

}  // namespace
}  // namespace edgebench
