// One inference for output comparison (`edgebench agree`): load an artifact on a target, run
// the given inputs (or seeded ones) once, return inputs and outputs. 4-D tensors are
// converted between the artifact's declared layout and the comparison's layout.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/registry.h"
#include "core/tensor.h"
#include "plan/model_spec.h"
#include "plan/pipeline_plan.h"
#include "worker/case_record.h"

namespace edgebench {

struct OutputsRequest {
  std::string model;
  ArtifactSpec artifact;
  Layout compare_layout = Layout::kAny;  // layout of `inputs` and of the returned tensors
  Target target;
  ShapeBindings dims;
  uint64_t seed = 0;
  std::vector<Tensor> inputs;  // empty: from `image`, else generated from the signature with `seed`
  // An image file and its --preprocess text (inputs/image_input.h): the worker decodes and resizes
  // it itself, laid out as compare_layout, so nothing image-sized is allocated by the caller and
  // every target's worker builds the same tensor from the same spec. Such inputs are not sent
  // back in OutputsResult::inputs.
  std::string image;
  std::string image_preprocess;
  // A pipeline case's plan (plan/pipeline_plan.h): one query through the whole pipeline, its
  // own input (a diffusion's seeded prompt and latents), its last stage's outputs returned.
  std::optional<PipelinePlan> pipeline;
};

struct OutputsResult {
  std::string status = "ok";  // as CaseStatusName
  std::string stage;
  std::string error;
  std::string effective_target;
  std::string artifact;
  std::vector<Tensor> inputs;   // as run, in compare_layout; empty for an OutputsRequest::image
  std::vector<Tensor> outputs;  // in compare_layout
  Placement placement;
};

nlohmann::json OutputsRequestToJson(const OutputsRequest& request);
Result<OutputsRequest> OutputsRequestFromJson(const nlohmann::json& json);
nlohmann::json OutputsResultToJson(const OutputsResult& result);
Result<OutputsResult> OutputsResultFromJson(const nlohmann::json& json);

OutputsResult RunOutputsCase(const OutputsRequest& request, Registry& registry,
                             const StageCallback& on_stage = {});

}  // namespace edgebench
