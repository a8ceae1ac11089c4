// Corrupt model files of every format through the whole tool: the loader runs in the worker, so
// whatever a runtime does with a mutated file (an error, a crash, a hang), edgebench itself
// answers with a record and exit status 0 or 1, never a crash of its own.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../fixtures_util.h"
#include "../test_util.h"
#include "mutation.h"

namespace edgebench {
namespace {

constexpr int kMutantsPerFormat = 6;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Runs `edgebench SUBCOMMAND MUTANT OPTIONS` on mutants of `seed_path`.
void FuzzModel(const std::string& seed_path, const std::string& extension, const std::string& subcommand,
               const std::string& options, uint64_t seed) {
  const std::string bytes = ReadAll(seed_path);
  ASSERT_FALSE(bytes.empty()) << seed_path;
  const auto dir = std::filesystem::temp_directory_path() / ("edgebench_fuzz_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::mt19937_64 rng(seed);
  for (int i = 0; i < kMutantsPerFormat; ++i) {
    const std::string path = (dir / ("mutant" + std::to_string(i) + extension)).string();
    std::ofstream(path, std::ios::binary) << testing::Mutate(bytes, rng);
    auto r = testing::RunCommand(testing::Executable() + " " + subcommand + " " + path + options +
                                 " --format json 2>/dev/null");
    SCOPED_TRACE(path);
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << "exit " << r.exit_code << ": " << r.output;
    const auto records = nlohmann::json::parse(r.output, nullptr, false);
    ASSERT_TRUE(records.is_array() && records.size() == 1) << r.output;
    const std::string status = records[0]["status"];
    EXPECT_TRUE(status == "ok" || status == "failed" || status == "crashed" || status == "timeout") << status;
  }
  std::filesystem::remove_all(dir);
}

const std::string kShortRun = " --warmup 1 --min-queries 2 --min-duration 0 --timeout 60000";

TEST(ModelFormatsFuzz, Onnx) {
  FuzzModel(testing::TestModel("vit_micro.onnx"), ".onnx", "run", " --target 'ort:cpu?threads=1'" + kShortRun, 11);
}

TEST(ModelFormatsFuzz, Tflite) {
  FuzzModel(testing::OwwDir() + "/embedding_model.tflite", ".tflite", "run",
            " --target 'litert:cpu?threads=1' --dim '*=1'" + kShortRun, 12);
}

TEST(ModelFormatsFuzz, Gguf) {
  FuzzModel(testing::TestModel("llama-tiny.gguf"), ".gguf", "llm",
            " --prompt 4 --gen 2 --repeat 1 --warmup 0 --timeout 60000", 13);
}

}  // namespace
}  // namespace edgebench
