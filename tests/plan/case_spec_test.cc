// A case as it crosses to the worker and as the store knows it: its target, tune tag and pipeline
// plan typed on both sides of the JSON, and its key the one earlier releases gave it, so that a
// resumed store and `compare` still find the cases it holds.
#include "plan/case_spec.h"

#include <gtest/gtest.h>

namespace edgebench {
namespace {

const char* const kTarget = "null:sleep?us=300&input=1x4x4x3";

CaseSpec BaseCase() {
  CaseSpec spec;
  spec.model = "nulls";
  spec.artifact = "/p/one.yaml";
  spec.artifact_sha256 = "00ff";
  spec.settings.min_queries = 3;
  return spec;
}

PipelinePlanStage Stage(const std::string& name, const std::string& kind) {
  PipelinePlanStage stage;
  stage.name = name;
  stage.kind = kind;
  return stage;
}

// A stage of every kind, the model's with an output mapping.
PipelinePlan EveryKindOfStage() {
  PipelinePlan plan;
  plan.name = "nulls";
  plan.file = "/p/one.yaml";
  plan.input = "/p/in.png";
  PipelinePlanStage resize = Stage("resize", "preprocess");
  resize.preprocess = "resize=4x4";
  PipelinePlanStage crop = Stage("crop", "crop");
  crop.preprocess = "resize=2x2";
  crop.max_detections = 3;
  PipelinePlanStage ssd = Stage("ssd", "ssd_detections");
  ssd.postprocess = {{"preset", "x"}};
  PipelinePlanStage model = Stage("model", "model");
  model.target = ParseTarget(kTarget).take();
  model.artifact = "/p/m.png";
  model.model = "/p/m.png";
  model.outputs = {{"boxes", {"a", "b"}, 1}};
  PipelinePlanStage top = Stage("top", "top_k");
  top.k = 3;
  plan.stages = {Stage("decode", "decode_image"), resize, crop, ssd, model, top};
  return plan;
}

TuneTag TuneRoundTag() {
  TuneTag tag;
  tag.race = "r1";
  tag.model = "m";
  tag.scenario = "single-stream";
  tag.space = "s.yaml";
  tag.settings = {{"alpha", 0.05}};
  tag.configuration = "threads=2";
  tag.round = 1;
  tag.queries = 30;
  return tag;
}

// The keys below are those the same cases had when a case's target was text and its tune tag
// and pipeline untyped JSON (computed by that code on these values): typing the case must not
// move a stored case's key.
TEST(CaseSpec, KeysAreTheOnesEarlierReleasesGaveTheSameCases) {
  CaseSpec one = BaseCase();
  one.target = ParseTarget(kTarget).take();
  EXPECT_EQ(CaseKey(one), "ce4da465b30a435a");

  CaseSpec labelled = BaseCase();
  labelled.pipeline = EveryKindOfStage();
  labelled.pipeline->label = std::string("model=") + kTarget;
  EXPECT_EQ(CaseKey(labelled), "aebc4a3a3fb7fe14");

  CaseSpec same_target = BaseCase();
  same_target.target = one.target;
  same_target.pipeline = EveryKindOfStage();
  same_target.pipeline->label = kTarget;
  same_target.pipeline->save_images = "/p/images";
  EXPECT_EQ(CaseKey(same_target), "c95ff07fe3e8548d");

  CaseSpec host = BaseCase();
  PipelinePlan host_only = EveryKindOfStage();
  host_only.name = "host";
  host_only.file = "/p/host.yaml";
  host_only.label = "host";
  host_only.stages.resize(2);
  host.pipeline = host_only;
  EXPECT_EQ(CaseKey(host), "5a30fbdb15a5b470");

  CaseSpec tuned = one;
  tuned.tune = TuneRoundTag();
  EXPECT_EQ(CaseKey(tuned), "2ebeccf1eca9d244");
}

TEST(CaseSpec, TheWorkerReadsBackTheCaseItWasSent) {
  CaseSpec spec = BaseCase();
  spec.target = ParseTarget(kTarget).take();
  spec.tune = TuneRoundTag();
  spec.tune->entrants = {{"threads=2", 1.0}};
  spec.pipeline = EveryKindOfStage();
  spec.pipeline->label = kTarget;
  spec.pipeline->diffusion = DiffusionSettings{};
  ASSERT_TRUE(SettleCase(spec).ok());
  auto back = CaseSpecFromJson(nlohmann::json::parse(CaseSpecToJson(spec).dump()));
  ASSERT_TRUE(back.ok()) << back.error();
  const CaseSpec& b = back.value();
  EXPECT_EQ(b.target.backend, "null");
  EXPECT_EQ(b.target.device, "sleep");
  EXPECT_EQ(b.target.options, spec.target.options);
  EXPECT_EQ(b.TargetText(), kTarget);
  ASSERT_TRUE(b.tune);
  EXPECT_EQ(TuneTagToJson(*b.tune), TuneTagToJson(*spec.tune));
  ASSERT_TRUE(b.pipeline);
  EXPECT_EQ(PipelinePlanToJson(*b.pipeline), PipelinePlanToJson(*spec.pipeline));
  EXPECT_EQ(b.pipeline->stages.at(4).target.options.at("us"), "300");
  EXPECT_EQ(b.pipeline->stages.at(2).max_detections, 3);
  EXPECT_TRUE(b.pipeline->diffusion);
  EXPECT_EQ(b.case_key, spec.case_key);
  EXPECT_EQ(CaseKey(b), spec.case_key);
}

TEST(CaseSpec, AMultiTargetPipelineCaseHasNoTargetOfItsOwn) {
  CaseSpec spec = BaseCase();
  spec.pipeline = EveryKindOfStage();
  spec.pipeline->label = std::string("model=") + kTarget;
  auto back = CaseSpecFromJson(CaseSpecToJson(spec));
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_TRUE(back.value().target.backend.empty());
  EXPECT_EQ(back.value().TargetText(), std::string("model=") + kTarget);
}

TEST(CaseSpec, AMalformedCaseIsRefusedSayingWhatIsWrong) {
  CaseSpec spec = BaseCase();
  spec.target = ParseTarget(kTarget).take();
  nlohmann::json bad_target = CaseSpecToJson(spec);
  bad_target["target"] = "not a target";
  auto refused = CaseSpecFromJson(bad_target);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("bad target 'not a target'"), std::string::npos) << refused.error();

  spec.pipeline = EveryKindOfStage();
  spec.pipeline->label = kTarget;
  nlohmann::json bad_stage = CaseSpecToJson(spec);
  bad_stage["pipeline"]["stages"][4]["target"] = "?";
  refused = CaseSpecFromJson(bad_stage);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("stage 'model'"), std::string::npos) << refused.error();

  nlohmann::json bad_tag = CaseSpecToJson(spec);
  bad_tag["tune"] = {{"race", 1}};
  refused = CaseSpecFromJson(bad_tag);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("tune tag"), std::string::npos) << refused.error();
}

TEST(CaseSpec, EveryWorkerRequestReadsItsTargetThroughTheCaseReader) {
  auto target = ReadCaseTarget({{"target", "ort:cpu?threads=2"}});
  ASSERT_TRUE(target.ok()) << target.error();
  EXPECT_EQ(target.value().options.at("threads"), "2");
  EXPECT_FALSE(ReadCaseTarget({{"model", "m"}}).ok());
  EXPECT_FALSE(ReadCaseTarget({{"target", "a b"}}).ok());
}

}  // namespace
}  // namespace edgebench
