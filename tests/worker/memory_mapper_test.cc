// The memory map's checkpoints inside the measured phase: on their own thread, each twice as far
// into the phase as the last, named by when they fall, none after the phase ends. The first falls
// 20 ms in here (5 s in a case).
#include "worker/memory_mapper.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace edgebench {
namespace {

TEST(MemoryMapper, CheckpointsDoubleTheirDistanceIntoThePhaseAndStopWithIt) {
  MonitorSettings settings;
  MemoryMapper mapper(settings, "", 20'000'000);
  mapper.Take("measure start");
  mapper.StartCheckpoints();
  // Two checkpoints (20 and 40 ms in), however late a busy machine runs the thread.
  for (int i = 0; i < 1000 && mapper.taken() < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  mapper.StopCheckpoints();
  const size_t stopped_at = mapper.taken();
  ASSERT_GE(stopped_at, 3u);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(mapper.taken(), stopped_at);  // none after the phase
  mapper.Take("measure end");
  MonitorRecord m;
  mapper.Finish(m, 0);
  ASSERT_EQ(m.memory_map.size(), stopped_at + 1);
  EXPECT_EQ(m.memory_map[0].moment, "measure start");
  EXPECT_EQ(m.memory_map[1].moment, "measure +20ms");
  EXPECT_EQ(m.memory_map[2].moment, "measure +40ms");
  EXPECT_EQ(m.memory_map.back().moment, "measure end");
  for (size_t i = 1; i < m.memory_map.size(); ++i) {
    EXPECT_GE(m.memory_map[i].t_ns, m.memory_map[i - 1].t_ns);
    EXPECT_GT(m.memory_map[i].rss_kb, 0);
  }
  EXPECT_EQ(m.memory_map_reason, "");
}

TEST(MemoryMapper, APhaseShorterThanTheFirstCheckpointHasNone) {
  MonitorSettings settings;
  MemoryMapper mapper(settings, "");
  mapper.StartCheckpoints();
  mapper.StopCheckpoints();  // at once: well before 5 s
  EXPECT_EQ(mapper.taken(), 0u);
}

}  // namespace
}  // namespace edgebench
