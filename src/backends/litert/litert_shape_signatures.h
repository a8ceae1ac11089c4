// What a .tflite file itself declares about its first signature's tensors: the shape signatures
// (-1 for a dynamic axis, which LiteRT's C API reports as 1) and the int8/uint8 quantization
// parameters (which LiteRT's C API does not report).
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace edgebench {

// Input and output shape signatures (-1 for dynamic axes) of the model's first signature, or
// of its main subgraph when it has none, in LiteRT's order.
struct ShapeSignatures {
  std::vector<std::vector<int64_t>> inputs, outputs;
  std::vector<TensorQuantization> input_quantization, output_quantization;
};

ShapeSignatures ReadShapeSignatures(const tflite::Model& model);

}  // namespace edgebench
