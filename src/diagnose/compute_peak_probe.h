// The peak operation rate each runtime reaches on this machine: a square matrix product (an ONNX
// MatMul, or MatMulInteger for int8, written by core/onnx_writer.h; a TFLite FULLY_CONNECTED,
// diagnose/tflite_probe_model.h, for runtimes that read TFLite; the runtime's own product where
// its backend builds one, Backend::LoadMatMulProbe: llama.cpp's ggml) loaded and run through the
// runtime's own backend like any model, best of several passes of repeated runs. A target whose
// product ran elsewhere than asked (a provider that left the node to the CPU) gets no peak, with
// the reason: a peak is the named runtime's or none. docs/roofline.md.
#pragma once

#include <string>
#include <vector>

#include "backends/registry.h"
#include "core/machine_limits.h"

namespace edgebench {

struct ComputePeakOptions {
  int64_t size = 1024;        // the product is size x size by size x size
  int passes = 5;             // the best is kept
  double pass_seconds = 0.3;  // each pass repeats the product at least this long
  std::string model_dir;      // where the probe models are written (the cache)
  std::vector<std::string> only_targets;  // empty: every available device
};

struct ComputePeakResults {
  std::vector<ComputePeak> peaks;
  std::vector<std::string> missing;  // "ort:xnnpack int8: ..."
};

// `progress` gets a line per target as it is measured.
ComputePeakResults MeasureComputePeaks(Registry& registry, const ComputePeakOptions& options,
                                       const std::function<void(const std::string&)>& progress);

}  // namespace edgebench
