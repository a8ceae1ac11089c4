// The CPU's model and features from /proc/cpuinfo texts shaped like the machines': an x86 server,
// an RK3588 (big.LITTLE, no model name), a Jetson AGX Orin, a Raspberry Pi 4, a 32-bit Arm kernel.
#include "core/cpu_description.h"

#include <gtest/gtest.h>

#include <string>

namespace edgebench {
namespace {

using Strings = std::vector<std::string>;

std::string ArmCore(int index, const char* implementer, const char* part, const char* features) {
  return "processor\t: " + std::to_string(index) + "\nBogoMIPS\t: 48.00\nFeatures\t: " +
         features + "\nCPU implementer\t: " + implementer +
         "\nCPU architecture: 8\nCPU variant\t: 0x2\nCPU part\t: " + part +
         "\nCPU revision\t: 0\n\n";
}

constexpr const char* kRk3588Features =
    "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop "
    "asimddp";

std::string Rk3588Cpuinfo() {
  std::string text;
  for (int i = 0; i < 4; ++i) text += ArmCore(i, "0x41", "0xd05", kRk3588Features);
  for (int i = 4; i < 8; ++i) text += ArmCore(i, "0x41", "0xd0b", kRk3588Features);
  return text;
}

TEST(CpuDescription, X86TakesTheModelNameAndItsFlags) {
  const std::string cpuinfo =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9654 96-Core Processor\n"
      "flags\t\t: fpu sse4_2 avx avx2 fma f16c avx512f avx512bw avx512vl avx512_vnni "
      "avx512_bf16\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 9654 96-Core Processor\n";
  EXPECT_EQ(DescribeCpuModel(cpuinfo, ""), "AMD EPYC 9654 96-Core Processor");
  EXPECT_EQ(ParseCpuFeatures(cpuinfo),
            (Strings{"sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl",
                     "avx512_vnni", "avx512_bf16"}));
}

TEST(CpuDescription, Rk3588NamesTheBoardAndEachCoreTypeWithItsCount) {
  // The device tree's model ends in a NUL, as the file does.
  const std::string board = std::string("Rockchip RK3588 EVB1 LP4 V10 Board") + '\0';
  EXPECT_EQ(DescribeCpuModel(Rk3588Cpuinfo(), board),
            "Rockchip RK3588 EVB1 LP4 V10 Board (4x Cortex-A55 + 4x Cortex-A76)");
  EXPECT_EQ(DescribeCpuModel(Rk3588Cpuinfo(), ""), "4x Cortex-A55 + 4x Cortex-A76");
  EXPECT_EQ(ParseCpuFeatures(Rk3588Cpuinfo()), (Strings{"asimd", "asimdhp", "asimddp", "fphp"}));
}

TEST(CpuDescription, JetsonOrinAndRaspberryPi) {
  std::string orin;
  for (int i = 0; i < 12; ++i) {
    orin += ArmCore(i, "0x41", "0xd42", "fp asimd aes asimdhp asimddp sve i8mm bf16 fphp");
  }
  EXPECT_EQ(DescribeCpuModel(orin, "NVIDIA Jetson AGX Orin Developer Kit"),
            "NVIDIA Jetson AGX Orin Developer Kit (12x Cortex-A78AE)");
  EXPECT_EQ(ParseCpuFeatures(orin),
            (Strings{"asimd", "asimdhp", "asimddp", "fphp", "i8mm", "bf16", "sve"}));
  std::string pi;
  for (int i = 0; i < 4; ++i) pi += ArmCore(i, "0x41", "0xd08", "fp asimd evtstrm crc32 cpuid");
  pi += "Hardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n";
  EXPECT_EQ(DescribeCpuModel(pi, "Raspberry Pi 4 Model B Rev 1.4\n"),
            "Raspberry Pi 4 Model B Rev 1.4 (4x Cortex-A72)");
}

TEST(CpuDescription, UnknownCoresAreNamedByTheirCodes) {
  EXPECT_EQ(ArmCoreName(0x41, 0xd0b), "Cortex-A76");
  EXPECT_EQ(ArmCoreName(0x51, 0x001), "Qualcomm Oryon");
  EXPECT_EQ(ArmCoreName(0x61, 0x039), "implementer 0x61 part 0x039");
  EXPECT_EQ(DescribeCpuModel(ArmCore(0, "0x61", "0x039", "fp asimd"), ""),
            "1x implementer 0x61 part 0x039");
}

TEST(CpuDescription, ThirtyTwoBitArmAndNothingAtAll) {
  const std::string armv7 =
      "processor\t: 0\nmodel name\t: ARMv7 Processor rev 3 (v7l)\nFeatures\t: half thumb neon\n"
      "CPU implementer\t: 0x41\nCPU part\t: 0xd08\n";
  // The core's name says more than "ARMv7 Processor".
  EXPECT_EQ(DescribeCpuModel(armv7, ""), "1x Cortex-A72");
  EXPECT_EQ(DescribeCpuModel("", ""), "unknown");
  EXPECT_EQ(DescribeCpuModel("garbage without colons\n\n", "  \n"), "unknown");
  EXPECT_TRUE(ParseCpuFeatures("").empty());
  // A part line before any implementer line names nothing.
  EXPECT_EQ(DescribeCpuModel("CPU part\t: 0xd0b\n", ""), "unknown");
}

}  // namespace
}  // namespace edgebench
