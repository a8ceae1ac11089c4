// The OpenCL devices this machine answers with, asked of the ICD loader (libOpenCL.so.1, opened
// at run time: no build dependency). Arm NN's GpuAcc needs one; a device of type CPU (PoCL) is
// the CPU running OpenCL, which the record labels emulated (docs/accelerators.md).
#pragma once

#include <string>
#include <vector>

namespace edgebench {

struct OpenClDeviceInfo {
  std::string platform;  // "Portable Computing Language"
  std::string name;      // "cpu-haswell-AMD EPYC ..."
  bool cpu = false;      // CL_DEVICE_TYPE_CPU: the CPU itself
};

struct OpenClProbe {
  std::vector<OpenClDeviceInfo> devices;
  std::string error;  // when there is none: why ("libOpenCL.so.1 could not be opened ...")
};

OpenClProbe ProbeOpenCl();

// "PoCL, OpenCL on the CPU" when every device is of type CPU; "" when one is a GPU or accelerator.
std::string OpenClCpuEmulation(const OpenClProbe& probe);

// What runs an OpenCL device of type CPU, for its "emulated" label: "PoCL, OpenCL on the CPU" when
// `identity` (a platform name or a device's version string) names PoCL, else "VENDOR, OpenCL on
// the CPU".
std::string OpenClOnCpuLabel(const std::string& identity, const std::string& vendor);

}  // namespace edgebench
