// Every backend's info, each asked in a process of its own: a runtime whose device probe crashes
// (seen: OpenCV's and Arm NN's OpenCL probes both on PoCL, on an emulated arm64 host) is listed
// as crashed instead of taking `edgebench devices` down with it, and no runtime's global state
// (an OpenCL platform one initialised) meets another's.
#pragma once

#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/registry.h"

namespace edgebench {

// Registry::List(), each backend's Info() in a forked child that sends it back as JSON. A child
// that dies gives the backend's entry `listing_crashed` with the signal or exit status in
// `reason`. Call it before this process starts threads (as the registry's own calls).
std::vector<BackendInfo> ListBackendsIsolated(const Registry& registry);

// A BackendInfo as the child sends it, and back.
std::string BackendInfoToJsonText(const BackendInfo& info);
Result<BackendInfo> BackendInfoFromJsonText(const std::string& text);

}  // namespace edgebench
