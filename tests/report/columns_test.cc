#include "report/columns.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "../test_util.h"
#include "load/finish_record.h"
#include "report/printers.h"

namespace edgebench {
namespace {

// The cell of the column headed `header` in the record's scenario's set.
std::string Cell(const Record& r, const std::string& header) {
  for (const Column& column : ColumnsForScenario(r.scenario)) {
    if (column.header == header) return column.cell(r);
  }
  ADD_FAILURE() << "no column '" << header << "' for scenario " << r.scenario;
  return "";
}

TEST(Columns, AtLeastThreeSignificantDigitsWhateverTheMagnitude) {
  EXPECT_EQ(FormatSignificant(0.00123), "0.00123");
  EXPECT_EQ(FormatSignificant(0.000456789), "0.000457");
  EXPECT_EQ(FormatSignificant(0.512), "0.512");
  EXPECT_EQ(FormatSignificant(1.2345), "1.23");
  EXPECT_EQ(FormatSignificant(16.14), "16.1");
  EXPECT_EQ(FormatSignificant(196.34), "196.3");
  EXPECT_EQ(FormatSignificant(31706.44), "31706.4");
  EXPECT_EQ(FormatSignificant(-0.5), "-0.500");
  EXPECT_EQ(FormatSignificant(0), "0");
}

TEST(Columns, MicrosecondLatenciesKeepTheirDigitsInMilliseconds) {
  const Record r = testing::MakeRecord(std::vector<int64_t>(100, 1234));  // 1.234 us
  EXPECT_EQ(Cell(r, "p50 (ms)"), "0.00123");
  EXPECT_EQ(Cell(r, "mean (ms)"), "0.00123");
}

TEST(Columns, SettledAtCountsWarmupQueriesAndSaysNever) {
  // Settled from the first query.
  EXPECT_EQ(Cell(testing::MakeRecord(std::vector<int64_t>(50, 1000)), "settled at q"), "0");
  // 12 slow warmup queries, then fast ones: the median of the last 10 is the fast latency once
  // 6 of the 10 are fast, at query 17 (counted over warmup and measured queries together).
  const Record warm =
      testing::MakeRecord(std::vector<int64_t>(50, 1000), std::vector<int64_t>(12, 5000));
  EXPECT_EQ(Cell(warm, "settled at q"), "17");
  // A steady ramp never settles: "never", not "-", so the column is not dropped as empty.
  std::vector<int64_t> ramp;
  for (int i = 1; i <= 100; ++i) ramp.push_back(i * 1000);
  const Record drifting = testing::MakeRecord(ramp);
  ASSERT_FALSE(drifting.settling.has_value());
  EXPECT_EQ(Cell(drifting, "settled at q"), "never");
  // A case that did not measure has no value.
  Record failed = testing::MakeRecord({});
  failed.status = CaseStatus::kFailed;
  FinishRecord(failed);
  EXPECT_EQ(Cell(failed, "settled at q"), kNoValue);
}

TEST(Columns, SettleHelpSaysWhatTheColumnMeansAndThatItIsNotAVerdict) {
  const std::string help = kSettleColumnHelp;
  EXPECT_NE(help.find("settled at q"), std::string::npos);
  EXPECT_NE(help.find("warmup"), std::string::npos);
  EXPECT_NE(help.find("5%"), std::string::npos);
  EXPECT_NE(help.find("never"), std::string::npos);
  EXPECT_NE(help.find("not a reason for INVALID"), std::string::npos);
}

TEST(Columns, EveryLatencyHeaderNamesItsUnit) {
  for (const std::string& scenario : ScenariosWithColumns()) {
    for (const Column& column : ColumnsForScenario(scenario)) {
      const std::string& h = column.header;
      const bool latency = h.find("p50") != std::string::npos ||
                           h.find("p90") != std::string::npos ||
                           h.find("p99") != std::string::npos ||
                           h.find("mean") != std::string::npos;
      if (latency && h.find("KLD") == std::string::npos) {  // a mean KL divergence is in nats  // in milliseconds, or a ratio of latencies
        EXPECT_TRUE(h.find("(ms)") != std::string::npos || h.find("(x)") != std::string::npos)
            << scenario << ": " << h;
      }
    }
  }
}

TEST(Columns, OneSetPerScenarioAndCommonColumnsForOthers) {
  EXPECT_EQ(ScenariosWithColumns(), (std::vector<std::string>{"single-stream", "multi-stream", "server", "camera", "offline",
                                                                "soak", "llm", "agree", "accuracy", "drift"}));
  std::vector<std::string> headers;
  for (const Column& column : ColumnsForScenario("shapes")) headers.push_back(column.header);
  EXPECT_EQ(headers, (std::vector<std::string>{"model", "target", "status", "verdict"}));
  // A scenario's parameter does not change its columns.
  EXPECT_EQ(&ColumnsForScenario("multi-stream:4"), &ColumnsForScenario("multi-stream:16"));
  EXPECT_EQ(ColumnsForScenario("server:200")[3].header, "scenario");
}

TEST(Columns, AccuracyAndDriftShowWhatTheyFound) {
  Record accuracy = testing::MakeRecord({});
  accuracy.scenario = "accuracy";
  accuracy.variant = "int8";
  AccuracyRecord a;
  a.labels = {0, 1, 1, 0};
  a.top1 = {0, 1, 0, 0};
  a.in_top5 = {true, true, true, true};
  a.classes = 2;
  a.preprocess_ns = {1, 1, 1, 1};
  a.inference_ns = {1000000, 1000000, 1000000, 1000000};
  accuracy.accuracy = a;
  FinishRecord(accuracy);
  std::map<std::string, std::string> cells;
  for (const Column& c : ColumnsForScenario("accuracy")) cells[c.header] = c.cell(accuracy);
  EXPECT_EQ(cells["variant"], "int8");
  EXPECT_EQ(cells["images"], "4");
  EXPECT_EQ(cells["top-1 (%)"], "75.0");

  Record drift = testing::MakeRecord({});
  drift.scenario = "drift";
  TensorDriftRecord d;
  d.reference_label = "fp32";
  d.first_drift = "conv2_out";
  d.matched = 9;
  d.final_outputs = {TensorDriftRow{"logits", "logits", "fc", "Gemm", {1, 10}, true, "", 16.44, 0.99, 0.1, 0, std::nullopt}};
  drift.tensor_drift = d;
  FinishRecord(drift);
  cells.clear();
  for (const Column& c : ColumnsForScenario("drift")) cells[c.header] = c.cell(drift);
  EXPECT_EQ(cells["reference"], "fp32");
  EXPECT_EQ(cells["first drift"], "conv2_out");
  EXPECT_EQ(cells["matched"], "9");
  EXPECT_EQ(cells["final min SQNR (dB)"], "16.4");
}

TEST(Columns, TheDeviceCellTellsAProfilersGrowthFromALeak) {
  Record r = testing::MakeRecord(std::vector<int64_t>(50, 1000));
  r.monitor = MonitorRecord{};
  EXPECT_EQ(Cell(r, "device"), kNoValue);
  r.monitor->derived.memory.leak = true;
  EXPECT_EQ(Cell(r, "device"), "leak");
  r.monitor->derived.memory.leak = false;
  r.monitor->derived.memory.profiler_growth = true;  // a profiled case (record/monitor_derive.h)
  EXPECT_EQ(Cell(r, "device"), "growth (profiler)");
}

// A table too wide for the terminal leaves out details before results and never what a row is
// (report/text_table.h); every scenario's set says which is which.
TEST(Columns, EverySetRanksWhatARowIsAboveItsResultsAboveItsDetails) {
  std::vector<std::string> scenarios = ScenariosWithColumns();
  scenarios.push_back("burst:4");
  scenarios.push_back("no-such-scenario");
  for (const std::string& scenario : scenarios) {
    for (const Column& c : ColumnsForScenario(scenario)) {
      const bool identity = c.header == "model" || c.header == "target" ||
                            c.header == "scenario" || c.header == "verdict" || c.header == "prompt (tokens)" ||
                            c.header == "gen (tokens)";
      EXPECT_EQ(c.rank == 0, identity) << scenario << ": " << c.header;
      if (c.header == "mean (ms)" || c.header == "settled at q") {
        EXPECT_EQ(c.rank, 2) << scenario << ": " << c.header;
      }
      if (c.header == "p99 (ms)" || c.header == "throughput (q/s)" || c.header == "ran on (nodes)") {
        EXPECT_EQ(c.rank, 1) << scenario << ": " << c.header;
      }
    }
  }
  const std::vector<std::string> all = AllColumnHeaders();
  for (const char* header : {"p99 (ms)", "tokens/s", "calls/query", "energy (mJ/q)", "verdict"}) {
    EXPECT_NE(std::find(all.begin(), all.end(), header), all.end()) << header;
  }
}

}  // namespace
}  // namespace edgebench
