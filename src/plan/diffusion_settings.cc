#include "plan/diffusion_settings.h"

#include <cstdlib>

#include "pipeline/ddim_scheduler.h"

namespace edgebench {

Status CheckDiffusionSettings(const DiffusionSettings& s) {
  if (s.scheduler != "ddim") {
    return Status::Error("scheduler '" + s.scheduler + "': the scheduler edgebench implements is ddim");
  }
  if (s.steps < 1 || s.steps > kDdimTrainSteps) {
    return Status::Error("steps " + std::to_string(s.steps) + ": give 1 to " + std::to_string(kDdimTrainSteps));
  }
  if (s.vae_scale_factor < 1 || s.vae_scale_factor > 64) return Status::Error("vae_scale_factor must be 1 to 64");
  if (s.latent_channels < 1 || s.latent_channels > 64) return Status::Error("latent_channels must be 1 to 64");
  if (s.width < s.vae_scale_factor || s.height < s.vae_scale_factor || s.width % s.vae_scale_factor != 0 ||
      s.height % s.vae_scale_factor != 0 || s.width > 8192 || s.height > 8192) {
    return Status::Error("image " + s.image_text() + ": width and height must be multiples of the VAE's factor " +
                         std::to_string(s.vae_scale_factor) + ", up to 8192");
  }
  if (s.batch < 1 || s.batch > 64) return Status::Error("batch " + std::to_string(s.batch) + ": give 1 to 64 images per prompt");
  if (!(s.guidance_scale >= 0 && s.guidance_scale <= 100)) return Status::Error("guidance_scale must be 0 to 100");
  return Status::Ok();
}

Status ParseImageSize(const std::string& text, DiffusionSettings& settings) {
  const auto x = text.find('x');
  const std::string w = text.substr(0, x), h = x == std::string::npos ? w : text.substr(x + 1);
  char* end = nullptr;
  const long long width = std::strtoll(w.c_str(), &end, 10);
  const bool width_ok = !w.empty() && *end == '\0';
  const long long height = std::strtoll(h.c_str(), &end, 10);
  if (!width_ok || h.empty() || *end != '\0' || width <= 0 || height <= 0) {
    return Status::Error("image size '" + text + "': expected WIDTHxHEIGHT in pixels, e.g. 512x512");
  }
  settings.width = width;
  settings.height = height;
  return Status::Ok();
}

nlohmann::json DiffusionSettingsToJson(const DiffusionSettings& s) {
  return {{"width", s.width},       {"height", s.height},
          {"steps", s.steps},       {"guidance_scale", s.guidance_scale},
          {"scheduler", s.scheduler}, {"seed", s.seed},
          {"vae_scale_factor", s.vae_scale_factor}, {"latent_channels", s.latent_channels},
          {"batch", s.batch}};
}

Result<DiffusionSettings> DiffusionSettingsFromJson(const nlohmann::json& j) {
  try {
    DiffusionSettings s;
    s.width = j.at("width").get<int64_t>();
    s.height = j.at("height").get<int64_t>();
    s.steps = j.at("steps").get<int>();
    s.guidance_scale = j.at("guidance_scale").get<double>();
    s.scheduler = j.at("scheduler").get<std::string>();
    s.seed = j.at("seed").get<uint64_t>();
    s.vae_scale_factor = j.at("vae_scale_factor").get<int64_t>();
    s.latent_channels = j.at("latent_channels").get<int64_t>();
    s.batch = j.at("batch").get<int64_t>();
    if (Status st = CheckDiffusionSettings(s); !st.ok()) return st;
    return s;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("the case's diffusion settings: ") + e.what());
  }
}

}  // namespace edgebench
