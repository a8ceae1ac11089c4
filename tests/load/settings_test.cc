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

// Windows are bounded, so a run's memory is: --window 1ms over an hour is refused, with the
// smallest window that fits; a soak of a day fits at the default window.
TEST(Settings, WindowsTooSmallForTheRunAreRefusedWithTheWindowThatFits) {
  RunSettings s;
  s.max_duration_ms = 3'600'000;
  s.min_duration_ms = 3'600'000;
  s.window_ms = 1;
  const std::string error = Validate(s).error();
  EXPECT_NE(error.find("--window 1ms over a run of up to 3600000 ms makes 3600000 windows; at most 20000"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("use --window 180ms or more"), std::string::npos) << error;
  s.window_ms = 180;
  EXPECT_TRUE(Validate(s).ok());
  s.window_ms = 179;
  EXPECT_FALSE(Validate(s).ok());
  RunSettings day;
  day.max_duration_ms = day.min_duration_ms = 24 * 3'600'000;
  EXPECT_TRUE(Validate(day).ok()) << "a day's soak at the default 5 s window";
}

}  // namespace
}  // namespace edgebench
