#include "record/record_json.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/sample_codec.h"
#include "record/json_numbers.h"
#include "record/monitor_json.h"
#include "record/profile_json.h"
#include "record/record_checks.h"
#include "record/record_finish.h"
#include "record/record_load.h"
#include "record/record_roofline.h"
#include "record/record_sections.h"
#include "record/record_vision.h"
#include "record/summary_json.h"

namespace edgebench {

using nlohmann::json;

json RunSettingsToJson(const RunSettings& s) {
  return {{"warmup_queries", s.warmup_queries}, {"min_queries", s.min_queries},
          {"min_duration_ms", s.min_duration_ms}, {"max_duration_ms", s.max_duration_ms},
          {"max_queries", s.max_queries}, {"seed", s.seed}, {"max_cv", s.max_cv},
          {"case_timeout_ms", s.case_timeout_ms}, {"case_memory_mb", s.case_memory_mb},
          {"sessions", s.sessions}, {"concurrency", s.concurrency}, {"batch", s.batch},
          {"streams", s.streams}, {"window_ms", s.window_ms}, {"confidence", s.confidence},
          {"p99_bound_ms", s.p99_bound_ms}};
}

RunSettings RunSettingsFromJson(const json& j) {
  RunSettings s;
  s.warmup_queries = j.at("warmup_queries").get<int64_t>();
  s.min_queries = j.at("min_queries").get<int64_t>();
  s.min_duration_ms = j.at("min_duration_ms").get<int64_t>();
  s.max_duration_ms = j.at("max_duration_ms").get<int64_t>();
  s.max_queries = j.value("max_queries", RunSettings{}.max_queries);  // absent in schema 1
  s.seed = j.at("seed").get<uint64_t>();
  s.max_cv = j.at("max_cv").get<double>();
  s.case_timeout_ms = j.at("case_timeout_ms").get<int64_t>();
  s.case_memory_mb = j.value("case_memory_mb", int64_t{0});  // absent in schema 1
  // The load scenarios' settings: absent in records written before them.
  const RunSettings defaults;
  s.sessions = j.value("sessions", defaults.sessions);
  s.concurrency = j.value("concurrency", defaults.concurrency);
  s.batch = j.value("batch", defaults.batch);
  s.streams = j.value("streams", defaults.streams);
  s.window_ms = j.value("window_ms", defaults.window_ms);
  s.confidence = j.value("confidence", defaults.confidence);
  s.p99_bound_ms = j.value("p99_bound_ms", defaults.p99_bound_ms);
  return s;
}

json LlmSettingsToJson(const LlmSettings& s) {
  json j = {{"prompt_tokens", s.prompt_tokens}, {"gen_tokens", s.gen_tokens},
            {"repetitions", s.repetitions}, {"warmup_requests", s.warmup_requests},
            {"sequences", s.sequences}, {"seed", s.seed}, {"prompt_text", s.prompt_text}};
  // The serving-load settings only when they differ from their defaults: this JSON is also
  // what case keys hash, and a lockstep case must keep the key it had before they existed.
  if (s.concurrency != 1) j["concurrency"] = s.concurrency;
  if (s.rate > 0) j["rate"] = s.rate;
  if (s.uniform_arrivals) j["arrivals"] = "uniform";
  if (s.prompt_range.set()) j["prompt_range"] = {s.prompt_range.min, s.prompt_range.max};
  if (s.gen_range.set()) j["gen_range"] = {s.gen_range.min, s.gen_range.max};
  if (s.slo.set()) j["slo"] = {{"ttft_ns", s.slo.ttft_ns}, {"tpot_ns", s.slo.tpot_ns}};
  AddVisionSettings(s, j);
  return j;
}

LlmSettings LlmSettingsFromJson(const json& j) {
  LlmSettings s;
  s.prompt_tokens = j.at("prompt_tokens").get<int64_t>();
  s.gen_tokens = j.at("gen_tokens").get<int64_t>();
  s.repetitions = j.at("repetitions").get<int64_t>();
  s.warmup_requests = j.at("warmup_requests").get<int64_t>();
  s.sequences = j.at("sequences").get<int64_t>();
  s.seed = j.at("seed").get<uint64_t>();
  s.prompt_text = j.at("prompt_text").get<std::string>();
  s.concurrency = j.value("concurrency", int64_t{1});
  s.rate = j.value("rate", 0.0);
  s.uniform_arrivals = j.value("arrivals", std::string("poisson")) == "uniform";
  auto range = [&](const char* key) {
    if (!j.contains(key)) return LlmTokenRange{};
    const json& bounds = j.at(key);  // [min, max]; at() throws naming a missing bound
    return LlmTokenRange{bounds.at(0).get<int64_t>(), bounds.at(1).get<int64_t>()};
  };
  s.prompt_range = range("prompt_range");
  s.gen_range = range("gen_range");
  if (j.contains("slo")) {
    s.slo.ttft_ns = j.at("slo").at("ttft_ns").get<int64_t>();
    s.slo.tpot_ns = j.at("slo").at("tpot_ns").get<int64_t>();
  }
  ReadVisionSettings(j, s);
  return s;
}

namespace {

json EnvironmentToJson(const Environment& e) {
  return {{"edgebench_version", e.edgebench_version}, {"edgebench_commit", e.edgebench_commit},
          {"host", e.host}, {"hostname", e.hostname}, {"architecture", e.architecture}, {"os", e.os},
          {"kernel", e.kernel}, {"cpu_model", e.cpu_model}, {"cpu_emulation", e.cpu_emulation},
          {"logical_cores", e.logical_cores},
          {"usable_cores", e.usable_cores},
          {"cpu_governor", e.cpu_governor}, {"cpu_max_freq_mhz", e.cpu_max_freq_mhz},
          {"cpu_features", e.cpu_features}, {"memory_total_bytes", e.memory_total_bytes},
          {"load_average", e.load_average},
          {"compiler", e.compiler}, {"build_type", e.build_type},
          {"debug_build", e.debug_build}, {"sanitizers", e.sanitizers},
          {"runtimes", e.runtimes}};
}

Environment EnvironmentFromJson(const json& j) {
  // Every field optional: records of older schemas know fewer of them.
  auto text = [&](const char* key) {
    return j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : std::string();
  };
  Environment e;
  e.edgebench_version = text("edgebench_version");
  e.edgebench_commit = j.contains("edgebench_commit") ? text("edgebench_commit") : "unknown";
  e.host = text("host");
  e.hostname = text("hostname");
  e.architecture = text("architecture");
  e.os = text("os");
  e.kernel = text("kernel");
  e.cpu_model = text("cpu_model");
  e.cpu_emulation = text("cpu_emulation");
  e.logical_cores = j.value("logical_cores", 0);
  e.usable_cores = j.value("usable_cores", 0);
  e.cpu_governor = text("cpu_governor");
  e.cpu_max_freq_mhz = text("cpu_max_freq_mhz");
  e.cpu_features = j.value("cpu_features", std::vector<std::string>{});
  e.memory_total_bytes = j.value("memory_total_bytes", int64_t{0});
  e.load_average = j.value("load_average", std::vector<double>{});
  e.compiler = text("compiler");
  e.build_type = text("build_type");
  e.debug_build = j.value("debug_build", false);
  e.sanitizers = j.value("sanitizers", false);
  e.runtimes = j.value("runtimes", std::map<std::string, std::string>{});
  return e;
}

// Per request only the raw timestamps, everything else is derived: the start (ns after the
// phase's first start), TTFT, the later tokens' offsets from the start, the prompt length.
json TimingsToJson(const std::vector<LlmRequestTiming>& timings) {
  json list = json::array();
  int64_t origin = timings.empty() ? 0 : timings.front().start_ns;
  for (const auto& t : timings) origin = std::min(origin, t.start_ns);
  for (const auto& t : timings) {
    std::vector<int64_t> offsets;
    offsets.reserve(t.token_ns.size());
    for (int64_t x : t.token_ns) offsets.push_back(x - t.start_ns);
    list.push_back({{"start_ns", t.start_ns - origin}, {"ttft_ns", t.ttft_ns()},
                    {"prompt_tokens", t.prompt_tokens}, {"token_offsets_ns", offsets}});
    if (t.vision) list.back()["vision"] = VisionStagesToJson(*t.vision);
  }
  return list;
}

// Records before serving load kept no start or prompt length per request: those requests ran
// one after another, so each is laid where the previous one ended, and their prompt length is
// the case's (prompt_tokens 0).
std::vector<LlmRequestTiming> TimingsFromJson(const json& list) {
  std::vector<LlmRequestTiming> timings;
  int64_t previous_end = 0;
  for (const json& j : list) {
    LlmRequestTiming t;
    t.start_ns = j.contains("start_ns") ? j.at("start_ns").get<int64_t>() : previous_end;
    t.first_token_ns = t.start_ns + j.at("ttft_ns").get<int64_t>();
    for (int64_t offset : j.at("token_offsets_ns").get<std::vector<int64_t>>()) {
      t.token_ns.push_back(t.start_ns + offset);
    }
    t.prompt_tokens = j.value("prompt_tokens", int64_t{0});
    if (j.contains("vision")) t.vision = VisionStagesFromJson(j.at("vision"));
    previous_end = t.end_ns();
    timings.push_back(std::move(t));
  }
  return timings;
}

json LlmToJson(const LlmRecord& l) {
  const LlmSummary& s = l.summary;
  auto percentiles = [](const LatencySummary& x) {
    json p = json::object();
    for (const auto& [q, v] : x.percentiles) p[PercentileName(q)] = v ? json(*v) : json(nullptr);
    return p;
  };
  json out = {{"settings", LlmSettingsToJson(l.settings)},
          {"prompt_tokens_run", l.prompt_tokens_run},
          {"prompt_source", l.prompt_source},
          {"warmup", TimingsToJson(l.warmup)},
          {"measured", TimingsToJson(l.measured)},
          {"measured_origin_ns", l.measured_origin_ns},
          {"model",
           {{"description", l.session.model_description}, {"parameters", l.session.model_parameters},
            {"bytes", l.session.model_bytes}, {"vocab_size", l.session.vocab_size},
            {"context_size", l.session.context_size}, {"max_sequences", l.session.max_sequences},
            {"random_weights", l.session.random_weights}}},
          {"kv_cache_bytes", l.session.kv_cache_bytes},
          {"effective_options", l.session.effective_options},
          {"runtime_environment", l.session.environment},
          {"rss_bytes", l.rss_bytes},
          {"rss_peak_bytes", l.rss_peak_bytes},
          {"summary",
           // Records before serving load had tpot_mean_ns, tpot_percentiles_ns and tpot_steps:
           // those were pooled gaps, the itl_* fields here. The reader recomputes the summary
           // from the timings, so it never reads either.
           {{"requests", s.requests},
            {"ttft_mean_ns", s.ttft.mean_ns}, {"ttft_percentiles_ns", percentiles(s.ttft)},
            {"request_tpot_mean_ns", s.tpot.mean_ns}, {"request_tpot_percentiles_ns", percentiles(s.tpot)},
            {"e2e_mean_ns", s.e2e.mean_ns}, {"e2e_percentiles_ns", percentiles(s.e2e)},
            {"itl_mean_ns", s.itl.mean_ns}, {"itl_percentiles_ns", percentiles(s.itl)},
            {"itl_gaps", s.itl.count},
            {"wall_ns", s.wall_ns},
            {"output_tokens", s.output_tokens},
            {"prefill_tokens_per_s", s.prefill_tokens_per_s},
            {"decode_tokens_per_s", s.decode_tokens_per_s},
            {"per_sequence_tokens_per_s", s.per_sequence_tokens_per_s},
            {"aggregate_tokens_per_s", s.aggregate_tokens_per_s},
            {"slo_met", s.slo_met},
            {"goodput_rps", s.goodput_rps}}}};
  out["model"]["work"] = LlmWorkToJson(l.session);
  out["summary"]["roofline"] = LlmRooflineToJson(l.roofline);
  if (!l.session.projector.empty()) {
    out["model"]["projector"] = l.session.projector;
    out["model"]["vision_device"] = l.session.vision_device;
  }
  if (s.vision) out["summary"]["vision"] = VlmSummaryToJson(*s.vision);
  return out;
}

LlmRecord LlmFromJson(const json& j) {
  LlmRecord l;
  l.settings = LlmSettingsFromJson(j.at("settings"));
  l.prompt_tokens_run = j.at("prompt_tokens_run").get<int64_t>();
  l.prompt_source = j.at("prompt_source").get<std::string>();
  l.warmup = TimingsFromJson(j.at("warmup"));
  l.measured = TimingsFromJson(j.at("measured"));
  l.measured_origin_ns = j.value("measured_origin_ns", int64_t{0});
  const json& m = j.at("model");
  l.session.model_description = m.at("description").get<std::string>();
  l.session.model_parameters = m.at("parameters").get<uint64_t>();
  l.session.model_bytes = m.at("bytes").get<uint64_t>();
  l.session.vocab_size = m.at("vocab_size").get<int32_t>();
  l.session.context_size = m.at("context_size").get<int32_t>();
  l.session.max_sequences = m.at("max_sequences").get<int32_t>();
  l.session.random_weights = m.at("random_weights").get<bool>();
  l.session.projector = m.value("projector", std::string());
  l.session.vision_device = m.value("vision_device", std::string());
  LlmWorkFromJson(m, l.session);
  l.session.kv_cache_bytes = j.at("kv_cache_bytes").get<int64_t>();
  l.session.effective_options =
      j.value("effective_options", std::map<std::string, std::string>{});  // absent before the roofline
  l.session.environment = j.at("runtime_environment").get<std::map<std::string, std::string>>();
  l.rss_bytes = j.at("rss_bytes").get<int64_t>();
  l.rss_peak_bytes = j.at("rss_peak_bytes").get<int64_t>();
  return l;
}

}  // namespace

namespace {

// Reads an optional field: its value when present and of the right type, else `fallback`.
// Records of older schemas lack newer fields; a wrong type is still an error (json throws).
template <typename T>
T Optional(const json& j, const char* key, T fallback) {
  if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return fallback;
  return j.at(key).get<T>();
}

json SeriesToJson(const std::vector<int64_t>& latency, const std::vector<int64_t>& issue,
                  const std::vector<int32_t>* stream, const std::vector<int64_t>* service = nullptr) {
  json j = {{"count", latency.size()}, {"latency_ns", EncodeSamples(latency)}};
  if (!issue.empty()) j["issue_ns"] = EncodeSamples(issue);
  if (stream && !stream->empty()) {
    j["stream"] = EncodeSamples(std::vector<int64_t>(stream->begin(), stream->end()));
  }
  if (service && !service->empty()) j["service_ns"] = EncodeSamples(*service);
  return j;
}

std::vector<int64_t> DecodeField(const json& series, const char* key, size_t count) {
  if (!series.contains(key)) return {};
  auto values = DecodeSamples(series.at(key).get<std::string>());
  if (!values.ok()) throw json::other_error::create(501, std::string(key) + ": " + values.error(), &series);
  if (values.value().size() != count) {
    throw json::other_error::create(
        501, std::string(key) + " holds " + std::to_string(values.value().size()) + " samples, count says " +
                 std::to_string(count), &series);
  }
  return values.take();
}


}  // namespace

json RecordToJson(const Record& r) {
  json inputs = json::array();
  for (const auto& in : r.inputs) {
    inputs.push_back({{"name", in.name}, {"dtype", in.dtype}, {"shape", in.shape}, {"source", in.source}});
  }
  json j = {
      {"schema", r.schema},
      {"id", r.id},
      {"started_at", r.started_at},
      {"case_key", r.case_key},
      {"config",
       {{"model", r.model},
        {"artifact", r.artifact},
        {"artifact_bytes", r.artifact_bytes},
        {"artifact_sha256", r.artifact_sha256},
        {"variant", r.variant},
        {"scenario", r.scenario},
        {"requested_target", r.requested_target},
        {"effective_target", r.effective_target},
        {"backend", r.backend},
        {"device", r.device},
        {"requested_settings", RunSettingsToJson(r.requested_settings)},
        {"effective_settings", RunSettingsToJson(r.effective_settings)},
        {"dims", r.dims},
        {"dims_defaulted", r.dims_defaulted},
        {"inputs", inputs}}},
      {"environment", EnvironmentToJson(r.environment)},
      {"status", CaseStatusName(r.status)},
      {"failure", {{"stage", r.failed_stage}, {"error", r.error}, {"signal", r.signal}}},
      {"verdict", {{"valid", r.valid}, {"reasons", r.invalid_reasons}}},
      {"notes", r.notes},
      {"timings_ns",
       {{"load", r.load_ns}, {"inputs", r.inputs_ns}, {"prepare", r.prepare_ns},
        {"first_run", r.warmup_ns.empty() ? json(nullptr) : json(r.warmup_ns.front())}}},
  };
  if (r.sandbox) j["sandbox"] = SandboxReportToJson(*r.sandbox);
  if (r.placement.known) {
    j["placement"] = {
        {"known", true},
        {"nodes_by_device", r.placement.nodes_by_device},
        {"ops_by_device", r.placement.ops_by_device},
        {"delegate_partitions",
         r.placement.delegate_partitions ? json(*r.placement.delegate_partitions) : json(nullptr)},
        {"devices_used", r.placement.devices_used},
        // The model's own nodes: null or empty where the runtime did not tell.
        {"model_nodes", r.placement.model_nodes ? json(*r.placement.model_nodes) : json(nullptr)},
        {"original_nodes_by_device", r.placement.original_nodes_by_device},
        {"partitions_by_device", r.placement.partitions_by_device},
        {"cpu_op_types", r.placement.cpu_op_types}};
  }
  for (const RecordSection& section : RecordSections()) {
    if (!section.mode && section.present(r)) j[section.key] = section.to_json(r);
  }
  if (const RecordSection* section = ModeSectionOf(r)) {
    j[section->key] = section->to_json(r);
  } else if (!r.llm) {
    json measured;
    if (r.measured_histograms) {
      measured = r.measured_histograms->ToJson();
      measured["count"] = r.measured_histograms->count();
      if (r.measured_server) measured["server"] = r.measured_server->ToJson();
    } else {
      measured = SeriesToJson(r.measured_ns, r.measured_issue_ns, &r.measured_stream, &r.measured_service_ns);
    }
    j["samples"] = {{"encoding", kSampleEncoding},
                    {"warmup", SeriesToJson(r.warmup_ns, r.warmup_issue_ns, nullptr)},
                    {"measured", measured},
                    {"not_issued", r.not_issued},
                    {"measured_start_ns", r.measured_start_ns},
                    {"measured_wall_ns", r.measured_wall_ns},
                    {"stop_reason", r.stop_reason}};
    if (!r.frames_delivered.empty() || !r.frames_dropped.empty()) {
      j["samples"]["frames_delivered"] = r.frames_delivered;
      j["samples"]["frames_dropped"] = r.frames_dropped;
    }
    j["summary"] = SummaryToJson(r.summary);
    if (r.load && r.load->percentile_relative_error > 0) {
      j["summary"]["percentile_relative_error"] = r.load->percentile_relative_error;
    }
    j["settling"] = r.settling ? json{{"query_index", r.settling->query_index},
                                      {"time_ns", r.settling->time_ns}}
                               : json(nullptr);
  } else {
    j["llm"] = LlmToJson(*r.llm);
  }
  if (r.operator_profile || !r.operator_profile_unavailable.empty()) {
    int64_t measured = 0;
    for (int64_t ns : r.measured_ns) measured += ns;
    j["profile"] = OperatorProfileToJson(r.operator_profile, r.operator_profile_unavailable, measured);
  }
  return j;
}

Result<Record> RecordFromJsonByRules(const json& j, ScenarioRulesLookup rules) {
  try {
    Record r;
    const std::string schema = j.at("schema").get<std::string>();
    static const std::string kPrefix = "edgebench.record/";
    int version = 0;
    if (schema.rfind(kPrefix, 0) == 0) {
      try {
        version = std::stoi(schema.substr(kPrefix.size()));
      } catch (const std::exception&) {
        version = 0;
      }
    }
    if (version < 1) return Status::Error("'" + schema + "' is not an edgebench record schema");
    if (version > 3) {
      r.read_warnings.push_back("record schema '" + schema + "' is newer than this edgebench (" +
                                kRecordSchema + "): fields it does not know are ignored");
    }
    r.schema = kRecordSchema;
    r.id = j.at("id").get<std::string>();
    r.started_at = Optional<std::string>(j, "started_at", "");
    r.case_key = Optional<std::string>(j, "case_key", "");
    const json& c = j.at("config");
    r.model = c.at("model").get<std::string>();
    r.artifact = Optional<std::string>(c, "artifact", "");
    r.artifact_bytes = Optional<int64_t>(c, "artifact_bytes", 0);
    r.artifact_sha256 = Optional<std::string>(c, "artifact_sha256", "");
    r.variant = Optional<std::string>(c, "variant", "");
    r.scenario = Optional<std::string>(c, "scenario", "single-stream");
    r.requested_target = c.at("requested_target").get<std::string>();
    r.effective_target = Optional<std::string>(c, "effective_target", r.requested_target);
    r.backend = c.at("backend").get<std::string>();
    r.device = Optional<std::string>(c, "device", "");
    if (c.contains("requested_settings")) r.requested_settings = RunSettingsFromJson(c.at("requested_settings"));
    r.effective_settings = c.contains("effective_settings") ? RunSettingsFromJson(c.at("effective_settings"))
                                                            : r.requested_settings;
    r.dims = Optional<ShapeBindings>(c, "dims", {});
    r.dims_defaulted = Optional<std::vector<std::string>>(c, "dims_defaulted", {});
    if (c.contains("inputs")) {
      for (const json& in : c.at("inputs")) {
        r.inputs.push_back({in.at("name").get<std::string>(), Optional<std::string>(in, "dtype", ""),
                            Optional<std::vector<int64_t>>(in, "shape", {}),
                            Optional<std::string>(in, "source", "")});
      }
    }
    if (j.contains("environment")) r.environment = EnvironmentFromJson(j.at("environment"));
    const auto status = ParseCaseStatus(j.at("status").get<std::string>());
    if (!status) return Status::Error("record has unknown status '" + j.at("status").get<std::string>() + "'");
    r.status = *status;
    const json failure = j.value("failure", json::object());
    r.failed_stage = Optional<std::string>(failure, "stage", "");
    r.error = Optional<std::string>(failure, "error", "");
    r.signal = Optional<int>(failure, "signal", 0);
    if (j.contains("sandbox")) {
      auto sandbox = SandboxReportFromJson(j.at("sandbox"));
      if (!sandbox.ok()) return sandbox.status();
      r.sandbox = sandbox.take();
    }
    if (j.contains("placement")) {
      const json& p = j.at("placement");
      r.placement.known = Optional<bool>(p, "known", false);
      r.placement.nodes_by_device = Optional<std::map<std::string, int>>(p, "nodes_by_device", {});
      r.placement.devices_used = Optional<std::vector<std::string>>(p, "devices_used", {});
      r.placement.ops_by_device =
          Optional<std::map<std::string, std::map<std::string, int>>>(p, "ops_by_device", {});
      if (p.contains("delegate_partitions") && !p.at("delegate_partitions").is_null()) {
        r.placement.delegate_partitions = p.at("delegate_partitions").get<int>();
      }
      // Records before the model's own node counts have none of these: unknown.
      if (p.contains("model_nodes") && !p.at("model_nodes").is_null()) {
        r.placement.model_nodes = p.at("model_nodes").get<int>();
      }
      r.placement.original_nodes_by_device =
          Optional<std::map<std::string, int>>(p, "original_nodes_by_device", {});
      r.placement.partitions_by_device =
          Optional<std::map<std::string, int>>(p, "partitions_by_device", {});
      r.placement.cpu_op_types = Optional<std::map<std::string, int>>(p, "cpu_op_types", {});
    }
    const json timings = j.value("timings_ns", json::object());
    r.load_ns = Optional<int64_t>(timings, "load", 0);
    r.prepare_ns = Optional<int64_t>(timings, "prepare", 0);
    r.inputs_ns = Optional<int64_t>(timings, "inputs", 0);  // absent before it was measured
    if (j.contains("samples")) {
      const json& s = j.at("samples");
      if (s.contains("encoding")) {
        if (s.at("encoding").get<std::string>() != kSampleEncoding) {
          return Status::Error("record " + r.id + ": unknown sample encoding '" +
                               s.at("encoding").get<std::string>() + "'");
        }
        const json& w = s.at("warmup");
        const json& m = s.at("measured");
        const auto wn = w.at("count").get<size_t>();
        const auto mn = m.at("count").get<size_t>();
        r.warmup_ns = DecodeField(w, "latency_ns", wn);
        r.warmup_issue_ns = DecodeField(w, "issue_ns", wn);
        r.measured_ns = DecodeField(m, "latency_ns", mn);
        r.measured_issue_ns = DecodeField(m, "issue_ns", mn);
        for (int64_t id : DecodeField(m, "stream", mn)) r.measured_stream.push_back(static_cast<int32_t>(id));
        r.measured_service_ns = DecodeField(m, "service_ns", mn);
        if (m.contains("histogram_windows")) {  // a soak past the raw-sample cap
          auto series = HistogramSeries::FromJson(m);
          if (!series.ok()) return Status::Error("record " + r.id + ": samples.measured: " + series.error());
          if (series.value().count() != static_cast<int64_t>(mn)) {
            return Status::Error("record " + r.id + ": samples.measured: the histograms count " +
                                 std::to_string(series.value().count()) + " queries, count says " +
                                 std::to_string(mn));
          }
          r.measured_histograms = series.take();
          if (m.contains("server")) {  // a server past its raw-sample cap
            auto totals = ServerTotals::FromJson(m.at("server"));
            if (!totals.ok()) return Status::Error("record " + r.id + ": samples.measured: " + totals.error());
            if (totals.value().count != static_cast<int64_t>(mn)) {
              return Status::Error("record " + r.id + ": samples.measured.server: count " +
                                   std::to_string(totals.value().count) + " differs from samples.measured.count " +
                                   std::to_string(mn) + " (was it edited?)");
            }
            r.measured_server = totals.take();
          }
        } else if (m.contains("server")) {
          return Status::Error("record " + r.id + ": samples.measured has server totals ('server') but no "
                               "latency histograms ('histogram_windows'); was it edited?");
        }
      } else {  // schema 1: arrays of latencies
        r.warmup_ns = Optional<std::vector<int64_t>>(s, "warmup_ns", {});
        r.measured_ns = Optional<std::vector<int64_t>>(s, "measured_ns", {});
      }
      r.measured_start_ns = Optional<int64_t>(s, "measured_start_ns", 0);
      r.measured_wall_ns = Optional<int64_t>(s, "measured_wall_ns", 0);
      r.stop_reason = Optional<std::string>(s, "stop_reason", "");
      r.not_issued = Optional<int64_t>(s, "not_issued", 0);
      r.frames_delivered = Optional<std::vector<int64_t>>(s, "frames_delivered", {});
      r.frames_dropped = Optional<std::vector<int64_t>>(s, "frames_dropped", {});
    }
    r.notes = Optional<std::vector<std::string>>(j, "notes", {});
    if (j.contains("llm")) r.llm = LlmFromJson(j.at("llm"));
    for (const RecordSection& section : RecordSections()) {
      if (!j.contains(section.key)) continue;
      if (Status read = section.from_json(j.at(section.key), r); !read.ok()) {
        return Status::Error("record " + r.id + ": " + section.key + ": " + read.message());
      }
    }
    if (j.contains("profile")) OperatorProfileFromJson(j.at("profile"), r.operator_profile, r.operator_profile_unavailable);
    if (Status possible = CheckPhysicallyPossible(r); !possible.ok()) return possible;
    // The summary, settling and verdict are derived: recompute them from the raw samples. A
    // stored verdict that disagrees (an older version's rules, or an edited record) is replaced
    // by the recomputed one, with a warning, so no record claims a verdict its samples deny.
    FinishRecordByRules(r, rules ? rules(r.scenario, r.effective_settings) : std::nullopt);
    const json verdict = j.value("verdict", json::object());
    if (verdict.contains("valid") && verdict.at("valid").get<bool>() != r.valid) {
      r.read_warnings.push_back("record " + r.id + ": its stored verdict (" +
                                (verdict.at("valid").get<bool>() ? "VALID" : "INVALID") +
                                ") differs from the one its samples give now (" +
                                (r.valid ? "VALID" : "INVALID") + "); showing the recomputed one");
    }
    return r;
  } catch (const json::exception& e) {
    return Status::Error(std::string("malformed record: ") + e.what());
  }
}

}  // namespace edgebench
