// One target's outputs against the reference's, called directly (diagnose/target_agreement.h).
#include "diagnose/target_agreement.h"

#include <gtest/gtest.h>

#include <cstring>

namespace edgebench {
namespace {

Tensor NamedFloats(const std::string& name, std::vector<float> values) {
  Tensor t{name, DType::kFloat32, {static_cast<int64_t>(values.size())}, {}};
  t.data.resize(values.size() * 4);
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

Tolerances Default() {
  Tolerances t;
  t.min_cosine = 0.999;
  t.min_sqnr_db = 30;
  return t;
}

TEST(TargetAgreement, PairedOutputsAreComparedAgainstTheTolerances) {
  const AgreementSide reference{"ort:cpu", {NamedFloats("scores", {1, 2, 3, 4})}, std::nullopt};
  const AgreementSide close{"litert:cpu", {NamedFloats("scores", {1, 2, 3, 4.001f})}, std::nullopt};
  const AgreementSide far{"ort:xnnpack", {NamedFloats("scores", {4, 3, 2, 1})}, std::nullopt};
  TargetAgreement near_result = CompareWithReference(reference, close, Default(), {});
  EXPECT_TRUE(near_result.error.empty()) << near_result.error;
  ASSERT_EQ(near_result.outputs.size(), 1u);
  EXPECT_EQ(near_result.other_names, std::vector<std::string>{"scores"});
  EXPECT_TRUE(near_result.within_tolerance());
  TargetAgreement far_result = CompareWithReference(reference, far, Default(), {});
  EXPECT_TRUE(far_result.error.empty()) << far_result.error;
  ASSERT_EQ(far_result.outputs.size(), 1u);
  EXPECT_FALSE(far_result.outputs[0].violations.empty());
  EXPECT_FALSE(far_result.within_tolerance());
  EXPECT_EQ(far_result.detection_disagreement(), "") << "no detections were compared";
}

TEST(TargetAgreement, NoOutputsInCommonIsAnErrorNotAgreement) {
  const AgreementSide reference{"ort:cpu", {}, std::nullopt};
  const AgreementSide other{"litert:cpu", {NamedFloats("scores", {1, 2})}, std::nullopt};
  TargetAgreement result = CompareWithReference(reference, other, Default(), {});
  EXPECT_NE(result.error.find("nothing to compare"), std::string::npos) << result.error;
  EXPECT_FALSE(result.within_tolerance());
}

}  // namespace
}  // namespace edgebench
