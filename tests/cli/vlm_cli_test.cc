// `edgebench llm --mmproj --image` as a user runs it, on the tiny generated vision preset
// (llama-tiny with vlm-tiny-mmproj: a 56 px CLIP-style tower, patch 14, so 16 image tokens).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "../test_util.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

std::string VisionCommand(const std::string& mmproj, const std::string& images, const std::string& extra = "",
                          const std::string& format = "jsonl") {
  return Executable() + " llm " + TestModel("llama-tiny.gguf") + " --mmproj " + mmproj + " --image " + images +
         " --prompt-text 'Describe the image.' --gen 3 --repeat 3 --warmup 1 --format " + format +
         " --target 'llamacpp:cpu?threads=1' " + extra;
}

nlohmann::json OneRecord(const CommandResult& r) {
  std::istringstream lines(r.output);
  std::string line;
  std::getline(lines, line);
  return nlohmann::json::parse(line);
}

TEST(VlmCli, EveryRequestHasItsStagesAndTtftHoldsThem) {
  const std::string image = TestModel("vlm-photo.png");
  auto r = RunCommand(VisionCommand(TestModel("vlm-tiny-mmproj.gguf"), image + "," + image,
                                    "--images-per-request 2"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto record = OneRecord(r);
  ASSERT_EQ(record["status"], "ok") << record.dump(1);
  const auto& llm = record["llm"];
  EXPECT_EQ(llm["settings"]["images_per_request"], 2);
  EXPECT_EQ(llm["model"]["vision_device"], "CPU");
  EXPECT_NE(llm["model"]["projector"].get<std::string>().find("vlm-tiny-mmproj.gguf"), std::string::npos);
  ASSERT_EQ(llm["measured"].size(), 3u);
  for (const auto& request : llm["measured"]) {
    const auto& v = request["vision"];
    EXPECT_EQ(v["images"], 2);
    // The projector's arithmetic: (56 / 14)^2 patches, the class token dropped, per image.
    EXPECT_EQ(v["image_tokens"], 2 * 16);
    EXPECT_GT(v["text_tokens"].get<int64_t>(), 0);
    EXPECT_EQ(request["prompt_tokens"], v["image_tokens"].get<int64_t>() + v["text_tokens"].get<int64_t>());
    const int64_t stages = v["preprocess_ns"].get<int64_t>() + v["encode_ns"].get<int64_t>() +
                           v["image_prefill_ns"].get<int64_t>() + v["text_prefill_ns"].get<int64_t>();
    for (const char* stage : {"preprocess_ns", "encode_ns", "image_prefill_ns", "text_prefill_ns"}) {
      EXPECT_GT(v[stage].get<int64_t>(), 0) << stage;
    }
    EXPECT_GE(request["ttft_ns"].get<int64_t>(), stages);
  }
  const auto& summary = llm["summary"]["vision"];
  EXPECT_EQ(summary["requests"], 3);
  EXPECT_DOUBLE_EQ(summary["image_tokens_per_image"].get<double>(), 16);
  EXPECT_NE(std::find(record["notes"].begin(), record["notes"].end(), "random weights: latency only"),
            record["notes"].end());

  auto table = RunCommand(VisionCommand(TestModel("vlm-tiny-mmproj.gguf"), image, "2>&1", "table"));
  EXPECT_EQ(table.exit_code, 0) << table.output;
  for (const char* column : {"image tokens", "encode p50 (ms)", "image prefill p50 (ms)", "text prefill p50 (ms)"}) {
    EXPECT_NE(table.output.find(column), std::string::npos) << column << "\n" << table.output;
  }
}

TEST(VlmCli, ServingLoadRunsImageRequestsTogether) {
  auto r = RunCommand(VisionCommand(TestModel("vlm-tiny-mmproj.gguf"), TestModel("vlm-photo.png"),
                                    "--concurrency 2 --slo ttft:10s"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto record = OneRecord(r);
  ASSERT_EQ(record["status"], "ok") << record.dump(1);
  for (const auto& request : record["llm"]["measured"]) EXPECT_TRUE(request.contains("vision"));
  EXPECT_EQ(record["llm"]["summary"]["slo_met"], 3);
}

// One marker per image puts the images inside the text: two images, text before, between and after.
TEST(VlmCli, MarkersPlaceTheImagesInTheText) {
  auto r = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") + " --mmproj " +
                      TestModel("vlm-tiny-mmproj.gguf") + " --image " + TestModel("vlm-photo.png") +
                      " --images-per-request 2 --prompt-text 'first <__media__> then <__media__> which?' --gen 2"
                      " --repeat 2 --warmup 0 --format jsonl --target 'llamacpp:cpu?threads=1'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto record = OneRecord(r);
  ASSERT_EQ(record["status"], "ok") << record.dump(1);
  for (const auto& request : record["llm"]["measured"]) {
    EXPECT_EQ(request["vision"]["images"], 2);
    EXPECT_EQ(request["vision"]["image_tokens"], 32);
  }
}

// A bad projector or image is the case's error record, naming the file; a malformed request is
// a usage error.
TEST(VlmCli, BadFilesAreClearErrorRecords) {
  const std::string not_an_image = WriteTempFile("vlm_", "not-an-image.png", "this is text, not a PNG");
  const struct {
    std::string mmproj, image, expected;
  } cases[] = {
      {TempFilePath("vlm_", "missing-mmproj.gguf"), TestModel("vlm-photo.png"), "missing-mmproj.gguf"},
      {TestModel("vlm-tiny-mmproj-truncated.gguf"), TestModel("vlm-photo.png"), "vlm-tiny-mmproj-truncated.gguf"},
      {TestModel("vlm-tiny-mmproj.gguf"), TempFilePath("vlm_", "missing.png"), "missing.png' does not exist"},
      {TestModel("vlm-tiny-mmproj.gguf"), not_an_image, "not-an-image.png' could not be decoded"},
  };
  for (const auto& c : cases) {
    auto r = RunCommand(VisionCommand(c.mmproj, c.image));
    EXPECT_EQ(r.exit_code, 1) << r.output;
    const auto record = OneRecord(r);
    EXPECT_EQ(record["status"], "failed");
    EXPECT_EQ(record["failure"]["stage"], "load");
    EXPECT_NE(record["failure"]["error"].get<std::string>().find(c.expected), std::string::npos)
        << record["failure"].dump();
  }
  auto no_mmproj = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") + " --image " +
                              TestModel("vlm-photo.png") + " --prompt-text hi 2>&1");
  EXPECT_EQ(no_mmproj.exit_code, 2);
  EXPECT_NE(no_mmproj.output.find("give --mmproj"), std::string::npos) << no_mmproj.output;
  auto no_text = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") + " --mmproj " +
                            TestModel("vlm-tiny-mmproj.gguf") + " --image " + TestModel("vlm-photo.png") + " 2>&1");
  EXPECT_EQ(no_text.exit_code, 2);
  EXPECT_NE(no_text.output.find("--prompt-text"), std::string::npos) << no_text.output;
  // One marker for two images per request: the request is ill-formed, which the load finds.
  auto markers = RunCommand(Executable() + " llm " + TestModel("llama-tiny.gguf") + " --mmproj " +
                            TestModel("vlm-tiny-mmproj.gguf") + " --image " + TestModel("vlm-photo.png") +
                            " --images-per-request 2 --prompt-text 'look: <__media__> what is it?' --gen 2"
                            " --repeat 1 --format jsonl");
  EXPECT_EQ(markers.exit_code, 1) << markers.output;
  EXPECT_NE(OneRecord(markers)["failure"]["error"].get<std::string>().find("markers"), std::string::npos)
      << markers.output;
}

}  // namespace
}  // namespace edgebench
