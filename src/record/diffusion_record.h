// A diffusion case's part of the record's `pipeline` section (docs/diffusion.md): the settings
// it ran at, how the prompt was made, each step's time for the stages that run once per step
// (the UNet, guidance, the scheduler: per-step distribution, the first step apart from the
// later ones, each step index's median, and the raw samples of the first images), the load of
// each model stage in resident memory, and what the final latents and image came out as.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace edgebench {

struct DiffusionStepRecord {
  std::string stage;
  int steps = 0;       // per image
  int64_t images = 0;  // measured images the steps are of
  // Over every step of the measured images, in ns (absent where too few for a percentile).
  std::optional<int64_t> p50_ns, p90_ns, p99_ns;
  int64_t max_ns = 0;
  double mean_ns = 0;
  // The first step of each image apart from the later ones: re-planning, allocation.
  std::optional<int64_t> first_p50_ns, later_p50_ns;
  double first_mean_ns = 0, later_mean_ns = 0;
  // [step]: the median over the measured images, the lower middle of an even count (with one
  // image, its time: unlike the percentiles above, never absent).
  std::vector<int64_t> by_step_p50_ns;
  std::vector<std::vector<int64_t>> samples_ns;  // [image][step]: the first measured images, raw
};

// What a query's outputs came out as (the first image of lane 0), for a reader to see that
// something ran: NaN or infinity in the latents is a runtime's failure, not a picture.
struct DiffusionOutputSummary {
  std::string name;
  std::vector<int64_t> shape;
  double mean = 0, stddev = 0, min = 0, max = 0;
  int64_t non_finite = 0;
};

struct DiffusionRecord {
  nlohmann::json settings;  // plan/diffusion_settings.h, as run
  std::string prompt;       // how the prompt's tokens were made
  std::vector<DiffusionStepRecord> steps;
  std::vector<DiffusionOutputSummary> outputs;  // final latents, image
  std::string image_file;                       // the PNG written on --save-images
  std::vector<std::string> image_errors;        // why it was not
};

nlohmann::json DiffusionRecordToJson(const DiffusionRecord& d);
Result<DiffusionRecord> DiffusionRecordFromJson(const nlohmann::json& j);

}  // namespace edgebench
