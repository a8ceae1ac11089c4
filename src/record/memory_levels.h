// --memory-map's levels (docs/monitoring.md, "Memory map"): system memory, an accelerator's own
// memory and an NPU's on-chip memory, each with what was read of it or why nothing was, never a
// 0 standing for "not observed". System memory is the map itself; an accelerator's is a device
// sensor's (NVML's memory used, amdgpu's VRAM used) over the measured phase; an emulated device
// (lavapipe, PoCL) keeps its buffers in system memory; no runtime here reports an NPU's on-chip
// memory.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "record/monitor_record.h"

namespace edgebench {

// `target`: the case's "backend:device"; `emulated`: what emulated its device, or "";
// `device_buffers`: what the runtime says it put on each device other than the CPU (llama.cpp's
// "Vulkan0" -> "model 120.00 MiB, KV 3.00 MiB, compute 35.13 MiB").
std::vector<MemoryLevel> DeriveMemoryLevels(const MonitorRecord& m, const std::string& target,
                                            const std::string& emulated, int64_t measured_wall_ns,
                                            const std::map<std::string, std::string>& device_buffers = {});

}  // namespace edgebench
