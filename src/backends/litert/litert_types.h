// TensorFlow Lite element types (LiteRT's LiteRtElementType uses the same numbers).
#pragma once

#include "core/tensor.h"
#include "tensorflow/lite/c/c_api_types.h"

namespace edgebench {

inline DType FromTfLiteType(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32: return DType::kFloat32;
    case kTfLiteFloat16: return DType::kFloat16;
    case kTfLiteInt8: return DType::kInt8;
    case kTfLiteUInt8: return DType::kUInt8;
    case kTfLiteInt32: return DType::kInt32;
    case kTfLiteInt64: return DType::kInt64;
    case kTfLiteBool: return DType::kBool;
    default: return DType::kUnknown;
  }
}

}  // namespace edgebench
