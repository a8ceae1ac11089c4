// A pipeline case's plan: what a worker builds the pipeline's stages from, decided when the case
// is planned (plan/pipeline_file.h PipelineTargetCombinations): each model stage's parsed
// target, the artifact it reads and its output mapping; each host stage's settings; the input.
// It crosses to the worker as JSON through PipelinePlanToJson/PipelinePlanFromJson only, and the
// same JSON is part of the case key (plan/case_spec.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/target.h"
#include "core/status.h"
#include "diagnose/output_mapping.h"
#include "plan/diffusion_settings.h"

namespace edgebench {

// The stage kinds that run a model on a target: model, and a diffusion's text_encoder, unet and
// vae_decoder.
bool IsModelStageKind(const std::string& kind);

struct PipelinePlanStage {
  std::string name;
  // decode_image, preprocess, crop, ssd_detections, top_k, model; a diffusion's text_encoder,
  // unet, vae_decoder (IsModelStageKind: the kinds with a model).
  std::string kind;
  // A model stage:
  std::string model;  // the model's name in the pipeline file
  Target target;
  std::string artifact;
  std::vector<OutputMapping> outputs;
  // preprocess and crop: the --preprocess text; crop: the most detections it crops (-1: all).
  std::string preprocess;
  int max_detections = -1;
  // ssd_detections: the options as the pipeline file wrote them (ParseSsdDetectionsOptions).
  nlohmann::json postprocess;
  int k = 5;  // top_k
};

struct PipelinePlan {
  std::string name;   // the pipeline's
  std::string file;   // the pipeline file, absolute
  std::string input;  // the image file each query reads; empty for a diffusion
  // What the case is called in place of a target: "detect=litert:xnnpack,features=ort:cpu", or
  // the one target of --target.
  std::string label;
  std::optional<DiffusionSettings> diffusion;
  std::string save_images;  // --save-images: the directory a diffusion's image goes to; empty: none
  std::vector<PipelinePlanStage> stages;
};

// The plan as the worker reads it and as the case key hashes it (the label is not in it: the
// case's target field carries it). Unchanged from the untyped JSON cases had before, so a
// resumed store keeps its pipeline cases' keys.
nlohmann::json PipelinePlanToJson(const PipelinePlan& plan);
// `label`: the case's target field. An error names what is malformed.
Result<PipelinePlan> PipelinePlanFromJson(const nlohmann::json& json, const std::string& label);

}  // namespace edgebench
