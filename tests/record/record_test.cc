#include "record/record.h"

#include <gtest/gtest.h>

#include "../test_util.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

using testing::MakeRecord;

TEST(Record, JsonRoundTripKeepsEverything) {
  Record r = MakeRecord({5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, {50, 40});
  r.placement.known = true;
  r.placement.nodes_by_device = {{"spin", 1}};
  r.placement.devices_used = {"spin"};
  r.inputs.push_back({"input", "float32", {1, 16}, "seeded uniform [-1, 1) (seed 0)"});
  r.notes = {"a note"};
  r.environment = ReadEnvironment();
  r.environment.debug_build = false;
  r.environment.sanitizers = false;
  r.environment.runtimes = {{"null", "edgebench null backend 1"}};
  r.load_ns = 123;
  r.inputs_ns = 67;
  r.prepare_ns = 45;
  FinishRecord(r);

  const auto json = RecordToJson(r);
  auto back = RecordFromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(RecordToJson(back.value()), json);
  EXPECT_EQ(back.value().measured_ns, r.measured_ns);
  EXPECT_EQ(back.value().warmup_ns, r.warmup_ns);
  EXPECT_EQ(back.value().environment.cpu_model, r.environment.cpu_model);
  EXPECT_EQ(json["summary"]["percentiles_ns"]["p50"], 9);
  EXPECT_EQ(json["timings_ns"], (nlohmann::json{{"load", 123}, {"inputs", 67}, {"prepare", 45}, {"first_run", 50}}));
  EXPECT_EQ(back.value().inputs_ns, 67);
  EXPECT_TRUE(json["summary"]["percentiles_ns"]["p99"].is_null());
}

TEST(Record, PlacementInTheModelsOwnNodesRoundTrips) {
  Record r = MakeRecord({5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
  r.placement.known = true;
  r.placement.nodes_by_device = {{"cpu", 49}, {"xnnpack", 12}};
  r.placement.model_nodes = 68;
  r.placement.original_nodes_by_device = {{"cpu", 56}, {"xnnpack", 12}};
  r.placement.partitions_by_device = {{"xnnpack", 3}};
  r.placement.cpu_op_types = {{"Add", 16}, {"Gather", 7}};
  FinishRecord(r);
  const auto json = RecordToJson(r);
  EXPECT_EQ(json["placement"]["model_nodes"], 68);
  EXPECT_EQ(json["placement"]["original_nodes_by_device"]["cpu"], 56);
  EXPECT_EQ(json["placement"]["partitions_by_device"]["xnnpack"], 3);
  EXPECT_EQ(json["placement"]["cpu_op_types"]["Add"], 16);
  auto back = RecordFromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.error();
  const Placement& p = back.value().placement;
  EXPECT_EQ(p.model_nodes, 68);
  EXPECT_EQ(p.original_nodes_by_device, r.placement.original_nodes_by_device);
  EXPECT_EQ(p.partitions_by_device, r.placement.partitions_by_device);
  EXPECT_EQ(p.cpu_op_types, r.placement.cpu_op_types);
  EXPECT_EQ(RecordToJson(back.value()), json);

  // Unknown stays unknown: null, not 0.
  Record untold = MakeRecord({5, 6, 7});
  untold.placement.known = true;
  untold.placement.nodes_by_device = {{"cpu", 5}};
  EXPECT_TRUE(RecordToJson(untold)["placement"]["model_nodes"].is_null());
}

TEST(Record, TamperedVerdictIsRecomputedWithAWarning) {
  Record r = MakeRecord({1, 100, 1, 100, 1, 100});  // cv far above the limit: INVALID
  ASSERT_FALSE(r.valid);
  auto json = RecordToJson(r);
  json["verdict"]["valid"] = true;
  auto back = RecordFromJson(json);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_FALSE(back.value().valid);  // the samples decide, not the stored claim
  ASSERT_EQ(back.value().read_warnings.size(), 1u);
  EXPECT_NE(back.value().read_warnings[0].find("stored verdict (VALID) differs"), std::string::npos)
      << back.value().read_warnings[0];
}

TEST(Record, SamplesAreStoredCompactlyWithIssueTimesAndStreams) {
  std::vector<int64_t> latencies;
  for (int i = 0; i < 10000; ++i) latencies.push_back(1'000'000 + (i % 7) * 1000);
  Record r = MakeRecord(latencies);
  for (int i = 0; i < 10000; ++i) {
    r.measured_issue_ns.push_back(int64_t{i} * 1'010'000);
    r.measured_stream.push_back(i % 4);
  }
  const auto json = RecordToJson(r);
  // About 3 base64 characters per value, not the ~9 of a JSON number.
  EXPECT_LT(json["samples"]["measured"]["latency_ns"].get<std::string>().size(), 40000u);
  auto back = RecordFromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value().measured_ns, r.measured_ns);
  EXPECT_EQ(back.value().measured_issue_ns, r.measured_issue_ns);
  EXPECT_EQ(back.value().measured_stream, r.measured_stream);
}

TEST(Record, CorruptSampleDataIsAnErrorNamingTheField) {
  auto json = RecordToJson(MakeRecord({1, 2, 3}));
  json["samples"]["measured"]["count"] = 4;
  auto back = RecordFromJson(json);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().find("latency_ns holds 3 samples, count says 4"), std::string::npos) << back.error();
}

// A record as edgebench wrote it before schema 2 (samples as arrays, no case key, no model hash,
// fewer environment fields): still readable, with its summary and verdict recomputed.
TEST(Record, SchemaOneRecordsStayReadable) {
  const auto v1 = nlohmann::json::parse(R"({"schema":"edgebench.record/1","id":"1764488400000000-1-0",
    "started_at":"2026-11-01T00:00:00Z","config":{"model":"vit","artifact":"vit.onnx","artifact_bytes":10,
    "scenario":"single-stream","requested_target":"ort:cpu","effective_target":"ort:cpu?opt=all&threads=2",
    "backend":"ort","device":"cpu","requested_settings":{"warmup_queries":2,"min_queries":3,
    "min_duration_ms":0,"max_duration_ms":60000,"seed":0,"max_cv":0.3,"case_timeout_ms":0},
    "effective_settings":{"warmup_queries":2,"min_queries":3,"min_duration_ms":0,"max_duration_ms":60000,
    "seed":0,"max_cv":0.3,"case_timeout_ms":180000},"inputs":[{"name":"x","dtype":"float32","shape":[1,3]}]},
    "environment":{"edgebench_version":"0.1.0","hostname":"h","os":"Debian","kernel":"Linux","cpu_model":"c",
    "logical_cores":2,"cpu_governor":"unavailable","cpu_max_freq_mhz":"unavailable","compiler":"gcc",
    "build_type":"Release","debug_build":false,"sanitizers":false,"runtimes":{"ort":"ONNX Runtime 1.23.2"}},
    "status":"ok","failure":{"stage":"","error":"","signal":0},"placement":{"known":true,
    "nodes_by_device":{"cpu":5},"ops_by_device":{},"delegate_partitions":null,"devices_used":["cpu"]},
    "timings_ns":{"load":5,"prepare":6},"samples":{"warmup_ns":[9,8],"measured_ns":[4,5,6],
    "measured_wall_ns":15,"stop_reason":"min_queries_and_duration"},"summary":{},"settling":null,
    "verdict":{"valid":true,"reasons":[]},"notes":[]})");
  auto back = RecordFromJson(v1);
  ASSERT_TRUE(back.ok()) << back.error();
  const Record& r = back.value();
  EXPECT_EQ(r.measured_ns, (std::vector<int64_t>{4, 5, 6}));
  EXPECT_EQ(r.warmup_ns, (std::vector<int64_t>{9, 8}));
  EXPECT_EQ(r.summary.Percentile(0.5), 5);
  EXPECT_TRUE(r.valid);
  EXPECT_TRUE(r.read_warnings.empty());
  EXPECT_EQ(r.environment.edgebench_commit, "unknown");
  EXPECT_EQ(r.effective_settings.max_queries, RunSettings{}.max_queries);
  EXPECT_EQ(r.inputs.at(0).shape, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(r.placement.nodes_by_device.at("cpu"), 5);
  // Before the model's own node counts: unknown, not zero.
  EXPECT_FALSE(r.placement.model_nodes.has_value());
  EXPECT_TRUE(r.placement.original_nodes_by_device.empty());
  EXPECT_TRUE(r.placement.partitions_by_device.empty());
  EXPECT_TRUE(r.placement.cpu_op_types.empty());
  // Written again, it is a schema 2 record.
  EXPECT_EQ(RecordToJson(r)["schema"], kRecordSchema);
}

TEST(Record, NewerSchemaIsReadWithAWarningAndForeignSchemaRejected) {
  auto json = RecordToJson(MakeRecord({1, 1, 1}));
  json["schema"] = "edgebench.record/7";
  json["something_new"] = {{"x", 1}};
  auto back = RecordFromJson(json);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_NE(back.value().read_warnings.at(0).find("newer"), std::string::npos);
  json["schema"] = "other.tool/1";
  EXPECT_FALSE(RecordFromJson(json).ok());
}

TEST(Record, MissingFieldIsNamed) {
  auto json = RecordToJson(MakeRecord({1, 1, 1}));
  json["config"].erase("backend");
  auto back = RecordFromJson(json);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().find("malformed record"), std::string::npos) << back.error();
  EXPECT_NE(back.error().find("'backend' not found"), std::string::npos) << back.error();
}

TEST(Verdict, ValidStableRun) {
  Record r = MakeRecord(std::vector<int64_t>(100, 1000));
  EXPECT_TRUE(r.valid);
  EXPECT_TRUE(r.invalid_reasons.empty());
}

TEST(Verdict, ReasonsForEachInvalidCause) {
  Record r = MakeRecord(std::vector<int64_t>(10, 1000));
  r.effective_settings.min_queries = 100;  // stopped early by max_duration
  r.environment.debug_build = true;
  r.placement.known = true;
  r.placement.nodes_by_device = {{"cpu", 12}};  // requested "spin", ran on cpu only
  FinishRecord(r);
  EXPECT_FALSE(r.valid);
  ASSERT_EQ(r.invalid_reasons.size(), 3u);
  EXPECT_NE(r.invalid_reasons[0].find("fewer than min_queries 100"), std::string::npos);
  EXPECT_NE(r.invalid_reasons[1].find("debug build"), std::string::npos);
  EXPECT_NE(r.invalid_reasons[2].find("fell back to cpu (12 nodes)"), std::string::npos);
}

TEST(Verdict, FailedCaseIsInvalid) {
  Record r = MakeRecord({});
  r.status = CaseStatus::kCrashed;
  r.failed_stage = "run";
  FinishRecord(r);
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.invalid_reasons.at(0), "case crashed at run");
}

TEST(Verdict, LlmRecordsOfDebugOrSanitizerBuildsAreInvalidToo) {
  Record r = testing::MakeRecord({});
  r.scenario = "llm";
  r.llm = LlmRecord{};
  r.llm->settings.repetitions = 1;
  LlmRequestTiming t;
  t.start_ns = 0;
  t.first_token_ns = 100;
  t.token_ns = {150, 200};
  r.llm->measured = {t};
  r.llm->prompt_tokens_run = 4;
  FinishRecord(r);
  ASSERT_TRUE(r.valid) << r.invalid_reasons.at(0);
  r.environment.debug_build = true;
  FinishRecord(r);
  ASSERT_EQ(r.invalid_reasons.size(), 1u);
  EXPECT_EQ(r.invalid_reasons[0], "debug build of edgebench");
  r.environment.debug_build = false;
  r.environment.sanitizers = true;
  FinishRecord(r);
  ASSERT_EQ(r.invalid_reasons.size(), 1u);
  EXPECT_EQ(r.invalid_reasons[0], "sanitizer build of edgebench");
}

// A serving-load LLM record: its settings and per-request timestamps survive the round trip,
// and the summary recomputed from them is the same.
TEST(Record, LlmServingRecordRoundTrips) {
  Record r = testing::MakeRecord({});
  r.scenario = "llm";
  r.llm = LlmRecord{};
  r.llm->settings.repetitions = 2;
  r.llm->settings.concurrency = 2;
  r.llm->settings.rate = 1.5;
  r.llm->settings.prompt_range = {4, 12};
  r.llm->settings.gen_range = {2, 6};
  r.llm->settings.slo = {5000, 600};
  LlmRequestTiming a, b;
  a.start_ns = 1'000'100;  // steady clock, as the scenario gives them
  a.first_token_ns = a.start_ns + 5000;
  a.token_ns = {a.start_ns + 5500, a.start_ns + 7000};
  a.prompt_tokens = 2;
  b.start_ns = 1'005'600;
  b.first_token_ns = b.start_ns + 1000;
  b.token_ns = {b.start_ns + 1500};
  b.prompt_tokens = 1;
  r.llm->measured = {a, b};
  FinishRecord(r);
  const auto json = RecordToJson(r);
  EXPECT_EQ(json["llm"]["measured"][1]["start_ns"], 5500);
  EXPECT_EQ(json["llm"]["settings"]["rate"], 1.5);
  auto back = RecordFromJson(json);
  ASSERT_TRUE(back.ok()) << back.error();
  const LlmRecord& l = *back.value().llm;
  EXPECT_EQ(l.settings.concurrency, 2);
  EXPECT_EQ(l.settings.prompt_range, (LlmTokenRange{4, 12}));
  EXPECT_EQ(l.settings.gen_range, (LlmTokenRange{2, 6}));
  EXPECT_EQ(l.settings.slo, (LlmSlo{5000, 600}));
  EXPECT_EQ(l.measured[1].start_ns, 5500);
  EXPECT_EQ(l.measured[1].prompt_tokens, 1);
  EXPECT_EQ(l.summary.wall_ns, 7000);
  EXPECT_EQ(l.summary.slo_met, 1);  // a's TPOT is 1000
  EXPECT_EQ(l.summary.tpot.max_ns, 1000);
  EXPECT_EQ(l.summary.itl.count, 3);
  // A lockstep case writes none of the serving settings (its case key is unchanged).
  const auto lockstep = LlmSettingsToJson(LlmSettings{});
  for (const char* key : {"concurrency", "rate", "prompt_range", "gen_range", "slo"}) {
    EXPECT_FALSE(lockstep.contains(key)) << key;
  }
}

// Before serving load an llm record stored pooled gaps as tpot_* and no per-request start or
// prompt length: it still reads, its requests laid back to back, the summary recomputed.
TEST(Record, LlmRecordsWithTheOldTpotFieldsStayReadable) {
  Record r = testing::MakeRecord({});
  r.scenario = "llm";
  r.llm = LlmRecord{};
  r.llm->settings.repetitions = 2;
  r.llm->prompt_tokens_run = 8;
  auto json = RecordToJson(r);
  json["llm"]["measured"] = nlohmann::json::parse(
      R"([{"ttft_ns": 8000, "token_offsets_ns": [8400, 9200]},
          {"ttft_ns": 6000, "token_offsets_ns": [7000]}])");
  json["llm"]["summary"] = nlohmann::json::parse(
      R"({"requests": 2, "tpot_mean_ns": 600, "tpot_percentiles_ns": {"p50": 400}, "tpot_steps": 3})");
  auto back = RecordFromJson(json);
  ASSERT_TRUE(back.ok()) << back.error();
  const LlmRecord& l = *back.value().llm;
  ASSERT_EQ(l.measured.size(), 2u);
  EXPECT_EQ(l.measured[1].start_ns, 9200);  // where the first one ended
  EXPECT_EQ(l.measured[1].ttft_ns(), 6000);
  EXPECT_EQ(l.summary.itl.count, 3);  // the old tpot_steps
  EXPECT_DOUBLE_EQ(l.summary.itl.mean_ns, (400 + 800 + 1000) / 3.0);
  EXPECT_EQ(l.summary.tpot.count, 2);  // per request: 600 and 1000
  EXPECT_EQ(l.summary.tpot.max_ns, 1000);
  EXPECT_EQ(l.summary.wall_ns, 9200 + 7000);
  EXPECT_DOUBLE_EQ(l.summary.prefill_tokens_per_s, 16 / 14000e-9);
  EXPECT_TRUE(back.value().valid);
}

TEST(Verdict, MinQueriesIsMetExactlyAtItsValue) {
  Record r = testing::MakeRecord(std::vector<int64_t>(99, 1000));
  r.effective_settings.min_queries = 100;
  FinishRecord(r);
  EXPECT_FALSE(r.valid);
  ASSERT_FALSE(r.invalid_reasons.empty());
  EXPECT_NE(r.invalid_reasons[0].find("after 99 queries, fewer than min_queries 100"), std::string::npos);
  r.measured_ns.push_back(1000);
  FinishRecord(r);
  EXPECT_TRUE(r.valid);
}

}  // namespace
}  // namespace edgebench
