#include "diagnose/target_agreement.h"

#include "core/strings.h"

namespace edgebench {
namespace {

// A side's detections: its own detection outputs, else its raw outputs decoded by the
// postprocess, else none (raw outputs and no postprocess declared).
Result<std::optional<std::vector<Tensor>>> DetectionsOf(const AgreementSide& side) {
  if (HasDetections(side.outputs)) {
    std::vector<Tensor> detections, others;
    SplitDetectionOutputs(side.outputs, detections, others);
    return std::optional<std::vector<Tensor>>(std::move(detections));
  }
  if (!side.postprocess) return std::optional<std::vector<Tensor>>();
  auto decoded = SsdDetectionsFromOutputs(side.outputs, *side.postprocess);
  if (!decoded.ok()) return decoded.status();
  return std::optional<std::vector<Tensor>>(decoded.take());
}

std::string NoDetections(const std::string& who) {
  return who + " gives raw outputs and the model declares no postprocess to decode them; add "
               "\"postprocess\": {\"kind\": \"ssd_detections\", \"preset\": ...} to its manifest";
}

}  // namespace

bool TargetAgreement::within_tolerance() const {
  if (!error.empty()) return false;
  for (const OutputAgreement& a : outputs) {
    if (!a.violations.empty()) return false;
  }
  return !detections || detections->agreement.violations.empty();
}

std::string TargetAgreement::detection_disagreement() const {
  if (!detections || detections->agreement.violations.empty()) return "";
  return "detections disagree: " + Join(detections->agreement.violations, "; ");
}

TargetAgreement CompareWithReference(const AgreementSide& reference, const AgreementSide& other,
                                     const Tolerances& tolerances, const DetectionTolerances& detection_tolerances) {
  TargetAgreement result;
  auto failed = [&](const std::string& message) {
    if (result.error.empty()) result.error = message;
  };
  std::vector<Tensor> reference_detection_outputs, reference_raw, other_detection_outputs, other_raw;
  SplitDetectionOutputs(reference.outputs, reference_detection_outputs, reference_raw);
  SplitDetectionOutputs(other.outputs, other_detection_outputs, other_raw);
  const bool reference_gives_detections = HasDetections(reference.outputs);
  const bool other_gives_detections = HasDetections(other.outputs);
  const bool compare_detections =
      reference_gives_detections || other_gives_detections || (reference.postprocess && other.postprocess);
  const bool compare_raw =
      !reference_raw.empty() && !other_raw.empty() && !reference_gives_detections && !other_gives_detections;
  if (compare_raw) {
    auto pairs = PairOutputs(reference_raw, other_raw);
    if (!pairs.ok()) {
      failed(pairs.error());
    } else {
      for (const auto& [ri, oi] : pairs.value()) {
        auto agreement = CompareOutput(reference_raw[ri], other_raw[oi]);
        if (!agreement.ok()) {
          failed(agreement.error());
          continue;
        }
        CheckTolerances(agreement.value(), tolerances);
        result.outputs.push_back(agreement.take());
        result.other_names.push_back(other_raw[oi].name);
      }
    }
  }
  bool detections_compared = false;
  if (compare_detections) {
    auto reference_detections = DetectionsOf(reference);
    auto other_detections = DetectionsOf(other);
    if (!reference_detections.ok()) {
      failed("decoding the reference's detections: " + reference_detections.error());
    } else if (!other_detections.ok()) {
      failed("decoding the detections: " + other_detections.error());
    } else if (!reference_detections.value()) {
      failed(NoDetections("the reference " + reference.target));
    } else if (!other_detections.value()) {
      failed(NoDetections(other.target));
    } else {
      auto agreement =
          CompareDetections(*reference_detections.value(), *other_detections.value(), detection_tolerances.min_iou);
      if (!agreement.ok()) {
        failed(agreement.error());
      } else {
        CheckDetectionTolerances(agreement.value(), detection_tolerances);
        detections_compared = true;
        result.detections = DetectionComparison{agreement.take(), !reference_gives_detections,
                                                !other_gives_detections, std::move(*reference_detections.value()),
                                                std::move(*other_detections.value())};
      }
    }
  }
  if (!compare_raw && !detections_compared && result.error.empty()) {
    failed("nothing to compare: the reference's outputs and these have nothing in common");
  }
  return result;
}

}  // namespace edgebench
