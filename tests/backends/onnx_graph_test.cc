// The ONNX graph reader that counts a model's own nodes for placement.
#include "backends/ort/onnx_graph.h"

#include <gtest/gtest.h>

#include <string>

#include "../test_util.h"

namespace edgebench {
namespace {

// Protobuf wire format pieces: a length-delimited field and a varint field.
std::string Length(int field, const std::string& bytes) {
  std::string out(1, static_cast<char>(field << 3 | 2));
  uint64_t n = bytes.size();
  do {
    out += static_cast<char>((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n >>= 7;
  } while (n);
  return out + bytes;
}
std::string Varint(int field, uint8_t value) {
  return std::string(1, static_cast<char>(field << 3)) + static_cast<char>(value);
}
std::string Node(const std::string& op_type, const std::string& name) {
  // NodeProto: input 1, output 2, name 3, op_type 4.
  return Length(1, "x") + Length(2, "y") + Length(3, name) + Length(4, op_type);
}

TEST(OnnxGraph, CountsTheMainGraphsNodesByOpType) {
  const std::string big_initializer = Length(9, std::string(300, '\x01'));  // TensorProto.raw_data
  const std::string graph = Length(1, Node("MatMul", "m")) + Length(2, "graph_name") +
                            Length(5, big_initializer) + Length(1, Node("Add", "a1")) +
                            Length(1, Node("Add", "a2"));
  const std::string model = Varint(1, 8) + Length(2, "producer") + Length(7, graph);
  auto op_types = ParseOnnxOpTypes(model);
  ASSERT_TRUE(op_types.ok()) << op_types.error();
  EXPECT_EQ(op_types.value(), (std::map<std::string, int>{{"Add", 2}, {"MatMul", 1}}));
}

TEST(OnnxGraph, RejectsWhatIsNotAModel) {
  const std::string graph = Length(1, Node("MatMul", "m"));
  const std::string model = Varint(1, 8) + Length(7, graph);
  EXPECT_FALSE(ParseOnnxOpTypes(model.substr(0, model.size() - 3)).ok());  // truncated
  EXPECT_FALSE(ParseOnnxOpTypes("not a protobuf at all, just text").ok());
  EXPECT_FALSE(ParseOnnxOpTypes(Varint(1, 8)).ok());  // no graph
  EXPECT_FALSE(ReadOnnxOpTypes("/nonexistent/model.onnx").ok());
}

TEST(OnnxGraph, ReadsTheTestViT) {
  auto op_types = ReadOnnxOpTypes(testing::TestModel("vit_micro.onnx"));
  ASSERT_TRUE(op_types.ok()) << op_types.error();
  int nodes = 0;
  for (const auto& [op, n] : op_types.value()) nodes += n;
  EXPECT_EQ(nodes, 68);  // as python3 -c "import onnx" counts len(graph.node)
  EXPECT_EQ(op_types.value().at("MatMul"), 13);
  EXPECT_EQ(op_types.value().at("Softmax"), 2);
}

}  // namespace
}  // namespace edgebench
