// Backends as plugins, seen from the command line: each process opens only the runtime it uses,
// and a plugin that cannot be opened is an `unavailable` backend, never a crash.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "backends/plugin_loader.h"
#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;
using testing::TestModel;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string OrtCase() {
  return Executable() + " run " + TestModel("vit_micro.onnx") +
         " --target 'ort:cpu?threads=1' --warmup 1 --min-queries 3 --min-duration 0 --format jsonl";
}

TEST(BackendPluginsCli, DevicesListsEveryBackendWhenNoPluginCanBeFound) {
  auto r = RunCommand(std::string(kBackendDirVariable) + "=/nonexistent/backends " +
                      Executable() + " devices 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("null:spin"), std::string::npos) << r.output;  // built in: still there
  for (const std::string name : {"ort", "litert", "llamacpp"}) {
    std::istringstream lines(r.output);
    std::string line;
    bool found = false;
    while (std::getline(lines, line)) {
      if (line.rfind(name + ":*", 0) != 0) continue;
      found = true;
      // Built here and missing, or not built at all: either way a reason, never a crash.
      const bool unavailable = line.find("unavailable") != std::string::npos &&
                               line.find("/nonexistent/backends/libedgebench_backend_" + name +
                                         ".so' does not exist") != std::string::npos;
      EXPECT_TRUE(unavailable || line.find("not built") != std::string::npos) << line;
    }
    EXPECT_TRUE(found) << name << " is not listed:\n" << r.output;
  }
}

TEST(BackendPluginsCli, AnOrtCaseWithoutItsPluginIsAnUnavailableRecord) {
  auto r = RunCommand(std::string(kBackendDirVariable) + "=/nonexistent/backends " +
                      OrtCase() + " 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1) << r.output;  // a case that could not run, not a crash
  EXPECT_NE(r.output.find("\"status\":\"unavailable\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("libedgebench_backend_ort.so' does not exist"), std::string::npos) << r.output;
}

TEST(BackendPluginsCli, AnOrtCaseMapsNeitherLiteRtNorLlamaCpp) {
  const std::string maps = testing::TempFilePath("plugins_", "worker_maps");
  const std::string debug = testing::TempFilePath("plugins_", "ld_debug");
  // The orchestrator's pid first, then the dynamic loader's log of every process (LD_DEBUG=files
  // prefixes each line with the pid of the process that loaded the file).
  auto r = RunCommand("sh -c 'echo orchestrator=$$; EDGEBENCH_DEBUG_WORKER_MAPS=" + maps +
                      " LD_DEBUG=files LD_DEBUG_OUTPUT=" + debug + " exec " + OrtCase() +
                      " >/dev/null 2>&1'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string worker_maps = ReadFile(maps);
  ASSERT_FALSE(worker_maps.empty()) << "the worker wrote no maps to " << maps;
  EXPECT_NE(worker_maps.find("libedgebench_backend_ort.so"), std::string::npos);
  EXPECT_NE(worker_maps.find("libonnxruntime"), std::string::npos);
  for (const std::string other : {"libedgebench_backend_litert", "libtensorflow-lite",
                                  "libedgebench_backend_llamacpp", "libllama", "libggml"}) {
    EXPECT_EQ(worker_maps.find(other), std::string::npos) << "the ort worker maps " << other;
  }
  // LD_DEBUG_OUTPUT writes one file per process: <debug>.<pid>.
  const std::string pid = r.output.substr(r.output.find('=') + 1, r.output.find('\n') - r.output.find('=') - 1);
  const std::string orchestrator = ReadFile(debug + "." + pid);
  ASSERT_FALSE(orchestrator.empty()) << "no loader log at " << debug << "." << pid;
  for (const std::string other : {"libedgebench_backend_litert", "libtensorflow-lite",
                                  "libedgebench_backend_llamacpp", "libllama", "libggml"}) {
    EXPECT_EQ(orchestrator.find(other), std::string::npos) << "the orchestrator loads " << other;
  }
}

}  // namespace
}  // namespace edgebench
