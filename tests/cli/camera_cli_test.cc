// camera:N@FPS end to end: a null session slower than the frame period must drop frames and be
// late on every frame it runs; the record written and read back holds the same counts.
#include <gtest/gtest.h>

#include <filesystem>

#include "../test_util.h"
#include "report/store.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

TEST(CameraCli, ASessionSlowerThanTheFramesDropsAndIsLateAndTheRecordReadsBack) {
  const std::string out = testing::TempFilePath("camera_cli", "store");
  std::filesystem::remove_all(out);
  // 150 ms a frame at 10 fps: whatever the machine's speed, at most 8 of a stream's 10 frames run.
  const auto r = RunCommand(Executable() + " run none -t 'null:sleep?us=150000' --scenario camera:2@10fps"
                            " --warmup 2 --min-queries 1 --min-duration 1000 --allow-busy --out " + out +
                            " --format json 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto records = ReadRecords(out + "/results.jsonl");
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 1u);
  const Record& record = records.value()[0];
  EXPECT_EQ(record.scenario, "camera:2@10fps");
  ASSERT_TRUE(record.load && record.load->camera) << r.output;
  const CameraSummary& c = *record.load->camera;
  EXPECT_EQ(c.period_ns, 100'000'000);
  ASSERT_EQ(c.streams.size(), 2u);
  for (const CameraStreamSummary& s : c.streams) {
    EXPECT_EQ(s.delivered, 10);
    EXPECT_EQ(s.processed + s.dropped, 10);  // nothing left waiting: the run drains
    EXPECT_GE(s.dropped, 2);
    EXPECT_EQ(s.late, s.processed);
  }
  EXPECT_EQ(c.total.processed, record.summary.count);
  EXPECT_GT(c.dropped_fraction, 0.1);
  // VALID; a sanitizer build's records are INVALID for that alone.
  EXPECT_EQ(record.invalid_reasons, testing::kSanitizerBuild ? std::vector<std::string>{"sanitizer build of edgebench"}
                                                             : std::vector<std::string>{})
      << r.output;
  EXPECT_NE(r.output.find("\"camera\""), std::string::npos);
  std::filesystem::remove_all(out);
}

TEST(CameraCli, AMistakeInTheScenarioNamesTheForm) {
  const auto r = RunCommand(Executable() + " run none -t null:sleep --scenario camera:4@10fps/lifo 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("drop, queue or queue:K"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace edgebench
