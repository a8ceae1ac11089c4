// The leak verdict on a site: a line of growth over the threshold at its interval's lower bound is
// a leak; a buffer made once, a growth under the threshold, a loose fit or too few queries are not.
#include "record/leak_sites.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

LeakSite Site(const std::string& function, int64_t grown, double slope, double stderr_, double r2) {
  LeakSite s;
  s.function = function;
  s.library = "libx.so";
  s.grown_bytes = grown;
  s.grown_allocations = grown / 4096;
  s.slope = slope;
  s.slope_stderr = stderr_;
  s.fit_r2 = r2;
  return s;
}

TEST(LeakSites, ALineOverTheThresholdAtItsLowerBoundIsALeak) {
  LeakSites sites;
  sites.axis = "queries";
  sites.window_s = 10;
  // 4096 bytes per query over 2,000 queries: 39 MB per 10,000 queries, over 10.
  sites.sites = {Site("Leaky", 4096 * 2000, 4096, 2, 0.999)};
  DeriveLeakSites(sites, 2000, 10);
  ASSERT_EQ(sites.leaks, 1);
  EXPECT_TRUE(sites.sites[0].leak);
  EXPECT_DOUBLE_EQ(sites.sites[0].bytes_per_1k_queries, 4096000);
  EXPECT_NEAR(sites.sites[0].low_per_1k_queries, 4096000 - 1.96 * 2 * 1000, 1e-6);
  EXPECT_NE(sites.explanation.find("1 site leaks; the largest: Leaky (libx.so) grew 4096000 bytes per 1,000 queries"),
            std::string::npos)
      << sites.explanation;
}

TEST(LeakSites, WhatIsNotALineOrNotEnoughIsNoLeak) {
  LeakSites sites;
  sites.window_s = 10;
  sites.sites = {
      // A wide interval: its lower bound (0.1 MB per 10,000 queries) is under the threshold.
      Site("Wide", int64_t{4096} * 20000, 4096, 2080, 0.95),
      // A buffer made once mid-phase: r2 at most 0.75.
      Site("Once", 64 << 20, 40000, 100, 0.75),
      // Under the threshold: 100 bytes per query is 1 MB per 10,000 queries.
      Site("Slow", 100 * 20000, 100, 0.1, 1.0),
  };
  DeriveLeakSites(sites, 20000, 10);
  EXPECT_EQ(sites.leaks, 0);
  for (const LeakSite& s : sites.sites) EXPECT_FALSE(s.leak) << s.function;
  EXPECT_NE(sites.explanation.find("no site leaks"), std::string::npos) << sites.explanation;
  // Too few queries to judge, however steep.
  LeakSites few;
  few.sites = {Site("Leaky", 4096 * 50 * 100, 409600, 1, 1.0)};
  DeriveLeakSites(few, 50, 10);
  EXPECT_EQ(few.leaks, 0);
}

TEST(LeakSites, TimeFitsAreTurnedIntoQueriesByTheWindowsRate) {
  LeakSites sites;
  sites.axis = "seconds";
  sites.window_s = 2;  // 1,000 queries in 2 s: 2 ms per query
  sites.sites = {Site("Leaky", 4096 * 1000, 4096 * 500, 1000, 1.0)};
  DeriveLeakSites(sites, 1000, 10);
  EXPECT_NEAR(sites.sites[0].high_per_1k_queries - sites.sites[0].bytes_per_1k_queries, 1.96 * 1000 * 0.002 * 1000,
              1e-6);
}

TEST(LeakSites, AReasonIsTheExplanation) {
  LeakSites sites;
  sites.reason = "heaptrack wrote no trace";
  DeriveLeakSites(sites, 100, 10);
  EXPECT_EQ(sites.explanation, "no leak sites: heaptrack wrote no trace");
  LeakSites none;
  DeriveLeakSites(none, 0, 10);
  EXPECT_NE(none.explanation.find("no query completed"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
