#include "load/settings.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

TEST(Settings, DefaultsAreValidAndTimeoutIsDerived) {
  auto e = Validate(RunSettings{});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e.value().values.warmup_queries, 20);
  EXPECT_EQ(e.value().values.min_queries, 100);
  EXPECT_EQ(e.value().values.case_timeout_ms, 2 * 60000 + 120000);
}

TEST(Settings, BadValuesFailFastWithTheFlagName) {
  RunSettings s;
  s.min_queries = 0;
  EXPECT_NE(Validate(s).error().find("--min-queries"), std::string::npos);
  s = RunSettings{};
  s.min_duration_ms = 5000;
  s.max_duration_ms = 1000;
  EXPECT_NE(Validate(s).error().find("--min-duration"), std::string::npos);
  s = RunSettings{};
  s.warmup_queries = -1;
  EXPECT_FALSE(Validate(s).ok());
  s = RunSettings{};
  s.max_cv = 0;
  EXPECT_FALSE(Validate(s).ok());
}

}  // namespace
}  // namespace edgebench
