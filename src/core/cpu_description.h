// What /proc/cpuinfo says about the CPU, for the record's environment: its model and the ISA
// features that decide which kernels a runtime picks.
//
// x86 names its model on each processor's "model name" line. Arm64 kernels print no model name:
// each core has "CPU implementer" and "CPU part" codes instead, and a board names itself in the
// device tree (/proc/device-tree/model). An Arm SoC mixes core types (RK3588: four Cortex-A55
// and four Cortex-A76), so the model lists each type with its count, big cores last as the
// kernel numbers them, after the board's name: "Rockchip RK3588 ... (4x Cortex-A55 +
// 4x Cortex-A76)".
#pragma once

#include <string>
#include <vector>

namespace edgebench {

// `cpuinfo`: /proc/cpuinfo's text. `device_tree_model`: /proc/device-tree/model's text ("" when
// absent; its trailing NUL is dropped). "unknown" when neither names anything.
std::string DescribeCpuModel(const std::string& cpuinfo, const std::string& device_tree_model);

// The features of the first "flags" (x86) or "Features" (Arm) line that inference runtimes pick
// kernels by (avx2, avx512_vnni, amx_int8; asimd, asimddp, i8mm, sve, ...), in a fixed order.
std::vector<std::string> ParseCpuFeatures(const std::string& cpuinfo);

// The name of an Arm core from its implementer and part codes ("Cortex-A76" for 0x41, 0xd0b);
// "implementer 0x.. part 0x..." for a pair this table does not know.
std::string ArmCoreName(unsigned implementer, unsigned part);

}  // namespace edgebench
