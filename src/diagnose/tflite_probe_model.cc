#include "diagnose/tflite_probe_model.h"

#include "backends/build_config.h"
#include "core/filler_values.h"

#if EDGEBENCH_WITH_LITERT
#include <memory>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "tensorflow/lite/schema/schema_generated.h"
#endif

namespace edgebench {

#if EDGEBENCH_WITH_LITERT
namespace {

std::unique_ptr<tflite::TensorT> ProbeTensor(const std::string& name, int64_t rows, int64_t cols, bool int8,
                                             uint32_t buffer, float scale) {
  auto tensor = std::make_unique<tflite::TensorT>();
  tensor->name = name;
  tensor->shape = {static_cast<int32_t>(rows), static_cast<int32_t>(cols)};
  tensor->type = int8 ? tflite::TensorType_INT8 : tflite::TensorType_FLOAT32;
  tensor->buffer = buffer;
  if (int8) {
    tensor->quantization = std::make_unique<tflite::QuantizationParametersT>();
    tensor->quantization->scale = {scale};
    tensor->quantization->zero_point = {0};
  }
  return tensor;
}

}  // namespace

Result<std::string> TfliteMatMulModel(int64_t size, bool int8) {
  if (size <= 0 || size > 65536) return Status::Error("the probe's matrix size must be in [1, 65536]");
  tflite::ModelT model;
  model.version = 3;
  model.description = "edgebench compute probe";
  auto code = std::make_unique<tflite::OperatorCodeT>();
  code->builtin_code = tflite::BuiltinOperator_FULLY_CONNECTED;
  code->deprecated_builtin_code = static_cast<int8_t>(tflite::BuiltinOperator_FULLY_CONNECTED);
  code->version = int8 ? 4 : 1;  // the first version with int8 kernels
  model.operator_codes.push_back(std::move(code));
  // Buffer 0 is the schema's empty sentinel; buffer 1 holds the weights.
  model.buffers.push_back(std::make_unique<tflite::BufferT>());
  auto weights = std::make_unique<tflite::BufferT>();
  const auto elements = static_cast<size_t>(size * size);
  weights->data.resize(elements * (int8 ? 1 : 4));
  if (int8) {
    FillBytes(weights->data.data(), elements, 7);
  } else {
    FillFloats(reinterpret_cast<float*>(weights->data.data()), elements, 7);
  }
  model.buffers.push_back(std::move(weights));
  auto graph = std::make_unique<tflite::SubGraphT>();
  graph->name = "main";
  graph->tensors.push_back(ProbeTensor("a", size, size, int8, 0, 0.05f));
  graph->tensors.push_back(ProbeTensor("b", size, size, int8, 1, 0.02f));
  graph->tensors.push_back(ProbeTensor("y", size, size, int8, 0, 1.0f));
  graph->inputs = {0};
  graph->outputs = {2};
  auto op = std::make_unique<tflite::OperatorT>();
  op->opcode_index = 0;
  op->inputs = {0, 1, -1};  // no bias
  op->outputs = {2};
  op->builtin_options.Set(tflite::FullyConnectedOptionsT());
  graph->operators.push_back(std::move(op));
  model.subgraphs.push_back(std::move(graph));
  flatbuffers::FlatBufferBuilder builder;
  tflite::FinishModelBuffer(builder, tflite::Model::Pack(builder, &model));
  return std::string(reinterpret_cast<const char*>(builder.GetBufferPointer()), builder.GetSize());
}
#else
Result<std::string> TfliteMatMulModel(int64_t, bool) {
  return Status::Error("this edgebench was built without TensorFlow Lite's headers: no TFLite probe model");
}
#endif

}  // namespace edgebench
