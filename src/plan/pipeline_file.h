// A pipeline file (docs/pipelines.md): a query's input and the ordered stages it flows through,
// host stages and models each on its own targets. Read before anything runs: every mistake is
// reported as "FILE:LINE:COLUMN: what is wrong".
//
//   name: face-features
//   input: /usr/lib/python3/dist-packages/skimage/data/astronaut.png   # an image file
//   stages:
//     - {name: decode, kind: decode_image}
//     - {name: detect_input, kind: preprocess, preprocess: "resize=128x128,scale=0.0078431373,mean=1,std=1"}
//     - name: detect
//       model: ${EDGEBENCH_CACHE}/fixtures/.../face_detection_short_range.tflite   # or a manifest mapping
//       targets: [litert:xnnpack, ort:cpu]
//     - {name: faces, kind: ssd_detections, preset: blazeface_short_range, min_score_thresh: 0.5}
//     - {name: crop, kind: crop, preprocess: "resize=224x224,...,layout=nchw", max_detections: 10}
//     - {name: features, model: ${EDGEBENCH_CACHE}/models/vit_tiny16.onnx, targets: [ort:cpu]}
//     - {name: top5, kind: top_k, k: 5}
//
// A model stage's `model:` is a model argument as `run` takes it (FILE, NAME=FILE1,FILE2, a
// manifest .json), or a manifest written in place as a mapping (name, artifacts with their
// outputs mapping, postprocess, ...: plan/model_spec.h). Paths expand ${VAR} and `~` and are
// relative to the pipeline file. Its targets are the ones to compare: a case runs per
// combination of the model stages' targets.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/registry.h"
#include "plan/diffusion_settings.h"
#include "core/status.h"
#include "plan/model_spec.h"
#include "plan/pipeline_plan.h"

namespace edgebench {

struct PipelineStageSpec {
  std::string name;
  // decode_image, preprocess, model, ssd_detections, crop, top_k; a diffusion's text_encoder,
  // unet, guidance, ddim, vae_decoder (docs/diffusion.md)
  std::string kind;
  std::string where;  // "FILE:LINE:COLUMN" of the stage, for errors found later
  ModelSpec model;                   // model
  std::vector<std::string> targets;  // model: as written
  std::string preprocess;            // preprocess, crop: --preprocess text
  nlohmann::json postprocess;        // ssd_detections: {"kind": "ssd_detections", ...}
  int max_detections = -1;           // crop: -1 every detection
  int k = 5;                         // top_k
};

struct PipelineSpec {
  std::string name;
  std::string path;   // the file, absolute
  std::string input;  // the image file each query reads, absolute; empty for a diffusion
  std::vector<PipelineStageSpec> stages;
  // A diffusion pipeline (a `diffusion:` block): its query is a seeded prompt and latents, and
  // its unet, guidance and ddim stages run once per denoising step.
  std::optional<DiffusionSettings> diffusion;
  // `run --target T1,T2`: every model stage on T1, then every one on T2 (a case per target),
  // instead of every combination of the stages' own targets.
  bool same_target_every_stage = false;
};

// Whether `path` names a pipeline file: a .yaml or .yml file (no model format is YAML, so a
// pipeline file with a mistake, `stage:` for `stages:`, is read as one and its mistake named).
bool IsPipelineFile(const std::string& path);

// A pipeline file is at most this large; a larger one, or one that is not a regular file (a
// FIFO, a device), is refused before it is read.
inline constexpr uint64_t kMaxPipelineFileBytes = 1u << 20;
Result<PipelineSpec> ReadPipelineFile(const std::string& path);
// As ReadPipelineFile, from text; `path` names it in messages and anchors relative paths.
Result<PipelineSpec> ParsePipelineText(const std::string& text, const std::string& path);

// `--stage NAME=T1,T2`: replaces the targets of the model stage NAME; an error names a stage
// that is not a model stage of the pipeline.
Status OverrideStageTargets(PipelineSpec& pipeline, const std::string& text);
// `--target T1,T2` for a pipeline: every model stage on each target in turn.
Status SetEveryStageTargets(PipelineSpec& pipeline, const std::vector<std::string>& targets);

// Every combination of the model stages' targets, each with the artifact its target reads
// (SelectArtifact): a case's plan each. The error names the stage, where it is written and why.
Result<std::vector<PipelinePlan>> PipelineTargetCombinations(const PipelineSpec& pipeline, Registry& registry);

}  // namespace edgebench
