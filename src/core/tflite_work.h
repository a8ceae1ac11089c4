// A TFLite model's work per query (core/tensor_work.h), from the shapes its flatbuffer stores for
// every tensor: a TFLite file holds one shape per tensor, so an input bound at another shape gets
// no count (with the reason). Only where edgebench is built with TensorFlow Lite's headers.
#pragma once

#include <string>
#include <vector>

#include "core/tensor_work.h"

namespace edgebench {

TensorWork CountTfliteWorkInFile(const std::string& path, const std::vector<BoundShape>& inputs);

}  // namespace edgebench
