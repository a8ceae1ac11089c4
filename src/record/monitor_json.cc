#include "record/monitor_json.h"

#include "record/json_numbers.h"

namespace edgebench {

using nlohmann::json;

namespace {

// --leak-sites: the raw figures; the derived ones (rates, verdicts) are computed again on reading.
json LeakSitesToJson(const LeakSites& l) {
  json sites = json::array(), libraries = json::array();
  for (const LeakSite& s : l.sites) {
    sites.push_back({{"function", s.function}, {"library", s.library}, {"stack", s.stack},
                     {"grown_bytes", s.grown_bytes}, {"grown_allocations", s.grown_allocations},
                     {"slope", s.slope}, {"slope_stderr", s.slope_stderr},
                     {"fit_r2", s.fit_r2}, {"bytes_per_1k_queries", s.bytes_per_1k_queries},
                     {"low_per_1k_queries", s.low_per_1k_queries}, {"high_per_1k_queries", s.high_per_1k_queries},
                     {"leak", s.leak}});
  }
  for (const LeakLibrary& lib : l.libraries) libraries.push_back({{"library", lib.library}, {"grown_bytes", lib.grown_bytes}});
  return {{"reason", l.reason}, {"window_s", l.window_s}, {"ticks", l.ticks}, {"axis", l.axis}, {"window_queries", l.window_queries}, {"allocations", l.allocations},
          {"frees", l.frees}, {"sites_seen", l.sites_seen}, {"sites", sites}, {"libraries", libraries},
          {"queries", l.queries}, {"leaks", l.leaks}, {"explanation", l.explanation}};
}

LeakSites LeakSitesFromJson(const json& j) {
  LeakSites l;
  l.reason = j.value("reason", "");
  l.window_s = j.value("window_s", 0.0);
  l.ticks = j.value("ticks", 0);
  l.axis = j.value("axis", l.axis);
  l.window_queries = j.value("window_queries", l.window_queries);
  l.allocations = j.value("allocations", int64_t{0});
  l.frees = j.value("frees", int64_t{0});
  l.sites_seen = j.value("sites_seen", 0);
  for (const json& s : j.value("sites", json::array())) {
    LeakSite site;
    site.function = s.at("function").get<std::string>();
    site.library = s.value("library", "");
    site.stack = s.value("stack", std::vector<std::string>{});
    site.grown_bytes = s.at("grown_bytes").get<int64_t>();
    site.grown_allocations = s.value("grown_allocations", int64_t{0});
    site.slope = s.value("slope", 0.0);
    site.slope_stderr = s.value("slope_stderr", 0.0);
    site.fit_r2 = s.value("fit_r2", 0.0);
    l.sites.push_back(std::move(site));
  }
  for (const json& lib : j.value("libraries", json::array())) {
    l.libraries.push_back({lib.at("library").get<std::string>(), lib.at("grown_bytes").get<int64_t>()});
  }
  return l;
}

template <typename T>
std::optional<T> OptionalFrom(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<T>();
}

json EnergyToJson(const EnergyResult& e) {
  json channels = json::array();
  for (const ChannelEnergy& c : e.channels) {
    channels.push_back({{"channel", c.channel}, {"energy_mj", OptionalNumber(c.energy_mj)},
                        {"mean_power_mw", OptionalNumber(c.mean_power_mw)}, {"peak_power_mw", OptionalNumber(c.peak_power_mw)},
                        {"wraps", c.wraps}, {"reason", c.reason}});
    if (!c.notes.empty()) channels.back()["notes"] = c.notes;
  }
  return {{"total_channels", e.total_channels}, {"energy_mj", OptionalNumber(e.energy_mj)},
          {"mean_power_mw", OptionalNumber(e.mean_power_mw)}, {"peak_power_mw", OptionalNumber(e.peak_power_mw)},
          {"per_query_mj", OptionalNumber(e.per_query_mj)}, {"per_token_mj", OptionalNumber(e.per_token_mj)},
          {"reason", e.reason}, {"channels", channels},
          {"method",
           {{"window", "the measured phase only, from the same run as the latencies"},
            {"sample_hz", e.sample_hz},
            {"sensors", e.sensors},
            {"ranging", "MLPerf Power's ranging run sets an external analyzer's range; on-board counters have "
                        "none to set"}}},
          {"idle",
           {{"window_ns", e.idle_ns}, {"power_mw", OptionalNumber(e.idle_power_mw)},
            {"above_idle_mj", OptionalNumber(e.above_idle_mj)},
            {"above_idle_per_query_mj", OptionalNumber(e.above_idle_per_query_mj)},
            {"above_idle_per_token_mj", OptionalNumber(e.above_idle_per_token_mj)}, {"reason", e.idle_reason}}},
          {"llm_split",
           {{"prefill_mj", OptionalNumber(e.prefill_mj)}, {"decode_mj", OptionalNumber(e.decode_mj)},
            {"prefill_per_token_mj", OptionalNumber(e.prefill_per_token_mj)},
            {"decode_per_token_mj", OptionalNumber(e.decode_per_token_mj)}, {"reason", e.split_reason}}}};
}

json MemoryToJson(const MemoryResult& m) {
  return {{"peak_rss_bytes", OptionalInt(m.peak_rss_bytes)}, {"rss_start_bytes", OptionalInt(m.rss_start_bytes)},
          {"rss_end_bytes", OptionalInt(m.rss_end_bytes)},
          {"growth_bytes_per_query", OptionalNumber(m.growth_bytes_per_query)}, {"fit_r2", m.fit_r2},
          {"fit_points", m.fit_points}, {"fit_queries", m.fit_queries},
          {"projected_mb_per_10k_queries", OptionalNumber(m.projected_mb_per_10k_queries)}, {"leak", m.leak},
          {"profiler_growth", m.profiler_growth}, {"explanation", m.explanation}};
}

json BusyToJson(const BusyCheck& b) {
  if (!b.checked) return {{"checked", false}, {"reason", b.unchecked_reason}};
  return {{"checked", true}, {"cores", b.cores}, {"samples", b.samples}, {"machine_cores", b.machine_cores},
          {"worker_cores", b.worker_cores}, {"others_cores", b.others_cores}, {"others_share", b.others_share},
          {"threads_asked", b.threads_asked}, {"worker_share_of_asked", b.worker_share_of_asked}, {"busy", b.busy},
          {"starved", b.starved}, {"kept_by_allow_busy", b.kept}, {"reason", b.reason}};
}

json DerivedToJson(const MonitorDerived& d) {
  json events = json::array();
  for (const ThrottleEvent& e : d.throttling) {
    events.push_back({{"kind", e.kind}, {"channel", e.channel}, {"start_ns", e.start_ns}, {"end_ns", e.end_ns},
                      {"detail", e.detail}});
  }
  json windows = json::array();
  for (const MonitorWindow& w : d.windows) {
    windows.push_back({{"start_ns", w.start_ns}, {"end_ns", w.end_ns},
                       {"busy_frequency_khz", OptionalNumber(w.busy_frequency_khz)},
                       {"max_temperature_mc", OptionalNumber(w.max_temperature_mc)},
                       {"mean_power_mw", OptionalNumber(w.mean_power_mw)}, {"rss_end_bytes", OptionalNumber(w.rss_end_bytes)},
                       {"process_cpu_percent", OptionalNumber(w.process_cpu_percent)},
                       {"throttle_events", w.throttle_events}});
  }
  json busy_devices = json::array();
  for (const DeviceBusyShare& b : d.device_busy) {
    busy_devices.push_back({{"channel", b.channel}, {"label", b.label}, {"samples", b.samples},
                            {"mean_percent", b.mean_percent}, {"max_percent", b.max_percent}});
  }
  json weights = json::array();
  for (const WeightsResidency& w : d.weights) {
    weights.push_back({{"file", w.file}, {"file_bytes", w.file_bytes}, {"mapped_rss_kb", w.mapped_rss_kb},
                       {"anonymous_growth_kb", w.anonymous_growth_kb}, {"verdict", w.verdict},
                       {"explanation", w.explanation}});
  }
  json levels = json::array();
  for (const MemoryLevel& l : d.memory_levels) {
    levels.push_back({{"level", l.level}, {"observed", l.observed}, {"reason", l.reason}});
  }
  return {{"energy", EnergyToJson(d.energy)}, {"memory", MemoryToJson(d.memory)}, {"weights", weights},
          {"memory_levels", levels},
          {"device_busy", busy_devices},
          {"baseline_frequency_khz", OptionalNumber(d.baseline_frequency_khz)}, {"frequency_check", d.frequency_check},
          {"throttling", events}, {"windows", windows}, {"busy", BusyToJson(d.busy)}};
}

json CooldownToJson(const CooldownResult& c) {
  return {{"spec", c.spec}, {"mode", c.mode}, {"idle_mc", OptionalNumber(c.idle_mc)}, {"start_mc", OptionalNumber(c.start_mc)},
          {"end_mc", OptionalNumber(c.end_mc)}, {"waited_ms", c.waited_ms}, {"reached", c.reached}, {"detail", c.detail}};
}

CooldownResult CooldownFromJson(const json& j) {
  CooldownResult c;
  c.spec = j.at("spec").get<std::string>();
  c.mode = j.at("mode").get<std::string>();
  c.idle_mc = OptionalFrom<double>(j, "idle_mc");
  c.start_mc = OptionalFrom<double>(j, "start_mc");
  c.end_mc = OptionalFrom<double>(j, "end_mc");
  c.waited_ms = j.at("waited_ms").get<int64_t>();
  c.reached = j.at("reached").get<bool>();
  c.detail = j.value("detail", "");
  return c;
}

Channel ChannelFromJson(const json& j) {
  Channel c;
  c.id = j.at("id").get<std::string>();
  const auto kind = ParseChannelKind(j.at("kind").get<std::string>());
  if (!kind) throw std::runtime_error("monitor channel '" + c.id + "' has an unknown kind");
  c.kind = *kind;
  c.label = j.value("label", "");
  c.source = j.value("source", "");
  c.reader = j.value("reader", "");
  c.cpu = j.value("cpu", -1);
  c.max_khz = j.value("max_khz", int64_t{0});
  c.wrap_uj = j.value("wrap_uj", int64_t{0});
  c.part_of_total = j.value("part_of_total", false);
  c.device_total = j.value("device_total", false);
  if (j.contains("trips")) {
    for (const json& t : j.at("trips")) c.trips.push_back({t.at("temp_mc").get<int64_t>(), t.at("type").get<std::string>()});
  }
  return c;
}

}  // namespace

json ChannelToJson(const Channel& c) {
  json j = {{"id", c.id}, {"kind", ChannelKindName(c.kind)}, {"unit", ChannelUnit(c.kind)}, {"label", c.label},
            {"source", c.source}, {"reader", c.reader}};
  if (c.cpu >= 0) j["cpu"] = c.cpu;
  if (c.max_khz > 0) j["max_khz"] = c.max_khz;
  if (c.wrap_uj > 0) j["wrap_uj"] = c.wrap_uj;
  if (c.part_of_total) j["part_of_total"] = true;
  if (c.device_total) j["device_total"] = true;
  if (!c.trips.empty()) {
    json trips = json::array();
    for (const TripPoint& t : c.trips) trips.push_back({{"temp_mc", t.temp_mc}, {"type", t.type}});
    j["trips"] = trips;
  }
  return j;
}

json ReaderStatusToJson(const ReaderStatus& r) {
  return {{"reader", r.reader}, {"available", r.available}, {"reason", r.reason}};
}

json MonitorSettingsToJson(const MonitorSettings& s) {
  return {{"enabled", s.enabled}, {"sample_hz", s.sample_hz}, {"sysfs_root", s.sysfs_root},
          {"max_growth_mb", s.max_growth_mb}, {"max_busy_share", s.max_busy_share}, {"allow_busy", s.allow_busy},
          {"idle_ms", s.idle_ms}, {"memory_map", s.memory_map}, {"leak_sites", s.leak_sites}};
}

MonitorSettings MonitorSettingsFromJson(const json& j) {
  MonitorSettings s;
  s.enabled = j.value("enabled", s.enabled);
  s.sample_hz = j.value("sample_hz", s.sample_hz);
  s.sysfs_root = j.value("sysfs_root", s.sysfs_root);
  s.max_growth_mb = j.value("max_growth_mb", s.max_growth_mb);
  s.max_busy_share = j.value("max_busy_share", s.max_busy_share);
  s.allow_busy = j.value("allow_busy", s.allow_busy);
  s.idle_ms = j.value("idle_ms", s.idle_ms);
  s.memory_map = j.value("memory_map", s.memory_map);
  s.leak_sites = j.value("leak_sites", s.leak_sites);
  return s;
}

json MonitorRecordToJson(const MonitorRecord& m) {
  const MonitorSeries& s = m.series;
  json readers = json::array(), channels = json::array(), failures = json::array(), marks = json::array();
  for (const ReaderStatus& r : s.readers) readers.push_back(ReaderStatusToJson(r));
  for (const Channel& c : s.channels) channels.push_back(ChannelToJson(c));
  for (const ChannelFailure& f : s.failures) {
    failures.push_back({{"channel", f.channel < s.channels.size() ? s.channels[f.channel].id : ""},
                        {"t_ns", f.t_ns}, {"error", f.error}});
  }
  for (const MonitorMark& mark : s.marks) {
    marks.push_back({{"name", mark.name}, {"event", mark.event}, {"t_ns", mark.t_ns}});
  }
  json series = json::object();
  for (size_t c = 0; c < s.channels.size() && c < s.values.size(); ++c) {
    json values = json::array();
    for (const auto& v : s.values[c]) values.push_back(OptionalNumber(v));
    series[s.channels[c].id] = std::move(values);
  }
  json j = {{"settings", MonitorSettingsToJson(m.settings)}, {"disabled_reason", m.disabled_reason},
            {"origin_ns", s.origin_ns}, {"effective_hz", s.effective_hz}, {"readers", readers},
            {"channels", channels}, {"failures", failures}, {"marks", marks}, {"t_ns", s.t_ns},
            {"series", series}, {"derived", DerivedToJson(m.derived)}};
  if (m.settings.memory_map) {
    json snapshots = json::array();
    for (const MemorySnapshot& snapshot : m.memory_map) {
      json classes = json::array();
      for (const MemoryClassUse& c : snapshot.classes) {
        classes.push_back({{"kind", c.kind}, {"name", c.name}, {"rss_kb", c.rss_kb}, {"pss_kb", c.pss_kb},
                           {"private_dirty_kb", c.private_dirty_kb}, {"swap_kb", c.swap_kb},
                           {"mappings", c.mappings}});
      }
      snapshots.push_back(
          {{"moment", snapshot.moment}, {"t_ns", snapshot.t_ns}, {"rss_kb", snapshot.rss_kb},
           {"malloc_in_use_kb", snapshot.malloc_in_use_kb}, {"malloc_free_kb", snapshot.malloc_free_kb},
           {"classes", classes}});
    }
    json files = json::array();
    for (const MonitorRecord::ModelFile& f : m.model_files) files.push_back({{"path", f.path}, {"bytes", f.bytes}});
    j["memory_map"] = {{"snapshots", snapshots}, {"reason", m.memory_map_reason}, {"model_files", files}};
  }
  if (m.cooldown) j["cooldown"] = CooldownToJson(*m.cooldown);
  if (m.leak_sites) j["leak_sites"] = LeakSitesToJson(*m.leak_sites);
  return j;
}

MonitorRecord MonitorRecordFromJson(const json& j) {
  MonitorRecord m;
  m.settings = MonitorSettingsFromJson(j.at("settings"));
  m.disabled_reason = j.value("disabled_reason", "");
  if (j.contains("memory_map")) {
    const json& map = j.at("memory_map");
    m.memory_map_reason = map.value("reason", "");
    for (const json& f : map.value("model_files", json::array())) {
      m.model_files.push_back({f.at("path").get<std::string>(), f.at("bytes").get<int64_t>()});
    }
    for (const json& snapshot : map.at("snapshots")) {
      MemorySnapshot taken;
      taken.moment = snapshot.at("moment").get<std::string>();
      taken.t_ns = snapshot.at("t_ns").get<int64_t>();
      taken.rss_kb = snapshot.at("rss_kb").get<int64_t>();
      taken.malloc_in_use_kb = snapshot.value("malloc_in_use_kb", int64_t{-1});
      taken.malloc_free_kb = snapshot.value("malloc_free_kb", int64_t{-1});
      for (const json& c : snapshot.at("classes")) {
        taken.classes.push_back({c.at("kind").get<std::string>(), c.value("name", ""), c.at("rss_kb").get<int64_t>(),
                                 c.at("pss_kb").get<int64_t>(), c.at("private_dirty_kb").get<int64_t>(),
                                 c.at("swap_kb").get<int64_t>(), c.value("mappings", 0)});
      }
      m.memory_map.push_back(std::move(taken));
    }
  }
  if (j.contains("leak_sites")) m.leak_sites = LeakSitesFromJson(j.at("leak_sites"));
  MonitorSeries& s = m.series;
  s.origin_ns = j.value("origin_ns", int64_t{0});
  s.effective_hz = j.value("effective_hz", 0.0);
  for (const json& r : j.at("readers")) {
    s.readers.push_back({r.at("reader").get<std::string>(), r.at("available").get<bool>(), r.value("reason", "")});
  }
  for (const json& c : j.at("channels")) s.channels.push_back(ChannelFromJson(c));
  for (const json& f : j.at("failures")) {
    const std::string id = f.at("channel").get<std::string>();
    for (size_t c = 0; c < s.channels.size(); ++c) {
      if (s.channels[c].id == id) s.failures.push_back({c, f.at("t_ns").get<int64_t>(), f.value("error", "")});
    }
  }
  for (const json& mark : j.at("marks")) {
    s.marks.push_back({mark.at("name").get<std::string>(), mark.at("event").get<std::string>(),
                       mark.at("t_ns").get<int64_t>()});
  }
  s.t_ns = j.at("t_ns").get<std::vector<int64_t>>();
  const json& series = j.at("series");
  for (const Channel& c : s.channels) {
    std::vector<std::optional<double>> values;
    for (const json& v : series.at(c.id)) values.push_back(v.is_null() ? std::nullopt : std::optional<double>(v.get<double>()));
    if (values.size() != s.t_ns.size()) {
      throw std::runtime_error("monitor series '" + c.id + "' has " + std::to_string(values.size()) +
                               " values for " + std::to_string(s.t_ns.size()) + " sample times");
    }
    s.values.push_back(std::move(values));
  }
  if (j.contains("cooldown")) m.cooldown = CooldownFromJson(j.at("cooldown"));
  return m;  // derived: recomputed by FinishRecord
}

}  // namespace edgebench
