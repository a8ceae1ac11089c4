// Whether this process runs on an emulated CPU: an arm64 build run by qemu-user on an x86-64
// kernel (scripts/test-arm64, a fleet's emulated host). Its latencies are the emulator's, not
// the processor's: the record says so ("emulated: qemu-user cortex-a76: ...", as for an
// emulated accelerator, record/emulated_device.h) and compare, recommend and the rooflines never
// set it against native ones.
//
// The sign: the kernel's own architecture (/proc/sys/kernel/arch, Linux 6.1 and later; qemu-user
// reports the guest's machine through uname but does not rewrite this file) differs from the one
// this build is for; on older kernels, a /proc/cpuinfo that names an x86 vendor under an arm64
// build (qemu before 8.1 passed the host's through).
#pragma once

#include <string>

namespace edgebench {

// The processor this build is for: "x86_64", "aarch64", or "" for another.
const char* CompiledArchitecture();

// What emulates the CPU ("qemu-user cortex-a76"), or "" on a native one. `qemu_cpu`: the
// QEMU_CPU variable qemu-user reads (empty: its default CPU).
std::string CpuEmulation(const std::string& compiled_for, const std::string& kernel_arch, const std::string& cpuinfo,
                         const std::string& qemu_cpu);

// CpuEmulation for this process, read from /proc and the environment.
std::string ReadCpuEmulation();

// The record's note for a build for `architecture` run on `emulation` (non-empty):
// "emulated: qemu-user cortex-a76: ...", the form record/emulated_device.h reads.
std::string CpuEmulationNote(const std::string& architecture, const std::string& emulation);

}  // namespace edgebench
