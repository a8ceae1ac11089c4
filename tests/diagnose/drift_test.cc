// Drift's pieces: the name rules that pair tensors, the sums, the comparison of files and the
// verdict, pinned by exact values.
#include "diagnose/drift.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

DriftTensor Named(const std::string& name, const std::string& op = "Conv") { return {name, name, op, {2}, "", ""}; }

TEST(DriftPairing, PrefersTheDequantizedCopyAndAccountsForTheOthers) {
  const std::vector<DriftTensor> reference = {Named("conv1_out"), Named("bn1_out"), Named("logits")};
  const std::vector<DriftTensor> candidate = {
      Named("conv1_out"), Named("conv1_out_QuantizeLinear_Output", "QuantizeLinear"),
      Named("conv1_out_DequantizeLinear_Output", "DequantizeLinear"), Named("w_DequantizeLinear_Output", "DequantizeLinear"),
      Named("logits_QuantizeLinear_Input", "Gemm"), Named("logits", "DequantizeLinear")};
  const DriftPairing pairing = PairDriftTensors(reference, candidate);
  ASSERT_EQ(pairing.pairs.size(), 2u);
  EXPECT_EQ(pairing.pairs[0].reference, 0u);
  EXPECT_EQ(pairing.pairs[0].candidate, 2u);  // conv1_out_DequantizeLinear_Output
  EXPECT_EQ(pairing.pairs[1].reference, 2u);
  EXPECT_EQ(pairing.pairs[1].candidate, 5u);  // logits itself, before logits_QuantizeLinear_Input
  EXPECT_EQ(pairing.reference_only, std::vector<size_t>{1});
  EXPECT_EQ(pairing.candidate_only, std::vector<size_t>{3});  // the weight's dequantization only
}

TEST(DriftAccumulator, SqnrCosineAndMaxAbsByDefinition) {
  DriftAccumulator same;
  const float a[] = {1, -2, 3};
  same.Add(a, a, 3);
  EXPECT_TRUE(std::isinf(same.sqnr_db()));
  EXPECT_DOUBLE_EQ(same.cosine(), 1.0);
  EXPECT_DOUBLE_EQ(same.max_abs_error(), 0.0);

  DriftAccumulator sums;
  const float ref[] = {3, 4};
  const float cand[] = {3, 3.5f};  // noise 0.25, signal 25: 20 dB
  sums.Add(ref, cand, 1);
  sums.Add(ref + 1, cand + 1, 1);  // in two calls, as samples arrive
  EXPECT_NEAR(sums.sqnr_db(), 20.0, 1e-12);
  EXPECT_NEAR(sums.cosine(), (9 + 14) / (5 * std::sqrt(9 + 12.25)), 1e-12);
  EXPECT_DOUBLE_EQ(sums.max_abs_error(), 0.5);

  DriftAccumulator zeros;
  const float z[] = {0, 0};
  zeros.Add(z, z, 2);
  EXPECT_DOUBLE_EQ(zeros.cosine(), 1.0);

  DriftAccumulator nan;
  const float n[] = {NAN};
  nan.Add(n, a, 1);
  EXPECT_TRUE(std::isnan(nan.sqnr_db()));
  EXPECT_EQ(nan.nonfinite(), 1);
}

TensorDriftRow Row(double sqnr_db) {
  TensorDriftRow row;
  row.compared = true;
  row.sqnr_db = sqnr_db;
  return row;
}

TEST(DriftSummary, FirstDriftAndTheLargestGrowthOfNoise) {
  // An identical tensor first (+inf), then 40 dB: a step from +inf is not the largest drop.
  std::vector<TensorDriftRow> rows = {Row(INFINITY), Row(40), Row(38), Row(10), Row(12), Row(5)};
  rows.insert(rows.begin() + 2, TensorDriftRow{});  // skipped rows are passed over
  const DriftSummary summary = SummarizeDrift(rows, 30);
  ASSERT_TRUE(summary.first_drift.has_value());
  EXPECT_EQ(*summary.first_drift, 4u);  // 10 dB
  ASSERT_TRUE(summary.largest_drop.has_value());
  EXPECT_EQ(*summary.largest_drop, 6u);  // 12 -> 5 dB: noise ratio 0.063 -> 0.316, the largest growth
  EXPECT_FALSE(rows[1].drop_db.has_value());  // after +inf
  ASSERT_TRUE(rows[3].drop_db.has_value());
  EXPECT_DOUBLE_EQ(*rows[3].drop_db, 2.0);

  // An exact side tensor (a shape computation) between noisy ones is not a fresh start.
  std::vector<TensorDriftRow> side = {Row(20), Row(INFINITY), Row(19), Row(30)};
  const DriftSummary side_summary = SummarizeDrift(side, 30);
  EXPECT_EQ(*side_summary.largest_drop, 0u);  // not the 19 dB after +inf
  ASSERT_TRUE(side[2].drop_db.has_value());
  EXPECT_DOUBLE_EQ(*side[2].drop_db, 1.0);

  std::vector<TensorDriftRow> clean = {Row(INFINITY), Row(INFINITY)};
  const DriftSummary none = SummarizeDrift(clean, 30);
  EXPECT_FALSE(none.first_drift.has_value());
  EXPECT_FALSE(none.largest_drop.has_value());
}

std::string FloatFile(const std::string& name, const std::vector<float>& values) {
  return WriteTempFile("drift_", name,
                       std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
}

TEST(DriftCompare, ReadsBothFilesInChunksOverAllSamples) {
  DriftTensor a{"t", "n", "Conv", {2}, FloatFile("a", {3, 4, 3, 4}), ""};
  DriftTensor b{"t", "n", "Conv", {2}, FloatFile("b", {3, 3.5f, 3, 3.5f}), ""};
  auto row = CompareDriftTensors(a, b, 2, 3);  // chunks that straddle samples
  ASSERT_TRUE(row.ok()) << row.error();
  EXPECT_TRUE(row.value().compared);
  EXPECT_NEAR(row.value().sqnr_db, 20.0, 1e-9);

  auto short_file = CompareDriftTensors(a, b, 3);
  EXPECT_FALSE(short_file.ok());

  DriftTensor other_shape = b;
  other_shape.shape = {2, 1};
  auto skipped = CompareDriftTensors(a, other_shape, 2);
  ASSERT_TRUE(skipped.ok());
  EXPECT_FALSE(skipped.value().compared);
  EXPECT_NE(skipped.value().skip_reason.find("shapes differ"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
