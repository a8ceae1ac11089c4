// `edgebench export` and `edgebench recommend` over a store of null-backend records of known
// latency: 1, 2 and 3 ms a query.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "../test_util.h"
#include "record/record.h"
#include "record/record_json.h"
#include "report/store.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

class RecommendCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    store_ = testing::TempFilePath("recommend", "store");
    const std::string live = store_ + "-live";
    std::filesystem::remove_all(store_);
    std::filesystem::remove_all(live);
    // One short live run supplies real records; the single-stream ones then get seeded samples of
    // 1, 2 and 3 ms a query, so that the choices below are decided on data the test controls (on a
    // busy machine a 2 ms sleep measured slower than a 3 ms one). --max-cv 10: the server
    // records, kept as measured, must not be INVALID on a busy machine (nor, --allow-busy, for
    // the tests running beside this one).
    const auto r = RunCommand(Executable() + " run x -t 'null:sleep?us=1000,null:sleep?us=2000,null:sleep?us=3000'"
                              " --scenario single-stream,server:100 --warmup 2 --min-queries 40 --min-duration 100"
                              " --max-cv 10 --allow-busy --out " + live + " --format json 2>/dev/null");
    run_exit_ = r.exit_code;
    run_output_ = r.output;
    if (r.exit_code != 0) return;
    auto records = ReadRecords(live + "/results.jsonl");
    if (!records.ok()) {
      run_exit_ = -1;
      run_output_ = records.error();
      return;
    }
    nlohmann::json written = nlohmann::json::array();
    std::filesystem::create_directories(store_);
    uint64_t seed = 1;
    for (Record record : records.value()) {
      if (record.scenario == "single-stream") {
        const double sleep_us = std::stod(record.requested_target.substr(record.requested_target.find('=') + 1));
        testing::ReplaceSamplesWithSeeded(record, seed, sleep_us * 1000, 2, 40);
      }
      if (Status s = AppendJsonLine(store_ + "/results.jsonl", RecordToJson(record)); !s.ok()) {
        run_exit_ = -1;
        run_output_ = s.message();
        return;
      }
      written.push_back(RecordToJson(record));
    }
    run_output_ = written.dump();
    std::filesystem::remove_all(live);
  }
  static std::string store_;
  static std::string run_output_;
  static int run_exit_;
};
std::string RecommendCli::store_;
std::string RecommendCli::run_output_;
int RecommendCli::run_exit_ = -1;

nlohmann::json Winner(const nlohmann::json& recommendation) {
  return recommendation["configurations"][recommendation["winner"].get<size_t>()];
}

TEST_F(RecommendCli, TheFastestWinsAndTheNextLostOnLatency) {
  if (testing::kSanitizerBuild) GTEST_SKIP() << "every record of a sanitizer build is INVALID";
  ASSERT_EQ(run_exit_, 0) << run_output_;
  auto r = RunCommand(Executable() + " recommend " + store_ + " --objective p50,throughput --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = nlohmann::json::parse(r.output);
  EXPECT_EQ(json["scenario"], "single-stream");
  EXPECT_EQ(json["configurations"].size(), 3u);
  EXPECT_EQ(Winner(json)["row"]["target"], "null:sleep?us=1000");
  EXPECT_EQ(json["configurations"][json["runner_up"].get<size_t>()]["row"]["target"], "null:sleep?us=2000");
  EXPECT_NE(json["runner_up_reason"].get<std::string>().find("lost on p50_ms"), std::string::npos) << json;
  // Each query sleeps 1, 2 or 3 ms: a lower p50 is a higher rate, so only the fastest is on the front.
  EXPECT_EQ(json["front"].size(), 1u) << json;
  // Two stores, the same one twice: each configuration counts once.
  auto twice = RunCommand(Executable() + " recommend " + store_ + " " + store_ + "/results.jsonl --objective p50 --format json");
  EXPECT_EQ(nlohmann::json::parse(twice.output)["configurations"].size(), 3u) << twice.output;
}

TEST_F(RecommendCli, ConstraintsChooseAnotherAndNoneMetIsExitOne) {
  if (testing::kSanitizerBuild) GTEST_SKIP() << "every record of a sanitizer build is INVALID";
  ASSERT_EQ(run_exit_, 0) << run_output_;
  // A bound between the p50s of 1 and 2 ms a query.
  auto all = RunCommand(Executable() + " recommend " + store_ + " --objective p50 --format json");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  double p50_1ms = 0, p50_2ms = 0;
  const auto all_json = nlohmann::json::parse(all.output);  // kept alive for the loop
  for (const auto& c : all_json["configurations"]) {
    if (c["row"]["target"] == "null:sleep?us=1000") p50_1ms = c["row"]["p50_ms"].get<double>();
    if (c["row"]["target"] == "null:sleep?us=2000") p50_2ms = c["row"]["p50_ms"].get<double>();
  }
  ASSERT_LT(p50_1ms, p50_2ms) << all.output;
  const std::string bound = std::to_string(static_cast<int64_t>((p50_1ms + p50_2ms) / 2 * 1000)) + "us";
  auto r = RunCommand(Executable() + " recommend " + store_ + " --objective p50 --constraint 'p50>=" + bound + "' 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("rule: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("winner: x on null:sleep?us=2000"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("x on null:sleep?us=1000: misses p50>=" + bound), std::string::npos) << r.output;
  auto none = RunCommand(Executable() + " recommend " + store_ + " --objective p50 --constraint 'p50<=0.2ms' 2>&1");
  EXPECT_EQ(none.exit_code, 1) << none.output;
  EXPECT_NE(none.output.find("no winner: no configuration meets every constraint"), std::string::npos) << none.output;
  // The server records are their own comparison.
  auto server = RunCommand(Executable() + " recommend " + store_ + " --scenario server --objective p50 --format json");
  ASSERT_EQ(server.exit_code, 0) << server.output;
  EXPECT_EQ(Winner(nlohmann::json::parse(server.output))["row"]["scenario"], "server:100");
}

TEST_F(RecommendCli, BadArgumentsAreExitTwoWithTheReason) {
  auto bad = RunCommand(Executable() + " recommend " + store_ + " --constraint 'p50<=5mJ' 2>&1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("unit 'mJ' does not fit p50_ms"), std::string::npos) << bad.output;
  auto missing = RunCommand(Executable() + " recommend /nonexistent/store 2>&1");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("store '/nonexistent/store' does not exist"), std::string::npos) << missing.output;
}

TEST_F(RecommendCli, ExportWritesATablePerScenarioWithTheRecordsNumbers) {
  ASSERT_EQ(run_exit_, 0) << run_output_;
  const auto records = testing::JsonRecords(run_output_);
  ASSERT_EQ(records.size(), 6u);
  const std::string out = store_ + "-tables";
  auto r = RunCommand(Executable() + " export " + store_ + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const std::string table : {"single-stream", "server"}) {
    std::ifstream in(out + "/" + table + ".jsonl");
    std::string line;
    int rows = 0;
    while (std::getline(in, line)) {
      const auto row = nlohmann::json::parse(line);
      ++rows;
      const auto& record = *std::find_if(records.begin(), records.end(),
                                         [&](const nlohmann::json& x) { return x["id"] == row["id"]; });
      EXPECT_EQ(row["scenario"], record["config"]["scenario"]);
      EXPECT_DOUBLE_EQ(row["p50_ms"].get<double>(), record["summary"]["percentiles_ns"]["p50"].get<double>() / 1e6);
      EXPECT_EQ(row["queries"], record["summary"]["count"]);
      EXPECT_TRUE(row["threads"].is_null());
      if (table == "server") {
        EXPECT_EQ(row["rate_qps"], 100.0);
      }
    }
    EXPECT_EQ(rows, 3) << table;
  }
  auto csv = RunCommand(Executable() + " export " + store_ + " --out " + out + " --format csv && head -1 " + out +
                        "/single-stream.csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  EXPECT_NE(csv.output.find("id,started_at,case_key,host,cpu_model,model,variant,backend,device,target,threads"),
            std::string::npos) << csv.output;
}

}  // namespace
}  // namespace edgebench
