#include "backends/ort/onnx_graph.h"

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>

namespace edgebench {
namespace {

// The protobuf wire format (protobuf.dev/programming-guides/encoding): fields are a varint key
// (field number << 3 | wire type) followed by a varint, 8 bytes, 4 bytes or a varint length and
// that many bytes. A reader over an istream, so that a model's weights are skipped, not read.
class WireReader {
 public:
  WireReader(std::istream& in, uint64_t end) : in_(in), end_(end) {}

  bool AtEnd() { return Position() >= end_; }
  uint64_t Position() { return static_cast<uint64_t>(in_.tellg()); }

  std::optional<uint64_t> Varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const int c = in_.get();
      if (c == EOF) return std::nullopt;
      value |= static_cast<uint64_t>(c & 0x7f) << shift;
      if (!(c & 0x80)) return value;
    }
    return std::nullopt;
  }

  // Skips a field's value of `wire_type`; false on a malformed or truncated one.
  bool Skip(int wire_type) {
    switch (wire_type) {
      case 0: return Varint().has_value();
      case 1: return SkipBytes(8);
      case 2: {
        const auto length = Varint();
        return length && SkipBytes(*length);
      }
      case 5: return SkipBytes(4);
      default: return false;
    }
  }

  bool SkipBytes(uint64_t n) {
    if (Position() + n > end_) return false;
    in_.seekg(static_cast<std::streamoff>(n), std::ios::cur);
    return static_cast<bool>(in_);
  }

  std::optional<std::string> Bytes(uint64_t n) {
    if (Position() + n > end_) return std::nullopt;
    std::string bytes(n, '\0');
    if (!in_.read(bytes.data(), static_cast<std::streamsize>(n))) return std::nullopt;
    return bytes;
  }

 private:
  std::istream& in_;
  uint64_t end_;
};

constexpr int kModelGraph = 7;    // ModelProto.graph
constexpr int kGraphNode = 1;     // GraphProto.node
constexpr int kNodeOpType = 4;    // NodeProto.op_type

// NodeProto.op_type, from a node's bytes.
std::optional<std::string> OpTypeOf(const std::string& node) {
  std::istringstream in(node);
  WireReader reader(in, node.size());
  while (!reader.AtEnd()) {
    const auto key = reader.Varint();
    if (!key) return std::nullopt;
    if ((*key >> 3) == kNodeOpType && (*key & 7) == 2) {
      const auto length = reader.Varint();
      if (!length) return std::nullopt;
      return reader.Bytes(*length);
    }
    if (!reader.Skip(static_cast<int>(*key & 7))) return std::nullopt;
  }
  return std::string();
}

Result<std::map<std::string, int>> Parse(std::istream& in, uint64_t size, const std::string& what) {
  const auto malformed = [&what] {
    return Status::Error(what + " is not an ONNX model (its protobuf encoding does not parse)");
  };
  WireReader model(in, size);
  std::optional<uint64_t> graph_end;
  while (!model.AtEnd()) {
    const auto key = model.Varint();
    if (!key) return malformed();
    if ((*key >> 3) == kModelGraph && (*key & 7) == 2) {
      const auto length = model.Varint();
      if (!length || model.Position() + *length > size) return malformed();
      graph_end = model.Position() + *length;
      break;
    }
    if (!model.Skip(static_cast<int>(*key & 7))) return malformed();
  }
  if (!graph_end) return Status::Error(what + " has no graph");
  WireReader graph(in, *graph_end);
  std::map<std::string, int> op_types;
  while (!graph.AtEnd()) {
    const auto key = graph.Varint();
    if (!key) return malformed();
    if ((*key >> 3) == kGraphNode && (*key & 7) == 2) {
      const auto length = graph.Varint();
      if (!length) return malformed();
      const auto node = graph.Bytes(*length);
      if (!node) return malformed();
      const auto op_type = OpTypeOf(*node);
      if (!op_type || op_type->empty()) return malformed();
      op_types[*op_type] += 1;
    } else if (!graph.Skip(static_cast<int>(*key & 7))) {
      return malformed();
    }
  }
  return op_types;
}

}  // namespace

Result<std::map<std::string, int>> ReadOnnxOpTypes(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return Status::Error("cannot open '" + path + "'");
  const auto size = static_cast<uint64_t>(in.tellg());
  in.seekg(0);
  return Parse(in, size, "'" + path + "'");
}

Result<std::map<std::string, int>> ParseOnnxOpTypes(const std::string& model_bytes) {
  std::istringstream in(model_bytes);
  return Parse(in, model_bytes.size(), "the model");
}

}  // namespace edgebench
