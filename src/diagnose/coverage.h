// Static coverage: a model's operators (core/model_ops.h) checked against the operator lists
// the accelerators' runtimes publish, kept as data files in data/coverage/ (one per accelerator
// and model format, each naming its source document, what it describes and when it was read).
// A prediction for hardware that is not here, not a measurement: docs/coverage.md says its limits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/model_ops.h"

namespace edgebench {

struct SupportRow {
  std::string domain;  // ONNX: "ai.onnx" unless the row says "com.microsoft:Op"; TFLite: ""
  std::string op;
  int64_t min_opset = 0;  // 0: no bound
  int64_t max_opset = 0;  // 0: no bound
  std::string limit;      // what the source states beyond the op type, for a person to check
};

// A file data/coverage/ACCELERATOR.FORMAT.tsv:
//   # source: URL or document name        (required)
//   # describes: runtime, version          (required)
//   # read: YYYY-MM-DD                      (required)
//   # format: onnx | tflite                 (required, and must match the file name)
//   OP<TAB>OPSETS<TAB>LIMIT                 OPSETS: "-", "11+", "7-12"
struct SupportTable {
  std::string accelerator;  // the file name up to its first '.'
  ModelFormat format = ModelFormat::kOnnx;
  std::string source;
  std::string describes;
  std::string read_on;
  std::string path;
  std::vector<SupportRow> rows;
};

// `path` is only for messages and the accelerator's name.
Result<SupportTable> ParseSupportTable(const std::string& text, const std::string& path);
// Every *.tsv in `dir`, sorted by accelerator; an error names the first file that does not parse.
Result<std::vector<SupportTable>> LoadSupportTables(const std::string& dir);
// Where the tables are unless --tables says otherwise: the source tree's data/coverage, baked in
// at build time.
std::string DefaultSupportTablesDir();

struct OpCount {
  std::string op;  // with its domain where not ai.onnx, and " (opset N)" when the opset is the reason
  int64_t nodes = 0;
};

struct Coverage {
  std::string accelerator;
  std::string source;
  std::string describes;
  std::string read_on;
  int64_t total_nodes = 0;
  int64_t supported_nodes = 0;
  int64_t total_parameter_bytes = 0;  // bytes of constants read by nodes
  int64_t supported_parameter_bytes = 0;
  // Contiguous runs of supported nodes in graph order: the most islands a partitioner that only
  // merges neighbours would make. A runtime that merges independent branches makes fewer.
  int64_t partitions = 0;
  std::vector<OpCount> unsupported;  // most nodes first
  std::vector<std::string> limits;   // "Op: limit" for supported ops the model uses
};

// Whether `table` lists `node`, given the model's opsets.
bool Supports(const SupportTable& table, const ModelNode& node, const ModelOps& model);
Coverage ComputeCoverage(const ModelOps& model, const SupportTable& table);

}  // namespace edgebench
