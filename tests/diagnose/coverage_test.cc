#include "diagnose/coverage.h"
#include "diagnose/coverage_check.h"

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
    model.nodes.push_back({op, domain, "", {}, bytes});
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

TEST(CoverageCheck, DisagreementsAreCountedByOpTypeBothWays) {
  auto table = ParseSupportTable(kTable, "example.onnx.tsv");
  ASSERT_TRUE(table.ok()) << table.error();
  const ModelOps model = HandMade(11);  // listed: Conv, MatMul x2, Softmax, Gelu
  Placement ran;
  ran.known = true;
  // The device took one MatMul and an Add the table does not list; the rest stayed on the CPU.
  ran.original_nodes_by_device = {{"example", 4}, {"cpu", 4}};
  ran.cpu_op_types = {{"MatMul", 1}, {"Add", 2}, {"com.microsoft:Gelu", 0}, {"Gelu", 1}};
  const CoverageCheck check = CheckCoverage("ort:example", "example", model, table.value(), ran);
  EXPECT_EQ(check.predicted_nodes, 5);
  EXPECT_EQ(check.ran_nodes, 4);
  EXPECT_EQ(check.listed_but_left_on_cpu, (std::map<std::string, int64_t>{{"MatMul", 1}, {"Gelu", 1}}));
  EXPECT_EQ(check.unlisted_but_taken, (std::map<std::string, int64_t>{{"Add", 1}}));
  // Each difference says why: the prediction counted every node of a listed op type.
  ASSERT_EQ(check.why.size(), 3u);
  EXPECT_NE(check.why.at("MatMul").find("the table states no limit for MatMul; the runtime's own per-node check"),
            std::string::npos)
      << check.why.at("MatMul");
  EXPECT_NE(check.why.at("Add").find("the table does not list Add"), std::string::npos) << check.why.at("Add");
  // A limit the source states is the reason given, and the prediction says it did not check it.
  Placement conv_left = ran;
  conv_left.cpu_op_types = {{"Conv", 1}, {"Add", 3}};
  conv_left.original_nodes_by_device = {{"example", 4}, {"cpu", 4}};
  const CoverageCheck conv = CheckCoverage("ort:example", "example", model, table.value(), conv_left);
  ASSERT_TRUE(conv.why.count("Conv"));
  EXPECT_NE(conv.why.at("Conv").find("the source states a limit it does not check per node (weights constant)"),
            std::string::npos)
      << conv.why.at("Conv");

  Placement unknown;  // a runtime that does not tell
  EXPECT_EQ(CheckCoverage("t", "example", model, table.value(), unknown).ran_nodes, -1);
}

#if EDGEBENCH_WITH_ORT
TEST(CoverageCli, AgainstComparesThePredictionWithWhatOrtPlaced) {
  auto r = testing::RunCommand(testing::Executable() + " coverage " + testing::TestModel("vit_micro.onnx") +
                               " --accel xnnpack --against ort:xnnpack,ort:cpu --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto out = nlohmann::json::parse(r.output);
  ASSERT_EQ(out["against"]["checks"].size(), 1u) << out["against"];
  const auto& check = out["against"]["checks"][0];
  EXPECT_EQ(check["target"], "ort:xnnpack");
  EXPECT_EQ(check["predicted_nodes"], 16);
  ASSERT_TRUE(check["ran_nodes"].is_number()) << check;
  // What the table lists and the provider left on the CPU, plus what it took, makes up the gap.
  int64_t left = 0, taken = 0;
  for (const auto& [op, n] : check["listed_but_left_on_cpu"].items()) left += n.get<int64_t>();
  for (const auto& [op, n] : check["unlisted_but_taken"].items()) taken += n.get<int64_t>();
  EXPECT_EQ(check["ran_nodes"].get<int64_t>(), 16 - left + taken) << check;
  // Every op type on which they differ says why (the vit's attention MatMuls: B is not a constant).
  for (const auto& [op, n] : check["listed_but_left_on_cpu"].items()) EXPECT_TRUE(check["why"].contains(op)) << op;
  for (const auto& [op, n] : check["unlisted_but_taken"].items()) EXPECT_TRUE(check["why"].contains(op)) << op;
  if (check["listed_but_left_on_cpu"].contains("MatMul")) {
    EXPECT_NE(check["why"]["MatMul"].get<std::string>().find("B a constant initializer"), std::string::npos) << check;
  }
  EXPECT_NE(out["against"]["not_compared"].dump().find("ort:cpu: no table for 'cpu'"), std::string::npos);

  // A target that fails is said, with its reason; the prediction stands.
  auto failed = testing::RunCommand(testing::Executable() + " coverage " + testing::TestModel("vit_micro.onnx") +
                                    " --accel xnnpack --against 'ort:xnnpack?fallback=fail' 2>&1");
  EXPECT_EQ(failed.exit_code, 0) << failed.output;
  EXPECT_NE(failed.output.find("ort:xnnpack?fallback=fail: did not run (failed: "), std::string::npos) << failed.output;
  auto bad = testing::RunCommand(testing::Executable() + " coverage " + testing::TestModel("vit_micro.onnx") +
                                 " --against warp:drive 2>&1");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("unknown backend 'warp'"), std::string::npos) << bad.output;
}
#endif

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
