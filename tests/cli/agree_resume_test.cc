// edgebench agree through RunPlan: killed mid-way and resumed, each target ends with one record
// (the reference re-run without a record when a resumed target needs its outputs), each with the
// device monitor's series; a failed reference stops the plan and leaves the rest to --resume.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "../fixtures_util.h"
#include "../test_util.h"
#include "report/store.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

std::string TwinModel() {
  return "oww=" + OwwDir() + "/embedding_model.onnx," + OwwDir() + "/embedding_model.tflite";
}

void KeepFirstLine(const std::string& store) {
  std::ifstream in(store);
  std::string line;
  std::getline(in, line);
  in.close();
  std::ofstream(store, std::ios::trunc) << line << "\n";
}

TEST(AgreeResumeCli, ResumeRunsOnlyTheTargetsTheStoreLacks) {
  const std::string dir = TempFilePath("agree_", "resume");
  std::filesystem::remove_all(dir);
  const std::string command = Executable() + " agree '" + TwinModel() +
                              "' --target ort:cpu,litert:cpu,ort:xnnpack --dim '*=1' --out " + dir;
  auto first = RunCommand(command + " 2>&1");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const std::string store = dir + "/results.jsonl";
  KeepFirstLine(store);  // as if killed once the reference's record was stored

  auto resumed = RunCommand(command + " --resume 2>&1");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(resumed.output.find("case 1/3"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("case 2/3: oww on litert:cpu (agree): ok, within tolerance"), std::string::npos)
      << resumed.output;
  EXPECT_NE(resumed.output.find("case 3/3: oww on ort:xnnpack (agree): ok, within tolerance"), std::string::npos)
      << resumed.output;
  EXPECT_NE(resumed.output.find("1 target already in the store, not run again (--resume): ort:cpu"),
            std::string::npos)
      << resumed.output;
  auto records = ReadRecords(store);
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 3u) << "the reference, run again for its outputs, has no second record";
  std::set<std::string> keys;
  for (const Record& r : records.value()) {
    keys.insert(r.case_key);
    EXPECT_EQ(r.status, CaseStatus::kOk) << r.requested_target << ": " << r.error;
    ASSERT_TRUE(r.agreement.has_value());
    ASSERT_TRUE(r.monitor.has_value()) << r.requested_target;
    EXPECT_TRUE(r.monitor->disabled_reason.empty()) << r.monitor->disabled_reason;
    EXPECT_FALSE(r.monitor->series.t_ns.empty()) << r.requested_target;
  }
  EXPECT_EQ(keys.size(), 3u);
  EXPECT_EQ(records.value()[1].agreement->outputs.size(), 1u);

  auto again = RunCommand(command + " --resume 2>&1");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(again.output.find("(agree): ok"), std::string::npos) << again.output;
  EXPECT_EQ(ReadRecords(store).value().size(), 3u);
  std::filesystem::remove_all(dir);
}

TEST(AgreeResumeCli, AFailedReferenceStopsThePlanWithItsRecordOnly) {
  const std::string dir = TempFilePath("agree_", "reference_fails");
  std::filesystem::remove_all(dir);
  auto r = RunCommand(Executable() + " agree '" + TwinModel() +
                      "' --target 'ort:cpu?threads=0x',litert:cpu,ort:xnnpack --dim '*=1' --out " + dir + " 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("the reference target ort:cpu?threads=0x failed (failed at load: "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("nothing to compare against"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("litert:cpu (agree)"), std::string::npos) << "no target runs after it\n" << r.output;
  auto records = ReadRecords(dir + "/results.jsonl");
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 1u);
  EXPECT_EQ(records.value()[0].status, CaseStatus::kFailed);
  EXPECT_EQ(records.value()[0].failed_stage, "load");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
