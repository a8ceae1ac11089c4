// The record's `pipeline` section (record/pipeline_record.h): written and read back whole,
// percentiles too few queries give stay null; a section that does not read is left out with a
// warning and the end-to-end record still reads.
#include "record/pipeline_record.h"

#include <gtest/gtest.h>

#include "../test_util.h"
#include "record/record.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

PipelineRecord TwoStagePipeline() {
  PipelineRecord p;
  p.name = "faces";
  p.file = "/p/faces.yaml";
  p.input = "/p/photo.png";
  PipelineStageRecord decode;
  decode.name = "decode";
  decode.kind = "decode_image";
  decode.queries = 4;
  decode.calls = 4;
  decode.min_calls = decode.max_calls = 1;
  decode.p50_ns = 1000;
  decode.max_ns = 1500;
  decode.mean_ns = 1100;
  decode.share = 0.25;
  decode.cpu_mean_ns = 1050;
  decode.first_run_ns = 2000;
  PipelineStageRecord detect = decode;
  detect.name = "detect";
  detect.kind = "model";
  detect.cpu_mean_ns.reset();
  detect.calls = 7;
  detect.max_calls = 3;
  detect.target = "ort:cpu?threads=2";
  detect.artifact = "/m/detect.onnx";
  detect.ran_on = "cpu 10/10";
  detect.nodes_by_device = {{"cpu", 10}};
  detect.share = 0.7;
  p.stages = {decode, detect};
  p.harness_share = 0.05;
  p.timeline = {{1, 300, {1000, 3000}}};
  return p;
}

TEST(PipelineRecord, ARecordsPipelineSectionRoundTrips) {
  Record r = testing::MakeRecord({5, 6, 7, 8});
  r.pipeline = TwoStagePipeline();
  auto read = RecordFromJson(RecordToJson(r));
  ASSERT_TRUE(read.ok()) << read.error();
  ASSERT_TRUE(read.value().pipeline.has_value());
  const PipelineRecord& p = *read.value().pipeline;
  EXPECT_EQ(p.name, "faces");
  ASSERT_EQ(p.stages.size(), 2u);
  EXPECT_EQ(p.stages[0].p50_ns, 1000);
  EXPECT_FALSE(p.stages[0].p99_ns.has_value());  // too few queries: null, not 0
  EXPECT_EQ(p.stages[0].cpu_mean_ns, 1050);
  EXPECT_FALSE(p.stages[1].cpu_mean_ns.has_value());
  EXPECT_EQ(p.stages[1].max_calls, 3);
  EXPECT_EQ(p.stages[1].nodes_by_device.at("cpu"), 10);
  EXPECT_EQ(p.stages[1].target, "ort:cpu?threads=2");
  EXPECT_DOUBLE_EQ(p.harness_share, 0.05);
  ASSERT_EQ(p.timeline.size(), 1u);
  EXPECT_EQ(p.timeline[0].stream, 1);
  EXPECT_EQ(p.timeline[0].stage_ns, (std::vector<int64_t>{1000, 3000}));
  EXPECT_EQ(RecordToJson(read.value())["pipeline"]["stages"][0]["calls_per_query"]["mean"], 1.0);
}

TEST(PipelineRecord, ASectionThatDoesNotReadIsLeftOutWithAWarning) {
  Record r = testing::MakeRecord({5, 6, 7, 8});
  r.pipeline = TwoStagePipeline();
  nlohmann::json j = RecordToJson(r);
  j["pipeline"]["stages"][1].erase("latency_ns");
  auto read = RecordFromJson(j);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_FALSE(read.value().pipeline.has_value());
  ASSERT_EQ(read.value().read_warnings.size(), 1u);
  EXPECT_NE(read.value().read_warnings[0].find("pipeline section left out"), std::string::npos);
  EXPECT_EQ(read.value().measured_ns.size(), 4u);
}

}  // namespace
}  // namespace edgebench
