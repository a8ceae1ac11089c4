// A server run at a high rate end to end (issue 9, "Raw samples must scale"): past its
// raw-sample cap the record keeps histograms and exact totals, and stays under 5 MB.
#include <gtest/gtest.h>

#include "../test_util.h"
#include "stats/server_histograms.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

TEST(ServerCli, ThirtySecondsAt20000QpsGiveARecordUnderFiveMegabytes) {
  // 30 s at 20,000 QPS schedules about 600,000 queries, past kServerRawSampleCap (400,000).
  auto r = RunCommand(Executable() + " run x -t null:spin?us=0 --scenario server:20000 --min-duration 30000"
                      " --format json 2>/dev/null");
  const auto records = nlohmann::json::parse(r.output, nullptr, false);
  ASSERT_TRUE(records.is_array() && records.size() == 1u) << r.output.substr(0, 2000);
  const auto& record = records[0];
  const std::string text = record.dump();
  const int64_t count = record["summary"]["count"].get<int64_t>();
  std::printf("server:20000 for 30 s on null:spin?us=0: %lld queries, record %zu bytes (%.2f bytes a query)\n",
              static_cast<long long>(count), text.size(), static_cast<double>(text.size()) / static_cast<double>(count));
  EXPECT_EQ(record["status"], "ok");
  EXPECT_GT(count, kServerRawSampleCap);
  const auto& measured = record["samples"]["measured"];
  EXPECT_FALSE(measured.contains("latency_ns"));
  EXPECT_TRUE(measured.contains("histogram_windows"));
  ASSERT_TRUE(measured.contains("server"));
  EXPECT_EQ(measured["server"]["count"].get<int64_t>(), count);
  EXPECT_EQ(record["load"]["percentiles_from"], "histograms");
  EXPECT_GT(record["load"]["server"]["offered_qps"].get<double>(), 19'000);
  EXPECT_EQ(record["load"]["server"]["service"]["count"].get<int64_t>(), count);
  EXPECT_LT(text.size(), 5'000'000u);
}

}  // namespace
}  // namespace edgebench
