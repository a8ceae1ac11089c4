// A pipeline's stages built from its case (worker/pipeline_case.h) on real runtimes: the
// detections a pipeline gives on the devroot's photograph are the raw BlazeFace's outputs
// decoded by `agree`'s code, on every detector target; and what the lanes timed becomes the
// record's stage section.
#include "worker/pipeline_case.h"

#include <unistd.h>
#include <sys/stat.h>
#include <gtest/gtest.h>

#include <cmath>

#include "backends/registry.h"
#include "diagnose/output_mapping.h"
#include "inputs/image_input.h"
#include "postprocess/ssd_detections.h"
#include "plan/pipeline_file.h"
#include "../fixtures_util.h"
#include "../pipeline/fixed_stage.h"
#include "../test_util.h"

namespace edgebench {
namespace {

constexpr const char* kCasePhoto = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png";
constexpr const char* kCaseDetectPreprocess = "resize=128x128,scale=0.0078431373,mean=1,std=1,layout=nhwc";

std::string DetectorPipelineText() {
  return std::string("name: detect\ninput: ") + kCasePhoto +
         "\nstages:\n"
         "  - {name: decode, kind: decode_image}\n"
         "  - {name: detect_input, kind: preprocess, preprocess: \"" + kCaseDetectPreprocess + "\"}\n"
         "  - name: detect\n"
         "    model:\n"
         "      name: blazeface\n"
         "      artifacts:\n"
         "        - path: " + testing::BlazeFaceShort() + "\n"
         "        - path: " + testing::BlazeFaceOnnx() + "\n"
         "          outputs:\n"
         "            regressors: {concat: [\"Identity_2:0\", \"Identity_3:0\"], axis: 1}\n"
         "            classificators: {concat: [\"Identity:0\", \"Identity_1:0\"], axis: 1}\n"
         "    targets: [litert:xnnpack, litert:cpu, ort:cpu, ort:xnnpack]\n"
         "  - {name: faces, kind: ssd_detections, preset: blazeface_short_range}\n";
}

std::vector<float> Floats(const Tensor& t) { return std::vector<float>(t.as<float>(), t.as<float>() + t.element_count()); }

class PipelineCaseTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterBuiltBackends(registry_, testing::BackendPluginDir()); }
  Registry registry_;
};

TEST_F(PipelineCaseTest, DetectionsAreTheRawModelsDecodedOnEveryDetectorTarget) {
  auto pipeline = ParsePipelineText(DetectorPipelineText(), "/tmp/detect.yaml");
  ASSERT_TRUE(pipeline.ok()) << pipeline.error();
  auto cases = PipelineTargetCombinations(pipeline.value(), registry_);
  ASSERT_TRUE(cases.ok()) << cases.error();
  ASSERT_EQ(cases.value().size(), 4u);
  const SsdDetectionsOptions ssd = SsdDetectionsPreset("blazeface_short_range").take();
  const Tensor image = LoadImageTensor(kCasePhoto, ParseImagePreprocess(kCaseDetectPreprocess).take()).take();
  const Tensor file = ReadPipelineInput(kCasePhoto).take();
  for (const PipelinePlan& c : cases.value()) {
    SCOPED_TRACE(c.label);
    BuiltPipeline built;
    ASSERT_TRUE(LoadPipelineModels(c, registry_, 1, built).ok());
    std::vector<std::string> notes;
    ASSERT_TRUE(PreparePipeline(c, built, notes).ok());
    // The raw model on the same session, decoded as `agree` decodes it: boxes in pixels of the
    // 128x128 input, which the 512x512 photograph was stretched to.
    Session& session = *built.models.at(0).sessions.at(0);
    std::vector<Tensor> raw;
    ASSERT_TRUE(session.Run({image}, raw).ok());
    raw = ApplyOutputMapping(built.models[0].outputs, std::move(raw), "raw").take();
    const std::vector<Tensor> expected = SsdDetectionsFromOutputs(raw, ssd).take();

    PipelineSystem system(std::move(built.stages));
    std::vector<Tensor> detections;
    ASSERT_TRUE(system.IssueQuery(0, {file}, detections).ok());
    ASSERT_EQ(detections.size(), 3u);
    EXPECT_EQ(detections[0].shape, (std::vector<int64_t>{1, 4}));  // Eileen Collins: one face
    ASSERT_EQ(detections[0].shape, expected[0].shape);
    const std::vector<float> boxes = Floats(detections[0]), want = Floats(expected[0]);
    for (size_t i = 0; i < boxes.size(); ++i) EXPECT_NEAR(boxes[i], want[i] * 4, 1e-3) << "coordinate " << i;
    EXPECT_NEAR(Floats(detections[1])[0], Floats(expected[1])[0], 1e-6);  // the score
    // The face is where it is in the photograph: about (179, 81)..(272, 174) of 512x512.
    EXPECT_GT(boxes[0], 150);
    EXPECT_LT(boxes[0], 210);
    EXPECT_GT(boxes[1], 50);
    EXPECT_LT(boxes[1], 110);
    EXPECT_GT(boxes[2], 240);
    EXPECT_LT(boxes[2], 300);
    EXPECT_GT(boxes[3], 145);
    EXPECT_LT(boxes[3], 205);
  }
}

TEST_F(PipelineCaseTest, AModelStageRefusesAShapeItWasNotPreparedFor) {
  std::string text = DetectorPipelineText();
  text.replace(text.find("resize=128x128"), 14, "resize=64x64");
  auto pipeline = ParsePipelineText(text, "/tmp/detect.yaml").take();
  ASSERT_TRUE(OverrideStageTargets(pipeline, "detect=litert:cpu").ok());
  auto cases = PipelineTargetCombinations(pipeline, registry_).take();
  BuiltPipeline built;
  ASSERT_TRUE(LoadPipelineModels(cases.at(0), registry_, 1, built).ok());
  std::vector<std::string> notes;
  ASSERT_TRUE(PreparePipeline(cases[0], built, notes).ok());
  PipelineSystem system(std::move(built.stages));
  std::vector<Tensor> out;
  const Status status = system.IssueQuery(0, {ReadPipelineInput(kCasePhoto).take()}, out);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind("stage 'detect': input '", 0), 0u) << status.message();
  EXPECT_NE(status.message().find("is float32 [1x128x128x3] but the stage before gives float32 [1x64x64x3]"),
            std::string::npos)
      << status.message();
}

TEST(PipelineStageSummary, SharesAreOfTheEndToEndMeanOverTheMeasuredQueries) {
  // Two stages on an injected clock: 1 ms and 3 ms a call, the second twice per query.
  std::atomic<int64_t> clock{0};
  int64_t cpu = 0;
  std::vector<PipelineSystem::Stages> lanes(1);
  lanes[0].push_back(std::make_unique<testing::FixedStage>("split", 1'000'000, 2, &clock));
  lanes[0].push_back(std::make_unique<testing::FixedStage>("each", 3'000'000, 1, &clock));
  PipelineSystem system(std::move(lanes), [&] { return clock.load(); }, [&] { return cpu += 10; });
  std::vector<Tensor> out;
  for (int q = 0; q < 12; ++q) ASSERT_TRUE(system.IssueQuery(0, {}, out).ok());
  // Queries 0 and 1 are the warmup (they start before 14 ms); the end-to-end mean is 7 ms.
  const PipelineRecord p = SummarizePipelineStages(system, 14'000'000, 1'000'000'000, 7'000'000);
  ASSERT_EQ(p.stages.size(), 2u);
  EXPECT_EQ(p.stages[0].queries, 10);
  EXPECT_EQ(p.stages[1].calls, 20);
  EXPECT_EQ(p.stages[1].min_calls, 2);
  EXPECT_DOUBLE_EQ(p.stages[0].share, 1.0 / 7);
  EXPECT_DOUBLE_EQ(p.stages[1].share, 6.0 / 7);
  EXPECT_NEAR(p.harness_share, 0, 1e-12);
  EXPECT_EQ(p.stages[1].p50_ns, 6'000'000);
  EXPECT_EQ(p.stages[0].first_run_ns, 1'000'000);
  EXPECT_DOUBLE_EQ(*p.stages[0].cpu_mean_ns, 10);  // one CPU clock step inside each stage
  // The trace's timeline: each measured query's start on the phase's axis and its stages.
  ASSERT_EQ(p.timeline.size(), 10u);
  EXPECT_EQ(p.timeline[0].start_ns, 0);
  EXPECT_EQ(p.timeline[1].start_ns, 7'000'000);
  EXPECT_EQ(p.timeline[1].stage_ns, (std::vector<int64_t>{1'000'000, 6'000'000}));
}

// Issue 50: the pipeline's input was read whole whatever it was; a FIFO blocked the worker.
TEST(PipelineInput, OnlyABoundedRegularFileIsRead) {
  const std::string fifo = ::testing::TempDir() + "pipeline_input_" + std::to_string(::getpid()) + ".png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto blocked = ReadPipelineInput(fifo);
  ::unlink(fifo.c_str());
  ASSERT_FALSE(blocked.ok());
  EXPECT_NE(blocked.error().find("it is a FIFO, not a regular file"), std::string::npos) << blocked.error();
  auto device = ReadPipelineInput("/dev/zero");
  ASSERT_FALSE(device.ok());
  EXPECT_NE(device.error().find("a character device"), std::string::npos) << device.error();
}

}  // namespace
}  // namespace edgebench
