// A pipeline's models loaded and its stages built: what worker/pipeline_case.cc (a plain
// pipeline) and worker/diffusion_case.cc (a diffusion's stages and loop) both prepare and run.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "pipeline/pipeline_system.h"
#include "record/record.h"
#include "plan/resolve_target.h"

namespace edgebench {

// A model stage: its sessions (one per lane) on its resolved target.
struct PipelineModel {
  size_t stage = 0;  // its index among the stages
  std::string name;
  ResolvedTarget resolved;
  std::string effective_target;  // set by RunPipelineCase
  std::string artifact;
  std::vector<OutputMapping> outputs;
  std::vector<std::unique_ptr<Session>> sessions;
  // What its sessions were prepared at (free dimensions bound to 1); set by PreparePipeline.
  std::vector<std::vector<int64_t>> input_shapes;
  int64_t load_rss_bytes = 0;  // resident memory its sessions added while loading
};

// A pipeline's models loaded and then its stages built, a list per lane.
struct BuiltPipeline {
  size_t lanes = 1;
  std::vector<PipelineModel> models;
  std::vector<PipelineSystem::Stages> stages;  // per lane, after PreparePipeline
  CaseStatus failure = CaseStatus::kFailed;     // of a failed LoadPipelineModels
  std::string failed_stage = "load";
};

}  // namespace edgebench
