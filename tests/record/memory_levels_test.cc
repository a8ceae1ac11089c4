// The memory map's levels: what was read of each or why nothing was, never a 0 for "not seen".
#include "record/memory_levels.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

MonitorRecord WithMap() {
  MonitorRecord m;
  m.settings.memory_map = true;
  MemorySnapshot s;
  s.moment = "load start";
  s.rss_kb = 2048;
  m.memory_map = {s};
  return m;
}

TEST(MemoryLevels, ACpuTargetSaysItHasNoDeviceMemoryAndTheNpuLevelIsNotObservable) {
  const auto levels = DeriveMemoryLevels(WithMap(), "ort:cpu", "", 1'000'000'000);
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].level, "system");
  EXPECT_NE(levels[0].observed.find("at 1 moments, at most 2.0 MB resident"), std::string::npos) << levels[0].observed;
  EXPECT_EQ(levels[1].level, "accelerator");
  EXPECT_EQ(levels[1].observed, "");
  EXPECT_NE(levels[1].reason.find("no device memory was read for ort:cpu"), std::string::npos) << levels[1].reason;
  EXPECT_EQ(levels[2].level, "npu on-chip");
  EXPECT_NE(levels[2].reason.find("not observable"), std::string::npos);
}

TEST(MemoryLevels, ADeviceSensorIsReadOverTheMeasuredPhaseAndAnEmulatedDeviceIsSystemMemory) {
  MonitorRecord m = WithMap();
  Channel vram;
  vram.id = "card0.vram_used";
  vram.kind = ChannelKind::kDeviceMemory;
  vram.label = "amdgpu VRAM";
  m.series.channels = {vram};
  m.series.t_ns = {-5, 0, 500, 2'000'000'000};  // before, inside twice, after the phase
  m.series.values = {{9e9, 1e9, 1.5e9, 8e9}};
  const auto levels = DeriveMemoryLevels(m, "llamacpp:vulkan0", "", 1'000'000'000);
  EXPECT_EQ(levels[1].observed, "amdgpu VRAM at most 1500.0 MB in use over the measured phase (card0.vram_used)");
  const auto emulated = DeriveMemoryLevels(WithMap(), "litert:gpu", "lavapipe, Mesa's Vulkan on the CPU", 1);
  EXPECT_NE(emulated[1].reason.find("the device is emulated (lavapipe"), std::string::npos) << emulated[1].reason;
  const auto llama = DeriveMemoryLevels(WithMap(), "llamacpp:vulkan0", "", 1, {{"Vulkan0", "KV 3.00 MiB"}});
  EXPECT_EQ(llama[1].observed, "the runtime's buffers on Vulkan0: KV 3.00 MiB");
  MonitorRecord unmapped;
  unmapped.memory_map_reason = "no memory map after 'load start': no /proc";
  EXPECT_EQ(DeriveMemoryLevels(unmapped, "ort:cpu", "", 1)[0].reason, unmapped.memory_map_reason);
}

}  // namespace
}  // namespace edgebench
