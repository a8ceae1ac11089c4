// The report's data (report/html/report_data.h) from records built here, and the page around it
// (report/html/report_page.h). The browser test (tests/cli/report_browser_test.cc) draws it.
#include "report/html/report_data.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "../test_util.h"
#include "report/html/chart_library.h"
#include "report/html/report_labels.h"
#include "report/html/report_page.h"
#include "report/store.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

using nlohmann::json;
using testing::MakeRecord;

// n latencies of 1, 2, ..., n ms.
std::vector<int64_t> Milliseconds(int64_t n) {
  std::vector<int64_t> v;
  for (int64_t i = 1; i <= n; ++i) v.push_back(i * 1'000'000);
  return v;
}

ReportInputs InputsOf(std::vector<Record> records) {
  ReportInputs in;
  in.title = "t";
  in.stores = {ReportStore{"s1", "s1/results.jsonl", static_cast<int>(records.size()), 0}};
  in.records = std::move(records);
  in.record_store.assign(in.records.size(), 0);
  in.labels = CaseLabels(in.records);
  return in;
}

Record WithScenario(Record r, const std::string& scenario, const std::string& id) {
  r.scenario = scenario;
  r.id = id;
  FinishRecord(r);
  return r;
}

TEST(ReportData, ASingleStreamRecordGivesItsSectionsAndNoOthers) {
  Record r = MakeRecord(Milliseconds(100), {30'000'000, 20'000'000});
  const json data = BuildReportData(InputsOf({r}));
  const json& sections = data["sections"];
  for (const char* id : {"environment", "summary", "latency", "warmup"}) {
    EXPECT_TRUE(sections.contains(id)) << id;
  }
  for (const char* id :
       {"load", "soak", "memory", "placement", "shapes", "accuracy", "llm", "tradeoffs"}) {
    EXPECT_FALSE(sections.contains(id)) << id;
  }
  EXPECT_EQ(data["records"], 1);
  EXPECT_EQ(sections["summary"]["rows"][0]["store"], "s1");
  EXPECT_EQ(sections["summary"]["rows"][0]["status"], "ok");
  EXPECT_DOUBLE_EQ(sections["summary"]["rows"][0]["p50_ms"].get<double>(), 50.0);
}

TEST(ReportData, MachinesAndBuildsStandSideBySideWithEveryRuntime) {
  Record a = MakeRecord(Milliseconds(10));
  a.environment.hostname = "laptop";
  a.environment.runtimes = {{"ort", "1.23"}};
  Record b = a;
  b.id = "b";
  b.environment.runtimes = {{"litert", "2.1"}};
  Record c = a;
  c.id = "c";
  c.environment.hostname = "board";
  ReportInputs in = InputsOf({a, b, c});
  in.stores.push_back(ReportStore{"s2", "s2.jsonl", 1, 0});
  in.record_store = {0, 0, 1};
  const json hosts = BuildReportData(in)["sections"]["environment"]["hosts"];
  ASSERT_EQ(hosts.size(), 2u) << hosts;
  EXPECT_EQ(hosts[0]["hostname"], "laptop");
  EXPECT_EQ(hosts[0]["records"], 2);
  EXPECT_EQ(hosts[0]["runtimes"], json({{"litert", "2.1"}, {"ort", "1.23"}}));
  EXPECT_EQ(hosts[1]["hostname"], "board");
  EXPECT_EQ(hosts[1]["stores"], json({"s2"}));
}

TEST(ReportData, BoxStatisticsAreTheMeasuredPhasesNearestRankPercentiles) {
  const json data = BuildReportData(InputsOf({MakeRecord(Milliseconds(100), {500'000'000})}));
  const json& box = data["sections"]["latency"]["cases"][0];
  EXPECT_DOUBLE_EQ(box["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(box["p25"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(box["p50"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(box["p75"].get<double>(), 75.0);
  EXPECT_DOUBLE_EQ(box["p90"].get<double>(), 90.0);
  EXPECT_DOUBLE_EQ(box["p99"].get<double>(), 99.0);
  EXPECT_DOUBLE_EQ(box["max"].get<double>(), 100.0);  // the warmup's 500 ms is not in it
  EXPECT_EQ(box["count"], 100);
  EXPECT_EQ(box["label"], "m null:spin single-stream");
}

TEST(ReportData, TheWarmupCurveIsTheFirstQueriesOfWarmupAndMeasuredWithTheSettlingPoint) {
  std::vector<int64_t> warmup(50, 9'000'000);  // slow, then steady at 1 ms
  Record r = MakeRecord(std::vector<int64_t>(1000, 1'000'000), warmup);
  ASSERT_TRUE(r.settling.has_value());
  const json data = BuildReportData(InputsOf({r}));
  const json& curve = data["sections"]["warmup"]["curves"][0];
  EXPECT_EQ(curve["latency_ms"].size(), kWarmupCurveQueries);
  EXPECT_DOUBLE_EQ(curve["latency_ms"][0].get<double>(), 9.0);
  EXPECT_DOUBLE_EQ(curve["latency_ms"][50].get<double>(), 1.0);
  EXPECT_EQ(curve["warmup_queries"], 50);
  EXPECT_EQ(curve["total_queries"], 1050);
  EXPECT_EQ(curve["settling_index"], r.settling->query_index);
  EXPECT_GE(r.settling->query_index, 50);
}

TEST(ReportData, StreamsAndServerRatesAreCurvesPerModelAndTargetWithThePeak) {
  Record single = WithScenario(MakeRecord(Milliseconds(100)), "single-stream", "a");
  Record two = WithScenario(MakeRecord(Milliseconds(100)), "multi-stream:2", "b");
  Record four = WithScenario(MakeRecord(Milliseconds(100)), "multi-stream:4", "c");
  Record slow = WithScenario(MakeRecord(Milliseconds(100)), "server:200", "d");
  Record fast = WithScenario(MakeRecord(Milliseconds(100)), "server:50", "e");
  fast.load_peak = PeakAnswer{120.0, 10.0, {{50, true}, {200, false}}, "peak 120"};
  const json data = BuildReportData(InputsOf({single, four, two, slow, fast}));
  const json& groups = data["sections"]["load"]["groups"];
  ASSERT_EQ(groups.size(), 2u) << groups;
  EXPECT_EQ(groups[0]["axis"], "streams");
  ASSERT_EQ(groups[0]["points"].size(), 3u);
  EXPECT_EQ(groups[0]["points"][0]["x"], 1);
  EXPECT_EQ(groups[0]["points"][1]["x"], 2);
  EXPECT_EQ(groups[0]["points"][2]["x"], 4);
  EXPECT_EQ(groups[1]["axis"], "rate");
  EXPECT_EQ(groups[1]["points"][0]["x"], 50.0);
  EXPECT_EQ(groups[1]["points"][1]["x"], 200.0);
  EXPECT_EQ(groups[1]["peak_qps"], 120.0);
  EXPECT_EQ(groups[1]["p99_bound_ms"], 10.0);
}

Channel ChannelOf(const std::string& id, ChannelKind kind) {
  Channel c;
  c.id = id;
  c.kind = kind;
  return c;
}

// A monitor series of `n` samples 10 ms apart from -1 s: two thermal zones, one core's
// frequency, a power rail and the worker's RSS.
MonitorRecord Monitor(int n) {
  MonitorRecord m;
  MonitorSeries& s = m.series;
  s.channels = {ChannelOf("thermal0", ChannelKind::kTemperature),
                ChannelOf("thermal1", ChannelKind::kTemperature),
                ChannelOf("cpu0.freq", ChannelKind::kFrequency),
                ChannelOf("rail", ChannelKind::kPower),
                ChannelOf("process.rss", ChannelKind::kRss)};
  s.values.resize(s.channels.size());
  for (int i = 0; i < n; ++i) {
    s.t_ns.push_back(-1'000'000'000 + int64_t{i} * 10'000'000);
    s.values[0].push_back(50'000.0);
    s.values[1].push_back(60'000.0 + i);
    s.values[2].push_back(2'000'000.0);
    s.values[3].push_back(4'500'000.0);
    s.values[4].push_back(1024.0 * 1024.0 * (100 + i % 7));
  }
  return m;
}

std::vector<ThrottleEvent> ThrottleAt(int64_t start_ns, int64_t end_ns) {
  ThrottleEvent hot;
  hot.kind = "trip_point";
  hot.channel = "thermal1";
  hot.start_ns = start_ns;
  hot.end_ns = end_ns;
  return {hot};
}

TEST(ReportData, SoakWindowsAndTheDeviceSeriesShareATimeAxisAndAreThinned) {
  Record r = MakeRecord(Milliseconds(100));
  r.id = "soak";
  r.scenario = "soak:10s";
  r.effective_settings.window_ms = 250;
  for (int64_t i = 0; i < 100; ++i) r.measured_issue_ns.push_back(i * 9'000'000);  // done by 991 ms
  r.monitor = Monitor(5000);
  FinishRecord(r);
  // Set after FinishRecord, which derives throttling from the series (flat here).
  r.monitor->derived.throttling = ThrottleAt(2'000'000'000, 3'000'000'000);
  const json data = BuildReportData(InputsOf({r}));
  ASSERT_TRUE(data["sections"].contains("soak")) << data["sections"];
  const json& run = data["sections"]["soak"]["runs"][0];
  EXPECT_EQ(run["windows"].size(), 4u);  // 1 s of measured phase in 250 ms windows
  const json& device = run["device"];
  EXPECT_EQ(device["series"], json({"temperature_c", "frequency_mhz", "power_w"}));
  // From the measured phase's start (t >= 0): 4900 samples, thinned.
  EXPECT_LE(device["t_s"].size(), kMaxSeriesPoints);
  EXPECT_GT(device["t_s"].size(), kMaxSeriesPoints / 2);
  EXPECT_DOUBLE_EQ(device["t_s"][0].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(device["t_s"].back().get<double>(), 48.99);
  EXPECT_DOUBLE_EQ(device["temperature_c"][0].get<double>(), 60.1);  // the hotter zone, sample 100
  EXPECT_DOUBLE_EQ(device["frequency_mhz"][0].get<double>(), 2000.0);
  EXPECT_DOUBLE_EQ(device["power_w"][0].get<double>(), 4.5);
  ASSERT_EQ(run["throttling"].size(), 1u);
  EXPECT_DOUBLE_EQ(run["throttling"][0]["start_s"].get<double>(), 2.0);
  // Memory keeps the samples before the measured phase (load, warmup) too.
  const json& memory = data["sections"]["memory"]["runs"][0];
  EXPECT_DOUBLE_EQ(memory["t_s"][0].get<double>(), -1.0);
  EXPECT_DOUBLE_EQ(memory["rss_mb"][0].get<double>(), 100.0);
  EXPECT_LE(memory["t_s"].size(), kMaxSeriesPoints);
}

// --memory-map's snapshots become stacked groups per moment (the model's file apart from the
// runtimes' libraries), and --leak-sites' sites a table with their verdicts.
TEST(ReportData, TheMemorySectionHasTheMapByGroupAndTheLeakSites) {
  Record r = MakeRecord(Milliseconds(100));
  r.monitor = Monitor(20);
  FinishRecord(r);
  MonitorRecord& m = *r.monitor;
  m.model_files = {{"/models/m.onnx", 40 << 20}};
  MemorySnapshot load;
  load.moment = "load start";
  load.classes = {{"file", "/usr/lib/libonnxruntime.so", 20480, 0, 0, 0, 1}, {"heap", "", 1024, 0, 0, 0, 1}};
  MemorySnapshot after = load;
  after.moment = "inputs start";
  after.classes.push_back({"file", "/models/m.onnx", 40960, 0, 0, 0, 1});
  after.classes.push_back({"anon", "", 2048, 0, 0, 0, 3});
  after.classes.push_back({"stack", "", 512, 0, 0, 0, 1});
  m.memory_map = {load, after};
  LeakSites sites;
  LeakSite planted;
  planted.function = "EdgebenchNullPlantedLeak";
  planted.library = "libedgebench_core.so";
  planted.grown_bytes = 4096 * 100;
  planted.bytes_per_1k_queries = 4096000;
  planted.low_per_1k_queries = 4090000.4;
  planted.high_per_1k_queries = 4100000.6;
  planted.leak = true;
  sites.sites = {planted};
  m.leak_sites = sites;
  const json data = BuildReportData(InputsOf({r}));
  ASSERT_TRUE(data["sections"]["memory"].contains("map")) << data["sections"]["memory"];
  const json& map = data["sections"]["memory"]["map"];
  EXPECT_EQ(map["groups"][0], "model files");
  ASSERT_EQ(map["maps"].size(), 1u);
  EXPECT_EQ(map["maps"][0]["moments"], json({"load start", "inputs start"}));
  // load start: 20 MiB of libraries, 1 MiB of heap; then the model's 40 MiB, 3 MiB of heap and
  // anonymous memory, half a MiB of stack.
  EXPECT_EQ(map["maps"][0]["mb"][0], json({0.0, 20.0, 1.0, 0.0, 0.0, 0.0, 0.0}));
  EXPECT_EQ(map["maps"][0]["mb"][1], json({40.0, 20.0, 3.0, 0.5, 0.0, 0.0, 0.0}));
  ASSERT_EQ(map["leak_sites"].size(), 1u);
  EXPECT_EQ(map["leak_sites"][0]["function"], "EdgebenchNullPlantedLeak");
  EXPECT_EQ(map["leak_sites"][0]["per_1k"], 4096000.0);
  EXPECT_EQ(map["leak_sites"][0]["low_per_1k"], 4090000.0);
  EXPECT_TRUE(map["leak_sites"][0]["leak"].get<bool>());
  // Without either, no map in the section.
  Record plain = MakeRecord(Milliseconds(100));
  plain.monitor = Monitor(20);
  FinishRecord(plain);
  EXPECT_FALSE(BuildReportData(InputsOf({plain}))["sections"]["memory"].contains("map"));
}

TEST(ReportData, PowerComesFromAnEnergyCounterWhenNoRailReportsPower) {
  Record r = MakeRecord(Milliseconds(100));
  r.scenario = "soak:10s";
  MonitorRecord m;
  Channel energy = ChannelOf("rapl.package-0", ChannelKind::kEnergy);
  energy.wrap_uj = 1'000'000;
  m.series.channels = {energy};
  m.series.t_ns = {0, 100'000'000, 200'000'000};
  m.series.values = {{900'000.0, 200'000.0, 500'000.0}};
  // 900,000 -> 200,000 wraps at 1,000,000: 300,000 uJ in 0.1 s = 3 W; then 300,000 uJ = 3 W.
  r.monitor = m;
  FinishRecord(r);
  const json device = BuildReportData(InputsOf({r}))["sections"]["soak"]["runs"][0]["device"];
  EXPECT_EQ(device["series"], json({"power_w"}));
  EXPECT_TRUE(device["power_w"][0].is_null());
  EXPECT_DOUBLE_EQ(device["power_w"][1].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(device["power_w"][2].get<double>(), 3.0);
}

TEST(ReportData, PlacementSharesCountTheModelsNodesWhereKnown) {
  Record r = MakeRecord(Milliseconds(10));
  r.device = "gpu";
  r.placement.known = true;
  r.placement.nodes_by_device = {{"gpu", 3}, {"cpu", 2}};
  r.placement.model_nodes = 10;
  r.placement.original_nodes_by_device = {{"gpu", 7}, {"cpu", 3}};
  r.placement.cpu_op_types = {{"Add", 2}, {"Erf", 1}};
  const json targets = BuildReportData(InputsOf({r}))["sections"]["placement"]["targets"];
  ASSERT_EQ(targets.size(), 1u);
  EXPECT_EQ(targets[0]["total"], 10);
  EXPECT_EQ(targets[0]["nodes"]["gpu"], 7);
  EXPECT_EQ(targets[0]["basis"], "the model's nodes");
  EXPECT_EQ(targets[0]["cpu_op_types"]["Erf"], 1);
  EXPECT_NE(targets[0]["fallback"].get<std::string>().find("3 of 10"), std::string::npos)
      << targets[0];
}

TEST(ReportData, AShapeSweepIsAMatrixOfShapesByTargetsWithStatuses) {
  Record a = MakeRecord(Milliseconds(10));
  a.dims = {{"batch", 1}};
  Record b = a;
  b.id = "b";
  b.dims = {{"batch", 8}};
  b.status = CaseStatus::kOom;
  b.failed_stage = "worker";
  b.measured_ns.clear();
  FinishRecord(b);
  const json m = BuildReportData(InputsOf({a, b}))["sections"]["shapes"]["matrices"][0];
  EXPECT_EQ(m["rows"], json({"batch=1", "batch=8"}));
  EXPECT_EQ(m["columns"], json({"null:spin"}));
  EXPECT_EQ(m["cells"][0]["status"], "ok");
  EXPECT_DOUBLE_EQ(m["cells"][0]["p50_ms"].get<double>(), 5.0);
  EXPECT_EQ(m["cells"][1]["status"], "oom");
  EXPECT_EQ(m["cells"][1]["row"], 1);
}

TEST(ReportData, LanguageModelsAreCurvesAgainstPromptLengthAndConcurrency) {
  std::vector<Record> records;
  int id = 0;
  const std::vector<std::pair<int64_t, int64_t>> runs = {{16, 1}, {64, 1}, {16, 4}};
  for (auto [prompt, concurrency] : runs) {
    Record r = MakeRecord({});
    r.id = "llm" + std::to_string(id++);
    r.scenario = "llm";
    r.llm = LlmRecord{};
    r.llm->settings.concurrency = concurrency;
    r.llm->prompt_tokens_run = prompt;
    for (int q = 0; q < 3; ++q) {
      LlmRequestTiming t;
      t.prompt_tokens = prompt;
      t.first_token_ns = prompt * 100'000;
      t.token_ns = {prompt * 100'000 + 2'000'000, prompt * 100'000 + 4'000'000};
      r.llm->measured.push_back(t);
    }
    FinishRecord(r);
    records.push_back(r);
  }
  const json groups = BuildReportData(InputsOf(records))["sections"]["llm"]["groups"];
  ASSERT_EQ(groups.size(), 1u) << groups;
  ASSERT_EQ(groups[0]["by_prompt"].size(), 2u) << groups;
  EXPECT_EQ(groups[0]["by_prompt"][1]["x"], 64);
  EXPECT_DOUBLE_EQ(groups[0]["by_prompt"][1]["ttft_p50_ms"].get<double>(), 6.4);
  EXPECT_DOUBLE_EQ(groups[0]["by_prompt"][1]["tpot_p50_ms"].get<double>(), 2.0);
  // At the serving runs' prompt length only: 16 tokens at 1 and 4.
  ASSERT_EQ(groups[0]["by_concurrency"].size(), 2u) << groups;
  EXPECT_EQ(groups[0]["by_concurrency"][0]["prompt_tokens"], 16);
  EXPECT_EQ(groups[0]["by_concurrency"][1]["x"], 4);
  // Without the serving run, no concurrency curve: two prompt lengths at one concurrency are not
  // a line against concurrency.
  records.pop_back();
  const json lockstep = BuildReportData(InputsOf(records))["sections"]["llm"]["groups"];
  EXPECT_EQ(lockstep[0]["by_concurrency"].size(), 0u) << lockstep;
  EXPECT_EQ(lockstep[0]["by_prompt"].size(), 2u) << lockstep;
}

TEST(ReportData, CasesOfTheSameLabelAreToldApartByWhatDiffers) {
  auto make = [](const std::string& id, const std::string& effective, std::optional<int> round,
                 const std::string& started) {
    Record r = MakeRecord(Milliseconds(20));
    r.id = id;
    r.model = "vit_tiny16";
    r.requested_target = "ort:cpu";
    r.effective_target = effective;
    r.scenario = "single-stream";
    if (round) r.round = RoundTag{*round, 2, "interleaved", 0, 1};
    r.started_at = started;
    return r;
  };
  const std::vector<Record> records = {
      make("a", "ort:cpu?threads=1", std::nullopt, "2026-12-06T23:10:05Z"),
      make("b", "ort:cpu?threads=2", 1, "2026-12-06T23:11:05Z"),
      make("c", "ort:cpu?threads=2", 2, "2026-12-06T23:12:05Z"),
      make("d", "ort:cpu?threads=4", std::nullopt, "2026-12-06T23:13:05Z"),
      make("e", "ort:cpu?threads=4", std::nullopt, "2026-12-07T08:00:00Z"),
      make("f", "ort:cpu?threads=4", std::nullopt, "2026-12-07T08:00:00Z"),
  };
  Record other = make("g", "ort:xnnpack", std::nullopt, "2026-12-06T23:10:05Z");
  other.requested_target = "ort:xnnpack";
  std::vector<Record> all = records;
  all.push_back(other);
  const CaseLabels labels(all);
  std::vector<std::string> got;
  for (const Record& r : all) got.push_back(labels(r));
  EXPECT_EQ(got, (std::vector<std::string>{
                     "vit_tiny16 ort:cpu single-stream threads=1",
                     "vit_tiny16 ort:cpu single-stream threads=2 round 1",
                     "vit_tiny16 ort:cpu single-stream threads=2 round 2",
                     "vit_tiny16 ort:cpu single-stream threads=4 12-06 23:13:05",
                     "vit_tiny16 ort:cpu single-stream threads=4 12-07 08:00:00",
                     "vit_tiny16 ort:cpu single-stream threads=4 12-07 08:00:00 #2",
                     "vit_tiny16 ort:xnnpack single-stream",
                 }));
  // The report's charts use them.
  const json data = BuildReportData(InputsOf(all));
  std::set<std::string> boxes;
  for (const json& box : data["sections"]["latency"]["cases"]) boxes.insert(box["label"].get<std::string>());
  EXPECT_EQ(boxes.size(), all.size()) << data["sections"]["latency"].dump();
}

TEST(ReportData, ThinningKeepsTheFirstAndLastAndAtMostTheLimit) {
  EXPECT_TRUE(ThinnedIndices(0, 10).empty());
  EXPECT_EQ(ThinnedIndices(5, 10), (std::vector<size_t>{0, 1, 2, 3, 4}));
  for (size_t n : {11u, 1999u, 2000u, 2001u, 4001u, 123457u}) {
    const auto kept = ThinnedIndices(n, 2000);
    EXPECT_LE(kept.size(), 2000u) << n;
    EXPECT_EQ(kept.front(), 0u);
    EXPECT_EQ(kept.back(), n - 1) << n;
    EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
  }
}

// A store directory under the test temp directory with these lines in results.jsonl.
std::string StoreWith(const std::string& name, const std::vector<std::string>& lines) {
  const std::string dir = testing::TempFilePath("report_data_", name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream out(dir + "/results.jsonl");
  for (const std::string& line : lines) out << line << "\n";
  return dir;
}

TEST(ReportData, StoresMergeByRecordIdAndBadLinesAreWarnings) {
  Record a = MakeRecord(Milliseconds(10));
  a.id = "a";
  Record b = a;
  b.id = "b";
  const std::string one = StoreWith("one", {RecordToJson(a).dump(), "{not json"});
  const std::string two = StoreWith("two", {RecordToJson(a).dump(), RecordToJson(b).dump()});
  auto in = ReadReportStores({one, two + "/results.jsonl"});
  ASSERT_TRUE(in.ok()) << in.error();
  ASSERT_EQ(in.value().records.size(), 2u);
  EXPECT_EQ(in.value().record_store, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(in.value().stores[1].duplicates, 1);
  ASSERT_EQ(in.value().warnings.size(), 2u);
  const std::string bad_line = one + "/results.jsonl:2: not valid JSON";
  EXPECT_NE(in.value().warnings[0].find(bad_line), std::string::npos)
      << in.value().warnings[0];
  EXPECT_NE(in.value().warnings[1].find("already read"), std::string::npos)
      << in.value().warnings[1];
  const json rows = BuildReportData(in.value())["sections"]["summary"]["rows"];
  EXPECT_EQ(rows[1]["store"], two + "/results.jsonl");
}

TEST(ReportData, AMissingOrEmptyStoreIsAnErrorNamingIt) {
  auto missing = ReadReportStores({"/no/such/store"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("'/no/such/store' does not exist"), std::string::npos)
      << missing.error();
  auto empty = ReadReportStores({StoreWith("empty", {})});
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().find("holds no records"), std::string::npos) << empty.error();
  auto corrupt = ReadReportStores({StoreWith("corrupt", {"{\"schema\": 7"})});
  ASSERT_FALSE(corrupt.ok());
  EXPECT_NE(corrupt.error().find("holds no records; line 1: "), std::string::npos)
      << corrupt.error();
}

TEST(ReportPage, AScriptHashIsTheBase64OfItsSha256) {
  // The SHA-256 of nothing, and of "abc" (FIPS 180-2's examples), in CSP's spelling.
  EXPECT_EQ(ScriptHashSource(""), "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
  EXPECT_EQ(ScriptHashSource("abc"), "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='");
}

TEST(ReportPage, IsSelfContainedWithThePolicyTheLibraryAndEscapedData) {
  Record r = MakeRecord(Milliseconds(10));
  r.model = "</script><script>alert(1)</script><!--";
  const json data = BuildReportData(InputsOf({r}));
  const std::string page = RenderReportPage(data);
  const std::string meta = "<meta http-equiv=\"Content-Security-Policy\" content=\"";
  const size_t policy_at = page.find(meta);
  ASSERT_NE(policy_at, std::string::npos);
  const std::string policy =
      page.substr(policy_at + meta.size(), page.find('"', policy_at + meta.size()) - policy_at - meta.size());
  EXPECT_EQ(policy.rfind("default-src &#39;none&#39;; script-src &#39;sha256-", 0), 0u) << policy;
  const size_t script_src = policy.find("script-src");
  const std::string scripts_allowed = policy.substr(script_src, policy.find(';', script_src) - script_src);
  EXPECT_EQ(scripts_allowed.find("unsafe"), std::string::npos) << "inline script or handlers: " << policy;
  EXPECT_NE(policy.find("base-uri &#39;none&#39;; form-action &#39;none&#39;"), std::string::npos);
  // Exactly the page's executable scripts are allowed, each by the hash of its text.
  int scripts = 0;
  for (size_t at = page.find("<script id=\""); at != std::string::npos; at = page.find("<script id=\"", at + 1)) {
    const size_t begin = page.find('>', at) + 1;
    const std::string body = page.substr(begin, page.find("</script>", begin) - begin);
    EXPECT_NE(policy.find(HtmlEscape(ScriptHashSource(body))), std::string::npos) << page.substr(at, 60);
    ++scripts;
  }
  EXPECT_EQ(scripts, 6);  // the library, decisions, stages, mixes, conformance, the renderer
  size_t hashes = 0;
  for (size_t at = policy.find("sha256-"); at != std::string::npos; at = policy.find("sha256-", at + 1)) ++hashes;
  EXPECT_EQ(hashes, 6u);
  EXPECT_NE(page.find(std::string(ChartLibrarySha256())), std::string::npos);
  EXPECT_NE(page.find(std::string(ChartLibraryJs().substr(0, 200))), std::string::npos);
  EXPECT_NE(page.find("Apache License"), std::string::npos);
  EXPECT_NE(page.find("function drawTradeoffs"), std::string::npos);
  EXPECT_EQ(page.find("alert(1)</script>"), std::string::npos);
  EXPECT_EQ(page.find("<!--"), std::string::npos);
  // The data element parses back to the same document.
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const size_t begin = page.find(open) + open.size();
  const size_t end = page.find("</script>", begin);
  EXPECT_EQ(json::parse(page.substr(begin, end - begin)), data);
  // Every script element's text is ours or the library's: nothing is loaded from elsewhere.
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
