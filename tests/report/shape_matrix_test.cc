#include "report/shape_matrix.h"

#include <gtest/gtest.h>

#include <csignal>
#include <sstream>

#include "../test_util.h"

namespace edgebench {
namespace {

constexpr int64_t kMiB = 1024 * 1024;

// An ok record at `dims` on `target`: 200 queries of `p50_ms`, a first warmup query of
// `first_ms`, and, when `peak_mib` > 0, a monitor that saw that peak RSS.
Record Ok(const std::string& target, ShapeBindings dims, int64_t p50_ms, int64_t first_ms, int64_t peak_mib) {
  Record r = testing::MakeRecord(std::vector<int64_t>(200, p50_ms * 1'000'000), {first_ms * 1'000'000});
  r.requested_target = target;
  r.dims = std::move(dims);
  if (peak_mib > 0) {
    r.monitor = MonitorRecord{};
    r.monitor->derived.memory.peak_rss_bytes = peak_mib * kMiB;
  }
  return r;
}

Record NotMeasured(const std::string& target, ShapeBindings dims, CaseStatus status, const std::string& error,
                   int signal = 0, const std::string& stage = "") {
  Record r = testing::MakeRecord({});
  r.requested_target = target;
  r.dims = std::move(dims);
  r.status = status;
  r.error = error;
  r.signal = signal;
  r.failed_stage = stage;
  return r;
}

TEST(ShapeMatrix, LabelsFollowTheSweepOrderThenTheRestAlphabetically) {
  EXPECT_EQ(ShapeLabel({{"batch", 4}, {"seq", 512}}, {"seq", "batch"}), "seq=512 batch=4");
  EXPECT_EQ(ShapeLabel({{"batch", 4}, {"a", 1}, {"seq", 2}}, {"seq"}), "seq=2 a=1 batch=4");
  EXPECT_EQ(ShapeLabel({}, {"batch"}), "(no dims)");
}

TEST(ShapeMatrix, NoRecordsNoText) { EXPECT_EQ(FormatShapeMatrix({}, {}), ""); }

TEST(ShapeMatrix, RowsAreShapesColumnsTargetsAndGrowthIsPerTarget) {
  // Run order as the command runs them: target A's shapes, then target B's.
  const std::vector<Record> records = {
      Ok("A", {{"batch", 1}}, 2, 9, 100), Ok("A", {{"batch", 2}}, 3, 11, 130),
      Ok("B", {{"batch", 1}}, 5, 20, 300), Ok("B", {{"batch", 2}}, 6, 25, 290)};
  const std::string text = FormatShapeMatrix(records, {{"batch"}, false});
  std::istringstream lines(text);
  std::string header, row1, row2;
  std::getline(lines, header);
  std::getline(lines, row1);
  std::getline(lines, row2);
  EXPECT_EQ(header.rfind("shape", 0), 0u) << text;
  EXPECT_LT(header.find("A"), header.find("B")) << text;
  EXPECT_EQ(row1.rfind("batch=1", 0), 0u) << text;
  EXPECT_EQ(row2.rfind("batch=2", 0), 0u) << text;
  // Cells: p50/p99, first run, peak RSS and its growth against the same target's previous shape.
  EXPECT_NE(row1.find("ok p50/p99 2.00/2.00 ms; first 9.00 ms; rss 100.0 MiB (-)"), std::string::npos) << text;
  EXPECT_NE(row1.find("ok p50/p99 5.00/5.00 ms; first 20.0 ms; rss 300.0 MiB (-)"), std::string::npos) << text;
  EXPECT_NE(row2.find("rss 130.0 MiB (+30.0)"), std::string::npos) << text;
  EXPECT_NE(row2.find("rss 290.0 MiB (-10.0)"), std::string::npos) << text;
  // Column B starts at the same offset in every line: aligned.
  EXPECT_EQ(header.find(" B"), row1.find("  ok p50/p99 5.00") + 1) << text;
  EXPECT_EQ(text.find("[1]"), std::string::npos) << "nothing failed:\n" << text;
}

TEST(ShapeMatrix, P99OnlyWhereTheRecordHasOne) {
  Record few = testing::MakeRecord(std::vector<int64_t>(5, 3'000'000), {4'000'000});
  few.requested_target = "A";
  few.dims = {{"batch", 1}};
  const std::string text = FormatShapeMatrix({few}, {{"batch"}, false});
  EXPECT_NE(text.find("ok p50 3.00 ms; first 4.00 ms; rss -"), std::string::npos) << text;
}

TEST(ShapeMatrix, FailedCellsSayStatusAndShortReasonWithTheMessageBelow) {
  const std::vector<Record> records = {
      Ok("A", {{"batch", 1}}, 2, 9, 100),
      NotMeasured("A", {{"batch", 4}}, CaseStatus::kCrashed, "A: the worker died on signal 6 (Aborted)", SIGABRT),
      NotMeasured("A", {{"batch", 8}}, CaseStatus::kTimeout, "no result within 2000 ms (stage 'prepare')"),
      NotMeasured("A", {{"batch", 16}}, CaseStatus::kOom, "the worker's resident memory reached 300 MiB"),
      Ok("A", {{"batch", 32}}, 4, 12, 160),
      NotMeasured("B", {{"batch", 1}}, CaseStatus::kFailed, "shape not supported", 0, "prepare")};
  const std::string text = FormatShapeMatrix(records, {{"batch"}, false});
  EXPECT_NE(text.find("crashed: signal 6 (SIGABRT) [1]"), std::string::npos) << text;
  EXPECT_NE(text.find("timeout [2]"), std::string::npos) << text;
  EXPECT_NE(text.find("oom [3]"), std::string::npos) << text;
  EXPECT_NE(text.find("failed at prepare [4]"), std::string::npos) << text;
  // The target that starts a worker's message is not repeated.
  EXPECT_NE(text.find("[1] A at batch=4: the worker died on signal 6 (Aborted)"), std::string::npos) << text;
  EXPECT_NE(text.find("[2] A at batch=8: no result within 2000 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("[3] A at batch=16: the worker's resident memory"), std::string::npos) << text;
  EXPECT_NE(text.find("[4] B at batch=1: shape not supported"), std::string::npos) << text;
  // Growth skips the shapes that did not measure: against batch=1's 100 MiB.
  EXPECT_NE(text.find("rss 160.0 MiB (+60.0)"), std::string::npos) << text;
  // Target B has no record at batch=4: its cell is "-".
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line) && line.rfind("batch=4 ", 0) != 0) {
  }
  ASSERT_FALSE(line.empty()) << text;
  EXPECT_EQ(line.back(), '-') << text;
}

// Issue 50, class 7: a cell whose record measured but is INVALID said "ok". It says INVALID, with
// its reasons in the notes below the table.
TEST(ShapeMatrix, AnInvalidRecordIsNotAnOkCell) {
  Record shaky = Ok("A", {{"batch", 4}}, 2, 3, 0);
  shaky.valid = false;
  shaky.invalid_reasons = {"CV 0.52 above --max-cv 0.30"};
  const std::string text = FormatShapeMatrix({Ok("A", {{"batch", 1}}, 1, 2, 0), shaky}, {{"batch"}, false});
  EXPECT_NE(text.find("INVALID p50/p99 2.00/2.00 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("[1] A at batch=4: INVALID: CV 0.52 above --max-cv 0.30"), std::string::npos) << text;
  EXPECT_NE(text.find("ok p50/p99 1.00/1.00 ms"), std::string::npos) << text;
}

TEST(ShapeMatrix, MarkdownIsAGithubTableWithEscapedCells) {
  const std::vector<Record> records = {
      Ok("ort:cpu", {{"batch", 1}, {"seq", 8}}, 2, 9, 100),
      NotMeasured("null:cpu?a=1|b", {{"batch", 1}, {"seq", 8}}, CaseStatus::kFailed, "bad | worse", 0, "load")};
  const std::string text = FormatShapeMatrix(records, {{"batch", "seq"}, true});
  EXPECT_EQ(text.rfind("| shape | ort:cpu | null:cpu?a=1\\|b |\n|---|---|---|\n", 0), 0u) << text;
  EXPECT_NE(text.find("| batch=1 seq=8 | ok p50/p99 2.00/2.00 ms; first 9.00 ms; rss 100.0 MiB (-) | failed at load [1] |"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("- [1] null:cpu?a=1|b at batch=1 seq=8: bad | worse"), std::string::npos) << text;
}

}  // namespace
}  // namespace edgebench
