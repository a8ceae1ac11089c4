// A tensor model's roofline from given work, timings, limits and placement: the figures by hand,
// which peak a run is held to when its nodes ran on several devices, and each reason a roof is
// missing.
#include "stats/tensor_roofline.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

// 2 GFLOP and 100 MB per query: intensity 20 operations per byte.
TensorWork Work() {
  TensorWork w;
  w.matmul_flops = 2e9;
  w.weight_bytes = 40'000'000;
  w.activation_bytes = 60'000'000;
  return w;
}

// 50 queries a second: 100 GFLOP/s achieved.
LatencySummary Summary() {
  LatencySummary s;
  s.count = 100;
  s.throughput_qps = 50;
  return s;
}

ComputePeak Peak(const std::string& target, double gflops) {
  ComputePeak p;
  p.target = target;
  p.precision = "fp32";
  p.gflops = gflops;
  p.threads = 2;
  p.passes = 5;
  p.method = "MatMul float32 [1024x1024] x [1024x1024] through the runtime";
  return p;
}

// Bandwidth 20 GB/s on 2 threads: a memory roof of 400 GFLOP/s at intensity 20.
MachineLimits Limits() {
  MachineLimits m;
  BandwidthMeasurement all;
  all.gb_per_s = 20;
  all.threads = 2;
  m.bandwidth_all_threads = all;
  m.compute_peaks = {Peak("ort:cpu", 250), Peak("ort:xnnpack", 80)};
  return m;
}

Placement Ran(std::map<std::string, int> nodes) {
  Placement p;
  p.known = true;
  p.nodes_by_device = std::move(nodes);
  return p;
}

TEST(TensorRoofline, TheFiguresByHand) {
  const MachineLimits limits = Limits();
  const Placement all_cpu = Ran({{"cpu", 10}});
  const TensorRoofline r = ComputeTensorRoofline(Work(), Summary(), "ort:cpu", 2, &all_cpu, &limits, "");
  ASSERT_TRUE(r.computed()) << r.omitted;
  EXPECT_DOUBLE_EQ(r.intensity, 20);
  EXPECT_DOUBLE_EQ(r.achieved_gflops, 100);
  EXPECT_DOUBLE_EQ(r.achieved_gb_per_s, 5);
  EXPECT_DOUBLE_EQ(r.compute_peak_gflops, 250);
  EXPECT_EQ(r.compute_peak_target, "ort:cpu");
  EXPECT_EQ(r.bound, "compute");  // 250 < 20 x 20
  EXPECT_DOUBLE_EQ(r.attainable_gflops, 250);
  EXPECT_DOUBLE_EQ(r.share, 0.4);
  EXPECT_DOUBLE_EQ(r.bandwidth_share, 0.25);
  EXPECT_EQ(r.compute_peak_source.find("nodes ran on"), std::string::npos) << r.compute_peak_source;
}

// XNNPACK took some nodes and left the rest to the CPU provider: the run is held to the faster of
// the two peaks, never to XNNPACK's alone (which would put it above 100%).
TEST(TensorRoofline, ASplitRunIsHeldToTheFastestDeviceItRanOn) {
  const MachineLimits limits = Limits();
  const Placement split = Ran({{"xnnpack", 62}, {"cpu", 296}});
  const TensorRoofline r = ComputeTensorRoofline(Work(), Summary(), "ort:xnnpack", 2, &split, &limits, "");
  ASSERT_TRUE(r.computed()) << r.omitted;
  EXPECT_DOUBLE_EQ(r.compute_peak_gflops, 250);
  EXPECT_EQ(r.compute_peak_target, "ort:cpu");
  EXPECT_NE(r.compute_peak_source.find("the nodes ran on ort:cpu 296, ort:xnnpack 62"), std::string::npos)
      << r.compute_peak_source;
  EXPECT_LE(r.share, 1.0);
  // Unknown placement: the named device's own peak.
  const Placement unknown;
  const TensorRoofline alone = ComputeTensorRoofline(Work(), Summary(), "ort:xnnpack", 2, &unknown, &limits, "");
  EXPECT_DOUBLE_EQ(alone.compute_peak_gflops, 80);
  EXPECT_EQ(alone.compute_peak_target, "ort:xnnpack");
  // Device names as the runtime spells them (OpenVINO's "CPU").
  MachineLimits ov = Limits();
  ov.compute_peaks.push_back(Peak("openvino:cpu", 600));
  const Placement upper = Ran({{"CPU", 40}});
  const TensorRoofline auto_device = ComputeTensorRoofline(Work(), Summary(), "openvino:auto", 2, &upper, &ov, "");
  EXPECT_DOUBLE_EQ(auto_device.compute_peak_gflops, 600);
  EXPECT_EQ(auto_device.compute_peak_target, "openvino:cpu");
}

// A device the nodes ran on without a measured peak: no compute roof (a lower one could be
// exceeded), with the reason, unless a published peak was given.
TEST(TensorRoofline, AnUnmeasuredDeviceLeavesNoComputeRoof) {
  MachineLimits limits = Limits();
  const Placement split = Ran({{"dnnl", 300}, {"cpu", 58}});
  const TensorRoofline r = ComputeTensorRoofline(Work(), Summary(), "ort:dnnl", 2, &split, &limits, "");
  ASSERT_TRUE(r.computed()) << r.omitted;
  EXPECT_EQ(r.compute_peak_gflops, 0);
  EXPECT_EQ(r.bound, "memory");
  EXPECT_DOUBLE_EQ(r.attainable_gflops, 400);
  EXPECT_NE(r.compute_peak_missing.find("no fp32 peak measured through ort:dnnl"), std::string::npos)
      << r.compute_peak_missing;
  limits.published_peak_gflops = 1000;
  const TensorRoofline published = ComputeTensorRoofline(Work(), Summary(), "ort:dnnl", 2, &split, &limits, "");
  EXPECT_DOUBLE_EQ(published.compute_peak_gflops, 1000);
  EXPECT_TRUE(published.compute_peak_target.empty());
}

TEST(TensorRoofline, EachReasonItIsOmitted) {
  const MachineLimits limits = Limits();
  TensorWork uncounted;
  uncounted.omitted = "operator Loop has no rule";
  EXPECT_NE(ComputeTensorRoofline(uncounted, Summary(), "ort:cpu", 2, nullptr, &limits, "").omitted.find("Loop"),
            std::string::npos);
  EXPECT_FALSE(ComputeTensorRoofline(TensorWork(), Summary(), "ort:cpu", 2, nullptr, &limits, "").computed());
  EXPECT_FALSE(ComputeTensorRoofline(Work(), LatencySummary(), "ort:cpu", 2, nullptr, &limits, "").computed());
  const TensorRoofline none = ComputeTensorRoofline(Work(), Summary(), "ort:cpu", 2, nullptr, nullptr, "not measured yet");
  EXPECT_NE(none.omitted.find("not measured yet"), std::string::npos) << none.omitted;
  const nlohmann::json j = TensorRooflineToJson(none);
  EXPECT_EQ(j.size(), 1u);
  EXPECT_TRUE(j.contains("omitted"));
}

// Issue 50, class 7: rooflines of 102-122% were printed as measurements after the limits were
// measured on a busy machine. A share above 100% now carries why it can be and what to do.
TEST(TensorRoofline, AShareAboveTheRoofSaysWhy) {
  const Placement all_cpu = Ran({{"cpu", 10}});
  MachineLimits low_peak = Limits();
  low_peak.compute_peaks = {Peak("ort:cpu", 80)};  // 100 GFLOP/s achieved against a peak of 80
  const TensorRoofline compute = ComputeTensorRoofline(Work(), Summary(), "ort:cpu", 2, &all_cpu, &low_peak, "");
  EXPECT_GT(compute.share, 1);
  EXPECT_NE(compute.above_roof.find("above 100% of the compute peak measured through ort:cpu"), std::string::npos)
      << compute.above_roof;
  EXPECT_EQ(TensorRooflineToJson(compute)["above_roof"], compute.above_roof);
  MachineLimits slow_memory = Limits();
  slow_memory.compute_peaks.clear();
  slow_memory.bandwidth_all_threads->gb_per_s = 2;  // 5 GB/s achieved
  const TensorRoofline memory = ComputeTensorRoofline(Work(), Summary(), "ort:cpu", 2, &all_cpu, &slow_memory, "");
  EXPECT_NE(memory.above_roof.find("above 100% of the memory roof"), std::string::npos) << memory.above_roof;
  const MachineLimits limits = Limits();
  const TensorRoofline fine = ComputeTensorRoofline(Work(), Summary(), "ort:cpu", 2, &all_cpu, &limits, "");
  EXPECT_EQ(fine.above_roof, "");
  EXPECT_FALSE(TensorRooflineToJson(fine).contains("above_roof"));
}

}  // namespace
}  // namespace edgebench
