// `edgebench run PIPELINE.yaml` end to end (docs/pipelines.md): a record per case with its stage
// section, stage rows under the table, a slow stage's share rising, a failing or crashing stage
// named in its record, and mistakes in the file reported before anything runs.
#include <gtest/gtest.h>

#include <numeric>

#include "../fixtures_util.h"
#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

constexpr const char* kCliPhoto = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png";
const std::string kPipelineQuick = " --warmup 2 --min-queries 12 --min-duration 100";

// decode -> preprocess to RESIZE, and with a TARGET a null model on it -> top_k.
std::string HostPipeline(const std::string& name, const std::string& resize, const std::string& target = "") {
  std::string text = std::string("name: ") + name + "\ninput: " + kCliPhoto +
                     "\nstages:\n"
                     "  - {name: decode, kind: decode_image}\n"
                     "  - {name: resize, kind: preprocess, preprocess: \"resize=" + resize + "\"}\n";
  if (!target.empty()) {
    text += std::string("  - name: model\n    model: ") + kCliPhoto + "\n    targets: [\"" + target + "\"]\n";
  }
  if (!target.empty()) text += "  - {name: top, kind: top_k, k: 3}\n";
  return testing::WriteTempFile("pipeline_cli_", name + ".yaml", text);
}

double StageShare(const nlohmann::json& record, const std::string& stage) {
  for (const auto& s : record["pipeline"]["stages"]) {
    if (s["name"] == stage) return s["share"].get<double>();
  }
  ADD_FAILURE() << "no stage " << stage;
  return -1;
}

TEST(PipelineCli, EachScenarioIsARecordWithItsStages) {
  const std::string file = HostPipeline("nulls", "4x4", "null:sleep?input=1x4x4x3&us=300");
  auto r = RunCommand(Executable() + " run " + file + " -s single-stream,multi-stream:2" + kPipelineQuick +
                      " --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 2u);
  for (const auto& record : records) {
    EXPECT_EQ(record["config"]["model"], "nulls");
    EXPECT_EQ(record["config"]["requested_target"], "model=null:sleep?input=1x4x4x3&us=300");
    const auto& stages = record["pipeline"]["stages"];
    ASSERT_EQ(stages.size(), 4u);
    EXPECT_EQ(stages[2]["kind"], "model");
    EXPECT_EQ(stages[2]["ran_on"], "sleep:1");
    EXPECT_TRUE(stages[2]["cpu_mean_ns"].is_null());    // a runtime's threads are its own
    EXPECT_FALSE(stages[0]["cpu_mean_ns"].is_null());   // a host stage's CPU time
    EXPECT_EQ(stages[2]["calls_per_query"]["max"], 1);
    // Every measured query ran every stage; the shares and the harness's own add up to 1.
    double shares = record["pipeline"]["harness_share"].get<double>();
    for (const auto& s : stages) {
      EXPECT_EQ(s["queries"], record["summary"]["count"]);
      shares += s["share"].get<double>();
    }
    EXPECT_NEAR(shares, 1.0, 1e-9);
    EXPECT_GE(stages[2]["latency_ns"]["p50"].get<int64_t>(), 300'000);  // the null model's 300 us
  }
  // The table prints the stages of each case under the cases, a column per scenario.
  auto table = RunCommand(Executable() + " run " + file + kPipelineQuick + " --no-store 2>/dev/null");
  ASSERT_EQ(table.exit_code, 0) << table.output;
  EXPECT_NE(table.output.find("\nstages of "), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("single-stream mean (ms)"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("decode_image"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("model: sleep:1"), std::string::npos) << table.output;  // ran on, by stage
}

TEST(PipelineCli, ASlowResizeTakesALargerShareOfTheFrame) {
  // The same stages; only the resize's output grows, from 64 to 2.25 million pixels.
  auto small = RunCommand(Executable() + " run " + HostPipeline("small_resize", "8x8") + kPipelineQuick + " --format json 2>/dev/null");
  auto large = RunCommand(Executable() + " run " + HostPipeline("large_resize", "1500x1500") + kPipelineQuick + " --format json 2>/dev/null");
  ASSERT_EQ(small.exit_code, 0) << small.output;
  ASSERT_EQ(large.exit_code, 0) << large.output;
  const auto s = testing::JsonRecords(small.output).at(0), l = testing::JsonRecords(large.output).at(0);
  EXPECT_EQ(s["config"]["requested_target"], "host");
  EXPECT_LT(StageShare(s, "resize"), 0.5);
  EXPECT_GT(StageShare(l, "resize"), 0.8);
  EXPECT_GT(StageShare(l, "resize"), StageShare(s, "resize"));
  EXPECT_GT(l["summary"]["mean_ns"].get<double>(), s["summary"]["mean_ns"].get<double>());
  // The verdict rules hold end to end: a CV bound nothing meets makes it INVALID.
  auto strict = RunCommand(Executable() + " run " + HostPipeline("strict", "8x8") + kPipelineQuick +
                           " --max-cv 0.0000001 --format json 2>/dev/null");
  const auto invalid = testing::JsonRecords(strict.output).at(0);
  EXPECT_FALSE(invalid["verdict"]["valid"].get<bool>());
}

TEST(PipelineCli, AFailingOrCrashingStageIsNamedInItsRecord) {
  auto failed = RunCommand(Executable() + " run " + HostPipeline("failing", "4x4", "null:sleep?input=1x4x4x3&us=10&fail_at=5") +
                           kPipelineQuick + " --format json 2>/dev/null");
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  const auto f = testing::JsonRecords(failed.output).at(0);
  EXPECT_EQ(f["status"], "failed");
  EXPECT_NE(f["failure"]["error"].get<std::string>().find("stage 'model': null backend: run 5 failed"), std::string::npos)
      << f["failure"];
  auto crashed = RunCommand(Executable() + " run " + HostPipeline("crashing", "4x4", "null:sleep?input=1x4x4x3&us=10&crash_at=5") +
                            kPipelineQuick + " --format json 2>/dev/null");
  EXPECT_EQ(crashed.exit_code, 1) << crashed.output;
  const auto c = testing::JsonRecords(crashed.output).at(0);
  EXPECT_EQ(c["status"], "crashed");
  EXPECT_EQ(c["failure"]["stage"], "run, pipeline stage model") << c["failure"];
}

// ExecuTorch's library exports XNNPACK's symbols under the names ONNX Runtime's XNNPACK provider
// binds to: linked together they crash. Each plugin opened in its own symbol namespace, both run
// as stages of one pipeline in one worker; the ViT's free batch dimension is bound to 1 and said.
TEST(PipelineCli, RuntimesThatClashInOneProcessRunAsStagesOfOnePipeline) {
  if (testing::kSanitizerBuild) GTEST_SKIP() << "a sanitizer build opens plugins without RTLD_DEEPBIND (docs/backends.md)";
  const std::string file = testing::WriteTempFile(
      "pipeline_cli_", "mixed.yaml",
      std::string("name: mixed\ninput: ") + kCliPhoto +
          "\nstages:\n"
          "  - {name: decode, kind: decode_image}\n"
          "  - {name: detect_input, kind: preprocess, preprocess: \"resize=128x128,scale=0.0078431373,mean=1,std=1\"}\n"
          "  - name: detect\n"
          "    model:\n"
          "      name: blazeface\n"
          "      artifacts:\n"
          "        - path: " + testing::BlazeFaceOnnx() + "\n"
          "          outputs:\n"
          "            regressors: {concat: [\"Identity_2:0\", \"Identity_3:0\"], axis: 1}\n"
          "            classificators: {concat: [\"Identity:0\", \"Identity_1:0\"], axis: 1}\n"
          "    targets: [ort:xnnpack]\n"
          "  - {name: faces, kind: ssd_detections, preset: blazeface_short_range}\n"
          "  - {name: crop, kind: crop, preprocess: \"resize=32x32,layout=nchw\"}\n"
          "  - name: features\n"
          "    model: " + std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/torch/vit-tiny-test.json\n"
          "    targets: [executorch:xnnpack]\n");
  auto r = RunCommand(Executable() + " run " + file + kPipelineQuick + " --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto record = testing::JsonRecords(r.output).at(0);
  EXPECT_EQ(record["status"], "ok");
  const auto& stages = record["pipeline"]["stages"];
  EXPECT_EQ(stages[2]["target"].get<std::string>().rfind("ort:xnnpack", 0), 0u);
  EXPECT_EQ(stages[5]["target"].get<std::string>().rfind("executorch:xnnpack", 0), 0u);
  EXPECT_EQ(stages[5]["calls_per_query"]["max"], 1);  // the photograph's one face
  bool said = false;
  for (const auto& note : record["notes"]) {
    said = said || note.get<std::string>().find("stage 'features': free dimensions bound to 1") != std::string::npos;
  }
  EXPECT_TRUE(said) << record["notes"];
}

// --target T1,T2 on a pipeline: every model stage on each target in turn, a case named by it.
TEST(PipelineCli, TargetRunsEveryModelStageOnEachTargetInTurn) {
  const std::string file = HostPipeline("every", "4x4", "null:sleep?input=1x4x4x3");
  auto r = RunCommand(Executable() + " run " + file + " --target 'null:sleep?input=1x4x4x3&us=10','null:spin?input=1x4x4x3'" +
                      kPipelineQuick + " --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["config"]["requested_target"], "null:sleep?input=1x4x4x3&us=10");
  EXPECT_EQ(records[1]["config"]["requested_target"], "null:spin?input=1x4x4x3");
  EXPECT_EQ(records[1]["pipeline"]["stages"][2]["target"].get<std::string>().rfind("null:spin", 0), 0u);
}

TEST(PipelineCli, MistakesAreReportedBeforeAnythingRuns) {
  const std::string bad = testing::WriteTempFile(
      "pipeline_cli_", "bad.yaml",
      std::string("input: ") + kCliPhoto + "\nstages:\n  - {name: decode, kind: decode_image}\n  - {name: x, kind: blur}\n");
  auto r = RunCommand(Executable() + " run " + bad + " 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(bad + ":4:21: unknown stage kind 'blur'"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("case 1"), std::string::npos) << r.output;

  const std::string good = HostPipeline("flags", "4x4", "null:sleep?input=1x4x4x3");
  auto target = RunCommand(Executable() + " run " + good + " --target ort:cpu --stage model=null:cpu 2>&1");
  EXPECT_EQ(target.exit_code, 2);
  EXPECT_NE(target.output.find("give one or the other"), std::string::npos) << target.output;
  auto stage = RunCommand(Executable() + " run " + good + " --stage nope=null:cpu 2>&1");
  EXPECT_EQ(stage.exit_code, 2);
  EXPECT_NE(stage.output.find("has no model stage 'nope'"), std::string::npos) << stage.output;
  auto twice = RunCommand(Executable() + " run " + good + " --stage model=null:cpu --stage model=null:spin 2>&1");
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.output.find("--stage model is given twice; list its targets in one: --stage model=T1,T2"),
            std::string::npos)
      << twice.output;
  auto not_pipeline = RunCommand(Executable() + " run x -t null:sleep --stage a=null:cpu 2>&1");
  EXPECT_EQ(not_pipeline.exit_code, 2);
  EXPECT_NE(not_pipeline.output.find("--stage NAME=TARGET is for pipeline files"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
