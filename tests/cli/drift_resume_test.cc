// edgebench drift (tensor models) through RunPlan: one record per side (the reference's first),
// each with its tensor_drift section and the device monitor's series; killed mid-way and resumed,
// only the sides the store lacks run; a failed reference stops the rest.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "../test_util.h"
#include "report/store.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

std::string DriftCnn() {
  return "cnn=" + TestModel("drift_cnn_fp32.onnx") + "?variant=fp32," + TestModel("drift_cnn_int8.onnx") +
         "?variant=int8," + TestModel("drift_cnn_int8_conv2x1.5.onnx") + "?variant=int8-damaged";
}

void KeepFirstLines(const std::string& store, int count) {
  std::ifstream in(store);
  std::string kept, line;
  for (int i = 0; i < count && std::getline(in, line); ++i) kept += line + "\n";
  in.close();
  std::ofstream(store, std::ios::trunc) << kept;
}

TEST(DriftResumeCli, EachSideIsARecordAndResumeRunsOnlyTheRest) {
  const std::string dir = TempFilePath("drift_", "resume");
  std::filesystem::remove_all(dir);
  const std::string command = Executable() + " drift '" + DriftCnn() +
                              "' --reference fp32 --candidate int8,int8-damaged --samples 4 --out " + dir;
  auto first = RunCommand(command + " 2>&1");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("case 3/3: cnn int8-damaged on ort:cpu (drift): ok, first drift at conv2_out"),
            std::string::npos)
      << first.output;
  const std::string store = dir + "/results.jsonl";
  auto records = ReadRecords(store);
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 3u);
  const Record& reference = records.value()[0];
  ASSERT_TRUE(reference.tensor_drift.has_value());
  EXPECT_TRUE(reference.tensor_drift->is_reference);
  EXPECT_EQ(reference.scenario, "drift");
  const Record& damaged = records.value()[2];
  ASSERT_TRUE(damaged.tensor_drift.has_value());
  EXPECT_EQ(damaged.tensor_drift->first_drift, "conv2_out");
  EXPECT_EQ(damaged.tensor_drift->matched, 9);
  EXPECT_EQ(damaged.variant, "int8-damaged");
  EXPECT_TRUE(damaged.valid) << "drift is the finding, not a fault of the measurement";
  for (const Record& r : records.value()) {
    ASSERT_TRUE(r.monitor.has_value()) << r.variant;
    EXPECT_FALSE(r.monitor->series.t_ns.empty()) << r.variant;
  }

  KeepFirstLines(store, 1);  // as if killed after the reference's record
  auto resumed = RunCommand(command + " --resume 2>&1");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(resumed.output.find("case 1/3"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("case 2/3: cnn int8 on ort:cpu (drift): ok, no tensor below 30 dB"),
            std::string::npos)
      << resumed.output;
  EXPECT_NE(resumed.output.find("first drift at conv2_out"), std::string::npos) << resumed.output;
  auto after = ReadRecords(store);
  ASSERT_TRUE(after.ok()) << after.error();
  ASSERT_EQ(after.value().size(), 3u) << "the reference, run again for its tensors, has no second record";
  std::set<std::string> keys;
  for (const Record& r : after.value()) keys.insert(r.case_key);
  EXPECT_EQ(keys.size(), 3u);
  std::filesystem::remove_all(dir);
}

TEST(DriftResumeCli, AFailedReferenceStopsTheCandidates) {
  const std::string dir = TempFilePath("drift_", "reference_fails");
  std::filesystem::remove_all(dir);
  auto r = RunCommand(Executable() + " drift '" + DriftCnn() +
                      "' --reference fp32 --candidate int8 --target 'ort:cpu?threads=0x' --samples 2 --out " + dir +
                      " 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("the reference fp32 failed at load: "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("int8 on"), std::string::npos) << r.output;
  auto records = ReadRecords(dir + "/results.jsonl");
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 1u);
  EXPECT_EQ(records.value()[0].status, CaseStatus::kFailed);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
