// The busy-machine verdict over a span measured in edgebench's own process (`devices --limits`):
// the machine's CPU time from proc/stat against this process's (monitor/cpu_span.h).
#include "monitor/cpu_span.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

// Two cores for 10 s at 100 ticks/s: 2000 ticks in all.
CpuTimes Span(double machine_busy_ticks, double own_seconds) {
  CpuTimes t;
  t.cores = 2;
  t.machine_total_ticks = 2000;
  t.machine_busy_ticks = machine_busy_ticks;
  t.own_seconds = own_seconds;
  return t;
}

TEST(CpuSpan, OthersWorkIsTheMachinesLessOurOwn) {
  // The machine busy for 1.5 cores' worth, this process 1 core: others 0.5 of 2 cores, 25%.
  SpanBusy at_bound = JudgeSpanBusy(CpuTimes{0, 0, 2, 0}, Span(1500, 10), 100, 0.25);
  EXPECT_NEAR(at_bound.others_cores, 0.5, 1e-9);
  EXPECT_NEAR(at_bound.share, 0.25, 1e-9);
  EXPECT_FALSE(at_bound.busy) << "at the bound is not past it";
  // Others 0.8 cores: 40%, busy, and the figures say so.
  SpanBusy busy = JudgeSpanBusy(CpuTimes{0, 0, 2, 0}, Span(1800, 10), 100, 0.25);
  EXPECT_TRUE(busy.busy);
  EXPECT_EQ(busy.figures, "other processes used 0.80 of the 2 cores (40%, above the 25% allowed) over 10.0 s");
  // This process alone at full load: never busy.
  EXPECT_FALSE(JudgeSpanBusy(CpuTimes{0, 0, 2, 0}, Span(2000, 20), 100, 0.25).busy);
  // No time passed (a static proc/stat): no verdict, not busy.
  EXPECT_FALSE(JudgeSpanBusy(Span(0, 0), Span(0, 0), 100, 0.25).busy);
  EXPECT_TRUE(JudgeSpanBusy(Span(0, 0), Span(0, 0), 100, 0.25).figures.empty());
}

TEST(CpuSpan, ReadsEveryCoreOfProcStat) {
  const std::string root = testing::TempFilePath("cpu_span_", "root");
  std::filesystem::create_directories(root + "/proc");
  std::ofstream(root + "/proc/stat") << "cpu  30 0 10 150 10 0 0 0 0 0\n"
                                        "cpu0 10 0 5 80 5 0 0 0 0 0\n"
                                        "cpu1 20 0 5 70 5 0 0 0 0 0\n"
                                        "intr 1 2 3\n";
  SensorRoots roots;
  roots.root = root;
  auto t = ReadCpuTimes(roots);
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t.value().cores, 2);
  EXPECT_EQ(t.value().machine_total_ticks, 200);
  EXPECT_EQ(t.value().machine_busy_ticks, 40);
  std::ofstream(root + "/proc/stat") << "intr 1 2 3\n";
  EXPECT_FALSE(ReadCpuTimes(roots).ok());
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace edgebench
