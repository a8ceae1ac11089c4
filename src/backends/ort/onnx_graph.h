// The op types of an ONNX model's own graph (through the ONNX reader of diagnose/model_ops.h,
// the protobuf encoding read without a protobuf library): ONNX Runtime does not say how many
// nodes a model had before it fused them, so placement counts them here.
#pragma once

#include <map>
#include <string>

#include "core/status.h"

namespace edgebench {

// Op type -> number of nodes in the main graph of the .onnx file at `path` (not counting the
// nodes inside control-flow subgraphs). Error for a file that is not an ONNX ModelProto (an
// .ort file, a truncated one).
Result<std::map<std::string, int>> ReadOnnxOpTypes(const std::string& path);

// The same from the bytes of a serialized ModelProto.
Result<std::map<std::string, int>> ParseOnnxOpTypes(const std::string& model_bytes);

}  // namespace edgebench
