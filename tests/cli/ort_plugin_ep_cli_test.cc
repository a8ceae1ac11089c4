// ort:NAME?ep_library=PATH: a plugin execution-provider library the user names (as the
// onnxruntime-qnn wheel's would be) is registered with ONNX Runtime, its EP found on the device
// it offers, added to the session with the target's other options as the provider's own, and its
// refusal reaches the user in its own words. The library is a stand-in
// (backends/fake_ort_plugin_ep.cc) that offers itself on the CPU and runs nothing.
#include <gtest/gtest.h>

#include "../test_util.h"

namespace edgebench {
namespace {

using nlohmann::json;
using testing::Executable;
using testing::RunCommand;

std::string Model() { return std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/torch/mobilenet-tiny-test.onnx"; }

json OnlyRecord(const testing::CommandResult& r) {
  const auto records = testing::JsonLineRecords(r.output);
  EXPECT_EQ(records.size(), 1u) << r.output;
  return records.empty() ? json::object() : records[0];
}

TEST(OrtPluginEp, TheNamedLibrarysProviderIsAddedWithItsOptionsAndItsRefusalIsItsOwn) {
  const auto r = RunCommand(Executable() + " run " + Model() + " --dim '*=1' -t 'ort:fakenpu?ep_library=" +
                            EDGEBENCH_FAKE_ORT_PLUGIN_EP + "&htp_arch=73' --warmup 1 --min-queries 2"
                            " --min-duration 0 --no-store --format jsonl 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const json record = OnlyRecord(r);
  const std::string error = record["failure"]["error"];
  // Registered, found on the CPU device it offers, appended with htp_arch as its own option,
  // and its CreateEp refused: in the provider's words, with the option it was given.
  EXPECT_NE(error.find("FakeNpuExecutionProvider"), std::string::npos) << error;
  EXPECT_NE(error.find("FakeNpu: this test provider runs no model (asked for htp_arch 73)"), std::string::npos)
      << error;
}

TEST(OrtPluginEp, ALibraryWithoutTheNamedProviderSaysWhichItHas) {
  const auto r = RunCommand(Executable() + " run " + Model() + " --dim '*=1' -t 'ort:qnn?ep_library=" +
                            EDGEBENCH_FAKE_ORT_PLUGIN_EP + "' --no-store --format jsonl 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const std::string error = OnlyRecord(r)["failure"]["error"];
  EXPECT_NE(error.find("offers no execution provider named for ort:qnn"), std::string::npos) << error;
  EXPECT_NE(error.find("FakeNpuExecutionProvider"), std::string::npos) << error;
}

TEST(OrtPluginEp, AMissingOrBrokenLibraryIsAClearErrorAndABuiltInProviderNeedsNone) {
  const auto missing = RunCommand(Executable() + " run " + Model() +
                                  " --dim '*=1' -t 'ort:qnn?ep_library=/nonexistent/libqnn.so' --no-store 2>&1");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.output.find("ep_library '/nonexistent/libqnn.so' does not exist"), std::string::npos)
      << missing.output;
  // A file that is not a provider library: ONNX Runtime's own message says why.
  const auto broken = RunCommand(Executable() + " run " + Model() + " --dim '*=1' -t 'ort:qnn?ep_library=" +
                                 Model() + "' --no-store 2>&1");
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_NE(broken.output.find("could not register the execution-provider library"), std::string::npos)
      << broken.output;
  const auto builtin = RunCommand(Executable() + " run " + Model() + " --dim '*=1' -t 'ort:cpu?ep_library=" +
                                  std::string(EDGEBENCH_FAKE_ORT_PLUGIN_EP) + "' --no-store 2>&1");
  EXPECT_EQ(builtin.exit_code, 1);
  EXPECT_NE(builtin.output.find("is built into this ONNX Runtime"), std::string::npos) << builtin.output;
}

}  // namespace
}  // namespace edgebench
