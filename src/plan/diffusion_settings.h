// A diffusion pipeline's settings (docs/diffusion.md): the `diffusion:` block of its pipeline
// file, overridden by `run --steps`, `--image` and `--batch`, and carried in the case's JSON to
// the worker, which builds the query's input (pipeline/diffusion_inputs.h) and the stages'
// shapes from them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace edgebench {

struct DiffusionSettings {
  int64_t width = 512, height = 512;  // the image's pixels
  int steps = 20;                     // denoising steps: UNet calls per image
  double guidance_scale = 7.5;        // classifier-free guidance
  std::string scheduler = "ddim";
  uint64_t seed = 0;                  // of the prompt's tokens and the initial latents
  int64_t vae_scale_factor = 8;       // image pixels per latent
  int64_t latent_channels = 4;
  int64_t batch = 1;                  // images per prompt

  int64_t latent_width() const { return width / vae_scale_factor; }
  int64_t latent_height() const { return height / vae_scale_factor; }
  std::vector<int64_t> latent_shape() const { return {batch, latent_channels, latent_height(), latent_width()}; }
  std::string image_text() const { return std::to_string(width) + "x" + std::to_string(height); }
};

// What cannot run: an image not a multiple of the VAE's factor, steps out of range, ...
Status CheckDiffusionSettings(const DiffusionSettings& settings);
// "WxH" (or "N" for a square) into width and height.
Status ParseImageSize(const std::string& text, DiffusionSettings& settings);

nlohmann::json DiffusionSettingsToJson(const DiffusionSettings& settings);
Result<DiffusionSettings> DiffusionSettingsFromJson(const nlohmann::json& json);

}  // namespace edgebench
