// --leak-sites end to end: the null backend's planted leak (leak_bytes=N, from the function
// EdgebenchNullPlantedLeak) is the top site at the planted rate, and a run that plants none calls
// no leak; the flag's misuses are refused. Under a sanitizer build heaptrack cannot be preloaded,
// which the refusal says.
#include <gtest/gtest.h>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

const char* kQueries = " --warmup 300 --min-queries 1500 --min-duration 0 --allow-busy --format json";

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
TEST(LeakSitesCli, ASanitizerBuildRefusesWithTheReason) {
  auto r = RunCommand(Executable() + " run none -t 'null:sleep?us=100' --leak-sites" + kQueries + " 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("sanitizer build"), std::string::npos) << r.output;
}
#else
TEST(LeakSitesCli, ThePlantedLeakIsTheTopSiteAtThePlantedRate) {
  auto r = RunCommand(Executable() + " run none -t 'null:sleep?us=100&leak_bytes=4096' --leak-sites" + kQueries + " 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  const auto& sites = records[0]["monitor"]["leak_sites"];
  ASSERT_EQ(sites["reason"], "") << sites;
  ASSERT_FALSE(sites["sites"].empty()) << sites;
  const auto& top = sites["sites"][0];
  EXPECT_EQ(top["function"], "EdgebenchNullPlantedLeak") << top;
  EXPECT_NE(top["library"].get<std::string>().find("edgebench"), std::string::npos) << top;
  EXPECT_TRUE(top["leak"].get<bool>()) << top;
  const double planted = 4096.0 * 1000;
  EXPECT_NEAR(top["bytes_per_1k_queries"].get<double>(), planted, planted * 0.10) << top;
  // The fit's interval (heaptrack's 10 ms ticks against the harness's query times) is near it too.
  EXPECT_NEAR(top["low_per_1k_queries"].get<double>(), planted, planted * 0.10) << top;
  EXPECT_NEAR(top["high_per_1k_queries"].get<double>(), planted, planted * 0.10) << top;
  EXPECT_EQ(sites["leaks"], 1) << sites;
  // Its latencies were taken under heaptrack: not valid as the model's.
  std::string reasons;
  for (const auto& why : records[0]["verdict"]["reasons"]) reasons += why.get<std::string>() + "\n";
  EXPECT_NE(reasons.find("measured under heaptrack (--leak-sites)"), std::string::npos) << reasons;
  std::string notes;
  for (const auto& n : records[0]["notes"]) notes += n.get<std::string>() + "\n";
  EXPECT_NE(notes.find("leak sites: 1 site leaks; the largest: EdgebenchNullPlantedLeak"), std::string::npos) << notes;
}

TEST(LeakSitesCli, ARunThatPlantsNoLeakCallsNone) {
  auto r = RunCommand(Executable() + " run none -t 'null:sleep?us=100' --leak-sites" + kQueries + " 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  const auto& sites = records[0]["monitor"]["leak_sites"];
  EXPECT_EQ(sites["reason"], "") << sites;
  EXPECT_EQ(sites["leaks"], 0) << sites;
  EXPECT_GT(sites["allocations"].get<int64_t>(), 0) << sites;
  for (const auto& site : sites["sites"]) EXPECT_NE(site["function"], "EdgebenchNullPlantedLeak") << site;
}

// A trace past EDGEBENCH_LEAK_SITES_MAX_MB stops heaptrack early: the sites are judged over the
// queries the trace covers, and the note says how many of the measured ones that was.
TEST(LeakSitesCli, ATraceCutAtItsSizeLimitIsJudgedOverTheQueriesItCovers) {
  auto r = RunCommand("EDGEBENCH_LEAK_SITES_MAX_MB=0.02 " + Executable() +
                      " run none -t 'null:sleep?us=100&leak_bytes=4096' --leak-sites --warmup 5 --min-queries 6000"
                      " --min-duration 0 --allow-busy --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  const auto& sites = records[0]["monitor"]["leak_sites"];
  ASSERT_EQ(sites["reason"], "") << sites;
  EXPECT_LT(sites["window_queries"].get<double>(), 0.95 * sites["queries"].get<double>()) << sites;
  EXPECT_NE(sites["explanation"].get<std::string>().find("heaptrack's trace covers"), std::string::npos) << sites;
  ASSERT_FALSE(sites["sites"].empty()) << sites;
  EXPECT_EQ(sites["sites"][0]["function"], "EdgebenchNullPlantedLeak");
  EXPECT_NEAR(sites["sites"][0]["bytes_per_1k_queries"].get<double>(), 4096000.0, 409600.0) << sites["sites"][0];
}

TEST(LeakSitesCli, MisusesAreRefusedWithWhatToDo) {
  auto r = RunCommand(Executable() + " run none -t null:sleep --leak-sites --no-monitor 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--leak-sites needs the device monitor"), std::string::npos) << r.output;
  r = RunCommand(Executable() + " run none -t null:sleep --leak-sites --in-process 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("leave --in-process out"), std::string::npos) << r.output;
  r = RunCommand("EDGEBENCH_HEAPTRACK_DIR=/nonexistent " + Executable() + " run none -t null:sleep --leak-sites 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("install Debian's heaptrack package"), std::string::npos) << r.output;
}
#endif

}  // namespace
}  // namespace edgebench
