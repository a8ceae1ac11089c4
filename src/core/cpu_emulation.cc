#include "core/cpu_emulation.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace edgebench {
namespace {

std::string ReadText(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string WithoutTrailingBlanks(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

bool Known(const std::string& arch) { return arch == "x86_64" || arch == "aarch64"; }

}  // namespace

const char* CompiledArchitecture() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "";
#endif
}

std::string CpuEmulation(const std::string& compiled_for, const std::string& kernel_arch, const std::string& cpuinfo,
                         const std::string& qemu_cpu) {
  if (!Known(compiled_for)) return "";
  const std::string kernel = WithoutTrailingBlanks(kernel_arch);
  bool emulated = Known(kernel) && kernel != compiled_for;
  if (kernel.empty() && compiled_for == "aarch64") {
    emulated = cpuinfo.find("GenuineIntel") != std::string::npos || cpuinfo.find("AuthenticAMD") != std::string::npos;
  }
  if (!emulated) return "";
  // The only user-mode emulator that runs these builds across the two is qemu-user; its CPU is
  // QEMU_CPU's, or its default ("max": every feature it emulates).
  return "qemu-user " + (qemu_cpu.empty() ? std::string("max (its default CPU)") : qemu_cpu);
}

std::string ReadCpuEmulation() {
  const char* qemu_cpu = std::getenv("QEMU_CPU");
  return CpuEmulation(CompiledArchitecture(), ReadText("/proc/sys/kernel/arch"), ReadText("/proc/cpuinfo"),
                      qemu_cpu ? qemu_cpu : "");
}

std::string CpuEmulationNote(const std::string& architecture, const std::string& emulation) {
  return "emulated: " + emulation + ": this " + architecture +
         " build ran on an emulated CPU (the kernel is another processor's): its latencies are the emulator's, not "
         "an " + architecture + " processor's";
}

}  // namespace edgebench
