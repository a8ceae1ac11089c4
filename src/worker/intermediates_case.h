// One side of `edgebench drift` in a worker: load an artifact with its intermediate tensors
// exposed (Target::expose_intermediates), run every sample of the input pool, and write each
// tensor's values as float32 to its own file in a directory the orchestrator gives, sample after
// sample. Only the index of those files crosses the worker's JSON pipe, so tensors of any size
// and count stay out of it; the orchestrator compares the files (diagnose/drift.h) and removes
// the directory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/registry.h"
#include "core/tensor.h"
#include "core/layout.h"
#include "inputs/input_source.h"
#include "inputs/labelled_images.h"
#include "worker/case_record.h"

namespace edgebench {

struct IntermediatesRequest {
  std::string model;
  std::string artifact;
  Target target;
  ShapeBindings dims;
  // Where the samples come from: seeded values (seed, pool_size = the sample count) or files
  // (inputs/input_source.h). Both sides of a comparison get the same options, so the same samples.
  InputOptions inputs;
  std::string out_dir;  // an existing directory the worker writes its files into
  // false: the model's outputs only, from a session that exposes nothing (the model as it runs
  // when nobody looks inside: ONNX Runtime fuses what exposure stops it from fusing).
  bool expose = true;
  // A labelled data set instead of `inputs` (data.source non-empty): its images, preprocessed
  // as `preprocess` says and shaped for the artifact's layout (inputs/labelled_input.h), one per
  // sample. The labels stay with the orchestrator.
  DataSetSpec data;
  std::string preprocess;
  Layout artifact_layout = Layout::kAny;
};

// One tensor's values in a file: float32, C order, `samples` x element count of `shape`.
struct DumpedTensor {
  std::string name;
  std::string node;     // the producing node
  std::string op_type;
  std::string dtype;    // as the runtime held it
  bool dequantized = false;
  std::vector<int64_t> shape;
  std::string file;         // path of the values; empty when skipped
  std::string skip_reason;  // why there are no values (its shape changed across samples, ...)
};

struct IntermediatesResult {
  std::string status = "ok";  // as CaseStatusName
  std::string stage;
  std::string error;
  std::string effective_target;
  std::string artifact;
  int64_t samples = 0;
  std::vector<std::string> input_provenance;  // one per model input
  std::vector<std::vector<int64_t>> input_shapes;  // one per model input, as fed
  std::vector<DumpedTensor> outputs;          // the model's outputs
  std::vector<DumpedTensor> tensors;          // every intermediate, in execution order
  // Why the session shows no intermediates (the backend's reason); empty when it does, or when
  // none were asked for.
  std::string intermediates_unsupported;
};

nlohmann::json IntermediatesRequestToJson(const IntermediatesRequest& request);
Result<IntermediatesRequest> IntermediatesRequestFromJson(const nlohmann::json& json);
nlohmann::json IntermediatesResultToJson(const IntermediatesResult& result);
Result<IntermediatesResult> IntermediatesResultFromJson(const nlohmann::json& json);

IntermediatesResult RunIntermediatesCase(const IntermediatesRequest& request, Registry& registry,
                                         const StageCallback& on_stage = {});

}  // namespace edgebench
