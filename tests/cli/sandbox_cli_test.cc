// A model can be code (issue 50, class 1): a TorchScript `.pt` whose forward creates a file
// (tests/models/torch/make_hostile_pt.py) wrote it, and the record said ok. Run by edgebench, the
// write is refused, the case fails, and the record says the worker was sandboxed and where it
// could write. EDGEBENCH_WORKER_SANDBOX=off shows the test can fail: the file is written.
#include <gtest/gtest.h>

#include <filesystem>

#include "../test_util.h"
#include "backends/build_config.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

#if EDGEBENCH_WITH_LIBTORCH
TEST(SandboxCli, AnUntrustedTorchScriptModelCannotWriteOutsideItsScratch) {
  const std::string target = TempFilePath("sandbox_cli_", "written-by-model");
  const std::string model = TempFilePath("sandbox_cli_", "hostile.pt");
  auto made = RunCommand(std::string("python3 ") + EDGEBENCH_SOURCE_DIR + "/tests/models/torch/make_hostile_pt.py " +
                         EDGEBENCH_SOURCE_DIR + "/tests/models/torch/mlp-test.pt " + model + " " + target + " 2>&1");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  const std::string run = Executable() + " run " + model + " --target libtorch:cpu --min-queries 3 --warmup 1 " +
                          "--format jsonl 2>/dev/null";
  const auto sandboxed = JsonLineRecords(RunCommand(run).output);
  ASSERT_EQ(sandboxed.size(), 1u);
  const auto& r = sandboxed[0];
  if (!r["sandbox"]["applied"].get<bool>()) GTEST_SKIP() << r["sandbox"]["not_applied"];
  EXPECT_FALSE(std::filesystem::exists(target)) << "the model wrote outside its scratch directory";
  EXPECT_EQ(r["status"], "failed");
  EXPECT_NE(r["failure"]["error"].get<std::string>().find("Permission denied"), std::string::npos) << r["failure"];
  bool noted = false;
  for (const auto& note : r["notes"]) noted |= note.get<std::string>().find("the worker ran sandboxed") != std::string::npos;
  EXPECT_TRUE(noted) << r["notes"];
  // The scratch directory is the only temporary place allowed, and it is gone after the case.
  const std::string scratch = r["sandbox"]["writable"][0].get<std::string>();
  EXPECT_NE(scratch.find("edgebench-worker-"), std::string::npos) << scratch;
  EXPECT_FALSE(std::filesystem::exists(scratch));

  const auto unsandboxed = JsonLineRecords(RunCommand("EDGEBENCH_WORKER_SANDBOX=off " + run).output);
  ASSERT_EQ(unsandboxed.size(), 1u);
  EXPECT_TRUE(std::filesystem::exists(target)) << "without the sandbox the model writes: the test can fail";
  EXPECT_EQ(unsandboxed[0]["status"], "ok");
  EXPECT_FALSE(unsandboxed[0]["sandbox"]["applied"].get<bool>());
  std::filesystem::remove(target);
  std::filesystem::remove(model);
}
#endif

}  // namespace
}  // namespace edgebench
