// `edgebench llm` as a user runs it, on a tiny generated model.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

TEST(LlmCli, OneRecordPerPromptAndGenerationLength) {
  auto r = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") +
                      " --prompt 8,16 --gen 4 --repeat 3 --warmup 1 --format jsonl"
                      " --target 'llamacpp:cpu?threads=1'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::istringstream lines(r.output);
  std::vector<nlohmann::json> records;
  for (std::string line; std::getline(lines, line);) records.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(records.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const auto& llm = records[i]["llm"];
    EXPECT_EQ(records[i]["config"]["scenario"], "llm");
    EXPECT_EQ(llm["prompt_tokens_run"], i == 0 ? 8 : 16);
    EXPECT_EQ(llm["measured"].size(), 3u);
    EXPECT_EQ(llm["warmup"].size(), 1u);
    EXPECT_EQ(llm["summary"]["itl_gaps"], 9);  // 3 requests x 3 gaps
    EXPECT_FALSE(llm["settings"].contains("concurrency"));  // lockstep: the case key stays as before
    EXPECT_GT(llm["summary"]["prefill_tokens_per_s"].get<double>(), 0);
    EXPECT_TRUE(llm["model"]["random_weights"].get<bool>());
    EXPECT_EQ(llm["prompt_source"], "seeded token ids (seed 0)");
    EXPECT_EQ(records[i]["notes"][0], "random weights: latency only");
  }
}

TEST(LlmCli, TheMemoryMapSaysAGgufIsMappedWithMmapOnAndCopiedWithItOff) {
  auto r = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") +
                      " --prompt 8 --gen 2 --repeat 1 --warmup 0 --memory-map --format jsonl --no-store"
                      " --target 'llamacpp:cpu?threads=1,llamacpp:cpu?threads=1&mmap=off' 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = JsonLineRecords(r.output);
  ASSERT_EQ(records.size(), 2u) << r.output;
  const auto& on = records[0]["monitor"]["derived"]["weights"];
  const auto& off = records[1]["monitor"]["derived"]["weights"];
  ASSERT_EQ(on.size(), 1u) << records[0]["monitor"]["memory_map"]["reason"];
  ASSERT_EQ(off.size(), 1u);
  // mmap=on: the file's pages are the weights (llama.cpp may add a little of its own besides).
  EXPECT_EQ(on[0]["verdict"].get<std::string>().rfind("mapped", 0), 0u) << on[0]["explanation"];
  EXPECT_GT(on[0]["mapped_rss_kb"].get<int64_t>() * 1024, on[0]["file_bytes"].get<int64_t>() / 2);
  // mmap=off: read into memory, not a page of the file left mapped.
  EXPECT_EQ(off[0]["verdict"], "copied") << off[0]["explanation"];
  EXPECT_EQ(off[0]["mapped_rss_kb"], 0);
}

TEST(LlmCli, TableAndErrors) {
  auto table = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") +
                          " --prompt 8 --gen 2 --repeat 2 --sequences 2 2>&1");
  EXPECT_EQ(table.exit_code, 0) << table.output;
  EXPECT_NE(table.output.find("TTFT p50 (ms)"), std::string::npos);
  EXPECT_EQ(table.output.find("llama_model_loader"), std::string::npos) << "llama.cpp's loading log leaked";
  auto corrupt = RunCommand(Executable() + " llm " + TestModel("llama-tiny-truncated.gguf") +
                            " --gen 2 --repeat 1 --format jsonl");
  EXPECT_EQ(corrupt.exit_code, 1);
  const auto record = nlohmann::json::parse(corrupt.output);
  EXPECT_EQ(record["status"], "failed");
  EXPECT_EQ(record["failure"]["stage"], "load");
  auto bad = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") + " --prompt 8,x 2>&1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("expected positive integers separated by commas"), std::string::npos) << bad.output;
}

// Two requests in flight with continuous batching, lengths drawn per request: a valid record
// whose timings show overlapping requests, and the per-request metrics in the table.
TEST(LlmCli, ConcurrencyTwoServesRequestsTogether) {
  auto r = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") +
                      " --concurrency 2 --prompt-range 4:12 --gen-range 2:6 --repeat 6 --warmup 1"
                      " --slo ttft:10s,tpot:10s --allow-busy --format jsonl --target 'llamacpp:cpu?threads=1'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto record = nlohmann::json::parse(r.output);
  EXPECT_EQ(record["status"], "ok");
  if (testing::kSanitizerBuild) {
    EXPECT_EQ(record["verdict"]["reasons"], nlohmann::json::array({"sanitizer build of edgebench"}));
  } else {
    EXPECT_TRUE(record["verdict"]["valid"].get<bool>()) << record["verdict"].dump();
  }
  const auto& llm = record["llm"];
  EXPECT_EQ(llm["settings"]["concurrency"], 2);
  EXPECT_EQ(llm["settings"]["prompt_range"], nlohmann::json({4, 12}));
  EXPECT_EQ(llm["settings"]["gen_range"], nlohmann::json({2, 6}));
  EXPECT_EQ(llm["settings"]["slo"]["ttft_ns"], 10'000'000'000);
  EXPECT_EQ(llm["model"]["max_sequences"], 2);
  ASSERT_EQ(llm["measured"].size(), 6u);
  int64_t output_tokens = 0;
  for (const auto& request : llm["measured"]) {
    EXPECT_GE(request["prompt_tokens"].get<int64_t>(), 4);
    EXPECT_LE(request["prompt_tokens"].get<int64_t>(), 12);
    const auto later = static_cast<int64_t>(request["token_offsets_ns"].size());
    EXPECT_GE(later, 1);
    EXPECT_LE(later, 5);
    output_tokens += later;
  }
  // The first two requests start together.
  EXPECT_EQ(llm["measured"][0]["start_ns"], 0);
  EXPECT_EQ(llm["measured"][1]["start_ns"], 0);
  const auto& summary = llm["summary"];
  EXPECT_EQ(summary["output_tokens"], output_tokens);
  EXPECT_GT(summary["aggregate_tokens_per_s"].get<double>(), 0);
  EXPECT_EQ(summary["slo_met"], 6);
  EXPECT_GT(summary["request_tpot_percentiles_ns"]["p50"].get<int64_t>(), 0);
  EXPECT_GT(summary["e2e_percentiles_ns"]["p50"].get<int64_t>(), 0);

  auto table = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") +
                          " --concurrency 2 --prompt 8 --gen 4 --repeat 4 --slo ttft:10s"
                          " --target 'llamacpp:cpu?threads=1' 2>&1");
  EXPECT_EQ(table.exit_code, 0) << table.output;
  for (const char* header : {"concurrency", "TTFT p50 (ms)", "TPOT p50 (ms)", "tokens/s", "goodput (req/s)"}) {
    EXPECT_NE(table.output.find(header), std::string::npos) << header << "\n" << table.output;
  }
}

TEST(LlmCli, ServingFlagErrorsNameTheFlag) {
  const std::string base = Executable() + " llm " + TestModel("llama-tiny.gguf");
  for (const auto& [args, flag] : std::vector<std::pair<std::string, std::string>>{
           {" --slo ttft:500", "--slo"},
           {" --slo latency:5ms", "--slo"},
           {" --prompt-range 9:3", "--prompt-range"},
           {" --gen-range x", "--gen-range"},
           {" --concurrency 0", "--concurrency"},
           {" --rate -1", "--rate"},
           {" --concurrency 2 --sequences 2", "--sequences"}}) {
    auto r = RunCommand(base + args + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find(flag), std::string::npos) << args << ": " << r.output;
  }
}

// A suite crossing a language model and a tensor runtime with llm and tensor scenarios plans the
// crossings that cannot run as skipped, with the reason, instead of running them into failures.
TEST(LlmCli, SuiteSkipsScenariosTheTargetCannotRun) {
  const std::string dir = ::testing::TempDir() + "llm_suite_mix_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/suite.yaml")
      << "models: [" << TestModel("llama-tiny.gguf") << "]\n"
      << "targets: [\"null:spin?us=100\", \"llamacpp:cpu?threads=1\"]\n"
      << "scenarios: [single-stream, llm]\nllm: {prompt: [8], gen: [4]}\n";
  auto r = RunCommand(Executable() + " suite " + dir + "/suite.yaml --dry-run 2>&1");
  std::filesystem::remove_all(dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::istringstream lines(r.output);
  std::map<std::string, std::string> planned;  // "target scenario" -> the rest of the line
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string key, model, target, scenario;
    if (!(fields >> key >> model >> target >> scenario) || key.size() != 16) continue;
    planned[target + " " + scenario] = line;
  }
  ASSERT_EQ(planned.size(), 4u) << r.output;
  EXPECT_EQ(planned["null:spin?us=100 single-stream"].find("skipped"), std::string::npos);
  EXPECT_EQ(planned["llamacpp:cpu?threads=1 llm"].find("skipped"), std::string::npos);
  EXPECT_NE(planned["null:spin?us=100 llm"].find("skipped: scenario llm is for language models"),
            std::string::npos) << r.output;
  EXPECT_NE(planned["llamacpp:cpu?threads=1 single-stream"].find("runs language models only"),
            std::string::npos) << r.output;
}

// Issue 50, classes 4 and 6: an image that is a FIFO blocked the worker until its timeout; a list
// ending in ',' swallowed the next flag and the error named the wrong one; a directory as the
// model "did not exist".
TEST(LlmCli, ImagesThatCannotBeReadAreRefusedSayingWhy) {
  const std::string dir = TempFilePath("llm_images_", "dir");
  std::filesystem::create_directories(dir + "/model.gguf");
  ASSERT_EQ(::mkfifo((dir + "/camera.png").c_str(), 0600), 0);
  const std::string model = TestModel("llama-tiny.gguf");
  auto fifo = RunCommand(Executable() + " llm " + model + " --mmproj x.gguf --prompt-text hi --image " + dir +
                         "/camera.png 2>&1");
  EXPECT_EQ(fifo.exit_code, 2) << fifo.output;
  EXPECT_NE(fifo.output.find("it is a FIFO, not an image file"), std::string::npos) << fifo.output;
  auto comma = RunCommand(Executable() + " llm " + model + " --mmproj x.gguf --image , --prompt-text hi 2>&1");
  EXPECT_EQ(comma.exit_code, 2) << comma.output;
  EXPECT_NE(comma.output.find("'--prompt-text' is a flag, taken as an image"), std::string::npos) << comma.output;
  auto directory = RunCommand(Executable() + " llm " + dir + "/model.gguf 2>&1");
  EXPECT_EQ(directory.exit_code, 2) << directory.output;
  EXPECT_NE(directory.output.find("is a directory, not a file"), std::string::npos) << directory.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
