#include "report/record.h"

#include <gtest/gtest.h>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::MakeRecord;

TEST(Record, JsonRoundTripKeepsEverything) {
  Record r = MakeRecord({5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, {50, 40});
  r.placement.known = true;
  r.placement.nodes_by_device = {{"spin", 1}};
  r.placement.devices_used = {"spin"};
  r.inputs.push_back({"input", "float32", {1, 16}});
  r.notes = {"a note"};
  r.environment = ReadEnvironment();
  r.environment.debug_build = false;
  r.environment.sanitizers = false;
  r.environment.runtimes = {{"null", "edgebench null backend 1"}};
  r.load_ns = 123;
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
  EXPECT_TRUE(json["summary"]["percentiles_ns"]["p99"].is_null());
}

TEST(Record, TamperedVerdictIsRejected) {
  Record r = MakeRecord({1, 100, 1, 100, 1, 100});  // cv far above the limit: INVALID
  ASSERT_FALSE(r.valid);
  auto json = RecordToJson(r);
  json["verdict"]["valid"] = true;
  EXPECT_FALSE(RecordFromJson(json).ok());
}

TEST(Record, MissingFieldIsNamed) {
  auto json = RecordToJson(MakeRecord({1, 1, 1}));
  json["config"].erase("backend");
  auto back = RecordFromJson(json);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().find("backend"), std::string::npos) << back.error();
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

}  // namespace
}  // namespace edgebench
