#include "core/onnx_graph_reader.h"

#include <cstring>
#include <string_view>

#include "core/mapped_file.h"

#include "core/protobuf_wire.h"

namespace edgebench {

int64_t OnnxElementBytes(int64_t data_type) {
  switch (data_type) {
    case 2: case 3: case 9: case 17: case 18: case 19: case 20: return 1;  // u8 i8 bool fp8*
    case 4: case 5: case 10: case 16: return 2;                             // u16 i16 f16 bf16
    case 1: case 6: case 12: return 4;                                      // f32 i32 u32
    case 7: case 11: case 13: case 14: return 8;                            // i64 f64 u64 c64
    case 15: return 16;                                                     // complex128
    default: return 0;
  }
}

namespace {

bool IsIntegerType(int64_t t) { return t == 2 || t == 3 || t == 4 || t == 5 || t == 6 || t == 7 || t == 9 || t == 12 || t == 13; }
bool IsFloatType(int64_t t) { return t == 1 || t == 11; }

// One little-endian element of raw_data as an int64 or a double.
int64_t RawInt(std::string_view raw, size_t index, int64_t type) {
  const size_t size = static_cast<size_t>(OnnxElementBytes(type));
  uint64_t bits = 0;
  for (size_t b = 0; b < size; ++b) bits |= static_cast<uint64_t>(static_cast<uint8_t>(raw[index * size + b])) << (8 * b);
  switch (type) {
    case 3: return static_cast<int8_t>(bits);
    case 5: return static_cast<int16_t>(bits);
    case 6: return static_cast<int32_t>(bits);
    default: return static_cast<int64_t>(bits);
  }
}
double RawFloat(std::string_view raw, size_t index, int64_t type) {
  if (type == 1) {
    float f = 0;
    std::memcpy(&f, raw.data() + index * 4, 4);
    return f;
  }
  double d = 0;
  std::memcpy(&d, raw.data() + index * 8, 8);
  return d;
}

Result<OnnxTensor> ReadTensor(std::string_view message) {
  WireReader reader(message);
  WireReader::Field field;
  OnnxTensor tensor;
  std::string_view raw;
  bool has_raw = false;
  std::vector<int64_t> listed_ints;
  std::vector<double> listed_floats;
  bool overflow = false;
  auto add_dim = [&](uint64_t dim) {
    if (dim > static_cast<uint64_t>(INT64_MAX) ||
        __builtin_mul_overflow(tensor.elements, static_cast<int64_t>(dim), &tensor.elements)) {
      overflow = true;
    }
    tensor.dims.push_back(static_cast<int64_t>(dim));
  };
  auto add_int = [&](uint64_t v) { listed_ints.push_back(static_cast<int64_t>(v)); };
  while (!reader.done()) {
    if (!reader.Next(field)) return Status::Error(reader.error());
    const bool packed = field.wire_type == 2;
    switch (field.number) {
      case 1:  // dims
        if (packed ? !WireReader::ForEachPackedVarint(field.bytes, add_dim) : (add_dim(field.varint), false)) {
          return Status::Error("a tensor's packed dims end inside a number");
        }
        break;
      case 2:
        tensor.data_type = static_cast<int64_t>(field.varint);
        break;
      case 4:  // float_data: packed fixed32
        if (packed) {
          for (size_t i = 0; i + 4 <= field.bytes.size(); i += 4) listed_floats.push_back(RawFloat(field.bytes, i / 4, 1));
        } else {
          float f = 0;
          const auto bits = static_cast<uint32_t>(field.fixed);
          std::memcpy(&f, &bits, 4);
          listed_floats.push_back(f);
        }
        break;
      case 5:  // int32_data (also holds 8- and 16-bit types)
      case 7:  // int64_data
      case 11:  // uint64_data
        if (packed ? !WireReader::ForEachPackedVarint(field.bytes, add_int) : (add_int(field.varint), false)) {
          return Status::Error("a tensor's packed values end inside a number");
        }
        break;
      case 8:
        tensor.name = std::string(field.bytes);
        break;
      case 9:
        raw = field.bytes;
        has_raw = true;
        break;
      default:
        break;
    }
  }
  const std::string named = tensor.name.empty() ? std::string() : " ('" + tensor.name + "')";
  if (overflow) return Status::Error("a tensor" + named + " declares more elements than a tensor can have");
  const int64_t element_bytes = OnnxElementBytes(tensor.data_type);
  tensor.size_known = element_bytes > 0;
  if (tensor.size_known && __builtin_mul_overflow(tensor.elements, element_bytes, &tensor.bytes)) {
    return Status::Error("a tensor" + named + " declares more bytes than a file can hold");
  }
  if (tensor.elements <= kOnnxKeptValues) {
    const auto count = static_cast<size_t>(tensor.elements);
    if (IsIntegerType(tensor.data_type)) {
      if (has_raw && raw.size() == count * static_cast<size_t>(element_bytes)) {
        std::vector<int64_t> values(count);
        for (size_t i = 0; i < count; ++i) values[i] = RawInt(raw, i, tensor.data_type);
        tensor.ints = std::move(values);
      } else if (!has_raw && listed_ints.size() == count) {
        if (tensor.data_type == 6) {  // int32_data holds the sign-extended varint
          for (int64_t& v : listed_ints) v = static_cast<int32_t>(v);
        }
        tensor.ints = std::move(listed_ints);
      }
    } else if (IsFloatType(tensor.data_type)) {
      if (has_raw && raw.size() == count * static_cast<size_t>(element_bytes)) {
        std::vector<double> values(count);
        for (size_t i = 0; i < count; ++i) values[i] = RawFloat(raw, i, tensor.data_type);
        tensor.floats = std::move(values);
      } else if (!has_raw && listed_floats.size() == count) {
        tensor.floats = std::move(listed_floats);
      }
    }
  }
  return tensor;
}

Result<OnnxAttribute> ReadAttribute(std::string_view message, std::string& name) {
  WireReader reader(message);
  WireReader::Field field;
  OnnxAttribute attribute;
  auto add_int = [&](uint64_t v) { attribute.ints.push_back(static_cast<int64_t>(v)); };
  while (!reader.done()) {
    if (!reader.Next(field)) return Status::Error(reader.error());
    switch (field.number) {
      case 1:
        name = std::string(field.bytes);
        break;
      case 2: {
        float f = 0;
        const auto bits = static_cast<uint32_t>(field.fixed);
        std::memcpy(&f, &bits, 4);
        attribute.f = f;
        break;
      }
      case 3:
        attribute.i = static_cast<int64_t>(field.varint);
        break;
      case 4:
        attribute.s = std::string(field.bytes);
        break;
      case 5: {
        auto tensor = ReadTensor(field.bytes);
        if (!tensor.ok()) return tensor.status();
        attribute.t = tensor.take();
        break;
      }
      case 6:
      case 11:
        attribute.has_graph = true;
        break;
      case 7:
        if (field.wire_type == 2) {
          for (size_t i = 0; i + 4 <= field.bytes.size(); i += 4) attribute.floats.push_back(RawFloat(field.bytes, i / 4, 1));
        } else {
          float f = 0;
          const auto bits = static_cast<uint32_t>(field.fixed);
          std::memcpy(&f, &bits, 4);
          attribute.floats.push_back(f);
        }
        break;
      case 8:
        if (field.wire_type == 2 ? !WireReader::ForEachPackedVarint(field.bytes, add_int) : (add_int(field.varint), false)) {
          return Status::Error("an attribute's packed ints end inside a number");
        }
        break;
      default:
        break;
    }
  }
  return attribute;
}

Result<OnnxGraphNode> ReadGraphNode(std::string_view message) {
  WireReader reader(message);
  WireReader::Field field;
  OnnxGraphNode node;
  while (!reader.done()) {
    if (!reader.Next(field)) return Status::Error(reader.error());
    if (field.wire_type != 2) continue;
    switch (field.number) {
      case 1: node.inputs.emplace_back(field.bytes); break;
      case 2: node.outputs.emplace_back(field.bytes); break;
      case 3: node.name = std::string(field.bytes); break;
      case 4: node.op_type = std::string(field.bytes); break;
      case 7:
        if (!field.bytes.empty()) node.domain = std::string(field.bytes);
        break;
      case 5: {
        std::string name;
        auto attribute = ReadAttribute(field.bytes, name);
        if (!attribute.ok()) return attribute.status();
        node.attributes[name] = attribute.take();
        break;
      }
      default:
        break;
    }
  }
  return node;
}

// ValueInfoProto: name (1), type (2) -> TypeProto.tensor_type (1) -> elem_type (1), shape (2) ->
// dim (1) -> dim_value (1) or dim_param (2).
Result<OnnxValueInfo> ReadValue(std::string_view message) {
  OnnxValueInfo value;
  WireReader reader(message);
  WireReader::Field field;
  while (!reader.done()) {
    if (!reader.Next(field)) return Status::Error(reader.error());
    if (field.number == 1 && field.wire_type == 2) value.name = std::string(field.bytes);
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
        if (f.number == 1 && f.wire_type == 0) value.elem_type = static_cast<int64_t>(f.varint);
        if (f.number != 2 || f.wire_type != 2) continue;
        value.shape_known = true;
        WireReader shape(f.bytes);
        WireReader::Field d;
        while (!shape.done()) {
          if (!shape.Next(d)) return Status::Error(shape.error());
          if (d.number != 1 || d.wire_type != 2) continue;
          OnnxDim dim;
          WireReader dims(d.bytes);
          WireReader::Field v;
          while (!dims.done()) {
            if (!dims.Next(v)) return Status::Error(dims.error());
            if (v.number == 1 && v.wire_type == 0) dim.value = static_cast<int64_t>(v.varint);
            if (v.number == 2 && v.wire_type == 2) dim.param = std::string(v.bytes);
          }
          value.dims.push_back(std::move(dim));
        }
      }
    }
  }
  return value;
}

}  // namespace

Result<OnnxGraph> ParseOnnxGraph(std::string_view bytes, const std::string& path) {
  const auto not_onnx = [&path](const std::string& why) {
    return Status::Error("model '" + path + "' is not a complete ONNX model (" + why +
                         "); is the file truncated, or in another format?");
  };
  OnnxGraph graph;
  std::string_view graph_bytes;
  bool has_graph = false;
  WireReader model(bytes);
  WireReader::Field field;
  while (!model.done()) {
    if (!model.Next(field)) return not_onnx(model.error());
    if (field.number == 7 && field.wire_type == 2) {
      graph_bytes = field.bytes;
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
      graph.opsets[domain.empty() ? std::string("ai.onnx") : domain] = version;
    }
  }
  if (!has_graph) return not_onnx("no graph");
  std::vector<OnnxValueInfo> declared;
  WireReader reader(graph_bytes);
  while (!reader.done()) {
    if (!reader.Next(field)) return not_onnx(reader.error());
    if (field.wire_type != 2) continue;
    if (field.number == 1) {
      auto node = ReadGraphNode(field.bytes);
      if (!node.ok()) return not_onnx(node.error());
      graph.nodes.push_back(node.take());
    } else if (field.number == 5) {
      auto tensor = ReadTensor(field.bytes);
      if (!tensor.ok()) return not_onnx(tensor.error());
      std::string name = tensor.value().name;
      graph.initializers[name] = tensor.take();
    } else if (field.number == 11) {
      auto value = ReadValue(field.bytes);
      if (!value.ok()) return not_onnx(value.error());
      declared.push_back(value.take());
    } else if (field.number == 12) {
      auto value = ReadValue(field.bytes);
      if (!value.ok()) return not_onnx(value.error());
      graph.outputs.push_back(value.value().name);
    }
  }
  if (graph.nodes.empty()) return not_onnx("its graph has no nodes");
  for (OnnxValueInfo& value : declared) {
    if (!graph.initializers.count(value.name)) graph.inputs.push_back(std::move(value));
  }
  return graph;
}

Result<OnnxGraph> ReadOnnxGraph(const std::string& path) {
  auto file = MappedFile::Open(path);
  if (!file.ok()) return file.status();
  return ParseOnnxGraph(file.value().bytes(), path);
}

}  // namespace edgebench
