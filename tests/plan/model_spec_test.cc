#include "plan/model_spec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace edgebench {
namespace {

TEST(ModelSpec, SingleFileTakesItsStemAsName) {
  auto m = ParseModelArgument("/models/vit_b16.onnx");
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(m.value().name, "vit_b16");
  ASSERT_EQ(m.value().artifacts.size(), 1u);
  EXPECT_EQ(m.value().artifacts[0].layout, Layout::kAny);
}

TEST(ModelSpec, NamedArtifactsWithLayouts) {
  auto m = ParseModelArgument("blaze=/m/a.onnx?layout=nchw,/m/a.tflite?layout=nhwc");
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(m.value().name, "blaze");
  ASSERT_EQ(m.value().artifacts.size(), 2u);
  EXPECT_EQ(m.value().artifacts[0].path, "/m/a.onnx");
  EXPECT_EQ(m.value().artifacts[0].layout, Layout::kNchw);
  EXPECT_EQ(m.value().artifacts[1].layout, Layout::kNhwc);
  EXPECT_FALSE(ParseModelArgument("x=a.onnx?layout=chwn").ok());
  EXPECT_FALSE(ParseModelArgument("x=a.onnx?shape=1").ok());
  EXPECT_FALSE(ParseModelArgument("x=a.onnx,").ok());
}

TEST(ModelSpec, ManifestWithRelativePathsAndTolerances) {
  const auto dir = std::filesystem::temp_directory_path() / ("edgebench_manifest_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir / "m.json");
    out << R"({"name": "oww", "artifacts": [{"path": "e.onnx"}, {"path": "e.tflite", "layout": "nhwc"}],
               "tolerances": {"min_cosine": 0.99, "max_abs": 0.01}})";
  }
  auto m = ParseModelArgument((dir / "m.json").string());
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(m.value().name, "oww");
  EXPECT_EQ(m.value().artifacts[0].path, (dir / "e.onnx").string());
  EXPECT_EQ(m.value().artifacts[1].layout, Layout::kNhwc);
  EXPECT_EQ(m.value().tolerances.min_cosine, 0.99);
  EXPECT_EQ(m.value().tolerances.max_abs, 0.01);
  EXPECT_FALSE(m.value().tolerances.min_sqnr_db.has_value());
  std::filesystem::remove_all(dir);
}

TEST(ModelSpec, EachBackendGetsTheArtifactItReadsOrAReason) {
  auto m = ParseModelArgument("oww=a.onnx,a.tflite").take();
  BackendInfo ort;
  ort.name = "ort";
  ort.artifact_extensions = {".onnx"};
  BackendInfo litert;
  litert.name = "litert";
  litert.artifact_extensions = {".tflite"};
  BackendInfo llama;
  llama.name = "llamacpp";
  llama.artifact_extensions = {".gguf"};
  EXPECT_EQ(SelectArtifact(m, ort).value().path, "a.onnx");
  EXPECT_EQ(SelectArtifact(m, litert).value().path, "a.tflite");
  auto none = SelectArtifact(m, llama);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("(.gguf)"), std::string::npos) << none.error();
  EXPECT_NE(none.error().find("a.onnx, a.tflite"), std::string::npos) << none.error();
}

TEST(ModelSpec, AnArtifactMadeForOneTargetGoesToThatTarget) {
  // One format, one artifact per device: ExecuTorch's kernels-only and XNNPACK-lowered .pte.
  auto m = ParseModelArgument("vit=v.onnx,v.cpu.pte?target=executorch:cpu,"
                              "v.xnn.pte?layout=nchw&target=executorch:xnnpack").take();
  EXPECT_EQ(m.artifacts[2].layout, Layout::kNchw);
  BackendInfo et;
  et.name = "executorch";
  et.artifact_extensions = {".pte"};
  EXPECT_EQ(SelectArtifact(m, et, "cpu").value().path, "v.cpu.pte");
  EXPECT_EQ(SelectArtifact(m, et, "xnnpack").value().path, "v.xnn.pte");
  auto none = SelectArtifact(m, et, "vulkan");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("no artifact for executorch:vulkan: it has v.cpu.pte for executorch:cpu"),
            std::string::npos) << none.error();
  // An artifact for no one target serves every target of its backend.
  auto plain = ParseModelArgument("vit=v.pte").take();
  EXPECT_EQ(SelectArtifact(plain, et, "vulkan").value().path, "v.pte");
  EXPECT_FALSE(ParseModelArgument("vit=v.pte?target=cpu").ok());
  // The manifest's "target" field, as the export script writes it.
  auto manifest = ParseModelManifest(nlohmann::json::parse(R"({"name": "vit", "artifacts": [
      {"path": "v.xnnpack.pte", "target": "executorch:xnnpack"},
      {"path": "v.cpu.pte", "target": "executorch:cpu"}]})"), "/m");
  ASSERT_TRUE(manifest.ok()) << manifest.error();
  EXPECT_EQ(SelectArtifact(manifest.value(), et, "cpu").value().path, "/m/v.cpu.pte");
}

TEST(ModelSpec, ManifestOutputMappingPostprocessAndDetectionTolerances) {
  auto manifest = ParseModelManifest(nlohmann::json::parse(R"({"name": "blazeface", "artifacts": [
      {"path": "a.tflite"},
      {"path": "a.onnx", "outputs": {"regressors": {"concat": ["Identity_2:0", "Identity_3:0"], "axis": 1},
                                     "scores": "Identity:0"},
       "postprocess": {"kind": "ssd_detections", "preset": "blazeface_full_range"}}],
    "postprocess": {"kind": "ssd_detections", "preset": "blazeface_short_range", "min_score_thresh": 0.6},
    "tolerances": {"detections": {"max_corner_error_px": 3, "max_unmatched": 1}}})"),
                                     "/m");
  ASSERT_TRUE(manifest.ok()) << manifest.error();
  const ModelSpec& m = manifest.value();
  EXPECT_TRUE(m.artifacts[0].outputs.empty());
  ASSERT_EQ(m.artifacts[1].outputs.size(), 2u);
  const OutputMapping& regressors = m.artifacts[1].outputs[0];  // the keys in name order
  EXPECT_EQ(regressors.name, "regressors");
  EXPECT_EQ(regressors.sources, (std::vector<std::string>{"Identity_2:0", "Identity_3:0"}));
  EXPECT_EQ(regressors.axis, 1);
  EXPECT_EQ(m.artifacts[1].outputs[1].sources, (std::vector<std::string>{"Identity:0"}));
  // The artifact's own postprocess wins over the model's.
  EXPECT_DOUBLE_EQ(ArtifactPostprocess(m, m.artifacts[0])->decode.min_score_thresh, 0.6);
  EXPECT_EQ(ArtifactPostprocess(m, m.artifacts[1])->anchors.input_width, 192);
  EXPECT_DOUBLE_EQ(m.detection_tolerances.max_corner_error_px, 3);
  EXPECT_EQ(m.detection_tolerances.max_unmatched, 1);
  EXPECT_DOUBLE_EQ(m.detection_tolerances.min_iou, 0.5);

  auto bad = ParseModelManifest(nlohmann::json::parse(R"({"name": "x", "artifacts": [
      {"path": "a.onnx", "outputs": {"r": {"join": ["a", "b"]}}}]})"), "/m");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("artifact '/m/a.onnx': output 'r' must be"), std::string::npos) << bad.error();
  auto bad_postprocess = ParseModelManifest(
      nlohmann::json::parse(R"({"name": "x", "artifacts": [{"path": "a.onnx"}], "postprocess": {"kind": "nms"}})"), "/m");
  ASSERT_FALSE(bad_postprocess.ok());
  EXPECT_NE(bad_postprocess.error().find("postprocess kind 'nms'"), std::string::npos);
}

TEST(ModelSpec, ATargetReadsOnlyTheChosenOrTheDefaultVariant) {
  BackendInfo ort;
  ort.name = "ort";
  ort.artifact_extensions = {".onnx"};
  BackendInfo litert;
  litert.name = "litert";
  litert.artifact_extensions = {".tflite"};
  auto m = ParseModelArgument("cnn=c.onnx?variant=fp32&layout=nchw,c.q.onnx?variant=int8,c.q.tflite?variant=int8").take();
  EXPECT_EQ(ModelVariants(m), (std::vector<std::string>{"fp32", "int8"}));
  // The default variant is the first artifact's: the fp32 ONNX, never the int8 TFLite.
  EXPECT_EQ(SelectArtifact(m, ort).value().path, "c.onnx");
  auto litert_default = SelectArtifact(m, litert);
  ASSERT_FALSE(litert_default.ok());
  EXPECT_NE(litert_default.error().find("no 'fp32' variant that backend 'litert' reads; it has 'int8'"),
            std::string::npos) << litert_default.error();
  auto int8 = SelectVariant(m, "int8");
  ASSERT_TRUE(int8.ok()) << int8.error();
  EXPECT_EQ(int8.value().variant, "int8");
  EXPECT_EQ(SelectArtifact(int8.value(), ort).value().path, "c.q.onnx");
  EXPECT_EQ(SelectArtifact(int8.value(), litert).value().variant, "int8");
  auto missing = SelectVariant(m, "int4");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("no variant 'int4'; its variants are fp32, int8"), std::string::npos)
      << missing.error();
}

TEST(ModelSpec, ManifestVariantsPreprocessAndLabels) {
  const auto dir = std::filesystem::temp_directory_path() / ("edgebench_variants_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir / "cnn.json");
    out << R"({"name": "cnn", "preprocess": "scale=0.0039215686,mean=0.286,std=0.353,layout=nchw",
               "dataset": "fashion-mnist", "labels": ["a", "b"], "training": {"seed": 1},
               "artifacts": [{"path": "c.onnx", "variant": "fp32"},
                             {"path": "c.q.onnx", "variant": "int8-qdq"}]})";
  }
  const std::string manifest = (dir / "cnn.json").string();
  auto m = ParseModelArgument(manifest);
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(m.value().preprocess, "scale=0.0039215686,mean=0.286,std=0.353,layout=nchw");
  EXPECT_EQ(m.value().dataset, "fashion-mnist");
  EXPECT_EQ(m.value().labels, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(m.value().variant, "");
  auto q = ParseModelArgument(manifest + "?variant=int8-qdq");
  ASSERT_TRUE(q.ok()) << q.error();
  ASSERT_EQ(q.value().artifacts.size(), 1u);
  EXPECT_EQ(q.value().artifacts[0].path, (dir / "c.q.onnx").string());
  EXPECT_EQ(q.value().variant, "int8-qdq");
  auto bad = ParseModelArgument(manifest + "?variant=int4");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("its variants are fp32, int8-qdq"), std::string::npos) << bad.error();
  EXPECT_FALSE(ParseModelArgument(manifest + "?layout=nchw").ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace edgebench
