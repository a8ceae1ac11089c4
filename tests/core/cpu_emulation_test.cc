// An emulated CPU is told from a native one by what the kernel says it is against what the build
// is for (core/cpu_emulation.h), and the record labels it as an emulated device.
#include "core/cpu_emulation.h"

#include <gtest/gtest.h>

#include "record/emulated_device.h"
#include "../test_util.h"

namespace edgebench {
namespace {

constexpr const char* kX86CpuInfo = "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu avx2\n";
constexpr const char* kArmCpuInfo = "processor\t: 0\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n";

TEST(CpuEmulation, AnArm64BuildOnAnX86KernelIsQemuUser) {
  EXPECT_EQ(CpuEmulation("aarch64", "x86_64\n", kArmCpuInfo, "cortex-a76"), "qemu-user cortex-a76");
  EXPECT_EQ(CpuEmulation("aarch64", "x86_64\n", kArmCpuInfo, ""), "qemu-user max (its default CPU)");
  // Before Linux 6.1 there is no kernel.arch: an x86 vendor in an arm64 build's cpuinfo.
  EXPECT_EQ(CpuEmulation("aarch64", "", kX86CpuInfo, "cortex-a76"), "qemu-user cortex-a76");
}

TEST(CpuEmulation, NativeBuildsAreNotEmulated) {
  EXPECT_EQ(CpuEmulation("x86_64", "x86_64\n", kX86CpuInfo, ""), "");
  EXPECT_EQ(CpuEmulation("aarch64", "aarch64\n", kArmCpuInfo, "cortex-a76"), "");  // QEMU_CPU left set
  EXPECT_EQ(CpuEmulation("aarch64", "", kArmCpuInfo, ""), "");
  EXPECT_EQ(CpuEmulation("", "x86_64", kX86CpuInfo, ""), "");  // another processor: not judged
  EXPECT_EQ(CpuEmulation("x86_64", "", kX86CpuInfo, ""), "");
}

TEST(CpuEmulation, ThisMachineIsNativeUnlessItsKernelSaysOtherwise) {
  // The tests run natively on x86-64 and under qemu-user in the arm64 build (scripts/test-arm64).
  const std::string here = ReadCpuEmulation();
#if defined(__aarch64__)
  if (!here.empty()) {
    EXPECT_EQ(here.rfind("qemu-user ", 0), 0u) << here;
  }
#else
  EXPECT_EQ(here, "");
#endif
}

TEST(CpuEmulation, AnEmulatedRecordIsLabelledAsAnEmulatedDevice) {
  Record r;
  r.notes.push_back(CpuEmulationNote("aarch64", "qemu-user cortex-a76"));
  EXPECT_EQ(EmulatedDeviceOf(r), "qemu-user cortex-a76");
  EXPECT_NE(r.notes.front().find("its latencies are the emulator's"), std::string::npos) << r.notes.front();
}

}  // namespace
}  // namespace edgebench
