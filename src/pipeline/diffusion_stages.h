// The stages of a text-to-image diffusion pipeline (docs/diffusion.md), Stable Diffusion 1.5's:
//
//   text_encoder   model  {tokens [2,77], latents [B,C,h,w]} -> {latents, embeddings [2B,77,D]}
//   unet           model  {latents, embeddings} -> {latents, noise [2B,C,h,w], embeddings}
//   guidance       host   {latents, noise [2B], embeddings} -> {latents, noise [B], embeddings}
//   ddim           host   {latents, noise [B], embeddings} -> {latents', embeddings}
//   vae_decoder    model  {latents, embeddings} -> {image [B,3,H,W], latents}
//
// The middle three are the pipeline's loop (pipeline_system.h): one step each per denoising
// step, the UNet on the latents twice over (unconditional and conditional halves, classifier-
// free guidance) at the step's timestep, the guidance combining the halves, the scheduler
// stepping the latents. The text encoder runs once per image on both prompts as a batch of 2;
// with B images per prompt its two rows are repeated B times each. A query's outputs are the
// image (in [-1, 1]) and the final latents, which `agree` compares between targets.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pipeline/ddim_scheduler.h"
#include "pipeline/stage.h"

namespace edgebench {

// A model stage's session, checked against the shapes it was prepared at.
struct DiffusionModel {
  Session* session = nullptr;
  std::vector<std::vector<int64_t>> shapes;  // per input, as prepared
};

std::unique_ptr<Stage> MakeTextEncoderStage(std::string name, DiffusionModel model);
std::unique_ptr<Stage> MakeUNetStage(std::string name, DiffusionModel model, std::shared_ptr<const DdimSchedule> schedule);
std::unique_ptr<Stage> MakeGuidanceStage(std::string name, float guidance_scale);
std::unique_ptr<Stage> MakeDdimStage(std::string name, std::shared_ptr<const DdimSchedule> schedule);
std::unique_ptr<Stage> MakeVaeDecoderStage(std::string name, DiffusionModel model);

}  // namespace edgebench
