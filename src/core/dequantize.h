// Affine dequantization (value = scale * (q - zero_point)), per tensor or per channel, as
// TensorFlow Lite and ONNX define it: how `edgebench drift` compares a quantized model's int8
// tensors with a float reference.
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

// `quantized`: int8 or uint8. One scale and zero point for the whole tensor, or one per index
// of `axis` (per-channel). The result is float32 with the same name and shape. Errors: another
// dtype, no scale, scale and zero-point counts that differ, or a per-channel count that is not
// the size of `axis`.
Result<Tensor> DequantizeAffine(const Tensor& quantized, const std::vector<float>& scales,
                                const std::vector<int64_t>& zero_points, int axis);

// The other way, for a fully quantized model's input: q = clamp(round(value / scale) +
// zero_point) into int8 or uint8 (`dtype`), rounding half away from zero as TensorFlow Lite's
// reference quantizer does. One scale for the whole tensor only; the same errors as above.
Result<Tensor> QuantizeAffine(const Tensor& real, DType dtype, const TensorQuantization& quantization);

}  // namespace edgebench
