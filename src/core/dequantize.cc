#include "core/dequantize.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace edgebench {

Result<Tensor> DequantizeAffine(const Tensor& quantized, const std::vector<float>& scales,
                                const std::vector<int64_t>& zero_points, int axis) {
  const auto fail = [&](const std::string& why) {
    return Status::Error("cannot dequantize tensor '" + quantized.name + "': " + why);
  };
  if (quantized.dtype != DType::kInt8 && quantized.dtype != DType::kUInt8) {
    return fail("it is " + DTypeName(quantized.dtype) + ", not int8 or uint8");
  }
  if (scales.empty() || scales.size() != zero_points.size()) {
    return fail(std::to_string(scales.size()) + " scales and " + std::to_string(zero_points.size()) +
                " zero points");
  }
  const int64_t count = quantized.element_count();
  if (static_cast<int64_t>(quantized.data.size()) != count) return fail("its data does not match its shape");
  // Elements are C order: index / inner % channels is the position along `axis`.
  int64_t channels = 1;
  int64_t inner = 1;
  if (scales.size() > 1) {
    if (axis < 0 || axis >= static_cast<int>(quantized.shape.size())) {
      return fail("per-channel axis " + std::to_string(axis) + " is outside its shape " +
                  ShapeToString(quantized.shape));
    }
    channels = quantized.shape[static_cast<size_t>(axis)];
    if (channels != static_cast<int64_t>(scales.size())) {
      return fail(std::to_string(scales.size()) + " per-channel scales for " + std::to_string(channels) +
                  " channels");
    }
    for (size_t d = static_cast<size_t>(axis) + 1; d < quantized.shape.size(); ++d) inner *= quantized.shape[d];
  }
  Tensor out;
  out.name = quantized.name;
  out.dtype = DType::kFloat32;
  out.shape = quantized.shape;
  out.data.resize(static_cast<size_t>(count) * sizeof(float));
  float* values = out.as<float>();
  for (int64_t i = 0; i < count; ++i) {
    const size_t c = channels > 1 ? static_cast<size_t>((i / inner) % channels) : 0;
    const int64_t q = quantized.dtype == DType::kInt8 ? int64_t{quantized.as<int8_t>()[i]}
                                                       : int64_t{quantized.as<uint8_t>()[i]};
    values[i] = scales[c] * static_cast<float>(q - zero_points[c]);
  }
  return out;
}

Result<Tensor> QuantizeAffine(const Tensor& real, DType dtype, const TensorQuantization& quantization) {
  const auto fail = [&](const std::string& why) {
    return Status::Error("cannot quantize tensor '" + real.name + "' to " + DTypeName(dtype) + ": " + why);
  };
  if (real.dtype != DType::kFloat32) return fail("it is " + DTypeName(real.dtype) + ", not float32");
  if (dtype != DType::kInt8 && dtype != DType::kUInt8) return fail("only int8 and uint8 are quantized types here");
  if (quantization.scales.size() != 1 || quantization.zero_points.size() != 1) {
    return fail(quantization.scales.empty() ? std::string("the model declares no scale and zero point for it")
                                            : "it has " + std::to_string(quantization.scales.size()) +
                                                  " scales; inputs are quantized with one per tensor");
  }
  const float scale = quantization.scales[0];
  if (!(scale > 0) || !std::isfinite(scale)) return fail("its scale " + std::to_string(scale) + " is not positive");
  const int64_t count = real.element_count();
  if (static_cast<int64_t>(real.data.size()) != count * static_cast<int64_t>(sizeof(float))) {
    return fail("its data does not match its shape");
  }
  const double lo = dtype == DType::kInt8 ? -128 : 0;
  const double hi = dtype == DType::kInt8 ? 127 : 255;
  Tensor out;
  out.name = real.name;
  out.dtype = dtype;
  out.shape = real.shape;
  out.data.resize(static_cast<size_t>(count));
  const float* values = real.as<float>();
  for (int64_t i = 0; i < count; ++i) {
    double q = std::round(static_cast<double>(values[i]) / scale) + static_cast<double>(quantization.zero_points[0]);
    q = std::isnan(q) ? static_cast<double>(quantization.zero_points[0]) : std::clamp(q, lo, hi);
    if (dtype == DType::kInt8) {
      out.as<int8_t>()[i] = static_cast<int8_t>(q);
    } else {
      out.as<uint8_t>()[i] = static_cast<uint8_t>(q);
    }
  }
  return out;
}

}  // namespace edgebench
