#include "record/pipeline_record.h"

namespace edgebench {

using nlohmann::json;

namespace {

json Optional(const std::optional<int64_t>& value) { return value ? json(*value) : json(nullptr); }

std::optional<int64_t> ReadOptional(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<int64_t>();
}

}  // namespace

nlohmann::json PipelineRecordToJson(const PipelineRecord& p) {
  json stages = json::array();
  for (const PipelineStageRecord& s : p.stages) {
    json stage = {{"name", s.name},
                  {"kind", s.kind},
                  {"queries", s.queries},
                  {"calls", s.calls},
                  {"calls_per_query", {{"min", s.min_calls}, {"max", s.max_calls},
                                       {"mean", s.queries ? static_cast<double>(s.calls) / static_cast<double>(s.queries) : 0.0}}},
                  {"latency_ns", {{"p50", Optional(s.p50_ns)}, {"p90", Optional(s.p90_ns)}, {"p99", Optional(s.p99_ns)},
                                  {"max", s.max_ns}, {"mean", s.mean_ns}}},
                  {"share", s.share},
                  {"cpu_mean_ns", s.cpu_mean_ns ? json(*s.cpu_mean_ns) : json(nullptr)},
                  {"first_run_ns", s.first_run_ns}};
    if (s.load_rss_bytes) stage["load_rss_bytes"] = *s.load_rss_bytes;
    if (!s.target.empty()) {
      stage["target"] = s.target;
      stage["artifact"] = s.artifact;
      stage["ran_on"] = s.ran_on;
      stage["nodes_by_device"] = s.nodes_by_device;
    }
    stages.push_back(std::move(stage));
  }
  json timeline = json::array();
  for (const PipelineQueryTimeline& q : p.timeline) {
    timeline.push_back({{"stream", q.stream}, {"start_ns", q.start_ns}, {"stage_ns", q.stage_ns}});
  }
  json j = {{"name", p.name},           {"file", p.file}, {"timeline", std::move(timeline)},
            {"input", p.input},         {"stages", std::move(stages)},
            {"harness_share", p.harness_share}, {"untimed_queries", p.untimed_queries}};
  if (p.diffusion) j["diffusion"] = DiffusionRecordToJson(*p.diffusion);
  return j;
}

Result<PipelineRecord> PipelineRecordFromJson(const nlohmann::json& j) {
  try {
    PipelineRecord p;
    p.name = j.at("name").get<std::string>();
    p.file = j.value("file", "");
    p.input = j.value("input", "");
    p.harness_share = j.value("harness_share", 0.0);
    p.untimed_queries = j.value("untimed_queries", int64_t{0});
    for (const json& stage : j.at("stages")) {
      PipelineStageRecord s;
      s.name = stage.at("name").get<std::string>();
      s.kind = stage.at("kind").get<std::string>();
      s.target = stage.value("target", "");
      s.artifact = stage.value("artifact", "");
      s.ran_on = stage.value("ran_on", "");
      if (stage.contains("nodes_by_device")) s.nodes_by_device = stage.at("nodes_by_device").get<std::map<std::string, int>>();
      s.queries = stage.at("queries").get<int64_t>();
      s.calls = stage.at("calls").get<int64_t>();
      s.min_calls = stage.at("calls_per_query").at("min").get<int32_t>();
      s.max_calls = stage.at("calls_per_query").at("max").get<int32_t>();
      const json& latency = stage.at("latency_ns");
      s.p50_ns = ReadOptional(latency, "p50");
      s.p90_ns = ReadOptional(latency, "p90");
      s.p99_ns = ReadOptional(latency, "p99");
      s.max_ns = latency.at("max").get<int64_t>();
      s.mean_ns = latency.at("mean").get<double>();
      s.share = stage.at("share").get<double>();
      if (stage.contains("cpu_mean_ns") && !stage.at("cpu_mean_ns").is_null()) {
        s.cpu_mean_ns = stage.at("cpu_mean_ns").get<double>();
      }
      s.first_run_ns = stage.value("first_run_ns", int64_t{0});
      s.load_rss_bytes = ReadOptional(stage, "load_rss_bytes");
      p.stages.push_back(std::move(s));
    }
    for (const json& q : j.value("timeline", json::array())) {
      p.timeline.push_back({q.at("stream").get<int32_t>(), q.at("start_ns").get<int64_t>(),
                            q.at("stage_ns").get<std::vector<int64_t>>()});
    }
    if (j.contains("diffusion")) {
      auto diffusion = DiffusionRecordFromJson(j.at("diffusion"));
      if (!diffusion.ok()) return diffusion.status();
      p.diffusion = diffusion.take();
    }
    return p;
  } catch (const json::exception& e) {
    return Status::Error(std::string("bad pipeline section: ") + e.what());
  }
}

}  // namespace edgebench
