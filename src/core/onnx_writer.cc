#include "core/onnx_writer.h"

#include <cstring>

#include "core/filler_values.h"
#include "core/protobuf_wire.h"

namespace edgebench {
namespace {

// ValueInfoProto{name, type{tensor_type{elem_type, shape{dim{dim_value}}}}}.
std::string ValueInfo(const std::string& name, int64_t elem_type, const std::vector<int64_t>& dims) {
  std::string shape;
  for (int64_t d : dims) shape += LengthDelimited(1, VarintField(1, static_cast<uint64_t>(d)));
  const std::string tensor_type = VarintField(1, static_cast<uint64_t>(elem_type)) + LengthDelimited(2, shape);
  return LengthDelimited(1, name) + LengthDelimited(2, LengthDelimited(1, tensor_type));
}

std::string Dims(const std::vector<int64_t>& dims) {
  std::string out;
  for (int64_t d : dims) out += VarintField(1, static_cast<uint64_t>(d));
  return out;
}

}  // namespace

void OnnxModelWriter::AddInput(const std::string& name, int64_t elem_type, const std::vector<int64_t>& dims) {
  graph_ += LengthDelimited(11, ValueInfo(name, elem_type, dims));
}

void OnnxModelWriter::AddOutput(const std::string& name, int64_t elem_type, const std::vector<int64_t>& dims) {
  graph_ += LengthDelimited(12, ValueInfo(name, elem_type, dims));
}

void OnnxModelWriter::AddInitializer(const std::string& name, int64_t elem_type, const std::vector<int64_t>& dims,
                                     const std::string& raw) {
  const std::string tensor = Dims(dims) + VarintField(2, static_cast<uint64_t>(elem_type)) + LengthDelimited(8, name) +
                             LengthDelimited(9, raw);
  graph_ += LengthDelimited(5, tensor);
}

void OnnxModelWriter::AddInt64Initializer(const std::string& name, const std::vector<int64_t>& values) {
  std::string raw(values.size() * 8, '\0');
  for (size_t i = 0; i < values.size(); ++i) {
    const auto bits = static_cast<uint64_t>(values[i]);
    for (int b = 0; b < 8; ++b) raw[i * 8 + b] = static_cast<char>((bits >> (8 * b)) & 0xff);
  }
  AddInitializer(name, 7, {static_cast<int64_t>(values.size())}, raw);
}

void OnnxModelWriter::AddRandomFloatInitializer(const std::string& name, const std::vector<int64_t>& dims,
                                                uint32_t seed) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> values(static_cast<size_t>(n));
  FillFloats(values.data(), values.size(), seed * 2654435761u + 1);
  std::string raw(values.size() * 4, '\0');
  std::memcpy(raw.data(), values.data(), raw.size());
  AddInitializer(name, 1, dims, raw);
}

void OnnxModelWriter::AddNode(const std::string& op_type, const std::vector<std::string>& inputs,
                              const std::vector<std::string>& outputs, const Attributes& attributes) {
  std::string node;
  for (const std::string& input : inputs) node += LengthDelimited(1, input);
  for (const std::string& output : outputs) node += LengthDelimited(2, output);
  node += LengthDelimited(3, outputs.empty() ? op_type : outputs.front());
  node += LengthDelimited(4, op_type);
  // AttributeProto: name (1), f (2, fixed32), i (3), ints (8), type (20: FLOAT 1, INT 2, INTS 7).
  for (const auto& [name, value] : attributes.ints) {
    node += LengthDelimited(5, LengthDelimited(1, name) + VarintField(3, static_cast<uint64_t>(value)) +
                                   VarintField(20, 2));
  }
  for (const auto& [name, value] : attributes.floats) {
    uint32_t bits = 0;
    std::memcpy(&bits, &value, 4);
    std::string fixed;
    AppendVarint(fixed, (2u << 3) | 5);
    for (int b = 0; b < 4; ++b) fixed += static_cast<char>((bits >> (8 * b)) & 0xff);
    node += LengthDelimited(5, LengthDelimited(1, name) + fixed + VarintField(20, 1));
  }
  for (const auto& [name, values] : attributes.int_lists) {
    std::string ints;
    for (int64_t v : values) ints += VarintField(8, static_cast<uint64_t>(v));
    node += LengthDelimited(5, LengthDelimited(1, name) + ints + VarintField(20, 7));
  }
  graph_ += LengthDelimited(1, node);
}

std::string OnnxModelWriter::Serialize(int64_t opset) const {
  const std::string opset_import = LengthDelimited(1, "") + VarintField(2, static_cast<uint64_t>(opset));
  return VarintField(1, 8) + LengthDelimited(2, "edgebench") + LengthDelimited(7, graph_ + LengthDelimited(2, "g")) +
         LengthDelimited(8, opset_import);
}

}  // namespace edgebench
