#include "report/html/report_tradeoffs.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

// An ok, VALID single-stream record with a p99 and a peak RSS.
Record TradeoffRecord(const std::string& model, const std::string& target, double p99_ms,
                     double rss_mib) {
  Record r;
  r.id = model + "-" + target;
  r.started_at = "2026-01-01T00:00:00Z";
  r.case_key = "key-" + model + "-" + target;
  r.model = model;
  r.requested_target = r.effective_target = target;
  r.status = CaseStatus::kOk;
  r.valid = true;
  r.environment.hostname = "host";
  r.summary.count = 1000;
  r.summary.percentiles = {{0.50, static_cast<int64_t>(p99_ms * 0.5e6)},
                           {0.99, static_cast<int64_t>(p99_ms * 1e6)}};
  r.monitor.emplace();
  r.monitor->derived.memory.peak_rss_bytes = static_cast<int64_t>(rss_mib * (1 << 20));
  return r;
}

TEST(ReportTradeoffs, OneScatterPerModelWithRecommendsFrontAndWinner) {
  const std::vector<Record> records = {
      TradeoffRecord("vit", "ort:cpu", 10, 100),      // fast, big
      TradeoffRecord("vit", "ort:xnnpack", 20, 50),   // slower, small
      TradeoffRecord("vit", "litert:cpu", 30, 120),   // dominated
      TradeoffRecord("face", "ort:cpu", 2, 40)};      // alone: nothing to trade off
  const nlohmann::json section = TradeoffsSection(records, {});
  ASSERT_EQ(section["charts"].size(), 1u) << section.dump(2);
  const nlohmann::json& chart = section["charts"][0];
  EXPECT_EQ(chart["model"], "vit");
  EXPECT_EQ(chart["x_label"], "p99_ms (ms), lower is better");
  EXPECT_EQ(chart["y_label"], "peak_rss_mib (MiB), lower is better");
  ASSERT_EQ(chart["points"].size(), 3u);
  int on_front = 0;
  for (const auto& p : chart["points"]) on_front += p["on_front"].get<bool>();
  EXPECT_EQ(on_front, 2);
  EXPECT_EQ(chart["winner"], "vit on ort:cpu");  // best p99 first
  EXPECT_NE(chart["rule"].get<std::string>().find("p99_ms"), std::string::npos);
  ASSERT_EQ(section["notes"].size(), 1u);
  EXPECT_NE(section["notes"][0].get<std::string>().find("face: 1 configuration(s)"), std::string::npos)
      << section["notes"];
}

TEST(ReportTradeoffs, ConstraintsChooseAndGreyOutWhatMissesThem) {
  const std::vector<Record> records = {TradeoffRecord("vit", "ort:cpu", 10, 100),
                                       TradeoffRecord("vit", "ort:xnnpack", 20, 50)};
  TradeoffsQuery query;
  query.constraints = {"memory<=64MiB"};
  const nlohmann::json chart = TradeoffsSection(records, query)["charts"][0];
  EXPECT_EQ(chart["winner"], "vit on ort:xnnpack");
  for (const auto& p : chart["points"]) {
    EXPECT_EQ(p["eligible"].get<bool>(), p["label"] == "vit on ort:xnnpack") << p;
  }
  EXPECT_EQ(chart["constraints"], nlohmann::json::array({"memory<=64MiB"}));
}

TEST(ReportTradeoffs, AQueryThatCannotDrawIsAnErrorBeforeAnythingIsRead) {
  EXPECT_TRUE(CheckTradeoffsQuery({}).ok());
  const Status one = CheckTradeoffsQuery({"p99", {}});
  ASSERT_FALSE(one.ok());
  EXPECT_NE(one.message().find("two objectives"), std::string::npos) << one.message();
  EXPECT_FALSE(CheckTradeoffsQuery({"p99,bogus", {}}).ok());
  EXPECT_FALSE(CheckTradeoffsQuery({"p99,memory", {"p99<=5mJ"}}).ok());
  EXPECT_TRUE(TradeoffsSection({}, {}).is_null());
}

}  // namespace
}  // namespace edgebench
