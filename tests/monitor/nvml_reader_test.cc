// The NVML reader against a fake libnvidia-ml (tests/monitor/fake_nvml.cc): units converted,
// an unsupported quantity left out with its reason, nvmlShutdown on close; and a missing
// library or a failing nvmlInit reported as such.
#include <dlfcn.h>
#include <stdlib.h>

#include <gtest/gtest.h>

#include "monitor/nvml_reader.h"
#include "reader_test_util.h"

namespace edgebench {
namespace {

using testing::Ids;
using testing::ReadOnce;
using Strings = std::vector<std::string>;
using Values = std::vector<std::optional<double>>;

SensorRoots FakeNvmlRoots() {
  SensorRoots roots;
  roots.root = "/nonexistent";
  roots.nvml_library = EDGEBENCH_FAKE_NVML;
  return roots;
}

TEST(NvmlReader, ChannelsOfEachGpuInChannelUnits) {
  auto reader = OpenNvmlReader(FakeNvmlRoots());
  EXPECT_TRUE(reader->status().available);
  EXPECT_EQ(reader->status().reason,
            "nvmlDeviceGetTotalEnergyConsumption on nvml1 (Fake GPU P4): Not Supported");
  ASSERT_EQ(Ids(reader->channels()),
            (Strings{"nvml0.power", "nvml0.energy", "nvml0.temp", "nvml0.sm_clock",
                     "nvml0.memory_used", "nvml0.throttle_reasons", "nvml0.busy", "nvml1.power", "nvml1.temp",
                     "nvml1.sm_clock", "nvml1.memory_used", "nvml1.throttle_reasons", "nvml1.busy"}));
  const auto& c = reader->channels();
  EXPECT_EQ(c[0].label, "Fake GPU A100");
  EXPECT_EQ(c[0].kind, ChannelKind::kPower);
  // The A100's total is its energy counter; its power is the same energy as a rate.
  EXPECT_FALSE(c[0].device_total);
  EXPECT_TRUE(c[0].part_of_total);
  EXPECT_EQ(c[1].kind, ChannelKind::kEnergy);
  EXPECT_TRUE(c[1].device_total);
  EXPECT_EQ(c[1].source, "nvmlDeviceGetTotalEnergyConsumption");
  EXPECT_EQ(c[2].kind, ChannelKind::kTemperature);
  EXPECT_FALSE(c[2].device_total);
  EXPECT_EQ(c[3].kind, ChannelKind::kFrequency);
  EXPECT_EQ(c[4].kind, ChannelKind::kDeviceMemory);
  EXPECT_EQ(c[5].kind, ChannelKind::kThrottleReasons);
  EXPECT_EQ(c[6].kind, ChannelKind::kDeviceBusy);
  EXPECT_EQ(c[6].source, "nvmlDeviceGetUtilizationRates");
  EXPECT_EQ(c[7].label, "Fake GPU P4");
  EXPECT_TRUE(c[7].device_total);  // no energy counter: power is the total
  EXPECT_FALSE(c[7].part_of_total);
  for (const Channel& channel : c) EXPECT_EQ(channel.reader, "nvml");

  // Discovery read each once; the fake adds 1 W per power reading and 1000 mJ per energy one.
  EXPECT_EQ(ReadOnce(*reader).values,
            (Values{151000e3, 5001000e3, 61000, 1410000, 3.0 * (1 << 30), 1, 87, 161000e3, 62000,
                    1113000, 1 << 20, 0x20, 12}));
  const Values second = ReadOnce(*reader).values;
  EXPECT_EQ(second[0], 152000e3);
  EXPECT_EQ(second[1], 5002000e3);
}

TEST(NvmlReader, ShutsNvmlDownWhenClosed) {
  void* fake = ::dlopen(EDGEBENCH_FAKE_NVML, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(fake, nullptr) << ::dlerror();
  auto shutdowns = reinterpret_cast<int (*)()>(::dlsym(fake, "fakeNvmlShutdownCount"));
  ASSERT_NE(shutdowns, nullptr);
  const int before = shutdowns();
  OpenNvmlReader(FakeNvmlRoots()).reset();
  EXPECT_EQ(shutdowns(), before + 1);
  ::dlclose(fake);
}

TEST(NvmlReader, FailingInitIsUnavailableWithNvmlsWords) {
  ::setenv("EDGEBENCH_FAKE_NVML_INIT_FAILS", "1", 1);
  auto reader = OpenNvmlReader(FakeNvmlRoots());
  ::unsetenv("EDGEBENCH_FAKE_NVML_INIT_FAILS");
  EXPECT_FALSE(reader->status().available);
  EXPECT_TRUE(reader->channels().empty());
  EXPECT_EQ(reader->status().reason,
            "nvmlInit_v2 failed: Driver Not Loaded (is the NVIDIA driver loaded?)");
}

TEST(NvmlReader, MissingLibraryIsAbsentWithDlerror) {
  SensorRoots roots;
  roots.nvml_library = "/nonexistent/libnvidia-ml.so.1";
  auto reader = OpenNvmlReader(roots);
  EXPECT_FALSE(reader->status().available);
  EXPECT_TRUE(reader->channels().empty());
  EXPECT_EQ(reader->status().reason,
            "absent: /nonexistent/libnvidia-ml.so.1 could not be opened (/nonexistent/libnvidia-ml.so.1: "
            "cannot open shared object file: No such file or directory): no NVIDIA driver");
}

}  // namespace
}  // namespace edgebench
