// The record's tensor_drift section, through the section table: written and read back whole
// (infinities included), and judged only on whether the comparison could be made.
#include "record/record_drift.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "../test_util.h"
#include "record/record.h"
#include "record/record_sections.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

TensorDriftRecord Candidate() {
  TensorDriftRecord d;
  d.reference_label = "fp32";
  d.reference_artifact = "a.onnx";
  d.candidate_label = "int8";
  d.samples = 4;
  d.inputs = {"seeded"};
  d.min_sqnr_db = 25;
  TensorDriftRow exact{"conv1_out", "conv1_out_DequantizeLinear_Output", "conv1", "Conv", {1, 8}, true, "",
                       std::numeric_limits<double>::infinity(), 1, 0, 0, std::nullopt};
  TensorDriftRow noisy{"logits", "logits", "fc", "Gemm", {1, 10}, true, "", 12.5, 0.99, 0.2, 0, 7.5};
  TensorDriftRow skipped{"pool", "pool", "pool", "Pool", {1, 16}, false, "shape differs", 0, 0, 0, 0, std::nullopt};
  d.tensors = {exact, noisy, skipped};
  d.final_outputs = {noisy};
  d.exposure_changed_output = false;
  d.exposure_output_sqnr_db = std::numeric_limits<double>::infinity();
  d.first_drift = "logits";
  d.matched = 3;
  d.skipped = 1;
  d.candidate_only = {"x_QuantizeLinear_Output"};
  d.candidate_only_ops = {{"QuantizeLinear", 1}};
  d.findings = {"first drift at logits"};
  d.top1 = 0.5;
  d.reference_top1 = 0.75;
  d.top1_delta_points = -25;
  return d;
}

TEST(RecordDrift, ASectionIsWrittenAndReadBackWhole) {
  Record r = testing::MakeRecord({});
  r.scenario = "drift";
  r.tensor_drift = Candidate();
  FinishRecord(r);
  EXPECT_TRUE(r.valid) << "drift below the threshold is the finding";
  auto back = RecordFromJson(RecordToJson(r));
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_TRUE(back.value().tensor_drift.has_value());
  const TensorDriftRecord& d = *back.value().tensor_drift;
  ASSERT_EQ(d.tensors.size(), 3u);
  EXPECT_TRUE(std::isinf(d.tensors[0].sqnr_db));
  EXPECT_FALSE(d.tensors[0].drop_db.has_value());
  EXPECT_EQ(d.tensors[1].drop_db, 7.5);
  EXPECT_FALSE(d.tensors[2].compared);
  EXPECT_EQ(d.tensors[2].skip_reason, "shape differs");
  EXPECT_EQ(d.first_drift, "logits");
  EXPECT_TRUE(d.largest_drop.empty());
  EXPECT_EQ(d.min_sqnr_db, 25);
  EXPECT_EQ(d.candidate_only_ops.at("QuantizeLinear"), 1);
  EXPECT_EQ(d.exposure_changed_output, false);
  EXPECT_TRUE(std::isinf(*d.exposure_output_sqnr_db));
  EXPECT_EQ(d.top1_delta_points, -25);
  EXPECT_EQ(ModeSectionOf(back.value())->key, "tensor_drift");
}

TEST(RecordDrift, AnIncompleteOrIncomparableComparisonIsInvalid) {
  Record r = testing::MakeRecord({});
  r.scenario = "drift";
  r.tensor_drift = Candidate();
  r.tensor_drift->errors = {"cannot read conv1_out"};
  FinishRecord(r);
  EXPECT_FALSE(r.valid);
  ASSERT_EQ(r.invalid_reasons.size(), 1u);
  EXPECT_EQ(r.invalid_reasons[0], "comparison incomplete: cannot read conv1_out");
  // A section whose rows are not rows is an error that names the section.
  nlohmann::json j = RecordToJson(r);
  j["tensor_drift"]["tensors"] = nlohmann::json::array({{{"compared", true}}});
  auto bad = RecordFromJson(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("tensor_drift"), std::string::npos) << bad.error();
}

}  // namespace
}  // namespace edgebench
