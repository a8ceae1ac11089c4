// The OpenCL device OpenCV DNN's OpenCL target runs on, as OpenCV's own device object says: its
// name for the record, and whether it is the CPU itself (PoCL), which the record labels emulated.
#pragma once

#include <string>

namespace edgebench {

// "cpu-x86-64-AMD EPYC (Portable Computing Language, OpenCL 3.0 PoCL ...)", or "" where OpenCV
// has no default OpenCL device.
std::string OpenClDeviceText();

// For an OpenCL device of type CPU (PoCL, Intel's CPU runtime): what runs the kernels, e.g.
// "PoCL, OpenCL on the CPU"; "" for a GPU or an accelerator.
std::string OpenClEmulation();

}  // namespace edgebench
