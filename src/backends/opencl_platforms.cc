#include "backends/opencl_platforms.h"

#include <dlfcn.h>

#include <cstdint>

namespace edgebench {
namespace {

// The OpenCL 1.0 entry points and constants used here, as the Khronos API defines them.
using ClGetPlatformIDs = int32_t (*)(uint32_t, void**, uint32_t*);
using ClGetPlatformInfo = int32_t (*)(void*, uint32_t, size_t, void*, size_t*);
using ClGetDeviceIDs = int32_t (*)(void*, uint64_t, uint32_t, void**, uint32_t*);
using ClGetDeviceInfo = int32_t (*)(void*, uint32_t, size_t, void*, size_t*);
constexpr uint32_t kPlatformName = 0x0902;
constexpr uint32_t kDeviceType = 0x1000;
constexpr uint32_t kDeviceName = 0x102B;
constexpr uint64_t kDeviceTypeCpu = 1 << 1;
constexpr uint64_t kDeviceTypeAll = 0xFFFFFFFF;

std::string InfoText(ClGetPlatformInfo get, void* platform, uint32_t what) {
  char text[256] = {};
  if (get(platform, what, sizeof(text) - 1, text, nullptr) != 0) return "";
  return text;
}

}  // namespace

OpenClProbe ProbeOpenCl() {
  OpenClProbe probe;
  void* library = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    probe.error = std::string("libOpenCL.so.1 could not be opened (") + (why ? why : "no reason") +
                  "): no OpenCL ICD loader (Debian: ocl-icd-libopencl1)";
    return probe;
  }
  auto platform_ids = reinterpret_cast<ClGetPlatformIDs>(dlsym(library, "clGetPlatformIDs"));
  auto platform_info = reinterpret_cast<ClGetPlatformInfo>(dlsym(library, "clGetPlatformInfo"));
  auto device_ids = reinterpret_cast<ClGetDeviceIDs>(dlsym(library, "clGetDeviceIDs"));
  auto device_info = reinterpret_cast<ClGetDeviceInfo>(dlsym(library, "clGetDeviceInfo"));
  if (!platform_ids || !platform_info || !device_ids || !device_info) {
    probe.error = "libOpenCL.so.1 lacks the OpenCL 1.0 entry points";
    return probe;  // the loader stays open: an ICD may keep threads of its own
  }
  uint32_t count = 0;
  if (platform_ids(0, nullptr, &count) != 0 || count == 0) {
    probe.error = "no OpenCL platform answers (the ICD loader found no vendor in /etc/OpenCL/vendors; install the "
                  "GPU's OpenCL driver)";
    return probe;
  }
  std::vector<void*> platforms(count);
  if (platform_ids(count, platforms.data(), nullptr) != 0) {
    probe.error = "clGetPlatformIDs failed";
    return probe;
  }
  for (void* platform : platforms) {
    const std::string platform_name = InfoText(platform_info, platform, kPlatformName);
    uint32_t devices = 0;
    if (device_ids(platform, kDeviceTypeAll, 0, nullptr, &devices) != 0 || devices == 0) continue;
    std::vector<void*> ids(devices);
    if (device_ids(platform, kDeviceTypeAll, devices, ids.data(), nullptr) != 0) continue;
    for (void* device : ids) {
      OpenClDeviceInfo d;
      d.platform = platform_name;
      d.name = InfoText(device_info, device, kDeviceName);
      uint64_t type = 0;
      if (device_info(device, kDeviceType, sizeof(type), &type, nullptr) == 0) d.cpu = (type & kDeviceTypeCpu) != 0;
      probe.devices.push_back(d);
    }
  }
  if (probe.devices.empty()) probe.error = "OpenCL platforms answer, with no device";
  return probe;
}

std::string OpenClCpuEmulation(const OpenClProbe& probe) {
  if (probe.devices.empty()) return "";
  for (const OpenClDeviceInfo& d : probe.devices) {
    if (!d.cpu) return "";
  }
  const std::string& platform = probe.devices.front().platform;
  return OpenClOnCpuLabel(platform, platform);
}

std::string OpenClOnCpuLabel(const std::string& identity, const std::string& vendor) {
  const bool pocl = identity.find("PoCL") != std::string::npos || identity.find("pocl") != std::string::npos ||
                    identity.find("Portable Computing Language") != std::string::npos;
  return (pocl ? std::string("PoCL") : vendor) + ", OpenCL on the CPU";
}

}  // namespace edgebench
