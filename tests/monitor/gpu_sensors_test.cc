// The GPU and NPU reader on fake trees modelled on real ones: an RK3588's Mali GPU and NPU under
// devfreq, a desktop with amdgpu's VRAM counter and Intel's i915 GT clock, and a VM with neither.
#include <gtest/gtest.h>

#include "monitor/device_sensors.h"
#include "monitor/gpu_reader.h"
#include "fake_tree.h"
#include "reader_test_util.h"

namespace edgebench {
namespace {

using testing::FakeTree;
using testing::Ids;
using testing::ReadOnce;
using Strings = std::vector<std::string>;
using Values = std::vector<std::optional<double>>;

TEST(GpuReader, AnArmSocsGpuAndNpuClocksComeFromDevfreqWithTheirMaximum) {
  FakeTree tree("gpu_devfreq");
  tree.Write("sys/class/devfreq/fb000000.gpu/cur_freq", 300000000);
  tree.Write("sys/class/devfreq/fb000000.gpu/max_freq", 1000000000);
  tree.Write("sys/class/devfreq/fdab0000.npu/cur_freq", 1000000000);
  tree.Write("sys/class/devfreq/fdab0000.npu/max_freq", 1000000000);
  tree.Write("sys/class/devfreq/dmc/governor", "dmc_ondemand");  // a memory controller without cur_freq here
  auto reader = OpenGpuReader(tree.Roots());
  EXPECT_TRUE(reader->status().available) << reader->status().reason;
  ASSERT_EQ(Ids(reader->channels()), (Strings{"devfreq.fb000000.gpu.freq", "devfreq.fdab0000.npu.freq"}));
  const Channel& gpu = reader->channels()[0];
  EXPECT_EQ(gpu.kind, ChannelKind::kFrequency);
  EXPECT_EQ(gpu.label, "fb000000.gpu");
  EXPECT_EQ(gpu.source, "sys/class/devfreq/fb000000.gpu/cur_freq");
  EXPECT_EQ(gpu.max_khz, 1000000);
  EXPECT_EQ(gpu.cpu, -1);  // not a core's: the CPU's throttling checks leave it alone
  // Held at 300 MHz of 1 GHz (a throttled Mali), in kHz as every frequency channel.
  EXPECT_EQ(ReadOnce(*reader).values, (Values{300000, 1000000}));
  tree.Write("sys/class/devfreq/fb000000.gpu/cur_freq", 800000000);
  EXPECT_EQ(ReadOnce(*reader).values[0], 800000.0);
}

TEST(GpuReader, AmdgpuVramAndIntelsGtClockFromDrm) {
  FakeTree tree("gpu_drm");
  tree.Write("sys/class/drm/card0/device/uevent", "DRIVER=amdgpu\nPCI_CLASS=30000");
  tree.Write("sys/class/drm/card0/device/mem_info_vram_used", 1073741824);
  tree.Write("sys/class/drm/card0-DP-1/status", "connected");
  tree.Write("sys/class/drm/card1/device/uevent", "DRIVER=i915");
  tree.Write("sys/class/drm/card1/gt_cur_freq_mhz", 350);
  tree.Write("sys/class/drm/card1/gt_max_freq_mhz", 1300);
  tree.MakeDirectory("sys/class/drm/renderD128");
  auto reader = OpenGpuReader(tree.Roots());
  ASSERT_EQ(Ids(reader->channels()), (Strings{"card0.vram_used", "card1.freq"}));
  const auto& c = reader->channels();
  EXPECT_EQ(c[0].kind, ChannelKind::kDeviceMemory);
  EXPECT_EQ(c[0].label, "amdgpu VRAM");
  EXPECT_EQ(c[1].kind, ChannelKind::kFrequency);
  EXPECT_EQ(c[1].label, "i915 GT");
  EXPECT_EQ(c[1].max_khz, 1300000);
  EXPECT_EQ(ReadOnce(*reader).values, (Values{1073741824, 350000}));
}

TEST(GpuReader, BusySharesFromRockchipsLoadAJetsonsLoadAndAmdgpu) {
  FakeTree tree("gpu_busy");
  tree.Write("sys/class/devfreq/fb000000.gpu/cur_freq", 300000000);
  tree.Write("sys/class/devfreq/fb000000.gpu/load", "23@300000000Hz");  // an RK3588's vendor kernel
  tree.Write("sys/class/devfreq/17000000.ga10b/cur_freq", 918000000);
  tree.Write("sys/class/devfreq/17000000.ga10b/device/load", 870);  // a Jetson: per mille
  tree.Write("sys/class/devfreq/fdab0000.npu/cur_freq", 1000000000);
  tree.Write("sys/class/devfreq/fdab0000.npu/load", "busy");  // not a load: said, not read
  tree.Write("sys/class/drm/card0/device/uevent", "DRIVER=amdgpu");
  tree.Write("sys/class/drm/card0/device/gpu_busy_percent", 64);
  auto reader = OpenGpuReader(tree.Roots());
  ASSERT_EQ(Ids(reader->channels()),
            (Strings{"devfreq.17000000.ga10b.freq", "devfreq.17000000.ga10b.busy", "devfreq.fb000000.gpu.freq",
                     "devfreq.fb000000.gpu.busy", "devfreq.fdab0000.npu.freq", "card0.busy"}));
  for (size_t i : {1u, 3u, 5u}) EXPECT_EQ(reader->channels()[i].kind, ChannelKind::kDeviceBusy);
  EXPECT_EQ(reader->channels()[5].label, "amdgpu busy");
  EXPECT_EQ(reader->channels()[3].source, "sys/class/devfreq/fb000000.gpu/load");
  EXPECT_EQ(ReadOnce(*reader).values, (Values{918000, 87, 300000, 23, 1000000, 64}));
  EXPECT_NE(reader->status().reason.find("fdab0000.npu/load: holds 'busy', not an integer before '@'"),
            std::string::npos)
      << reader->status().reason;
  tree.Write("sys/class/devfreq/fb000000.gpu/load", "100@800000000Hz");
  EXPECT_EQ(ReadOnce(*reader).values[3], 100.0);
}

TEST(GpuReader, AMachineWithoutOneSaysWhyAndTheSetListsIt) {
  FakeTree tree("gpu_none");
  tree.MakeDirectory("sys/class/drm/renderD128");
  auto reader = OpenGpuReader(tree.Roots());
  EXPECT_FALSE(reader->status().available);
  EXPECT_NE(reader->status().reason.find("absent: no GPU or NPU clock under"), std::string::npos)
      << reader->status().reason;
  const SensorSet set = OpenDeviceSensors(tree.Roots());
  bool listed = false;
  for (const ReaderStatus& s : set.statuses()) listed |= s.reader == "gpu";
  EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace edgebench
