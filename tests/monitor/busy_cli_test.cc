// The busy-machine verdict end to end: a case measured while this test burns every core beside
// it is INVALID with the figures, and --allow-busy keeps it VALID with them as a note. (The exact
// rule is tested on hand-built series in tests/record/busy_machine_test.cc.)
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

// One spinning thread per core, for as long as it lives.
class CpuHog {
 public:
  CpuHog() {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < cores; ++i) {
      threads_.emplace_back([this] {
        volatile unsigned long long spin = 0;
        while (!stop_.load(std::memory_order_relaxed)) spin = spin + 1;
      });
    }
  }
  ~CpuHog() {
    stop_ = true;
    for (std::thread& t : threads_) t.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

const std::string kCase = " run x -t null:cpu?us=500 --warmup 5 --min-duration 1500 --max-cv 100 --format json";

TEST(BusyCli, ACaseMeasuredBesideACpuHogIsInvalidUnlessKept) {
  CpuHog hog;
  auto r = RunCommand(Executable() + kCase + " 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  const auto& busy = records[0]["monitor"]["derived"]["busy"];
  ASSERT_TRUE(busy["checked"].get<bool>()) << busy;
  EXPECT_TRUE(busy["busy"].get<bool>()) << busy;
  EXPECT_GT(busy["others_share"].get<double>(), 0.25) << busy;
  EXPECT_FALSE(records[0]["verdict"]["valid"].get<bool>());
  bool said = false;
  for (const auto& reason : records[0]["verdict"]["reasons"]) {
    said = said || reason.get<std::string>().rfind("busy machine: other processes used ", 0) == 0;
  }
  EXPECT_TRUE(said) << records[0]["verdict"];

  auto kept = RunCommand(Executable() + kCase + " --allow-busy 2>/dev/null");
  ASSERT_EQ(kept.exit_code, 0) << kept.output;
  const auto kept_records = testing::JsonRecords(kept.output);
  ASSERT_EQ(kept_records.size(), 1u) << kept.output;
  const auto& record = kept_records[0];
  EXPECT_TRUE(record["monitor"]["derived"]["busy"]["kept_by_allow_busy"].get<bool>());
  EXPECT_TRUE(record["monitor"]["settings"]["allow_busy"].get<bool>());
  bool noted = false;
  for (const auto& note : record["notes"]) {
    noted = noted || note.get<std::string>().rfind("kept by --allow-busy: busy machine: ", 0) == 0;
  }
  EXPECT_TRUE(noted) << record["notes"];
  if (!testing::kSanitizerBuild) {
    EXPECT_TRUE(record["verdict"]["valid"].get<bool>()) << record["verdict"];
  }
}

TEST(BusyCli, AShareOutsideZeroToOneIsRefused) {
  auto r = RunCommand(Executable() + " run x -t null:cpu --max-busy-share 1.5 2>&1");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("--max-busy-share 1.5"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace edgebench
