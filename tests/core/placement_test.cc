#include "core/placement.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

TEST(Placement, OpTypeCountsMostFirstThenByName) {
  EXPECT_EQ(OpTypeCountsText({{"Mul", 6}, {"Add", 16}, {"Erf", 2}, {"Div", 2}}),
            "Add x16, Mul x6, Div x2, Erf x2");
  EXPECT_EQ(OpTypeCountsText({}), "");
}

TEST(Placement, CpuFallbackTextPrefersTheModelsOwnNodes) {
  Placement p;
  p.known = true;
  p.nodes_by_device = {{"cpu", 7}, {"dnnl", 8}};
  EXPECT_EQ(CpuFallbackText(p, "dnnl"), "7 of 15 executed nodes (after fusion) stayed on the CPU");
  p.model_nodes = 68;
  p.original_nodes_by_device = {{"cpu", 8}, {"dnnl", 60}};
  p.cpu_op_types = {{"Gather", 7}, {"Identity", 1}};
  EXPECT_EQ(CpuFallbackText(p, "dnnl"),
            "8 of 68 nodes stayed on the CPU (op types: Gather x7, Identity x1)");
  EXPECT_FALSE(CpuFallbackText(p, "cpu").has_value());  // the CPU was asked for
  p.original_nodes_by_device = {{"dnnl", 68}};
  p.nodes_by_device = {{"dnnl", 1}};
  p.cpu_op_types.clear();
  EXPECT_FALSE(CpuFallbackText(p, "dnnl").has_value());
  p.known = false;
  p.nodes_by_device = {{"cpu", 7}};
  EXPECT_FALSE(CpuFallbackText(p, "dnnl").has_value());
}

}  // namespace
}  // namespace edgebench
