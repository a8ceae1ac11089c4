// --start end to end: a cold and a warm case of the same model, the cold one's record proving
// its file left the page cache before the load; the table's start columns; a llama.cpp model
// loaded with mmap on and off, recorded as it ran; refusals.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;
using testing::TestModel;

TEST(ColdStartCli, BothGivesAColdCaseWithItsPagesDroppedThenAWarmOne) {
  auto r = RunCommand(Executable() + " run " + TestModel("vit_micro.onnx") +
                      " -t ort:cpu --start both --warmup 3 --min-queries 5 --min-duration 0 --allow-busy"
                      " --max-cv 100 --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 2u) << r.output;
  const auto& cold = records[0];
  const auto& warm = records[1];
  EXPECT_EQ(cold["start"]["mode"], "cold");
  EXPECT_EQ(warm["start"]["mode"], "warm");
  EXPECT_FALSE(warm["start"].contains("page_cache"));
  EXPECT_NE(cold["case_key"], warm["case_key"]) << "a cold start measures something else";
  const auto& cache = cold["start"]["page_cache"];
  if (cache["detail"].get<std::string>().find("tmpfs") != std::string::npos) GTEST_SKIP() << "the build tree is on tmpfs";
  ASSERT_TRUE(cache["dropped"].get<bool>()) << cache;
  ASSERT_EQ(cache["files"].size(), 1u);
  EXPECT_EQ(cache["files"][0]["path"], TestModel("vit_micro.onnx"));
  EXPECT_GT(cache["files"][0]["pages"].get<int64_t>(), 0);
  EXPECT_EQ(cache["files"][0]["resident_after"], 0);
  EXPECT_GT(cold["timings_ns"]["load"].get<int64_t>(), 0);
  if (!testing::kSanitizerBuild) {
    EXPECT_TRUE(cold["verdict"]["valid"].get<bool>()) << cold["verdict"];
  }

  auto table = RunCommand(Executable() + " run " + TestModel("vit_micro.onnx") +
                          " -t ort:cpu --start cold --warmup 3 --min-queries 5 --min-duration 0 --max-cv 100 2>/dev/null");
  ASSERT_EQ(table.exit_code, 0) << table.output;
  EXPECT_NE(table.output.find("start  load (ms)  1st query (ms)"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("  cold  "), std::string::npos) << table.output;
}

TEST(ColdStartCli, AModelOnTmpfsCannotStartColdAndIsInvalidSayingSo) {
  const std::string dir = ::testing::TempDir();
  const std::string copy = dir + "/edgebench_cold_" + std::to_string(::getpid()) + ".onnx";
  std::filesystem::copy_file(TestModel("vit_micro.onnx"), copy, std::filesystem::copy_options::overwrite_existing);
  auto r = RunCommand(Executable() + " run " + copy +
                      " -t ort:cpu --start cold --warmup 1 --min-queries 3 --min-duration 0 --allow-busy --max-cv 100"
                      " --format json 2>/dev/null");
  std::filesystem::remove(copy);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 1u);
  if (records[0]["start"]["page_cache"]["dropped"].get<bool>()) {
    GTEST_SKIP() << ::testing::TempDir() << " is disk-backed here: no tmpfs to test against";
  }
  EXPECT_FALSE(records[0]["verdict"]["valid"].get<bool>());
  EXPECT_NE(records[0]["verdict"]["reasons"].dump().find("--start cold, but the model was not out of the page cache"),
            std::string::npos)
      << records[0]["verdict"];
}

TEST(ColdStartCli, LlamaCppLoadsWithMmapOnAndOffAsAsked) {
  // A copy of its own beside the test models (on disk, not tmpfs): a test running at the same time
  // that maps the shared model would keep its pages in the cache.
  const std::string copy = TestModel("llama-tiny.gguf") + ".cold-" + std::to_string(::getpid()) + ".gguf";
  std::filesystem::copy_file(TestModel("llama-tiny.gguf"), copy, std::filesystem::copy_options::overwrite_existing);
  auto r = RunCommand(Executable() + " llm " + copy +
                      " -t 'llamacpp:cpu?threads=1&mmap=off,llamacpp:cpu?threads=1' --start cold --prompt 8 --gen 2"
                      " --repeat 1 --warmup 0 --allow-busy --format json 2>/dev/null");
  std::filesystem::remove(copy);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 2u) << r.output;
  EXPECT_NE(records[0]["config"]["effective_target"].get<std::string>().find("mmap=off"), std::string::npos);
  EXPECT_NE(records[1]["config"]["effective_target"].get<std::string>().find("mmap=on"), std::string::npos);
  for (const auto& record : records) {
    EXPECT_TRUE(record["start"]["page_cache"]["dropped"].get<bool>()) << record["start"];
  }
  auto bad = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") +
                        " -t 'llamacpp:cpu?mmap=maybe' --prompt 8 --gen 2 --repeat 1 --warmup 0 --format json 2>&1");
  EXPECT_NE(bad.output.find("mmap"), std::string::npos) << bad.output;
}

TEST(ColdStartCli, ABadStartIsRefused) {
  auto r = RunCommand(Executable() + " run x -t null:sleep --start lukewarm 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--start 'lukewarm': give cold, warm or both"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace edgebench
