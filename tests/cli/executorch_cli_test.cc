// The same PyTorch weights on every runtime in one command (issue 12): ONNX Runtime's XNNPACK and
// ExecuTorch's, whose XNNPACK symbols clash in one process, each in its own worker with its own
// plugin; each ExecuTorch target takes the .pte made for it; and agree reports the 8-bit drift.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using nlohmann::json;
using testing::Executable;
using testing::RunCommand;

std::string Kept(const std::string& name) { return std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/torch/" + name; }

TEST(ExecuTorchCli, EveryRuntimeRunsTheSameWeightsInOneCommand) {
  auto r = RunCommand(Executable() + " run " + Kept("vit-tiny-test.json") +
                      " --dim '*=1' -t ort:cpu,ort:xnnpack,executorch:cpu,executorch:xnnpack,litert:xnnpack"
                      " --warmup 2 --min-queries 10 --min-duration 0 --format jsonl 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::map<std::string, json> by_target;
  for (const json& record : testing::JsonLineRecords(r.output)) by_target[record["config"]["requested_target"]] = record;
  ASSERT_EQ(by_target.size(), 5u) << r.output;
  for (const auto& [target, record] : by_target) {
    EXPECT_EQ(record["status"], "ok") << target << ": " << record["failure"];
  }
  const std::string cpu_pte = by_target["executorch:cpu"]["config"]["artifact"];
  const std::string xnn_pte = by_target["executorch:xnnpack"]["config"]["artifact"];
  EXPECT_NE(cpu_pte.find("vit-tiny-test.cpu.pte"), std::string::npos) << cpu_pte;
  EXPECT_NE(xnn_pte.find("vit-tiny-test.xnnpack.pte"), std::string::npos) << xnn_pte;
  EXPECT_EQ(by_target["executorch:xnnpack"]["placement"]["partitions_by_device"]["xnnpack"], 23);
}

TEST(ExecuTorchCli, AgreeShowsTheEightBitDrift) {
  const std::string model = "vit=" + Kept("vit-tiny-test.onnx") + "," + Kept("vit-tiny-test.xnnpack-q8.pte");
  auto r = RunCommand(Executable() + " agree '" + model + "' --dim '*=1' -t ort:cpu,executorch:xnnpack --format json"
                      " 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1) << r.output;  // outside the fp32 tolerances: that is the drift
  bool compared = false;
  const json agreement = json::parse(r.output);
  for (const json& target : agreement["targets"]) {
    if (target["target"] != "executorch:xnnpack") continue;
    EXPECT_NE(target["artifact"].get<std::string>().find("xnnpack-q8.pte"), std::string::npos);
    const json& output = target["outputs"][0];
    EXPECT_LT(output["cosine"].get<double>(), 0.999) << output;
    EXPECT_GT(output["cosine"].get<double>(), 0.9) << output;  // drifted, not garbage
    EXPECT_FALSE(output["within_tolerance"].get<bool>());
    compared = true;
  }
  EXPECT_TRUE(compared) << r.output;
}

}  // namespace
}  // namespace edgebench
