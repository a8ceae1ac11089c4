// One target's outputs against the reference's, as `edgebench agree` compares them: detection
// outputs as sets (their counts may differ), the rest elementwise, each against the tolerances.
// A raw detector beside one that gives detections is decoded by its postprocess; two raw twins
// that both have a postprocess are compared both ways.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "diagnose/agreement.h"
#include "diagnose/detection_agreement.h"
#include "postprocess/ssd_detections.h"

namespace edgebench {

// One side of a comparison: its outputs (after the manifest's output mapping) and the
// postprocess that decodes them into detections, if any.
struct AgreementSide {
  std::string target;
  std::vector<Tensor> outputs;
  std::optional<SsdDetectionsOptions> postprocess;
};

// The detection sets compared, with what was found on each side.
struct DetectionComparison {
  DetectionAgreement agreement;
  bool decoded_reference = false;  // the reference gave raw outputs, decoded here
  bool decoded_other = false;
  std::vector<Tensor> reference_detections;
  std::vector<Tensor> other_detections;
};

struct TargetAgreement {
  std::vector<OutputAgreement> outputs;   // elementwise, one per paired output
  std::vector<std::string> other_names;   // the other side's name of each paired output
  std::optional<DetectionComparison> detections;
  // Set when the comparison could not be made (no outputs in common, a decoding error, ...):
  // not agreement, and not a measured disagreement either.
  std::string error;
  // Outputs or detections outside tolerance; "detections disagree: ..." for the detections.
  bool within_tolerance() const;
  std::string detection_disagreement() const;  // empty when the detections agree or were not compared
};

TargetAgreement CompareWithReference(const AgreementSide& reference, const AgreementSide& other,
                                     const Tolerances& tolerances, const DetectionTolerances& detection_tolerances);

}  // namespace edgebench
