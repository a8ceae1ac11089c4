// ONNX's node test cases as scripts/models/make_onnx_node_tests.py writes them: a manifest.json
// naming each case's operator, family, tolerances and tensors, and each tensor's raw bytes.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "core/tensor.h"

namespace edgebench {

struct ConformanceTensor {
  std::string name;
  DType dtype = DType::kUnknown;
  std::vector<int64_t> shape;
  std::string file;  // relative to the cases' directory
};

struct ConformanceDataSet {
  std::vector<ConformanceTensor> inputs;
  std::vector<ConformanceTensor> outputs;
};

struct ConformanceCase {
  std::string name;    // "test_abs"
  std::string op;      // "Abs"
  std::string domain;  // "ai.onnx"
  std::string family;  // "math": the folder of onnx/defs the operator's schema is in
  int opset = 0;
  bool expanded = false;  // the operator's function body, not the operator
  int nodes = 1;
  double rtol = 1e-3;  // ONNX's own tolerances for the case
  double atol = 1e-7;
  std::string model;  // relative to the cases' directory
  std::vector<ConformanceDataSet> data_sets;
  std::string untestable;  // why edgebench cannot pass its values; empty when it can
};

struct ConformanceCases {
  std::string dir;
  std::string onnx_version;
  std::vector<ConformanceCase> cases;
};

// Reads DIR/manifest.json. An error says what is missing and how to make the cases.
Result<ConformanceCases> ReadConformanceCases(const std::string& dir);

// The cases whose operator or case name matches one of PATTERN's comma-separated shell globs
// ("Conv*,test_abs", case-sensitive); every case for an empty pattern. An error when a glob
// matches nothing, naming the nearest operators.
Result<std::vector<ConformanceCase>> SelectConformanceCases(const std::vector<ConformanceCase>& cases,
                                                            const std::string& pattern);

// One tensor's bytes, checked against its declared type and shape.
Result<Tensor> ReadConformanceTensor(const std::string& dir, const ConformanceTensor& tensor);

// The case's JSON form, as the manifest writes it (and the worker's request carries it).
nlohmann::json ConformanceCaseToJson(const ConformanceCase& c);
Result<ConformanceCase> ConformanceCaseFromJson(const nlohmann::json& json);

}  // namespace edgebench
