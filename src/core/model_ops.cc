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
#include "core/protobuf_wire.h"

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

struct OnnxTensorSize {
  std::string name;
  int64_t bytes = 0;
  bool known = true;
};

Result<OnnxTensorSize> ReadTensorSize(std::string_view message) {
  WireReader reader(message);
  WireReader::Field field;
  OnnxTensorSize tensor;
  int64_t elements = 1;
  bool overflow = false;  // dims whose product is past int64: a corrupt file, not a tensor
  auto multiply = [&](uint64_t dim) {
    if (dim > static_cast<uint64_t>(INT64_MAX) ||
        __builtin_mul_overflow(elements, static_cast<int64_t>(dim), &elements)) {
      overflow = true;
    }
  };
  int64_t data_type = 0;
  while (!reader.done()) {
    if (!reader.Next(field)) return Status::Error(reader.error());
    if (field.number == 1 && field.wire_type == 0) {
      multiply(field.varint);
    } else if (field.number == 1 && field.wire_type == 2) {  // packed dims
      if (!WireReader::ForEachPackedVarint(field.bytes, multiply)) {
        return Status::Error("an initializer's packed dims end inside a number");
      }
    } else if (field.number == 2 && field.wire_type == 0) {
      data_type = static_cast<int64_t>(field.varint);
    } else if (field.number == 8 && field.wire_type == 2) {
      tensor.name = std::string(field.bytes);
    }
  }
  if (overflow) {
    return Status::Error("an initializer" + (tensor.name.empty() ? std::string() : " ('" + tensor.name + "')") +
                         " declares more elements than a tensor can have: the file is corrupt");
  }
  const int64_t element_bytes = OnnxElementBytes(data_type);
  tensor.known = element_bytes > 0;
  if (tensor.known && __builtin_mul_overflow(elements, element_bytes, &tensor.bytes)) {
    return Status::Error("an initializer" + (tensor.name.empty() ? std::string() : " ('" + tensor.name + "')") +
                         " declares more bytes than a file can hold: the file is corrupt");
  }
  return tensor;
}

struct OnnxNodeFields {
  ModelNode node;
  std::vector<std::string> inputs;
  bool has_subgraph = false;
};

Result<OnnxNodeFields> ReadNode(std::string_view message) {
  WireReader reader(message);
  WireReader::Field field;
  OnnxNodeFields fields;
  fields.node.domain = "ai.onnx";
  while (!reader.done()) {
    if (!reader.Next(field)) return Status::Error(reader.error());
    if (field.wire_type != 2) continue;
    if (field.number == 1) {
      fields.inputs.emplace_back(field.bytes);
    } else if (field.number == 2) {
      fields.node.outputs.emplace_back(field.bytes);
    } else if (field.number == 3) {
      fields.node.name = std::string(field.bytes);
    } else if (field.number == 4) {
      fields.node.op_type = std::string(field.bytes);
    } else if (field.number == 7 && !field.bytes.empty()) {
      fields.node.domain = std::string(field.bytes);
    } else if (field.number == 5) {  // AttributeProto: g (6) and graphs (11) hold subgraphs
      WireReader attribute(field.bytes);
      WireReader::Field inner;
      while (!attribute.done()) {
        if (!attribute.Next(inner)) return Status::Error(attribute.error());
        if (inner.wire_type == 2 && (inner.number == 6 || inner.number == 11)) {
          fields.has_subgraph = true;
        }
      }
    }
  }
  return fields;
}

// ValueInfoProto: name (1), type (2) -> TypeProto.tensor_type (1) -> shape (2) -> dim (1) ->
// dim_value (1) or dim_param (2).
Result<ModelInput> ReadValueInfo(std::string_view message) {
  ModelInput input;
  input.shape_known = false;
  WireReader value(message);
  WireReader::Field field;
  while (!value.done()) {
    if (!value.Next(field)) return Status::Error(value.error());
    if (field.number == 1 && field.wire_type == 2) input.name = std::string(field.bytes);
    if (field.number != 2 || field.wire_type != 2) continue;
    WireReader type(field.bytes);
    WireReader::Field t;
    while (!type.done()) {
      if (!type.Next(t)) return Status::Error(type.error());
      if (t.number != 1 || t.wire_type != 2) continue;
      WireReader tensor(t.bytes);
      WireReader::Field f;
      while (!tensor.done()) {
        if (!tensor.Next(f)) return Status::Error(tensor.error());
        if (f.number != 2 || f.wire_type != 2) continue;
        input.shape_known = true;
        WireReader shape(f.bytes);
        WireReader::Field d;
        while (!shape.done()) {
          if (!shape.Next(d)) return Status::Error(shape.error());
          if (d.number != 1 || d.wire_type != 2) continue;
          std::optional<int64_t> size;
          WireReader dim(d.bytes);
          WireReader::Field v;
          while (!dim.done()) {
            if (!dim.Next(v)) return Status::Error(dim.error());
            if (v.number == 1 && v.wire_type == 0) size = static_cast<int64_t>(v.varint);
          }
          input.axes.push_back(size);
        }
      }
    }
  }
  return input;
}

std::string OnnxDomain(std::string_view domain) {
  return domain.empty() ? std::string("ai.onnx") : std::string(domain);
}

}  // namespace

const char* ModelFormatName(ModelFormat format) {
  return format == ModelFormat::kOnnx ? "onnx" : "tflite";
}

Result<ModelOps> ParseOnnxOps(const std::string& bytes, const std::string& path) {
  const auto not_onnx = [&path](const std::string& why) {
    return Status::Error("model '" + path + "' is not a complete ONNX model (" + why +
                         "); is the file truncated, or in another format?");
  };
  ModelOps ops;
  ops.format = ModelFormat::kOnnx;
  std::string_view graph;
  bool has_graph = false;
  WireReader model(bytes);
  WireReader::Field field;
  while (!model.done()) {
    if (!model.Next(field)) return not_onnx(model.error());
    if (field.number == 7 && field.wire_type == 2) {
      graph = field.bytes;
      has_graph = true;
    } else if (field.number == 8 && field.wire_type == 2) {
      WireReader opset(field.bytes);
      WireReader::Field inner;
      std::string domain;
      int64_t version = 0;
      while (!opset.done()) {
        if (!opset.Next(inner)) return not_onnx(opset.error());
        if (inner.number == 1 && inner.wire_type == 2) domain = std::string(inner.bytes);
        if (inner.number == 2 && inner.wire_type == 0) version = static_cast<int64_t>(inner.varint);
      }
      ops.opsets[OnnxDomain(domain)] = version;
    }
  }
  if (!has_graph) return not_onnx("no graph");

  std::vector<OnnxNodeFields> nodes;
  std::vector<ModelInput> declared_inputs;
  std::unordered_map<std::string, OnnxTensorSize> initializers;
  WireReader reader(graph);
  while (!reader.done()) {
    if (!reader.Next(field)) return not_onnx(reader.error());
    if (field.wire_type != 2) continue;
    if (field.number == 1) {
      auto node = ReadNode(field.bytes);
      if (!node.ok()) return not_onnx(node.error());
      nodes.push_back(node.take());
    } else if (field.number == 5) {
      auto tensor = ReadTensorSize(field.bytes);
      if (!tensor.ok()) return not_onnx(tensor.error());
      OnnxTensorSize size = tensor.take();
      ops.parameter_bytes += size.bytes;
      if (!size.known) ops.parameter_bytes_known = false;
      std::string name = size.name;
      initializers.emplace(std::move(name), std::move(size));
    } else if (field.number == 11) {  // graph inputs (initializers may be listed too)
      auto input = ReadValueInfo(field.bytes);
      if (!input.ok()) return not_onnx(input.error());
      declared_inputs.push_back(input.take());
    } else if (field.number == 12) {  // ValueInfoProto: name (1)
      WireReader value(field.bytes);
      WireReader::Field inner;
      std::string name;
      while (!value.done()) {
        if (!value.Next(inner)) return not_onnx(value.error());
        if (inner.number == 1 && inner.wire_type == 2) name = std::string(inner.bytes);
      }
      ops.graph_outputs.push_back(std::move(name));
    }
  }
  if (nodes.empty()) return not_onnx("its graph has no nodes");
  for (ModelInput& input : declared_inputs) {
    if (!initializers.count(input.name)) ops.inputs.push_back(std::move(input));
  }

  std::unordered_set<std::string> counted;
  int with_subgraphs = 0;
  for (OnnxNodeFields& fields : nodes) {
    for (const std::string& input : fields.inputs) {
      auto it = initializers.find(input);
      if (it == initializers.end() || !counted.insert(input).second) continue;
      fields.node.parameter_bytes += it->second.bytes;
    }
    if (fields.has_subgraph) ++with_subgraphs;
    ops.nodes.push_back(std::move(fields.node));
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

Result<ModelOps> ReadOnnxOps(const std::string& path) {
  auto bytes = ReadWholeFile(path);
  if (!bytes.ok()) return bytes.status();
  return ParseOnnxOps(bytes.value(), path);
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
