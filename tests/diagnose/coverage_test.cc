#include "diagnose/coverage.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../fixtures_util.h"
#include "../test_util.h"
#include "backends/build_config.h"

namespace edgebench {
namespace {

const char* kTable =
    "# source: https://example.org/ops.md\n"
    "# describes: Example EP 1.0\n"
    "# read: 2026-11-30\n"
    "# format: onnx\n"
    "Conv\t11+\tweights constant\n"
    "MatMul\t-\t\n"
    "Softmax\t1-12\t\n"
    "com.microsoft:Gelu\t-\t\n";

ModelOps HandMade(int64_t opset) {
  ModelOps model;
  model.opsets["ai.onnx"] = opset;
  // Conv MatMul | Add | MatMul Softmax | Gelu(ms) Add Add
  const std::vector<std::pair<std::string, std::string>> ops = {
      {"Conv", "ai.onnx"},    {"MatMul", "ai.onnx"},        {"Add", "ai.onnx"},
      {"MatMul", "ai.onnx"},  {"Softmax", "ai.onnx"},       {"Gelu", "com.microsoft"},
      {"Add", "ai.onnx"},     {"Add", "ai.onnx"}};
  int64_t bytes = 100;
  for (const auto& [op, domain] : ops) {
    model.nodes.push_back({op, domain, bytes});
    bytes = 0;
  }
  model.nodes[1].parameter_bytes = 300;  // first MatMul
  model.nodes[2].parameter_bytes = 600;  // first Add
  return model;
}

TEST(Coverage, CountsNodesBytesPartitionsAndUnsupportedOps) {
  auto table = ParseSupportTable(kTable, "/x/example.onnx.tsv");
  ASSERT_TRUE(table.ok()) << table.error();
  EXPECT_EQ(table.value().accelerator, "example");
  const Coverage c = ComputeCoverage(HandMade(11), table.value());
  EXPECT_EQ(c.total_nodes, 8);
  EXPECT_EQ(c.supported_nodes, 5);  // Conv MatMul MatMul Softmax Gelu
  EXPECT_EQ(c.partitions, 2);       // [Conv MatMul] Add [MatMul Softmax Gelu] Add Add
  EXPECT_EQ(c.total_parameter_bytes, 1000);
  EXPECT_EQ(c.supported_parameter_bytes, 400);
  ASSERT_EQ(c.unsupported.size(), 1u);
  EXPECT_EQ(c.unsupported[0].op, "Add");
  EXPECT_EQ(c.unsupported[0].nodes, 3);
  ASSERT_EQ(c.limits.size(), 1u);
  EXPECT_EQ(c.limits[0], "Conv: weights constant");
  EXPECT_EQ(c.source, "https://example.org/ops.md");
}

TEST(Coverage, OpsetOutsideTheListedRangeIsUnsupportedAndSaysWhy) {
  auto table = ParseSupportTable(kTable, "example.onnx.tsv");
  ASSERT_TRUE(table.ok());
  const Coverage at10 = ComputeCoverage(HandMade(10), table.value());  // Conv needs 11+
  EXPECT_EQ(at10.supported_nodes, 4);
  const Coverage at13 = ComputeCoverage(HandMade(13), table.value());  // Softmax only to 12
  EXPECT_EQ(at13.supported_nodes, 4);
  EXPECT_EQ(at13.partitions, 3);  // [Conv MatMul] Add [MatMul] Softmax [Gelu] Add Add
  bool named = false;
  for (const OpCount& op : at13.unsupported) named = named || op.op == "Softmax (opset 13)";
  EXPECT_TRUE(named);
}

TEST(Coverage, ATableWithoutItsSourceIsRejected) {
  const std::string no_source =
      "# describes: X\n# read: 2026-11-30\n# format: onnx\nConv\t-\t\n";
  auto parsed = ParseSupportTable(no_source, "nosource.onnx.tsv");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().find("nosource.onnx.tsv"), std::string::npos);
  EXPECT_NE(parsed.error().find("source"), std::string::npos) << parsed.error();
  EXPECT_FALSE(ParseSupportTable("# source: a\n# describes: b\n# read: c\n# format: onnx\n", "empty.tsv").ok());
  EXPECT_FALSE(ParseSupportTable("# source: a\n# describes: b\n# read: c\n# format: onnx\nConv\t1x\t\n",
                                 "bad.tsv").ok());
}

// Every table shipped in data/coverage parses, which requires its source, what it describes and
// the date it was read.
TEST(Coverage, EveryShippedTableCitesItsSource) {
  const std::string dir = std::string(EDGEBENCH_SOURCE_DIR) + "/data/coverage";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(entry.path().extension(), ".tsv") << entry.path() << ": only tables belong here";
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    auto table = ParseSupportTable(text.str(), entry.path().string());
    ASSERT_TRUE(table.ok()) << table.error();
    EXPECT_NE(table.value().source.find("http"), std::string::npos) << entry.path();
    EXPECT_EQ(text.str().rfind("# source: ", 0), 0u) << entry.path() << " must start with its source";
  }
  EXPECT_GE(files, 5);
  auto all = LoadSupportTables(dir);
  ASSERT_TRUE(all.ok()) << all.error();
  EXPECT_EQ(DefaultSupportTablesDir(), dir);
}

TEST(CoverageCli, PrintsPerAcceleratorCoverageForTheVit) {
  auto r = testing::RunCommand(testing::Executable() + " coverage " + testing::TestModel("vit_micro.onnx") +
                               " --accel xnnpack,qnn-htp,tensorrt 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* expected : {"xnnpack", "qnn-htp", "tensorrt", "68 nodes", "sources",
                               "onnxruntime", "onnx-tensorrt"}) {
    EXPECT_NE(r.output.find(expected), std::string::npos) << expected << "\n" << r.output;
  }
  // ORT's XNNPACK EP registers Conv, MatMul, Softmax (and Gemm, pools, Resize) of these ops.
  EXPECT_NE(r.output.find("16/68"), std::string::npos) << r.output;

  auto json = testing::RunCommand(testing::Executable() + " coverage " + testing::TestModel("vit_micro.onnx") +
                                  " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  auto parsed = nlohmann::json::parse(json.output);
  EXPECT_EQ(parsed["nodes"], 68);
  ASSERT_GE(parsed["accelerators"].size(), 5u);  // coreml nnapi qnn-htp tensorrt xnnpack
  for (const auto& a : parsed["accelerators"]) {
    EXPECT_FALSE(a["source"].get<std::string>().empty());
    EXPECT_LE(a["supported_nodes"].get<int>(), 68);
  }
}

TEST(CoverageCli, UnknownAcceleratorAndBadModelAreClearErrors) {
  auto unknown = testing::RunCommand(testing::Executable() + " coverage " +
                                     testing::TestModel("vit_micro.onnx") + " --accel warp-drive 2>&1");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("warp-drive"), std::string::npos) << unknown.output;
  EXPECT_NE(unknown.output.find("xnnpack"), std::string::npos) << unknown.output;
  auto truncated = testing::RunCommand(testing::Executable() + " coverage " +
                                       testing::TestModel("truncated.onnx") + " 2>&1");
  EXPECT_EQ(truncated.exit_code, 1);
  EXPECT_NE(truncated.output.find("truncated.onnx"), std::string::npos) << truncated.output;
}

#if EDGEBENCH_WITH_LITERT
TEST(CoverageCli, PrintsCoverageForBlazeFace) {
  auto r = testing::RunCommand(testing::Executable() + " coverage " + testing::BlazeFaceShort() +
                               " --accel xnnpack,qnn-htp 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("164 nodes"), std::string::npos) << r.output;
  // The README's float list has neither DEQUANTIZE (74) nor CONCATENATION (2): 88 of 164.
  EXPECT_NE(r.output.find("88/164"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("DEQUANTIZE x74"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("qnn-htp      no table for tflite"), std::string::npos) << r.output;
}
#endif

}  // namespace
}  // namespace edgebench
