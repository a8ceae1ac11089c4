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

// A record made here under emulation keeps its label through the run (a session's notes are
// added to it, not put in its place: seen on the arm64 fleet host, where the label was lost).
TEST(CpuEmulation, ARecordMadeUnderEmulationSaysSo) {
  const std::string here = ReadCpuEmulation();
  if (here.empty()) GTEST_SKIP() << "this machine runs the build natively (the arm64 build under qemu-user runs this)";
  auto r = testing::RunCommand(testing::Executable() +
                               " run x -t null:cpu?us=100 --warmup 1 --min-queries 5 --min-duration 10 --format json 2>/dev/null");
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 1u) << r.output;
  EXPECT_EQ(records[0]["environment"]["cpu_emulation"], here);
  bool labelled = false;
  for (const auto& note : records[0]["notes"]) labelled = labelled || note.get<std::string>().rfind("emulated: ", 0) == 0;
  EXPECT_TRUE(labelled) << records[0]["notes"];
}

}  // namespace
}  // namespace edgebench
