#include "worker/diffusion_case.h"

#include "core/sha256.h"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <numeric>

#include "pipeline/diffusion_inputs.h"
#include "pipeline/diffusion_stages.h"
#include "stats/summary.h"

namespace edgebench {
namespace {


double MeanOf(const std::vector<int64_t>& v) {
  if (v.empty()) return 0;
  return static_cast<double>(std::accumulate(v.begin(), v.end(), int64_t{0})) / static_cast<double>(v.size());
}

std::optional<int64_t> Median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return NearestRankPercentile(v, 0.50);
}

// The width of the text encoder's hidden states: the UNet's cross-attention input's last axis.
Result<int64_t> CrossAttentionWidth(const Session& unet) {
  const Signature& s = unet.signature();
  if (s.inputs.size() != 3) {
    return Status::Error("the UNet takes " + std::to_string(s.inputs.size()) +
                         " inputs; a diffusion UNet takes sample, timestep and encoder_hidden_states");
  }
  const std::vector<Dim>& shape = s.inputs[2].shape;
  if (shape.size() != 3 || !shape[2].fixed()) {
    return Status::Error("the UNet's input '" + s.inputs[2].name + "' is " + ShapeToString(shape) +
                         "; [batch, tokens, width] with a fixed width was expected");
  }
  return shape[2].size;
}

}  // namespace

std::vector<Tensor> DiffusionQueryInput(const DiffusionSettings& settings) {
  return {SeededPromptTokens(settings.seed), SeededLatents(settings.seed, settings.latent_shape())};
}

PipelineLoop DiffusionLoop(const DiffusionSettings& settings) { return PipelineLoop{1, 3, settings.steps}; }

Status PrepareDiffusion(const PipelinePlan& pipeline, const DiffusionSettings& settings, BuiltPipeline& built) {
  if (built.models.size() != 3) return Status::Error("internal: a diffusion pipeline has three models");
  PipelineModel& text = built.models[0];
  PipelineModel& unet = built.models[1];
  PipelineModel& vae = built.models[2];
  auto width = CrossAttentionWidth(*unet.sessions.front());
  if (!width.ok()) return Status::Error("stage '" + unet.name + "': " + width.error());
  const std::vector<int64_t> latents = settings.latent_shape();
  std::vector<int64_t> doubled = latents;
  doubled[0] *= 2;
  text.input_shapes = {{2, kClipTextLength}};
  unet.input_shapes = {doubled, {1}, {2 * settings.batch, kClipTextLength, width.value()}};
  vae.input_shapes = {latents};
  for (PipelineModel* model : {&text, &unet, &vae}) {
    const Signature& signature = model->sessions.front()->signature();
    if (signature.inputs.size() != model->input_shapes.size()) {
      return Status::Error("stage '" + model->name + "': the model takes " + std::to_string(signature.inputs.size()) +
                           " inputs; this stage gives it " + std::to_string(model->input_shapes.size()));
    }
    for (const auto& session : model->sessions) {
      if (Status prepared = session->Prepare(model->input_shapes); !prepared.ok()) {
        return Status::Error("stage '" + model->name + "' at " + settings.image_text() + ", " +
                             std::to_string(settings.batch) + " image(s) per prompt: " + prepared.message());
      }
    }
  }
  auto schedule = MakeDdimSchedule(settings.steps);
  if (!schedule.ok()) return schedule.status();
  auto shared = std::make_shared<const DdimSchedule>(schedule.take());
  if (pipeline.stages.size() != 5) return Status::Error("internal: a diffusion pipeline has five stages");
  const auto name = [&](size_t s) { return pipeline.stages[s].name; };
  built.stages.clear();
  built.stages.resize(built.lanes);
  for (size_t lane = 0; lane < built.lanes; ++lane) {
    PipelineSystem::Stages& list = built.stages[lane];
    list.push_back(MakeTextEncoderStage(name(0), {text.sessions[lane].get(), text.input_shapes}));
    list.push_back(MakeUNetStage(name(1), {unet.sessions[lane].get(), unet.input_shapes}, shared));
    list.push_back(MakeGuidanceStage(name(2), static_cast<float>(settings.guidance_scale)));
    list.push_back(MakeDdimStage(name(3), shared));
    list.push_back(MakeVaeDecoderStage(name(4), {vae.sessions[lane].get(), vae.input_shapes}));
  }
  return Status::Ok();
}

std::vector<DiffusionStepRecord> SummarizeDiffusionSteps(const PipelineSystem& system, int64_t start_ns, int64_t end_ns) {
  std::vector<DiffusionStepRecord> records;
  const auto steps = static_cast<size_t>(system.loop().steps);
  for (size_t s = 0; s < system.stage_names().size(); ++s) {
    if (!system.in_loop(s)) continue;
    DiffusionStepRecord r;
    r.stage = system.stage_names()[s];
    r.steps = static_cast<int>(steps);
    std::vector<int64_t> all, first, later;
    std::vector<std::vector<int64_t>> by_step(steps);
    for (int lane = 0; lane < system.lanes(); ++lane) {
      const LaneStageTimes& t = system.times(lane);
      for (size_t q = 0; q < t.query_start_ns.size(); ++q) {
        if (t.query_start_ns[q] < start_ns || t.query_start_ns[q] >= end_ns) continue;
        ++r.images;
        std::vector<int64_t> image(t.step_ns[s].begin() + static_cast<std::ptrdiff_t>(q * steps),
                                   t.step_ns[s].begin() + static_cast<std::ptrdiff_t>((q + 1) * steps));
        for (size_t k = 0; k < steps; ++k) {
          all.push_back(image[k]);
          (k == 0 ? first : later).push_back(image[k]);
          by_step[k].push_back(image[k]);
        }
        if (r.samples_ns.size() < kPipelineTimelineQueries) r.samples_ns.push_back(std::move(image));
      }
    }
    r.mean_ns = MeanOf(all);
    r.first_mean_ns = MeanOf(first);
    r.later_mean_ns = MeanOf(later);
    r.first_p50_ns = Median(first);
    r.later_p50_ns = Median(later);
    std::sort(all.begin(), all.end());
    r.p50_ns = NearestRankPercentile(all, 0.50);
    r.p90_ns = NearestRankPercentile(all, 0.90);
    r.p99_ns = NearestRankPercentile(all, 0.99);
    r.max_ns = all.empty() ? 0 : all.back();
    // Descriptive, per step index: the middle of the images' times (with one image, its time).
    for (auto& k : by_step) {
      std::sort(k.begin(), k.end());
      r.by_step_p50_ns.push_back(k.empty() ? 0 : k[(k.size() - 1) / 2]);
    }
    records.push_back(std::move(r));
  }
  return records;
}

std::vector<DiffusionOutputSummary> SummarizeDiffusionOutputs(const std::vector<Tensor>& outputs) {
  std::vector<DiffusionOutputSummary> summaries;
  for (const Tensor& t : outputs) {
    if (t.dtype != DType::kFloat32) continue;
    DiffusionOutputSummary s{t.name, t.shape, 0, 0, 0, 0, 0};
    const auto* v = reinterpret_cast<const float*>(t.data.data());
    const size_t n = t.data.size() / sizeof(float);
    double sum = 0, squares = 0;
    size_t finite = 0;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (size_t i = 0; i < n; ++i) {
      if (!std::isfinite(v[i])) {
        ++s.non_finite;
        continue;
      }
      ++finite;
      sum += v[i];
      squares += static_cast<double>(v[i]) * v[i];
      lo = std::min(lo, static_cast<double>(v[i]));
      hi = std::max(hi, static_cast<double>(v[i]));
    }
    if (finite > 0) {
      s.mean = sum / static_cast<double>(finite);
      s.stddev = std::sqrt(std::max(0.0, squares / static_cast<double>(finite) - s.mean * s.mean));
      s.min = lo;
      s.max = hi;
    }
    summaries.push_back(std::move(s));
  }
  return summaries;
}

Status WriteDiffusionImage(const Tensor& image, const std::string& path) {
  if (image.dtype != DType::kFloat32 || image.shape.size() != 4 || image.shape[1] != 3 || image.shape[2] < 1 ||
      image.shape[3] < 1) {
    return Status::Error("the VAE's output " + ShapeToString(image.shape) + " is not a float32 [B, 3, H, W] image");
  }
  const int64_t h = image.shape[2], w = image.shape[3];
  const auto* v = reinterpret_cast<const float*>(image.data.data());
  std::vector<unsigned char> rgb(static_cast<size_t>(h * w * 3));
  for (int64_t c = 0; c < 3; ++c) {
    for (int64_t i = 0; i < h * w; ++i) {
      // diffusers' postprocess: (x / 2 + 0.5) clamped to [0, 1], times 255, rounded.
      float x = v[c * h * w + i] / 2.0f + 0.5f;
      x = std::isfinite(x) ? std::clamp(x, 0.0f, 1.0f) : 0.0f;
      rgb[static_cast<size_t>(i * 3 + c)] = static_cast<unsigned char>(std::lround(x * 255.0f));
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  const std::string temporary = path + ".partial";
  if (!stbi_write_png(temporary.c_str(), static_cast<int>(w), static_cast<int>(h), 3, rgb.data(), static_cast<int>(w * 3))) {
    std::filesystem::remove(temporary, ec);
    return Status::Error("cannot write the image '" + path + "' (is the directory writable, the disk full?)");
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) return Status::Error("cannot write the image '" + path + "': " + ec.message());
  return Status::Ok();
}

std::string DiffusionImageName(const std::string& pipeline, const std::string& target, const std::string& scenario,
                               const std::string& case_key) {
  std::string name = pipeline + "." + target + "." + scenario;
  for (char& c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                       c == '_' || c == '-';
    if (!plain) c = '_';
  }
  if (name.size() > 150) name.resize(150);
  return name + "." + Sha256Hex(case_key).substr(0, 12) + ".png";
}

}  // namespace edgebench
