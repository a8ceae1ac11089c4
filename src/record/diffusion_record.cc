#include "record/diffusion_record.h"

namespace edgebench {

using nlohmann::json;

namespace {

json Maybe(const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); }

std::optional<int64_t> ReadMaybe(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<int64_t>();
}

}  // namespace

json DiffusionRecordToJson(const DiffusionRecord& d) {
  json steps = json::array();
  for (const DiffusionStepRecord& s : d.steps) {
    steps.push_back({{"stage", s.stage},
                     {"steps", s.steps},
                     {"images", s.images},
                     {"step_ns", {{"p50", Maybe(s.p50_ns)}, {"p90", Maybe(s.p90_ns)}, {"p99", Maybe(s.p99_ns)},
                                  {"max", s.max_ns}, {"mean", s.mean_ns}}},
                     {"first_step_ns", {{"p50", Maybe(s.first_p50_ns)}, {"mean", s.first_mean_ns}}},
                     {"later_steps_ns", {{"p50", Maybe(s.later_p50_ns)}, {"mean", s.later_mean_ns}}},
                     {"by_step_p50_ns", s.by_step_p50_ns},
                     {"samples_ns", s.samples_ns}});
  }
  json outputs = json::array();
  for (const DiffusionOutputSummary& o : d.outputs) {
    outputs.push_back({{"name", o.name}, {"shape", o.shape}, {"mean", o.mean}, {"stddev", o.stddev},
                       {"min", o.min}, {"max", o.max}, {"non_finite", o.non_finite}});
  }
  json j = {{"settings", d.settings}, {"prompt", d.prompt}, {"steps", steps}, {"outputs", outputs}};
  if (!d.image_file.empty()) j["image_file"] = d.image_file;
  if (!d.image_errors.empty()) j["image_errors"] = d.image_errors;
  return j;
}

Result<DiffusionRecord> DiffusionRecordFromJson(const json& j) {
  try {
    DiffusionRecord d;
    d.settings = j.at("settings");
    d.prompt = j.value("prompt", "");
    for (const json& s : j.at("steps")) {
      DiffusionStepRecord r;
      r.stage = s.at("stage").get<std::string>();
      r.steps = s.at("steps").get<int>();
      r.images = s.at("images").get<int64_t>();
      const json& all = s.at("step_ns");
      r.p50_ns = ReadMaybe(all, "p50");
      r.p90_ns = ReadMaybe(all, "p90");
      r.p99_ns = ReadMaybe(all, "p99");
      r.max_ns = all.at("max").get<int64_t>();
      r.mean_ns = all.at("mean").get<double>();
      r.first_p50_ns = ReadMaybe(s.at("first_step_ns"), "p50");
      r.first_mean_ns = s.at("first_step_ns").at("mean").get<double>();
      r.later_p50_ns = ReadMaybe(s.at("later_steps_ns"), "p50");
      r.later_mean_ns = s.at("later_steps_ns").at("mean").get<double>();
      r.by_step_p50_ns = s.at("by_step_p50_ns").get<std::vector<int64_t>>();
      r.samples_ns = s.at("samples_ns").get<std::vector<std::vector<int64_t>>>();
      d.steps.push_back(std::move(r));
    }
    for (const json& o : j.value("outputs", json::array())) {
      d.outputs.push_back({o.at("name").get<std::string>(), o.at("shape").get<std::vector<int64_t>>(),
                           o.at("mean").get<double>(), o.at("stddev").get<double>(), o.at("min").get<double>(),
                           o.at("max").get<double>(), o.at("non_finite").get<int64_t>()});
    }
    d.image_file = j.value("image_file", "");
    d.image_errors = j.value("image_errors", std::vector<std::string>{});
    return d;
  } catch (const json::exception& e) {
    return Status::Error(std::string("bad diffusion section: ") + e.what());
  }
}

}  // namespace edgebench
