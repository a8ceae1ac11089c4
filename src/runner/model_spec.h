// A model: one network with one or more artifacts (.onnx, .tflite, ...) of the same weights.
//
// Written on the command line as
//   model.onnx                                  one artifact; the name is the file stem
//   NAME=a.onnx,a.tflite                        several artifacts of one model
//   NAME=a.onnx?layout=nchw,a.tflite?layout=nhwc  with each artifact's input layout
//   models/blazeface.json                       a manifest (see ParseModelManifest)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend.h"
#include "core/layout.h"
#include "diagnose/agreement.h"
#include "core/status.h"

namespace edgebench {


struct ArtifactSpec {
  std::string path;
  Layout layout = Layout::kAny;  // of the 4-D inputs and outputs; kAny: no conversion
};

struct ModelSpec {
  std::string name;
  std::vector<ArtifactSpec> artifacts;
  Tolerances tolerances;
};

// Parses the command-line forms above; a .json argument is read as a manifest.
Result<ModelSpec> ParseModelArgument(const std::string& text);

// Manifest: {"name": "...", "artifacts": [{"path": "a.onnx", "layout": "nchw"}, ...],
//            "tolerances": {"max_abs": 1e-3, "min_cosine": 0.999, "min_sqnr_db": 30}}
// Relative artifact paths are relative to the manifest's directory.
Result<ModelSpec> ParseModelManifest(const nlohmann::json& json, const std::string& base_dir);

// The artifact a backend reads: the first whose extension the backend lists (any artifact
// when it lists none). The error says what the backend reads and what the model has.
Result<ArtifactSpec> SelectArtifact(const ModelSpec& model, const BackendInfo& backend);

}  // namespace edgebench
