// Mix files (plan/mix_file.h): what a good one reads as, and every mistake at its line and column.
#include "plan/mix_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"

namespace edgebench {
namespace {

std::string Mix(const std::string& workloads, const std::string& head = "name: m\nduration: 2s\n") {
  return head + "workloads:\n" + workloads;
}

const std::string kModel = "    model: " + testing::TestModel("drift_mlp_other.onnx") + "\n";
const std::string kLlm = "    llm: " + testing::TestModel("llama-tiny-q8_0.gguf") + "\n";

TEST(MixFile, AGoodFileReadsAsItsWorkloads) {
  const std::string text = Mix("  - name: cam\n" + kModel +
                               "    target: ort:cpu\n    scenario: camera:4@10fps\n"
                               "    objectives: [p99<=66ms, dropped<=1%]\n"
                               "  - name: chat\n" + kLlm + "    every: 5s\n    gen: 8\n    objectives: [ttft<=2s]\n",
                               "name: box\nduration: 2m\nalone: after\nrounds: 3\nisolation: together\n");
  auto mix = ParseMixText(text, "box.yaml");
  ASSERT_TRUE(mix.ok()) << mix.error();
  EXPECT_EQ(mix.value().name, "box");
  EXPECT_EQ(mix.value().duration_ms, 120'000);
  EXPECT_EQ(mix.value().alone, "after");
  EXPECT_EQ(mix.value().rounds, 3);
  EXPECT_EQ(mix.value().isolation, "together");
  ASSERT_EQ(mix.value().workloads.size(), 2u);
  const MixWorkload& cam = mix.value().workloads[0];
  EXPECT_EQ(cam.kind, "model");
  EXPECT_EQ(cam.scenario, "camera:4@10fps");
  ASSERT_EQ(cam.objectives.size(), 2u);
  EXPECT_EQ(cam.objectives[0].metric, "p99_ms");
  EXPECT_DOUBLE_EQ(cam.objectives[0].bound, 66);
  EXPECT_EQ(cam.objectives[1].metric, "dropped_frames");
  EXPECT_DOUBLE_EQ(cam.objectives[1].bound, 0.01);
  const MixWorkload& chat = mix.value().workloads[1];
  EXPECT_EQ(chat.kind, "llm");
  EXPECT_EQ(chat.target, "llamacpp:cpu");
  EXPECT_DOUBLE_EQ(chat.every_s, 5);
  EXPECT_EQ(chat.gen, 8);
  EXPECT_EQ(chat.objectives[0].metric, "ttft_p99_ms");
  EXPECT_DOUBLE_EQ(chat.objectives[0].bound, 2000);
}

TEST(MixFile, EveryMistakeIsAtItsLineAndColumn) {
  const struct {
    std::string text;
    std::string where;
    std::string what;
  } cases[] = {
      {Mix("  - name: a\n" + kModel + "    target: ort:cpu\n    scenario: camera:4@10fps\n    colour: red\n"),
       "m.yaml:8:5", "colour"},
      {Mix("  - name: a\n" + kModel + "    target: ort:cpu\n    scenario: camera:0@10fps\n"), "m.yaml:7:15",
       "camera:N@FPS"},
      {Mix("  - name: a\n" + kModel + kLlm + "    target: ort:cpu\n    scenario: single-stream\n"), "m.yaml:4:5",
       "exactly one of"},
      {Mix("  - name: a\n" + kModel + "    target: ort:cpu\n    scenario: single-stream\n    objectives: [p99<66ms]\n"),
       "m.yaml:8:18", "METRIC<=BOUND"},
      {Mix("  - name: a\n" + kModel + "    target: ort:cpu\n    scenario: single-stream\n    objectives: [p99<=66]\n"),
       "m.yaml:8:18", "unit"},
      {Mix("  - name: a\n" + kModel + "    target: ort:cpu\n    scenario: single-stream\n"
           "  - name: a\n" + kModel + "    target: ort:cpu\n    scenario: single-stream\n"),
       "m.yaml:8:5", "named twice"},
      {Mix("  - name: a\n" + kModel + "    target: ort:cpu\n    scenario: soak:1m\n"), "m.yaml:7:15", "duration"},
      {Mix("  - name: c\n" + kLlm + "    scenario: llm\n"), "m.yaml:6:15", "every:"},
      {Mix("  - name: a/b\n" + kModel + "    target: ort:cpu\n    scenario: single-stream\n"), "m.yaml:4:11",
       "letters"},
      {Mix("  - name: a\n    model: /nonexistent.onnx\n    target: ort:cpu\n    scenario: single-stream\n"),
       "m.yaml:5:12", "is not a file"},
      {"name: m\nworkloads: []\n", "m.yaml:1:1", "duration"},
      {"name: m\nduration: 2s\nalone: sometimes\nworkloads: []\n", "m.yaml:3:8", "before, after or none"},
      {"name: m\nduration: [\n", "m.yaml:", "YAML syntax error"},
      {"name: m\nduration: 2s\nrounds: 0\nworkloads: []\n", "m.yaml:3:9", "rounds"},
      {Mix("  - name: c\n" + kLlm + "    every: 5s\n    arrivals: bursty\n"), "m.yaml:7:15", "poisson"},
      {Mix("  - name: c\n" + kLlm + "    every: 5s\n    mmproj: " + testing::TestModel("vlm-tiny-mmproj.gguf") + "\n"),
       "m.yaml:7:13", "both mmproj: and images:"},
      {Mix("  - name: c\n" + kLlm + "    every: 5s\n    mmproj: " + testing::TestModel("vlm-tiny-mmproj.gguf") +
           "\n    images: [/nonexistent.png]\n"),
       "m.yaml:8:14", "is not a file"},
      {Mix("  - name: a\n" + kModel + "    target: ort:cpu\n    scenario: single-stream\n    arrivals: uniform\n"),
       "m.yaml:8:15", "language model"},
      {"name: m\nduration: 2s\nrounds: 21\nworkloads: []\n", "m.yaml:3:9", "rounds"},
      {"name: m\nduration: 2s\nalone: none\nrounds: 3\nworkloads: []\n", "m.yaml:4:9", "nothing to interleave"},
      {"name: m\nduration: 2s\nisolation: threads\nworkloads: []\n", "m.yaml:3:12", "processes"},
  };
  for (const auto& c : cases) {
    auto mix = ParseMixText(c.text, "m.yaml");
    ASSERT_FALSE(mix.ok()) << c.text;
    EXPECT_NE(mix.error().find(c.where), std::string::npos) << mix.error();
    EXPECT_NE(mix.error().find(c.what), std::string::npos) << mix.error();
  }
}

TEST(MixFile, ObjectivesNameAMetricABoundAndItsUnit) {
  EXPECT_DOUBLE_EQ(ParseMixObjective("p99<=500us").value().bound, 0.5);
  EXPECT_DOUBLE_EQ(ParseMixObjective("p50_ms<=2s").value().bound, 2000);
  auto fps = ParseMixObjective("fps>=9.5");
  ASSERT_TRUE(fps.ok()) << fps.error();
  EXPECT_FALSE(fps.value().at_most);
  EXPECT_EQ(fps.value().metric, "slowest_stream_fps");
  EXPECT_FALSE(ParseMixObjective("speed<=3ms").ok());
  EXPECT_FALSE(ParseMixObjective("dropped<=1").ok());
  EXPECT_FALSE(ParseMixObjective("p99<=-1ms").ok());
}

TEST(MixFile, OnlyAFileWithWorkloadsIsAMix) {
  const std::string dir = testing::TempFilePath("mix_file", "dir");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/mix.yaml") << "# a mix\nname: m\nworkloads:\n";
  std::ofstream(dir + "/pipe.yaml") << "name: p\nstages: []\n";
  EXPECT_TRUE(IsMixFile(dir + "/mix.yaml"));
  EXPECT_FALSE(IsMixFile(dir + "/pipe.yaml"));
  EXPECT_FALSE(IsMixFile(dir + "/absent.yaml"));
  EXPECT_FALSE(IsMixFile(testing::TestModel("drift_mlp_other.onnx")));
  std::filesystem::remove_all(dir);
}


TEST(MixFile, AVisionLanguageAssistantTakesItsProjectorImagesAndText) {
  auto mix = ParseMixText(Mix("  - name: eyes\n" + kLlm + "    every: 4s\n    arrivals: uniform\n    mmproj: " +
                              testing::TestModel("vlm-tiny-mmproj.gguf") + "\n    images: [" +
                              testing::TestModel("vlm-photo.png") + "]\n    prompt_text: What is this?\n"),
                          "m.yaml");
  ASSERT_TRUE(mix.ok()) << mix.error();
  const MixWorkload& w = mix.value().workloads[0];
  EXPECT_EQ(w.arrivals, "uniform");
  EXPECT_EQ(w.mmproj, testing::TestModel("vlm-tiny-mmproj.gguf"));
  EXPECT_EQ(w.images, std::vector<std::string>{testing::TestModel("vlm-photo.png")});
  EXPECT_EQ(w.prompt_text, "What is this?");
}

}  // namespace
}  // namespace edgebench
