// A model: one network with one or more artifacts (.onnx, .tflite, ...) of the same weights.
//
// Written on the command line as
//   model.onnx                                  one artifact; the name is the file stem
//   NAME=a.onnx,a.tflite                        several artifacts of one model
//   NAME=a.onnx?layout=nchw,a.tflite?layout=nhwc  with each artifact's input layout
//   NAME=a.onnx?variant=fp32,a.int8.onnx?variant=int8  variants (precisions) of one model
//   models/blazeface.json                       a manifest (see ParseModelManifest)
//   models/fashion_cnn.json?variant=int8-qdq-minmax-c100  one variant of a manifest's model
//
// Variants: a model's artifacts may come in several precisions or quantizations of the same
// network ("fp32", "int8-qdq-minmax-c100", ...). A target reads an artifact of one variant
// only: the one named with ?variant=, else the model's default variant, the first artifact's.
// So picking a target never silently picks another precision.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend.h"
#include "core/layout.h"
#include "diagnose/agreement.h"
#include "diagnose/detection_agreement.h"
#include "diagnose/output_mapping.h"
#include "core/status.h"
#include "postprocess/ssd_detections.h"

namespace edgebench {


struct ArtifactSpec {
  std::string path;
  Layout layout = Layout::kAny;  // of the 4-D inputs and outputs; kAny: no conversion
  // The one target this artifact is for ("executorch:xnnpack": a .pte lowered to XNNPACK), when
  // one format has an artifact per device; empty: any target of the backend that reads it.
  std::string target;
  // Its outputs as compared (`agree`): renamed or concatenated; empty: as the artifact names them.
  std::vector<OutputMapping> outputs;
  // Decodes raw detector outputs into detections (postprocess/ssd_detections.h); overrides the
  // model's. Applied by `agree` when the other side gives detections, or beside the raw outputs.
  std::optional<SsdDetectionsOptions> postprocess;
  // The variant (precision, quantization) this artifact is of; empty: the model has no variants.
  std::string variant;
};

struct ModelSpec {
  std::string name;
  std::vector<ArtifactSpec> artifacts;
  Tolerances tolerances;
  DetectionTolerances detection_tolerances;
  std::optional<SsdDetectionsOptions> postprocess;  // for every artifact without its own
  // What a labelled data set's images become before the model sees them (`edgebench accuracy`),
  // in --preprocess syntax (inputs/image_input.h); empty: not declared.
  std::string preprocess;
  std::string dataset;              // the labelled data set it was trained for, e.g. "fashion-mnist"
  std::vector<std::string> labels;  // class names by output index; empty: unnamed
  // The variant ?variant= chose; empty: none chosen (targets read the default variant).
  std::string variant;
};

// The model's variants in the order its artifacts first name them; empty when it has none.
std::vector<std::string> ModelVariants(const ModelSpec& model);

// The model with only the artifacts of one variant, which becomes its chosen variant. The error
// lists the variants there are.
Result<ModelSpec> SelectVariant(const ModelSpec& model, const std::string& variant);

// The postprocess that applies to an artifact: its own, else the model's, else none.
const std::optional<SsdDetectionsOptions>& ArtifactPostprocess(const ModelSpec& model, const ArtifactSpec& artifact);

// Parses the command-line forms above; a .json argument is read as a manifest.
Result<ModelSpec> ParseModelArgument(const std::string& text);

// Manifest: {"name": "...", "artifacts": [{"path": "a.onnx", "layout": "nchw"},
//                                         {"path": "a.cpu.pte", "target": "executorch:cpu"}, ...],
//            "tolerances": {"max_abs": 1e-3, "min_cosine": 0.999, "min_sqnr_db": 30,
//                           "detections": {"min_iou": 0.5, "max_corner_error_px": 2,
//                                          "max_score_diff": 0.02, "max_keypoint_error": 0.01,
//                                          "max_unmatched": 0}},
//            "postprocess": {"kind": "ssd_detections", "preset": "blazeface_short_range"},
//            "preprocess": "scale=0.0039215686,mean=0.2860,std=0.3530,layout=nchw",
//            "dataset": "fashion-mnist", "labels": ["T-shirt/top", ...]}
// An artifact's "variant" names its precision (see Variants above). Other keys are ignored.
// An artifact may also have
//   "outputs": {"scores": "Identity:0",                                  (a rename)
//               "regressors": {"concat": ["Identity_2:0", "Identity_3:0"], "axis": 1}}
// and its own "postprocess". Relative artifact paths are relative to the manifest's directory.
Result<ModelSpec> ParseModelManifest(const nlohmann::json& json, const std::string& base_dir);

// The artifact a target reads: among those whose extension its backend lists (any artifact when
// it lists none), the first made for this target ("backend:device"), else the first made for no
// one target; only artifacts of the chosen variant, else of the default one, count. The error
// says what the backend reads and what the model has.
Result<ArtifactSpec> SelectArtifact(const ModelSpec& model, const BackendInfo& backend,
                                    const std::string& device = "");

}  // namespace edgebench
