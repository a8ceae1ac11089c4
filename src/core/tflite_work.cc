#include "core/tflite_work.h"

#include <algorithm>
#include <map>
#include <set>

#include "backends/build_config.h"
#include "core/mapped_file.h"
#include "core/onnx_work.h"

#if EDGEBENCH_WITH_LITERT
#include "flatbuffers/flatbuffers.h"
#include "tensorflow/lite/schema/schema_generated.h"
#endif

namespace edgebench {

#if EDGEBENCH_WITH_LITERT
namespace {

TensorWork TfliteOmitted(std::string why) {
  TensorWork work;
  work.omitted = std::move(why);
  return work;
}

int64_t TypeBytes(tflite::TensorType type) {
  switch (type) {
    case tflite::TensorType_FLOAT32: case tflite::TensorType_INT32: case tflite::TensorType_UINT32: return 4;
    case tflite::TensorType_FLOAT16: case tflite::TensorType_INT16: case tflite::TensorType_UINT16: return 2;
    case tflite::TensorType_INT64: case tflite::TensorType_FLOAT64: case tflite::TensorType_UINT64:
    case tflite::TensorType_COMPLEX64: return 8;
    case tflite::TensorType_UINT8: case tflite::TensorType_INT8: case tflite::TensorType_BOOL: return 1;
    default: return 0;
  }
}

std::vector<int64_t> ShapeOf(const tflite::Tensor* tensor) {
  std::vector<int64_t> shape;
  if (tensor->shape()) {
    for (int32_t d : *tensor->shape()) shape.push_back(d);
  }
  return shape;
}

double TfliteElements(const std::vector<int64_t>& shape) {
  double n = 1;
  for (int64_t d : shape) n *= static_cast<double>(d);
  return n;
}

std::string TfliteShapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

const std::set<std::string>& MovementOps() {
  static const std::set<std::string> ops = {
      "RESHAPE", "TRANSPOSE", "CONCATENATION", "PAD", "PADV2", "MIRROR_PAD", "GATHER", "GATHER_ND", "SQUEEZE",
      "EXPAND_DIMS", "STRIDED_SLICE", "SLICE", "SPLIT", "SPLIT_V", "PACK", "UNPACK", "SHAPE", "CAST",
      "SPACE_TO_DEPTH", "DEPTH_TO_SPACE", "TILE", "BROADCAST_TO", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND"};
  return ops;
}
const std::map<std::string, double>& RuleOps() {
  static const std::map<std::string, double> ops = {
      {"ADD", 1}, {"SUB", 1}, {"MUL", 1}, {"DIV", 1}, {"RELU", 1}, {"RELU6", 1}, {"RELU_N1_TO_1", 1},
      {"LEAKY_RELU", 1}, {"PRELU", 1}, {"LOGISTIC", 1}, {"TANH", 1}, {"HARD_SWISH", 1}, {"GELU", 1},
      {"EXP", 1}, {"LOG", 1}, {"SQRT", 1}, {"RSQRT", 1}, {"SQUARE", 1}, {"SQUARED_DIFFERENCE", 1}, {"POW", 1},
      {"MAXIMUM", 1}, {"MINIMUM", 1}, {"ABS", 1}, {"NEG", 1}, {"QUANTIZE", 1}, {"DEQUANTIZE", 1},
      {"FLOOR", 1}, {"CEIL", 1}, {"ROUND", 1}, {"SIN", 1}, {"COS", 1}, {"ELU", 1}, {"EQUAL", 1}, {"LESS", 1},
      {"GREATER", 1}, {"SELECT", 1}, {"SELECT_V2", 1}, {"SOFTMAX", 5}, {"LOG_SOFTMAX", 5},
      {"L2_NORMALIZATION", 3}, {"RESIZE_BILINEAR", 1}, {"RESIZE_NEAREST_NEIGHBOR", 1}};
  return ops;
}

}  // namespace

TensorWork CountTfliteWorkInFile(const std::string& path, const std::vector<BoundShape>& inputs) {
  auto file = MappedFile::Open(path);
  if (!file.ok()) return TfliteOmitted(file.error());
  const std::string_view bytes = file.value().bytes();
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  flatbuffers::Verifier verifier(data, bytes.size());
  if (bytes.size() < 8 || !tflite::VerifyModelBuffer(verifier)) {
    return TfliteOmitted("model '" + path + "' is not a complete TFLite model (its flatbuffer does not verify)");
  }
  const tflite::Model* model = tflite::GetModel(data);
  if (!model->subgraphs() || model->subgraphs()->size() == 0) return TfliteOmitted("model '" + path + "' has no subgraph");
  if (model->subgraphs()->size() > 1) return TfliteOmitted("the model has control-flow subgraphs, which are not counted");
  const tflite::SubGraph* graph = model->subgraphs()->Get(0);
  const auto* tensors = graph->tensors();
  const auto* buffers = model->buffers();
  const auto* codes = model->operator_codes();
  if (!tensors || !graph->operators() || !codes) return TfliteOmitted("the model's subgraph has no tensors or operators");
  const auto tensor_at = [&](int32_t index) -> const tflite::Tensor* {
    return index >= 0 && static_cast<uint32_t>(index) < tensors->size() ? tensors->Get(static_cast<uint32_t>(index))
                                                                         : nullptr;
  };
  const auto constant_bytes = [&](const tflite::Tensor* t) -> int64_t {
    if (!buffers || t->buffer() == 0 || t->buffer() >= buffers->size()) return 0;
    const tflite::Buffer* buffer = buffers->Get(t->buffer());
    if (buffer->data()) return static_cast<int64_t>(buffer->data()->size());
    return buffer->offset() > 1 ? static_cast<int64_t>(buffer->size()) : 0;
  };
  TensorWork work;
  work.method = "TFLite tensor shapes as stored in the file";
  if (graph->inputs()) {
    for (int32_t index : *graph->inputs()) {
      const tflite::Tensor* t = tensor_at(index);
      if (!t) continue;
      const std::string name = t->name() ? t->name()->str() : "";
      const std::vector<int64_t> stored = ShapeOf(t);
      for (const auto& [bound_name, shape] : inputs) {
        if (bound_name == name && shape != stored) {
          return TfliteOmitted("input '" + name + "' was bound at " + TfliteShapeText(shape) + ", but the file's tensors are at " +
                         TfliteShapeText(stored) + " and TFLite keeps one shape per tensor");
        }
      }
      work.activation_bytes += static_cast<int64_t>(TfliteElements(stored)) * TypeBytes(t->type());
    }
  }
  std::set<uint32_t> buffers_read;
  std::map<std::string, int> by_rule;
  for (const tflite::Operator* op : *graph->operators()) {
    if (op->opcode_index() >= codes->size()) return TfliteOmitted("an operator names an operator code the model lacks");
    const tflite::OperatorCode* code = codes->Get(op->opcode_index());
    const int builtin = std::max(static_cast<int>(code->deprecated_builtin_code()), static_cast<int>(code->builtin_code()));
    if (builtin == tflite::BuiltinOperator_CUSTOM) {
      return TfliteOmitted("custom operator '" + (code->custom_code() ? code->custom_code()->str() : std::string("?")) +
                     "' has no rule in the work counter");
    }
    const char* enum_name = tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(builtin));
    const std::string name = enum_name && *enum_name ? enum_name : "BUILTIN_" + std::to_string(builtin);
    std::vector<const tflite::Tensor*> ins, outs;
    if (op->inputs()) {
      for (int32_t i : *op->inputs()) ins.push_back(tensor_at(i));
    }
    if (op->outputs()) {
      for (int32_t i : *op->outputs()) outs.push_back(tensor_at(i));
    }
    if (outs.empty() || !outs[0]) return TfliteOmitted("operator " + name + " has no output tensor");
    for (const tflite::Tensor* t : ins) {
      if (t && constant_bytes(t) > 0 && buffers_read.insert(t->buffer()).second) work.weight_bytes += constant_bytes(t);
    }
    for (const tflite::Tensor* t : outs) {
      if (t) work.activation_bytes += static_cast<int64_t>(TfliteElements(ShapeOf(t))) * TypeBytes(t->type());
    }
    const std::vector<int64_t> out = ShapeOf(outs[0]);
    const auto input_shape = [&](size_t k) { return k < ins.size() && ins[k] ? ShapeOf(ins[k]) : std::vector<int64_t>{}; };
    const bool bias = ins.size() > 2 && ins[2] != nullptr;
    const double outputs = TfliteElements(out);
    const bool quantized_filter = ins.size() > 1 && ins[1] &&
                                  (ins[1]->type() == tflite::TensorType_INT8 || ins[1]->type() == tflite::TensorType_UINT8);
    if (quantized_filter && (name == "CONV_2D" || name == "DEPTHWISE_CONV_2D" || name == "FULLY_CONNECTED")) {
      work.precision = "int8";
    }
    if (name == "CONV_2D" || name == "DEPTHWISE_CONV_2D" || name == "CONV_3D") {
      const std::vector<int64_t> filter = input_shape(1);  // [O, KH, KW, I] or [1, KH, KW, O*multiplier]
      if (filter.size() < 4) return TfliteOmitted("operator " + name + " has a filter of rank below 4");
      const double per_output = name == "DEPTHWISE_CONV_2D" ? TfliteElements({filter[1], filter[2]})
                                                            : TfliteElements(std::vector<int64_t>(filter.begin() + 1, filter.end()));
      work.conv_flops += 2 * outputs * per_output + (bias ? outputs : 0);
    } else if (name == "TRANSPOSE_CONV") {
      const std::vector<int64_t> filter = input_shape(1);  // [O, KH, KW, I]; input 2 is the data
      if (filter.size() != 4) return TfliteOmitted("operator TRANSPOSE_CONV has a filter of rank other than 4");
      work.conv_flops += 2 * TfliteElements(input_shape(2)) * TfliteElements({filter[0], filter[1], filter[2]}) +
                         (ins.size() > 3 && ins[3] ? outputs : 0);
    } else if (name == "FULLY_CONNECTED") {
      const std::vector<int64_t> weights = input_shape(1);  // [O, I]
      if (weights.size() != 2) return TfliteOmitted("operator FULLY_CONNECTED has weights of rank other than 2");
      work.matmul_flops += 2 * outputs * static_cast<double>(weights[1]) + (bias ? outputs : 0);
    } else if (name == "BATCH_MATMUL") {
      const std::vector<int64_t> a = input_shape(0);
      if (a.size() < 2) return TfliteOmitted("operator BATCH_MATMUL has an input of rank below 2");
      const auto* options = op->builtin_options_as_BatchMatMulOptions();
      const bool adj_x = options && options->adj_x();
      work.matmul_flops += 2 * outputs * static_cast<double>(adj_x ? a[a.size() - 2] : a.back());
    } else if (name == "AVERAGE_POOL_2D" || name == "MAX_POOL_2D" || name == "L2_POOL_2D") {
      const auto* options = op->builtin_options_as_Pool2DOptions();
      work.rule_flops += outputs * (options ? static_cast<double>(options->filter_width()) * options->filter_height() : 1);
      ++by_rule[name];
    } else if (name == "MEAN" || name == "SUM" || name == "REDUCE_MAX" || name == "REDUCE_MIN" || name == "REDUCE_PROD" ||
               name == "ARG_MAX" || name == "ARG_MIN") {
      work.rule_flops += TfliteElements(input_shape(0));
      ++by_rule[name];
    } else if (const auto rule = RuleOps().find(name); rule != RuleOps().end()) {
      work.rule_flops += rule->second * outputs;
      ++by_rule[name];
    } else if (!MovementOps().count(name)) {
      return TfliteOmitted("operator " + name + " has no rule in the work counter");
    }
    ++work.nodes;
  }
  if (!by_rule.empty()) {
    std::string counted;
    for (const auto& [op, n] : by_rule) counted += (counted.empty() ? "" : ", ") + op + " x" + std::to_string(n);
    work.approximations.push_back("by rule: elementwise 1 operation per output element, SOFTMAX 5 per element, "
                                  "pooling 1 per window element, reductions 1 per input element (" + counted + ")");
  }
  work.approximations.push_back("bytes are a floor: each constant read once, each activation written once");
  return work;
}
#else
TensorWork CountTfliteWorkInFile(const std::string& path, const std::vector<BoundShape>&) {
  TensorWork work;
  work.omitted = "cannot read TFLite model '" + path + "': this edgebench was built without TensorFlow Lite's headers";
  return work;
}
#endif

TensorWork CountTensorWork(const std::string& path, const std::vector<BoundShape>& inputs) {
  const auto ends_with = [&path](const std::string& suffix) {
    if (path.size() < suffix.size()) return false;
    return std::equal(suffix.rbegin(), suffix.rend(), path.rbegin(),
                      [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
  };
  if (ends_with(".onnx")) return CountOnnxWorkInFile(path, inputs);
  if (ends_with(".tflite")) return CountTfliteWorkInFile(path, inputs);
  TensorWork work;
  work.omitted = "the work counter reads .onnx and .tflite files; this model's format is not counted";
  return work;
}

}  // namespace edgebench
