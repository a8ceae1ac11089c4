// `compare` on memory: peak RSS grown beyond the noise is judged like a slowdown (the case is
// slower though its latencies are the same), within it no change; a leak only NEW has is flagged.
#include "report/compare.h"
#include "report/compare_memory.h"

#include <gtest/gtest.h>

#include "../test_util.h"

namespace edgebench {
namespace {

Record WithPeak(uint64_t seed, double peak_mib, bool leak = false) {
  Record r = testing::MakeRecord(testing::SeededLatencies(seed, 2e6));
  r.case_key = "a";
  r.id = "a-" + std::to_string(seed);
  r.environment.runtimes["null"] = "1";
  MonitorRecord m;
  m.derived.memory.peak_rss_bytes = static_cast<int64_t>(peak_mib * 1024 * 1024);
  m.derived.memory.leak = leak;
  r.monitor = m;
  return r;
}

const MetricComparison* MemoryMetricNamed(const CaseComparison& c, const std::string& name) {
  for (const MetricComparison& m : c.metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

TEST(CompareMemory, PeakRssGrownBeyondTheNoiseMakesTheCaseSlower) {
  // The same latencies on both sides (one seed): only memory differs.
  const CaseComparison grown = CompareCase(WithPeak(7, 200), WithPeak(7, 260), {});
  const MetricComparison* peak = MemoryMetricNamed(grown, "peak RSS");
  ASSERT_TRUE(peak);
  EXPECT_EQ(peak->verdict, MetricVerdict::kSlower);
  EXPECT_NEAR(peak->change, 0.30, 1e-9);
  EXPECT_EQ(grown.verdict, CaseVerdict::kSlower);
  // 3% more, or 3 MiB more on a small process: within the noise.
  EXPECT_EQ(MemoryMetricNamed(CompareCase(WithPeak(7, 200), WithPeak(7, 206), {}), "peak RSS")->verdict,
            MetricVerdict::kNoChange);
  EXPECT_EQ(MemoryMetricNamed(CompareCase(WithPeak(7, 20), WithPeak(7, 23), {}), "peak RSS")->verdict,
            MetricVerdict::kNoChange);
  EXPECT_EQ(CompareCase(WithPeak(7, 200), WithPeak(7, 206), {}).verdict, CaseVerdict::kNoChange);
  // Less memory beyond the noise: better.
  EXPECT_EQ(MemoryMetricNamed(CompareCase(WithPeak(7, 260), WithPeak(7, 200), {}), "peak RSS")->verdict,
            MetricVerdict::kFaster);
}

TEST(CompareMemory, ALeakOnlyNewHasIsFlagged) {
  const CaseComparison leaking = CompareCase(WithPeak(7, 200), WithPeak(7, 200, true), {});
  const MetricComparison* growth = MemoryMetricNamed(leaking, "memory growth");
  ASSERT_TRUE(growth);
  EXPECT_EQ(growth->verdict, MetricVerdict::kSlower);
  EXPECT_EQ(leaking.verdict, CaseVerdict::kSlower);
  EXPECT_EQ(MemoryMetricNamed(CompareCase(WithPeak(7, 200, true), WithPeak(7, 200, true), {}), "memory growth"), nullptr);
  // A leaking site of --leak-sites counts too.
  Record sites = WithPeak(7, 200);
  sites.monitor->leak_sites = LeakSites{};
  sites.monitor->leak_sites->leaks = 1;
  EXPECT_EQ(MemoryMetricNamed(CompareCase(WithPeak(7, 200), sites, {}), "memory growth")->verdict, MetricVerdict::kSlower);
}

}  // namespace
}  // namespace edgebench
