// `edgebench conformance` on ONNX Runtime with a few of ONNX's own node test cases (built by
// tests/CMakeLists.txt): cells as ONNX Runtime answers them, a planted wrong answer, crash and
// hang each caught in its own cell while the run goes on, a store that resumes, and `compare`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;
using testing::TempFilePath;
using testing::TestModel;

std::string Cases() { return TestModel("onnx-node-tests"); }

std::map<std::string, nlohmann::json> CellsByCase(const std::string& output) {
  std::map<std::string, nlohmann::json> cells;
  const auto json = nlohmann::json::parse(output, nullptr, false);
  if (json.is_discarded() || !json.contains("cells")) return cells;
  for (const auto& cell : json.at("cells")) cells[cell.at("case").get<std::string>()] = cell;
  return cells;
}

TEST(ConformanceCli, OrtCpuPassesOnnxsCasesAndCountsWhatItCannotPass) {
  auto r = RunCommand(Executable() + " conformance --cases " + Cases() + " --target ort:cpu --no-store --format json"
                                     " 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto cells = CellsByCase(r.output);
  ASSERT_EQ(cells.size(), 11u) << r.output;
  for (const auto& [name, cell] : cells) {
    if (name == "test_cast_FLOAT_to_DOUBLE" || name == "test_sequence_insert_at_back") {
      EXPECT_EQ(cell["state"], "untestable") << cell.dump();
      continue;
    }
    EXPECT_EQ(cell["state"], "pass") << cell.dump();
    EXPECT_EQ(cell["runtime"], "ONNX Runtime");
    EXPECT_NE(cell["ran_on"], "") << cell.dump();
    EXPECT_EQ(cell["fell_back"], false);
  }
  EXPECT_NE(cells.at("test_cast_FLOAT_to_DOUBLE")["detail"].get<std::string>().find("is double"), std::string::npos);
  EXPECT_EQ(cells.at("test_softmax_example_expanded")["op"], "Softmax");
  EXPECT_EQ(cells.at("test_softmax_example_expanded")["expanded"], true);
  EXPECT_EQ(cells.at("test_abs")["family"], "math");
}

TEST(ConformanceCli, APlantedWrongAnswerCrashAndHangAreEachTheirOwnCell) {
  auto r = RunCommand("EDGEBENCH_CONFORMANCE_PLANT=wrong:test_add,crash:test_neg,hang:test_relu " + Executable() +
                      " conformance --cases " + Cases() + " --target ort:cpu --no-store --format json --timeout 3000"
                      " --ops test_add,test_neg,test_relu,test_sigmoid 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto cells = CellsByCase(r.output);
  ASSERT_EQ(cells.size(), 4u) << r.output;
  EXPECT_EQ(cells.at("test_add")["state"], "wrong");
  EXPECT_NEAR(cells.at("test_add")["max_error"].get<double>(), 1.0, 1e-5);
  EXPECT_NE(cells.at("test_add")["detail"].get<std::string>().find("1 of 60 values outside the tolerance"),
            std::string::npos)
      << cells.at("test_add").dump();
  EXPECT_EQ(cells.at("test_neg")["state"], "crashed");
  EXPECT_NE(cells.at("test_neg")["detail"].get<std::string>().find("signal 6"), std::string::npos)
      << cells.at("test_neg").dump();
  EXPECT_EQ(cells.at("test_relu")["state"], "timeout");
  // The case after the hang ran in a new worker.
  EXPECT_EQ(cells.at("test_sigmoid")["state"], "pass");
}

TEST(ConformanceCli, AMutantExpectedOutputIsAWrongCell) {
  const std::string copy = TempFilePath("conformance_", "mutant");
  std::filesystem::remove_all(copy);
  std::filesystem::copy(Cases(), copy, std::filesystem::copy_options::recursive);
  {
    // test_abs's first expected value, 0.5 larger.
    std::fstream out(copy + "/cases/test_abs/set0/out0.bin", std::ios::in | std::ios::out | std::ios::binary);
    float first = 0;
    out.read(reinterpret_cast<char*>(&first), sizeof first);
    first += 0.5f;
    out.seekp(0);
    out.write(reinterpret_cast<const char*>(&first), sizeof first);
  }
  auto r = RunCommand(Executable() + " conformance --cases " + copy +
                      " --target ort:cpu --no-store --format json --ops test_abs 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto cells = CellsByCase(r.output);
  ASSERT_EQ(cells.size(), 1u) << r.output;
  EXPECT_EQ(cells.at("test_abs")["state"], "wrong") << r.output;
  EXPECT_NEAR(cells.at("test_abs")["max_error"].get<double>(), 0.5, 1e-5);
  std::filesystem::remove_all(copy);
}

TEST(ConformanceCli, AStoreResumesWhereItStoppedAndCompareSaysWhatBroke) {
  const std::string base = TempFilePath("conformance_", "base");
  const std::string now = TempFilePath("conformance_", "new");
  std::filesystem::remove_all(base);
  std::filesystem::remove_all(now);
  auto first = RunCommand(Executable() + " conformance --cases " + Cases() + " --target ort:cpu --ops test_abs --out " +
                          base + " 2>&1");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  auto rest = RunCommand(Executable() + " conformance --cases " + Cases() + " --target ort:cpu --out " + base + " 2>&1");
  ASSERT_EQ(rest.exit_code, 0) << rest.output;
  EXPECT_NE(rest.output.find("11 cases of ONNX 1.20.0, 1 of them from"), std::string::npos) << rest.output;
  EXPECT_NE(rest.output.find("by operator family"), std::string::npos) << rest.output;
  int cells = 0;
  std::ifstream in(base + "/conformance.jsonl");
  for (std::string line; std::getline(in, line);) cells += line.find("\"conformance_cell\"") != std::string::npos;
  EXPECT_EQ(cells, 11);

  auto broken = RunCommand("EDGEBENCH_CONFORMANCE_PLANT=wrong:test_gather_0 " + Executable() + " conformance --cases " +
                           Cases() + " --target ort:cpu --out " + now + " 2>&1");
  ASSERT_EQ(broken.exit_code, 0) << broken.output;
  auto compared = RunCommand(Executable() + " compare " + base + " " + now + " 2>&1");
  EXPECT_EQ(compared.exit_code, 0) << compared.output;
  EXPECT_NE(compared.output.find("1 cases changed on 1 targets (1 broke, 0 fixed, 0 changed)"), std::string::npos)
      << compared.output;
  EXPECT_NE(compared.output.find("test_gather_0"), std::string::npos) << compared.output;
  auto gate = RunCommand(Executable() + " compare " + base + " " + now + " --fail-if-slower 5% 2>&1");
  EXPECT_EQ(gate.exit_code, 1) << gate.output;
  std::filesystem::remove_all(base);
  std::filesystem::remove_all(now);
}

TEST(ConformanceCli, CoverageShowsWhatTheNodeTestsMeasuredBesideThePublishedLists) {
  const std::string store = TempFilePath("conformance_", "coverage");
  std::filesystem::remove_all(store);
  // Relu passes; Add's answer is planted wrong; the model's MatMul has no case in this run.
  auto run = RunCommand("EDGEBENCH_CONFORMANCE_PLANT=wrong:test_add " + Executable() + " conformance --cases " +
                        Cases() + " --target ort:cpu --ops test_relu,test_add --out " + store + " 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  auto json = RunCommand(Executable() + " coverage " + TestModel("mlp_dynamic.onnx") + " --conformance " + store +
                         " --format json 2>&1");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const auto out = nlohmann::json::parse(json.output, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << json.output;
  std::map<std::string, std::string> measured;
  for (const auto& op : out["measured"]["operators"]) {
    measured[op["op"].get<std::string>()] = op["measured"].begin()->get<std::string>();
  }
  EXPECT_EQ(measured["Relu"], "pass") << json.output;
  EXPECT_EQ(measured["MatMul"], "no case") << json.output;
  if (measured.count("Add")) {
    EXPECT_EQ(measured["Add"], "wrong") << json.output;
  }
  auto text = RunCommand(Executable() + " coverage " + TestModel("mlp_dynamic.onnx") + " --conformance " + store + " 2>&1");
  EXPECT_NE(text.output.find("measured: ONNX's node tests"), std::string::npos) << text.output;
  auto tflite = RunCommand(Executable() + " coverage " + TestModel("mlp_dynamic.onnx") + " --conformance /nonexistent 2>&1");
  EXPECT_EQ(tflite.exit_code, 2) << tflite.output;
  std::filesystem::remove_all(store);
}

TEST(ConformanceCli, ASuiteRunsTheNodeTestsOnItsTargetsIntoItsStore) {
  const std::string dir = TempFilePath("conformance_", "suite");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/ops.yaml") << "name: ops\ntargets: [ort:cpu]\nconformance:\n  cases: " << Cases()
                                   << "\n  ops: \"test_abs,Relu\"\n  timeout: 20000\n";
  auto first = RunCommand(Executable() + " suite " + dir + "/ops.yaml --out " + dir + "/store 2>&1");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("then ONNX's node tests on 1 targets"), std::string::npos) << first.output;
  int cells = 0;
  {
    std::ifstream in(dir + "/store/conformance.jsonl");
    for (std::string line; std::getline(in, line);) cells += line.find("\"conformance_cell\"") != std::string::npos;
  }
  EXPECT_EQ(cells, 2);
  // Run again: the cells are in the store, nothing runs twice.
  auto again = RunCommand(Executable() + " suite " + dir + "/ops.yaml --out " + dir + "/store 2>&1");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("2 cases of ONNX 1.20.0, 2 of them from"), std::string::npos) << again.output;
  std::ofstream(dir + "/bad.yaml") << "targets: [ort:cpu]\nconformance:\n  opps: Abs\n";
  auto bad = RunCommand(Executable() + " suite " + dir + "/bad.yaml --out " + dir + "/store 2>&1");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("bad.yaml:3:"), std::string::npos) << bad.output;
  std::filesystem::remove_all(dir);
}

TEST(ConformanceCli, BadArgumentsSayWhatToGive) {
  auto none = RunCommand(Executable() + " conformance --cases /nonexistent --no-store 2>&1");
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_NE(none.output.find("scripts/models/onnx-node-tests"), std::string::npos) << none.output;
  auto ops = RunCommand(Executable() + " conformance --cases " + Cases() + " --ops Abz --no-store 2>&1");
  EXPECT_EQ(ops.exit_code, 2) << ops.output;
  EXPECT_NE(ops.output.find("--ops 'Abz' matches no operator"), std::string::npos) << ops.output;
  EXPECT_NE(ops.output.find("Abs"), std::string::npos) << ops.output;
  auto target = RunCommand(Executable() + " conformance --cases " + Cases() + " --target nosuch:cpu --no-store 2>&1");
  EXPECT_EQ(target.exit_code, 2) << target.output;
  // A runtime that does not read ONNX says what it reads, and no case runs.
  auto tflite = RunCommand(Executable() + " conformance --cases " + Cases() + " --target litert:cpu --no-store 2>&1");
  EXPECT_EQ(tflite.exit_code, 1) << tflite.output;
  EXPECT_NE(tflite.output.find("reads .tflite, not ONNX models"), std::string::npos) << tflite.output;
  EXPECT_EQ(tflite.output.find("by operator family"), std::string::npos) << tflite.output;
}

}  // namespace
}  // namespace edgebench
