// Whether a record ran on an emulated device: a software implementation of an accelerator on the
// CPU (Mesa's lavapipe for Vulkan, PoCL for OpenCL), which the backend says in a note
// ("emulated: WHAT: ..."; docs/accelerators.md). Its latencies are kept but are no device's:
// no roofline share, and compare and recommend say so before setting it against hardware.
#pragma once

#include <string>

#include "record/record.h"

namespace edgebench {

// What emulated the device ("lavapipe, Mesa's Vulkan on the CPU"), or "" for hardware.
std::string EmulatedDeviceOf(const Record& r);

}  // namespace edgebench
