#include "core/model_ops.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "backends/build_config.h"
#include "core/onnx_graph_reader.h"

#if EDGEBENCH_WITH_LITERT
#include "flatbuffers/flatbuffers.h"
#include "tensorflow/lite/schema/schema_generated.h"
#endif

namespace edgebench {
namespace {

Result<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open model '" + path + "': no such file or not readable");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Status::Error("reading model '" + path + "' failed");
  return bytes;
}

// Coverage's view of an ONNX model, from the one ONNX reader (core/onnx_graph_reader.h) that the
// work counter uses too: the op types, declared inputs and outputs, and the parameter bytes each
// node is the first to read.
ModelOps OpsFromOnnxGraph(const OnnxGraph& graph) {
  ModelOps ops;
  ops.format = ModelFormat::kOnnx;
  ops.opsets = graph.opsets;
  for (const auto& [name, tensor] : graph.initializers) {
    ops.parameter_bytes += tensor.bytes;
    if (!tensor.size_known) ops.parameter_bytes_known = false;
  }
  for (const OnnxValueInfo& value : graph.inputs) {
    ModelInput input;
    input.name = value.name;
    input.shape_known = value.shape_known;
    for (const OnnxDim& dim : value.dims) input.axes.push_back(dim.value);
    ops.inputs.push_back(std::move(input));
  }
  ops.graph_outputs = graph.outputs;
  std::unordered_set<std::string> counted;
  int with_subgraphs = 0;
  for (const OnnxGraphNode& node : graph.nodes) {
    ModelNode out;
    out.op_type = node.op_type;
    out.domain = node.domain;
    out.name = node.name;
    out.outputs = node.outputs;
    for (const std::string& input : node.inputs) {
      const auto it = graph.initializers.find(input);
      if (it == graph.initializers.end() || !counted.insert(input).second) continue;
      out.parameter_bytes += it->second.bytes;
    }
    if (std::any_of(node.attributes.begin(), node.attributes.end(),
                    [](const auto& attribute) { return attribute.second.has_graph; })) {
      ++with_subgraphs;
    }
    ops.nodes.push_back(std::move(out));
  }
  if (with_subgraphs > 0) {
    ops.notes.push_back(std::to_string(with_subgraphs) +
                        " node(s) hold subgraphs (If, Loop, Scan); their inner nodes are not counted");
  }
  if (!ops.parameter_bytes_known) {
    ops.notes.push_back("some initializers have a type of no fixed size; parameter bytes are a floor");
  }
  return ops;
}

}  // namespace

const char* ModelFormatName(ModelFormat format) {
  return format == ModelFormat::kOnnx ? "onnx" : "tflite";
}

Result<ModelOps> ParseOnnxOps(const std::string& bytes, const std::string& path) {
  auto graph = ParseOnnxGraph(bytes, path);
  if (!graph.ok()) return graph.status();
  return OpsFromOnnxGraph(graph.value());
}

Result<ModelOps> ReadOnnxOps(const std::string& path) {
  auto graph = ReadOnnxGraph(path);  // mapped: a large model is not read whole
  if (!graph.ok()) return graph.status();
  return OpsFromOnnxGraph(graph.value());
}

Result<ModelOps> ReadTfliteOps(const std::string& path) {
#if EDGEBENCH_WITH_LITERT
  auto read = ReadWholeFile(path);
  if (!read.ok()) return read.status();
  const std::string& bytes = read.value();
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  flatbuffers::Verifier verifier(data, bytes.size());
  if (bytes.size() < 8 || !tflite::VerifyModelBuffer(verifier)) {
    return Status::Error("model '" + path +
                         "' is not a complete TFLite model (its flatbuffer does not verify); is the "
                         "file truncated, or in another format?");
  }
  const tflite::Model* model = tflite::GetModel(data);
  if (model->subgraphs() == nullptr || model->subgraphs()->size() == 0) {
    return Status::Error("model '" + path + "' has no subgraph");
  }
  ModelOps ops;
  ops.format = ModelFormat::kTflite;
  const auto* buffers = model->buffers();
  const auto buffer_bytes = [&](uint32_t index) -> int64_t {
    if (buffers == nullptr || index == 0 || index >= buffers->size()) return 0;
    const tflite::Buffer* buffer = buffers->Get(index);
    if (buffer->data() != nullptr) return static_cast<int64_t>(buffer->data()->size());
    return buffer->offset() > 1 ? static_cast<int64_t>(buffer->size()) : 0;  // outside the flatbuffer
  };
  if (buffers != nullptr) {
    for (uint32_t i = 1; i < buffers->size(); ++i) ops.parameter_bytes += buffer_bytes(i);
  }
  const tflite::SubGraph* graph = model->subgraphs()->Get(0);
  const auto* codes = model->operator_codes();
  const auto* tensors = graph->tensors();
  if (graph->inputs() != nullptr && tensors != nullptr) {
    for (int32_t index : *graph->inputs()) {
      if (index < 0 || static_cast<uint32_t>(index) >= tensors->size()) continue;
      const tflite::Tensor* tensor = tensors->Get(static_cast<uint32_t>(index));
      ModelInput input;
      input.name = tensor->name() ? tensor->name()->str() : "";
      const auto* dims = tensor->shape_signature() ? tensor->shape_signature() : tensor->shape();
      input.shape_known = dims != nullptr;
      if (dims != nullptr) {
        for (int32_t d : *dims) input.axes.push_back(d < 0 ? std::nullopt : std::optional<int64_t>(d));
      }
      ops.inputs.push_back(std::move(input));
    }
  }
  std::set<uint32_t> counted_buffers;
  if (graph->operators() != nullptr) {
    for (const tflite::Operator* op : *graph->operators()) {
      ModelNode node;
      if (codes == nullptr || op->opcode_index() >= codes->size()) {
        return Status::Error("model '" + path + "': an operator names operator code " +
                             std::to_string(op->opcode_index()) + ", which the model lacks");
      }
      const tflite::OperatorCode* code = codes->Get(op->opcode_index());
      // The schema moved builtin codes past 127 to a new field; the larger of the two is the code.
      const int builtin = std::max(static_cast<int>(code->deprecated_builtin_code()),
                                   static_cast<int>(code->builtin_code()));
      if (builtin == tflite::BuiltinOperator_CUSTOM) {
        node.op_type = code->custom_code() ? code->custom_code()->str() : "CUSTOM";
        node.domain = "custom";
      } else {
        const char* name = tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(builtin));
        node.op_type = (name && *name) ? name : "BUILTIN_" + std::to_string(builtin);
      }
      if (op->inputs() != nullptr && tensors != nullptr) {
        for (int32_t input : *op->inputs()) {
          if (input < 0 || static_cast<uint32_t>(input) >= tensors->size()) continue;
          const uint32_t buffer = tensors->Get(static_cast<uint32_t>(input))->buffer();
          if (buffer_bytes(buffer) > 0 && counted_buffers.insert(buffer).second) {
            node.parameter_bytes += buffer_bytes(buffer);
          }
        }
      }
      ops.nodes.push_back(std::move(node));
    }
  }
  if (model->subgraphs()->size() > 1) {
    ops.notes.push_back(std::to_string(model->subgraphs()->size() - 1) +
                        " further subgraph(s) (control flow) are not counted");
  }
  if (ops.nodes.empty()) return Status::Error("model '" + path + "' has no operators in subgraph 0");
  return ops;
#else
  return Status::Error("cannot read TFLite model '" + path +
                       "': this edgebench was built without TensorFlow Lite's headers "
                       "(install libtensorflow-lite-dev and rebuild)");
#endif
}

Result<ModelOps> ReadModelOps(const std::string& path) {
  const auto ends_with = [&path](std::string_view suffix) {
    return path.size() >= suffix.size() &&
           std::equal(suffix.rbegin(), suffix.rend(), path.rbegin(),
                      [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
  };
  if (ends_with(".onnx")) return ReadOnnxOps(path);
  if (ends_with(".tflite")) return ReadTfliteOps(path);
  return Status::Error("model '" + path +
                       "': coverage reads .onnx and .tflite files; rename the file or convert it");
}

}  // namespace edgebench
