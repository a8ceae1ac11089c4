// The metric registry (metrics/metrics.h): each metric defined once, and every consumer (export,
// tables, recommend, tune) reading it from there.
#include "metrics/metrics.h"

#include <gtest/gtest.h>

#include <set>

#include "report/columns.h"
#include "metrics/flat_record.h"
#include "report/pareto.h"
#include "tune/race.h"

namespace edgebench {
namespace {

Record Measured(std::vector<int64_t> samples_ns) {
  Record r;
  r.status = CaseStatus::kOk;
  r.scenario = "single-stream";
  r.summary = Summarize(samples_ns, 1'000'000'000);
  return r;
}

TEST(Metrics, EachIsDefinedOnceAndIsAnExportColumnWithItsUnit) {
  std::set<std::string> names;
  for (const struct Metric& metric : Metrics()) {
    EXPECT_TRUE(names.insert(metric.name).second) << metric.name << " registered twice";
    EXPECT_EQ(FindMetric(metric.name), &metric);
    const FlatColumn* column = FindFlatColumn(metric.name);
    ASSERT_NE(column, nullptr) << metric.name << " is not exported";
    EXPECT_EQ(column->metric, &metric);
    EXPECT_EQ(column->unit, metric.unit);
  }
  for (const MetricAlias& alias : MetricAliases()) {
    ASSERT_NE(FindMetric(alias.alias), nullptr) << alias.alias;
    EXPECT_STREQ(FindMetric(alias.alias)->name, alias.metric);
  }
  EXPECT_EQ(FindMetric("no_such_metric"), nullptr);
}

TEST(Metrics, ValuesComeFromTheRecordAndAreAbsentNotZero) {
  std::vector<int64_t> samples;
  for (int i = 1; i <= 100; ++i) samples.push_back(i * 1'000'000);  // 1..100 ms
  const Record r = Measured(samples);
  EXPECT_DOUBLE_EQ(*MetricValue("p50", r), 50.0);
  EXPECT_DOUBLE_EQ(*MetricValue("p99_ms", r), 99.0);
  EXPECT_DOUBLE_EQ(*MetricValue("queries", r), 100.0);
  EXPECT_DOUBLE_EQ(*MetricValue("throughput", r), 100.0);
  // No monitor, no accuracy, no language model: no value, never 0.
  EXPECT_FALSE(MetricValue("energy", r));
  EXPECT_FALSE(MetricValue("accuracy", r));
  EXPECT_FALSE(MetricValue("tokens_per_s", r));
  EXPECT_FALSE(MetricValue("p50_ms", Measured({})));
  // The export writes the same values.
  const auto row = FlattenRecord(r);
  EXPECT_DOUBLE_EQ(row["p50_ms"].get<double>(), 50.0);
  EXPECT_EQ(row["queries"].get<int64_t>(), 100);
  EXPECT_TRUE(row["energy_mj_per_query"].is_null());
}

// The memory columns of the export: null where not measured, the weights' verdicts and the leak
// sites' top growth where they were.
TEST(Metrics, TheExportHasTheWeightsVerdictsAndTheLeakSites) {
  std::vector<int64_t> samples(100, 1'000'000);
  Record r = Measured(samples);
  auto row = FlattenRecord(r);
  EXPECT_TRUE(row["weights"].is_null());
  EXPECT_TRUE(row["leak_sites"].is_null());
  EXPECT_TRUE(row["memory_leak"].is_null());
  MonitorRecord m;
  m.derived.memory.growth_bytes_per_query = 0.5;
  WeightsResidency w;
  w.file = "/models/vit.onnx";
  w.verdict = "copied";
  m.derived.weights = {w};
  LeakSites sites;
  LeakSite top;
  top.function = "EdgebenchNullPlantedLeak";
  top.library = "libedgebench_core.so";
  top.bytes_per_1k_queries = 4096000.4;
  sites.sites = {top};
  sites.leaks = 1;
  m.leak_sites = sites;
  r.monitor = m;
  row = FlattenRecord(r);
  EXPECT_EQ(row["memory_leak"], false);
  EXPECT_EQ(row["weights"], "vit.onnx:copied");
  EXPECT_EQ(row["leak_sites"], 1);
  EXPECT_EQ(row["leak_top_site"], "EdgebenchNullPlantedLeak (libedgebench_core.so)");
  EXPECT_EQ(row["leak_top_bytes_per_1k"], 4096000);
}

TEST(Metrics, TablesRecommendAndTuneTakeHeadersDirectionsAndPercentilesFromTheRegistry) {
  bool has_p99 = false;
  for (const Column& column : ColumnsForScenario("single-stream")) has_p99 = has_p99 || column.header == "p99 (ms)";
  EXPECT_TRUE(has_p99);
  std::vector<int64_t> samples(200, 2'000'000);
  const Record r = Measured(samples);
  for (const Column& column : ColumnsForScenario("single-stream")) {
    if (column.header == FindMetric("p50_ms")->header) {
      EXPECT_EQ(column.cell(r), "2.00");
    }
  }
  EXPECT_EQ(ParseObjective("accuracy").value().direction, Direction::kHigher);
  EXPECT_EQ(ParseObjective("tokens").value().direction, Direction::kHigher);
  EXPECT_EQ(ParseObjective("energy").value().direction, Direction::kLower);
  EXPECT_FALSE(ParseObjective("queries").ok());  // a count, not something to rank by
  EXPECT_FALSE(ParseObjective("rate_qps").ok());  // a dimension
  EXPECT_TRUE(ParseConstraint("threads<=4").ok());  // dimensions bound a recommendation
  const auto p90 = ParseRaceMetric("p90").value();
  EXPECT_EQ(p90.kind, RaceMetric::Kind::kPercentile);
  EXPECT_DOUBLE_EQ(p90.fraction, 0.90);
  EXPECT_FALSE(ParseRaceMetric("ttft").ok());  // not measured by a latency run
  EXPECT_FALSE(ParseRaceMetric("accuracy").ok());
  EXPECT_EQ(ParseRaceMetric("memory").value().kind, RaceMetric::Kind::kRecordValue);
}

}  // namespace
}  // namespace edgebench
