#include "core/cpu_description.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace edgebench {
namespace {

struct ArmCore {
  unsigned implementer;
  unsigned part;
  const char* name;
};

// Arm's (0x41) cores that edge boards and Arm servers carry, and the other implementers' cores
// the seeds' devices use (NVIDIA's Carmel in Jetson Xavier, Qualcomm's Oryon in Snapdragon X).
constexpr ArmCore kArmCores[] = {
    {0x41, 0xd03, "Cortex-A53"},  {0x41, 0xd04, "Cortex-A35"},  {0x41, 0xd05, "Cortex-A55"},
    {0x41, 0xd07, "Cortex-A57"},  {0x41, 0xd08, "Cortex-A72"},  {0x41, 0xd09, "Cortex-A73"},
    {0x41, 0xd0a, "Cortex-A75"},  {0x41, 0xd0b, "Cortex-A76"},  {0x41, 0xd0c, "Neoverse-N1"},
    {0x41, 0xd0d, "Cortex-A77"},  {0x41, 0xd0e, "Cortex-A76AE"}, {0x41, 0xd40, "Neoverse-V1"},
    {0x41, 0xd41, "Cortex-A78"},  {0x41, 0xd42, "Cortex-A78AE"}, {0x41, 0xd44, "Cortex-X1"},
    {0x41, 0xd46, "Cortex-A510"}, {0x41, 0xd47, "Cortex-A710"}, {0x41, 0xd48, "Cortex-X2"},
    {0x41, 0xd49, "Neoverse-N2"}, {0x41, 0xd4b, "Cortex-A78C"}, {0x41, 0xd4d, "Cortex-A715"},
    {0x41, 0xd4e, "Cortex-X3"},   {0x41, 0xd4f, "Neoverse-V2"}, {0x41, 0xd80, "Cortex-A520"},
    {0x41, 0xd81, "Cortex-A720"}, {0x41, 0xd82, "Cortex-X4"},   {0x41, 0xd87, "Cortex-A725"},
    {0x41, 0xd85, "Cortex-X925"}, {0x4e, 0x004, "NVIDIA Carmel"}, {0x51, 0x001, "Qualcomm Oryon"},
};

std::string Trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

// "key\t: value" -> {key, value}; {"", ""} for a line without a colon.
std::pair<std::string, std::string> KeyValue(const std::string& line) {
  const auto colon = line.find(':');
  if (colon == std::string::npos) return {"", ""};
  return {Trimmed(line.substr(0, colon)), Trimmed(line.substr(colon + 1))};
}

bool ParseCode(const std::string& text, unsigned& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const unsigned long value = std::strtoul(text.c_str(), &end, 0);
  if (end == text.c_str() || *end != '\0') return false;
  out = static_cast<unsigned>(value);
  return true;
}

}  // namespace

std::string ArmCoreName(unsigned implementer, unsigned part) {
  for (const ArmCore& core : kArmCores) {
    if (core.implementer == implementer && core.part == part) return core.name;
  }
  char text[64];
  std::snprintf(text, sizeof text, "implementer 0x%02x part 0x%03x", implementer, part);
  return text;
}

std::string DescribeCpuModel(const std::string& cpuinfo, const std::string& device_tree_model) {
  std::istringstream lines(cpuinfo);
  std::string model_name;
  // Core types in the order the kernel first lists them, with their counts.
  std::vector<std::pair<std::string, int>> cores;
  unsigned implementer = 0;
  bool have_implementer = false;
  for (std::string line; std::getline(lines, line);) {
    const auto [key, value] = KeyValue(line);
    if (key == "model name" && model_name.empty()) model_name = value;
    if (key == "CPU implementer") have_implementer = ParseCode(value, implementer);
    unsigned part = 0;
    if (key == "CPU part" && have_implementer && ParseCode(value, part)) {
      const std::string name = ArmCoreName(implementer, part);
      auto it = std::find_if(cores.begin(), cores.end(),
                             [&](const auto& entry) { return entry.first == name; });
      if (it == cores.end()) {
        cores.emplace_back(name, 1);
      } else {
        ++it->second;
      }
      have_implementer = false;
    }
  }
  // x86 (and 32-bit Arm kernels, whose "model name" is only "ARMv7 Processor rev 3 (v7l)").
  if (!model_name.empty() && cores.empty()) return model_name;
  std::string board = device_tree_model;
  while (!board.empty() && board.back() == '\0') board.pop_back();
  board = Trimmed(board);
  std::string types;
  for (const auto& [name, count] : cores) {
    if (!types.empty()) types += " + ";
    types += std::to_string(count) + "x " + name;
  }
  if (!board.empty() && !types.empty()) return board + " (" + types + ")";
  if (!board.empty()) return board;
  if (!types.empty()) return types;
  return model_name.empty() ? "unknown" : model_name;
}

std::vector<std::string> ParseCpuFeatures(const std::string& cpuinfo) {
  static const char* const kRelevant[] = {
      "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
      "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "amx_int8", "amx_bf16",
      "asimd", "asimdhp", "asimddp", "fphp", "i8mm", "bf16", "sve", "sve2", "sme"};
  std::istringstream lines(cpuinfo);
  for (std::string line; std::getline(lines, line);) {
    const auto [key, value] = KeyValue(line);
    if (key != "flags" && key != "Features") continue;
    std::istringstream words(value);
    std::vector<std::string> present;
    for (std::string word; words >> word;) present.push_back(word);
    std::vector<std::string> features;
    for (const char* feature : kRelevant) {
      if (std::find(present.begin(), present.end(), feature) != present.end()) {
        features.push_back(feature);
      }
    }
    return features;
  }
  return {};
}

}  // namespace edgebench
