// Conformance cells into columns, tables and the difference between two runs.
#include "report/conformance_tables.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

ConformanceCell Cell(const std::string& target, const std::string& version, const std::string& name,
                     const std::string& op, ConformanceState state, bool fell_back = false) {
  ConformanceCell cell;
  cell.target = target;
  cell.runtime = "ONNX Runtime";
  cell.runtime_version = version;
  cell.onnx_version = "1.20.0";
  cell.case_name = name;
  cell.op = op;
  cell.domain = "ai.onnx";
  cell.family = op == "Conv" ? "nn" : "math";
  cell.state = state;
  cell.fell_back = fell_back;
  cell.detail = state == ConformanceState::kPass ? "" : "the runtime's message";
  return cell;
}

TEST(ConformanceTables, TheLastCellOfACaseCountsAndVersionsAreColumnsOfTheirOwn) {
  const auto columns = ConformanceColumns({
      Cell("ort:cpu", "1.22", "test_abs", "Abs", ConformanceState::kWrong),
      Cell("ort:cpu", "1.22", "test_abs", "Abs", ConformanceState::kPass),
      Cell("ort:cpu", "1.23", "test_abs", "Abs", ConformanceState::kPass),
  });
  ASSERT_EQ(columns.size(), 2u);
  ASSERT_EQ(columns[0].cells.size(), 1u);
  EXPECT_EQ(columns[0].cells[0].state, ConformanceState::kPass);
  EXPECT_EQ(columns[1].Label(), "ort:cpu (ONNX Runtime 1.23)");
}

TEST(ConformanceTables, AnOperatorSaysWhetherItPassedAndWhereItRan) {
  ConformanceColumn column{"ort:xnnpack", "ONNX Runtime", "1.23", "1.20.0", {
      Cell("ort:xnnpack", "1.23", "test_conv_a", "Conv", ConformanceState::kPass),
      Cell("ort:xnnpack", "1.23", "test_conv_b", "Conv", ConformanceState::kWrong),
      Cell("ort:xnnpack", "1.23", "test_abs", "Abs", ConformanceState::kPass, true),
      Cell("ort:xnnpack", "1.23", "test_cast", "Cast", ConformanceState::kUntestable),
  }};
  EXPECT_EQ(OperatorConformance(column, "Conv"), "1/2 pass, 1 wrong");
  EXPECT_EQ(OperatorConformance(column, "Abs"), "pass (cpu)");
  EXPECT_EQ(OperatorConformance(column, "Cast"), "untestable");
  EXPECT_EQ(OperatorConformance(column, "Gemm"), "");
  const std::string families = FormatConformanceFamilies({column}, {});
  EXPECT_NE(families.find("1/2, 1 wrong"), std::string::npos) << families;
  const std::string failing = FormatConformanceOperators({column}, true, {});
  EXPECT_NE(failing.find("Conv"), std::string::npos) << failing;
  EXPECT_EQ(failing.find("Abs"), std::string::npos) << failing;
}

TEST(ConformanceTables, ADiffNamesWhatBrokeAndWhatWasFixed) {
  const auto base = ConformanceColumns({
      Cell("ort:cpu", "1.22", "test_abs", "Abs", ConformanceState::kPass),
      Cell("ort:cpu", "1.22", "test_conv", "Conv", ConformanceState::kRefused),
      Cell("ort:cpu", "1.22", "test_neg", "Neg", ConformanceState::kPass),
  });
  const auto now = ConformanceColumns({
      Cell("ort:cpu", "1.23", "test_abs", "Abs", ConformanceState::kCrashed),
      Cell("ort:cpu", "1.23", "test_conv", "Conv", ConformanceState::kPass),
      Cell("ort:cpu", "1.23", "test_neg", "Neg", ConformanceState::kPass),
      Cell("openvino:cpu", "2025", "test_neg", "Neg", ConformanceState::kPass),
  });
  const ConformanceDiff diff = DiffConformance(base, now);
  ASSERT_EQ(diff.changes.size(), 2u);
  EXPECT_EQ(diff.changes[0].Kind(), "broke");
  EXPECT_EQ(diff.changes[0].case_name, "test_abs");
  EXPECT_EQ(diff.changes[1].Kind(), "fixed");
  EXPECT_EQ(diff.notes, std::vector<std::string>{"openvino:cpu is in the new run only"});
  const std::string text = FormatConformanceDiff(diff, {});
  EXPECT_NE(text.find("2 cases changed on 1 targets (1 broke, 1 fixed, 0 changed)"), std::string::npos) << text;
  EXPECT_NE(text.find("pass (1.22)"), std::string::npos) << text;
  EXPECT_NE(text.find("crashed (1.23)"), std::string::npos) << text;
}

}  // namespace
}  // namespace edgebench
