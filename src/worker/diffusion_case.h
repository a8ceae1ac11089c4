// A diffusion pipeline's case (docs/diffusion.md), the parts a plain pipeline does not have:
// the query's seeded input, the model stages prepared at the settings' shapes (the text encoder
// at [2, 77], the UNet at twice the images per prompt and the latents' size, the VAE decoder at
// the latents'), the stages built with the DDIM schedule, the loop over the steps, and the
// record's `diffusion` part: per-step times, the outputs' summary and the image on request.
// worker/pipeline_case.cc calls these where the pipeline's plan has `diffusion`.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/pipeline_system.h"
#include "record/diffusion_record.h"
#include "plan/diffusion_settings.h"
#include "worker/built_pipeline.h"
#include "plan/pipeline_plan.h"

namespace edgebench {

// The prompt's tokens [2, 77] and the initial latents [B, C, h, w], from the settings' seed.
std::vector<Tensor> DiffusionQueryInput(const DiffusionSettings& settings);

// Prepares every model's sessions at the settings' shapes and builds each lane's stages.
Status PrepareDiffusion(const PipelinePlan& pipeline, const DiffusionSettings& settings, BuiltPipeline& built);

// The UNet, guidance and scheduler stages (1, 2, 3) once per step.
PipelineLoop DiffusionLoop(const DiffusionSettings& settings);

// The loop stages' per-step times over the queries that started in [start_ns, end_ns).
std::vector<DiffusionStepRecord> SummarizeDiffusionSteps(const PipelineSystem& system, int64_t start_ns, int64_t end_ns);

// Mean, spread, range and non-finite count of each float output.
std::vector<DiffusionOutputSummary> SummarizeDiffusionOutputs(const std::vector<Tensor>& outputs);

// The first image of a [B, 3, H, W] float tensor in [-1, 1] as an 8-bit RGB PNG at `path`.
Status WriteDiffusionImage(const Tensor& image, const std::string& path);

// A file name for a case's image: its pipeline, targets and scenario, with anything but letters,
// digits, '.', '_' and '-' made '_' and cut to 150 characters, then 12 hex digits of the case
// key's hash: two cases never share a file, however alike their names once cut or replaced.
std::string DiffusionImageName(const std::string& pipeline, const std::string& target, const std::string& scenario,
                               const std::string& case_key);

}  // namespace edgebench
