// Pipeline files (plan/pipeline_file.h): read before anything runs, every mistake reported
// with file, line and column; --stage overrides; a case per combination of the model stages'
// targets, each with the artifact its target reads.
#include "plan/pipeline_file.h"

#include <gtest/gtest.h>

#include "backends/null/null_backend.h"
#include "../test_util.h"

namespace edgebench {
namespace {

// The devroot's photograph (python3-skimage): a real image for the input: key.
constexpr const char* kPhoto = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png";

std::string Pipeline(const std::string& stages) {
  return std::string("name: faces\ninput: ") + kPhoto + "\nstages:\n" + stages;
}

const char* kGood =
    "  - {name: decode, kind: decode_image}\n"
    "  - {name: prep, kind: preprocess, preprocess: \"resize=4x4\"}\n"
    "  - name: detect\n"
    "    model: MODEL\n"
    "    targets: [null:sleep, null:spin]\n"
    "  - {name: faces, kind: ssd_detections, preset: blazeface_short_range, min_score_thresh: 0.6}\n"
    "  - {name: crop, kind: crop, preprocess: \"resize=2x2,layout=nchw\", max_detections: 3}\n"
    "  - name: features\n"
    "    model: MODEL\n"
    "    targets: null:cpu\n"
    "  - {name: top, kind: top_k, k: 2}\n";

std::string WithModel(std::string text, const std::string& model) {
  for (size_t at; (at = text.find("MODEL")) != std::string::npos;) text.replace(at, 5, model);
  return text;
}

TEST(PipelineFile, ReadsStagesTargetsAndOptions) {
  const std::string model = testing::WriteTempFile("pipeline_", "model.onnx", "x");
  auto p = ParsePipelineText(Pipeline(WithModel(kGood, model)), "/tmp/p.yaml");
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p.value().name, "faces");
  EXPECT_EQ(p.value().input, kPhoto);
  ASSERT_EQ(p.value().stages.size(), 7u);
  const auto& s = p.value().stages;
  EXPECT_EQ(s[2].kind, "model");  // inferred from model:
  EXPECT_EQ(s[2].targets, (std::vector<std::string>{"null:sleep", "null:spin"}));
  EXPECT_EQ(s[2].model.artifacts.at(0).path, model);
  EXPECT_EQ(s[3].postprocess["min_score_thresh"], 0.6);
  EXPECT_EQ(s[4].max_detections, 3);
  EXPECT_EQ(s[5].targets, (std::vector<std::string>{"null:cpu"}));
  EXPECT_EQ(s[6].k, 2);
  EXPECT_EQ(s[2].where, "/tmp/p.yaml:6:5");
}

struct BadCase {
  std::string stages;
  std::string where;    // "LINE:COLUMN"
  std::string message;  // a part of the error
};

TEST(PipelineFile, MistakesNameFileLineAndColumn) {
  const std::string model = testing::WriteTempFile("pipeline_", "model.onnx", "x");
  const std::vector<BadCase> cases = {
      {"  - {name: prep, kind: preprocess, preprocess: \"resize=4x4\"}\n", "4:5", "the first stage must be"},
      {"  - {name: decode, kind: decode_image}\n  - {name: d, kind: blur}\n", "5:21", "unknown stage kind 'blur'"},
      {"  - {name: decode, kind: decode_image, size: 3}\n", "4:40", "unknown key 'size'"},
      {"  - {name: decode, kind: decode_image}\n  - {name: decode, kind: top_k}\n", "5:5", "used twice"},
      {"  - {name: decode, kind: decode_image}\n  - {name: c, kind: crop, preprocess: \"resize=2x2\"}\n", "5:5",
       "needs an ssd_detections stage before it"},
      {"  - {name: decode, kind: decode_image}\n  - {name: p, kind: preprocess, preprocess: \"resize=0x2\"}\n", "5:45",
       "bad resize '0x2'"},
      {"  - {name: decode, kind: decode_image}\n  - {name: m, model: /nonexistent.onnx, targets: [ort:cpu]}\n",
       "5:22", "model file '/nonexistent.onnx' does not exist"},
      {"  - {name: decode, kind: decode_image}\n  - {name: m, model: " + model + ", targets: [ort:cpu, \"ort:cpu?threads\"]}\n",
       "5:", "target"},
      {"  - {name: decode, kind: decode_image}\n  - {name: m, model: " + model + "}\n", "5:5", "has no targets:"},
      {"  - {name: \"a b\", kind: decode_image}\n", "4:12", "bad stage name 'a b'"},
      {"  - {name: decode, kind: decode_image}\n  - {name: f, kind: ssd_detections, preset: nope}\n", "5:5", "nope"},
      {"  - {name: decode, kind: decode_image}\n  - {name: t, kind: top_k, k: 0}\n", "5:", "k"},
      // Issue 50, class 6: values past the bound were cut to it and recorded as if asked.
      {"  - {name: decode, kind: decode_image}\n  - {name: t, kind: top_k, k: 5000000}\n", "5:31",
       "k: expected an integer from 1 to 1000000; got '5000000'"},
      {"  - {name: decode, kind: decode_image}\n"
       "  - {name: f, kind: ssd_detections, preset: blazeface_short_range}\n"
       "  - {name: c, kind: crop, preprocess: \"resize=2x2\", max_detections: 2000000}\n",
       "6:", "max_detections: expected an integer from 1 to 1000000; got '2000000'"},
      {"  - {name: decode, kind: decode_image\n", "5:", "YAML syntax error"},
  };
  for (const BadCase& c : cases) {
    auto p = ParsePipelineText(Pipeline(c.stages), "/tmp/bad.yaml");
    ASSERT_FALSE(p.ok()) << c.stages;
    EXPECT_EQ(p.error().rfind("/tmp/bad.yaml:" + c.where, 0), 0u) << p.error();
    EXPECT_NE(p.error().find(c.message), std::string::npos) << p.error();
  }
  auto no_input = ParsePipelineText("stages:\n  - {name: decode, kind: decode_image}\n", "/tmp/bad.yaml");
  ASSERT_FALSE(no_input.ok());
  EXPECT_NE(no_input.error().find("no input"), std::string::npos) << no_input.error();
  auto not_image = ParsePipelineText("input: " + model + "\nstages:\n  - {name: decode, kind: decode_image}\n", "/tmp/bad.yaml");
  ASSERT_FALSE(not_image.ok());
  EXPECT_EQ(not_image.error().rfind("/tmp/bad.yaml:1:8: cannot read image", 0), 0u) << not_image.error();
}

// Issue 50: a few hundred bytes of aliases stand for billions of values ("billion laughs"); the
// file is refused before anything reads it, as is one nested past any pipeline's depth.
TEST(PipelineFile, AliasesThatExpandPastTheBoundAreRefusedBeforeReading) {
  std::string yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 9; ++i) {
    yaml += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) yaml += std::string(j ? ", " : "") + "*a" + std::to_string(i - 1);
    yaml += "]\n";
  }
  yaml += "stages: *a9\n";
  ASSERT_LT(yaml.size(), 1000u);
  auto p = ParsePipelineText(yaml, "/tmp/laughs.yaml");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().rfind("/tmp/laughs.yaml: the file expands to more than 100000 values", 0), 0u) << p.error();
  auto deep = ParsePipelineText("stages: " + std::string(100, '[') + std::string(100, ']') + "\n", "/tmp/deep.yaml");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.error().find("nested more than 64 levels deep"), std::string::npos) << deep.error();
}

// Issue 50: a pipeline file with a mistake in its top-level keys was taken for a model ("cannot
// read model"); a .yaml is always a pipeline file, its mistake named; a suite file says so.
TEST(PipelineFile, AnyYamlIsReadAsAPipelineFileAndItsMistakeNamed) {
  EXPECT_TRUE(IsPipelineFile("/nonexistent/p.yaml"));
  EXPECT_TRUE(IsPipelineFile("p.yml"));
  EXPECT_FALSE(IsPipelineFile("m.onnx"));
  const std::string typo = testing::WriteTempFile("pipeline_", "typo.yaml", "input: a.png\nstage:\n  - {name: d}\n");
  auto p = ReadPipelineFile(typo);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().find("stage"), std::string::npos) << p.error();
  EXPECT_EQ(p.error().rfind(typo + ":2:", 0), 0u) << p.error();
  const std::string suite =
      testing::WriteTempFile("pipeline_", "suite.yaml", "models: [a.onnx]\ntargets: [ort:cpu]\n");
  auto s = ReadPipelineFile(suite);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("this is a suite file"), std::string::npos) << s.error();
  EXPECT_NE(s.error().find("edgebench suite"), std::string::npos) << s.error();
  auto zero = ReadPipelineFile("/dev/zero");
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().find("not a regular file"), std::string::npos) << zero.error();
}

TEST(PipelineFile, StageFlagOverridesOneModelStagesTargets) {
  const std::string model = testing::WriteTempFile("pipeline_", "model.onnx", "x");
  auto p = ParsePipelineText(Pipeline(WithModel(kGood, model)), "/tmp/p.yaml").take();
  ASSERT_TRUE(OverrideStageTargets(p, "features=null:sleep,null:spin").ok());
  EXPECT_EQ(p.stages[5].targets, (std::vector<std::string>{"null:sleep", "null:spin"}));
  const Status unknown = OverrideStageTargets(p, "crop=null:cpu");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.message(), "--stage crop: pipeline 'faces' has no model stage 'crop'; its model stages: detect, features");
  EXPECT_FALSE(OverrideStageTargets(p, "detect").ok());
  EXPECT_FALSE(OverrideStageTargets(p, "detect=null:cpu?us").ok());
}

TEST(PipelineFile, ACasePerCombinationOfTheModelStagesTargets) {
  const std::string model = testing::WriteTempFile("pipeline_", "model.onnx", "x");
  auto p = ParsePipelineText(Pipeline(WithModel(kGood, model)), "/tmp/p.yaml").take();
  ASSERT_TRUE(OverrideStageTargets(p, "features=null:cpu,null:sleep?us=5").ok());
  Registry registry;
  registry.Add(std::make_unique<NullBackend>());
  auto cases = PipelineTargetCombinations(p, registry);
  ASSERT_TRUE(cases.ok()) << cases.error();
  ASSERT_EQ(cases.value().size(), 4u);
  EXPECT_EQ(cases.value()[0].label, "detect=null:sleep,features=null:cpu");
  EXPECT_EQ(cases.value()[3].label, "detect=null:spin,features=null:sleep?us=5");
  const std::vector<PipelinePlanStage>& stages = cases.value()[1].stages;
  EXPECT_EQ(stages[2].target.text, "null:sleep");
  EXPECT_EQ(stages[2].target.backend, "null");
  EXPECT_EQ(stages[2].artifact, model);
  EXPECT_EQ(stages[5].target.text, "null:sleep?us=5");
  EXPECT_EQ(stages[5].target.options.at("us"), "5");
  EXPECT_EQ(stages[4].preprocess, "resize=2x2,layout=nchw");
  EXPECT_EQ(cases.value()[1].input, kPhoto);

  ASSERT_TRUE(OverrideStageTargets(p, "features=ort:cpu").ok());
  auto unknown = PipelineTargetCombinations(p, registry);  // no ort backend in this registry
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().rfind("/tmp/p.yaml:11:5: stage 'features': target ort:cpu", 0), 0u) << unknown.error();
}

}  // namespace
}  // namespace edgebench
