// A small ONNX model written without the onnx library (core/protobuf_wire.h): graph inputs and
// outputs with static shapes, initializers, and nodes with integer, float and integer-list
// attributes. What `devices --limits` builds its matrix-product probe from, and what tests build
// hand-counted graphs with.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace edgebench {

class OnnxModelWriter {
 public:
  // TensorProto.DataType: 1 float, 2 uint8, 3 int8, 6 int32, 7 int64.
  void AddInput(const std::string& name, int64_t elem_type, const std::vector<int64_t>& dims);
  void AddOutput(const std::string& name, int64_t elem_type, const std::vector<int64_t>& dims);
  // `raw`: the little-endian bytes of every element (raw_data).
  void AddInitializer(const std::string& name, int64_t elem_type, const std::vector<int64_t>& dims,
                      const std::string& raw);
  void AddInt64Initializer(const std::string& name, const std::vector<int64_t>& values);
  // Float32 values, pseudo-random in [-1, 1) from `seed` (weights whose values do not matter).
  void AddRandomFloatInitializer(const std::string& name, const std::vector<int64_t>& dims, uint32_t seed);

  struct Attributes {
    std::map<std::string, int64_t> ints;
    std::map<std::string, float> floats;
    std::map<std::string, std::vector<int64_t>> int_lists;
  };
  void AddNode(const std::string& op_type, const std::vector<std::string>& inputs,
               const std::vector<std::string>& outputs, const Attributes& attributes = {});

  // A ModelProto (IR version 8, default-domain opset `opset`).
  std::string Serialize(int64_t opset = 17) const;

 private:
  std::string graph_;
};

}  // namespace edgebench
