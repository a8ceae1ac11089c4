// The checks `edgebench run`'s flags and a suite file's settings share, called directly.
#include "plan/run_request_check.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

PlanRequest Request(std::vector<std::string> scenarios) {
  PlanRequest request;
  request.scenarios = std::move(scenarios);
  return request;
}

std::string SuiteKey(const std::string& key) { return key == "scenario" ? "scenarios:" : "settings: " + key; }

std::string Error(const PlanRequest& request, const std::set<std::string>& given, const SettingSpelling& spell) {
  Status s = CheckRunRequest(request, given, spell);
  return s.ok() ? "" : s.message();
}

TEST(RunRequestCheck, ALoadSettingNoListedScenarioUsesIsRefusedInEitherSpelling) {
  const PlanRequest request = Request({"single-stream", "multi-stream:4"});
  EXPECT_EQ(Error(request, {"batch"}, FlagSpelling),
            "--batch applies to the offline scenario, and --scenario lists none");
  EXPECT_EQ(Error(request, {"batch"}, SuiteKey),
            "settings: batch applies to the offline scenario, and scenarios: lists none");
  EXPECT_NE(Error(request, {"streams"}, FlagSpelling).find("--streams applies to the soak"), std::string::npos);
  EXPECT_NE(Error(request, {"find_peak"}, FlagSpelling).find("--find-peak applies to the server"), std::string::npos);
  EXPECT_NE(Error(request, {"p99_bound_ms"}, SuiteKey).find("settings: p99_bound_ms applies to the server"),
            std::string::npos);
  EXPECT_EQ(Error(request, {"sessions"}, FlagSpelling), "");  // multi-stream uses it
  EXPECT_EQ(Error(Request({"offline"}), {"batch", "concurrency"}, FlagSpelling), "");
  // Given, not set: a default written out in a suite is a setting given.
  EXPECT_NE(Error(Request({"single-stream"}), {"sessions"}, SuiteKey), "");
}

TEST(RunRequestCheck, AP99BoundNeedsTheQueriesAP99NeedsAndAPeakSearchNeedsABound) {
  PlanRequest request = Request({"server:100"});
  request.settings.p99_bound_ms = 5;
  request.settings.min_queries = 99;
  EXPECT_EQ(Error(request, {"p99_bound_ms"}, FlagSpelling),
            "--p99-bound-ms compares a p99, which needs at least 100 queries: give --min-queries 100 or more");
  EXPECT_EQ(Error(request, {"p99_bound_ms"}, SuiteKey),
            "settings: p99_bound_ms compares a p99, which needs at least 100 queries: give settings: min_queries "
            "100 or more");
  request.settings.min_queries = 100;
  EXPECT_EQ(Error(request, {"p99_bound_ms"}, FlagSpelling), "");
  request.find_peak = true;
  EXPECT_EQ(Error(request, {"p99_bound_ms", "find_peak"}, FlagSpelling), "");
  request.settings.p99_bound_ms = 0;
  EXPECT_EQ(Error(request, {"find_peak"}, SuiteKey),
            "settings: find_peak searches the highest rate whose p99 stays under a bound: give settings: "
            "p99_bound_ms");
}

TEST(RunRequestCheck, EachScenarioIsCheckedWithTheSettingsItRunsWith) {
  PlanRequest request = Request({"single-stream", "soak:2m"});
  request.settings.min_duration_ms = 5000;
  request.settings.max_duration_ms = 4000;  // single-stream runs with these; the soak with its own
  const std::string error = Error(request, {}, FlagSpelling);
  EXPECT_NE(error.find("single-stream: bad settings: --min-duration (5000 ms) is longer than --max-duration"),
            std::string::npos)
      << error;
  request.scenarios = {"soak:2m"};
  EXPECT_EQ(Error(request, {}, FlagSpelling), "");
}

TEST(RunRequestCheck, TheInputsAreCheckedWithTheInputPool) {
  PlanRequest request = Request({"single-stream"});
  PlanModel model;
  model.model.name = "m";
  model.inputs = {"x=1"};
  request.models.push_back(model);
  request.input_pool = 0;
  EXPECT_NE(Error(request, {"input_pool"}, SuiteKey).find("--input-pool"), std::string::npos);
  request.input_pool = 4;
  EXPECT_EQ(Error(request, {"input_pool"}, SuiteKey), "");
}

}  // namespace
}  // namespace edgebench
