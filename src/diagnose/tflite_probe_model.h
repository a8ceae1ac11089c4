// The compute probe's model for runtimes that read TFLite (diagnose/compute_peak_probe.h): one
// FULLY_CONNECTED, input [N, N] by constant weights [N, N], float32 or int8 (symmetric weights,
// per-tensor scales). Written with TFLite's own flatbuffer schema; only where edgebench is built
// with TensorFlow Lite's headers, otherwise an error saying so.
#pragma once

#include <cstdint>
#include <string>

#include "core/status.h"

namespace edgebench {

Result<std::string> TfliteMatMulModel(int64_t size, bool int8);

}  // namespace edgebench
