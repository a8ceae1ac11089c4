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
  EXPECT_EQ(OrtProviderToDevice("QNNExecutionProvider"), "qnn");
  EXPECT_EQ(OrtProviderToDevice("CUDAExecutionProvider"), "cuda");
  EXPECT_EQ(OrtProviderToDevice("TensorrtExecutionProvider"), "tensorrt");
  EXPECT_EQ(OrtProviderToDevice("MIGraphXExecutionProvider"), "migraphx");
  EXPECT_EQ(OrtProviderToDevice("SomethingElse"), "somethingelse");
}

TEST(OrtLog, ParsesTheNodeLinesUnderAPlacementLine) {
  // As ONNX Runtime 1.23 logs them (session_state.cc, VerifyEachNodeIsAssignedToAnEp).
  auto node = ParseOrtPlacedNodeLine("   Softmax (softmax_31)");
  ASSERT_TRUE(node.has_value());
  EXPECT_EQ(node->first, "Softmax");
  EXPECT_EQ(node->second, "softmax_31");
  auto fused = ParseOrtPlacedNodeLine(
      "   DNNL_7901984721631076720_0 (DnnlExecutionProvider_DNNL_7901984721631076720_0_0)");
  ASSERT_TRUE(fused.has_value());
  EXPECT_EQ(fused->first, "DNNL_7901984721631076720_0");
  EXPECT_TRUE(ParseOrtPlacedNodeLine("   Scan ()").has_value());
  EXPECT_FALSE(ParseOrtPlacedNodeLine("Node placements").has_value());
  EXPECT_FALSE(ParseOrtPlacedNodeLine("Softmax (softmax_31)").has_value());  // not indented
}

TEST(OrtLog, CaptureCountsOpTypesAndFusedNodesPerProvider) {
  OrtLogCapture capture;
  const auto say = [&capture](const char* message) {
    OrtLogCapture::OnMessage(&capture, ORT_LOGGING_LEVEL_VERBOSE, "", "", nullptr, message);
  };
  capture.Begin();
  say("   Gather (not_under_a_placement_line)");
  say("Node placements");
  say(" Node(s) placed on [DnnlExecutionProvider]. Number of nodes: 2");
  say("   DNNL_79_0 (DnnlExecutionProvider_DNNL_79_0_0)");
  say("   DNNL_79_1 (DnnlExecutionProvider_DNNL_79_1_1)");
  say(" Node(s) placed on [CPUExecutionProvider]. Number of nodes: 3");
  say("   Gather (gather_22)");
  say("   Gather (gather_24)");
  say("   Identity (identity_1)");
  say("Some nodes were not assigned to the preferred execution providers");
  say("   Gather (after_another_message)");
  const OrtLogCapture::Captured captured = capture.End();
  EXPECT_EQ(captured.nodes_by_provider,
            (std::map<std::string, int>{{"CPUExecutionProvider", 3}, {"DnnlExecutionProvider", 2}}));
  EXPECT_EQ(captured.op_types_by_provider.at("CPUExecutionProvider"),
            (std::map<std::string, int>{{"Gather", 2}, {"Identity", 1}}));
  EXPECT_EQ(captured.op_types_by_provider.at("DnnlExecutionProvider").size(), 2u);
  EXPECT_EQ(captured.fused_nodes_by_provider,
            (std::map<std::string, int>{{"DnnlExecutionProvider", 2}}));
}

}  // namespace
}  // namespace edgebench
