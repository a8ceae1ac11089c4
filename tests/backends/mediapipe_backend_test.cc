// The mediapipe backend on the npm BlazeFace model, made Task-ready by
// scripts/models/add-mediapipe-metadata into this build's tree: the script, the session contract
// (one uint8 image in; boxes, scores and keypoints out, shapes agreeing with each other), image
// and live-stream modes (four threads on one session), and the errors a user meets first.
// A binary of its own: it links the backend's objects, and so libmediapipe, directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "backends/mediapipe/mediapipe_backend.h"
#include "../test_util.h"

namespace edgebench {
namespace {

using nlohmann::json;
using testing::Executable;
using testing::CommandResult;
using testing::RunCommand;

const std::string kOriginal = std::string(EDGEBENCH_FIXTURES_DIR) +
                              "/mediapipe_face_detection_0.4.1657300184/face_detection_short_range.tflite";
const std::string kPrepared = std::string(EDGEBENCH_TEST_MODELS) + "/mediapipe/face_detection_short_range.tflite";

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

CommandResult AddMetadata(const std::string& input, const std::string& output) {
  return RunCommand("PYTHONPATH='" + std::string(EDGEBENCH_MEDIAPIPE_DIR) + "' '" + EDGEBENCH_SOURCE_DIR +
                    "/scripts/models/add-mediapipe-metadata' '" + input + "' '" + output + "' 2>&1");
}

// The prepared model, made once per test binary.
const std::string& PreparedModel() {
  static const std::string path = [] {
    auto r = AddMetadata(kOriginal, kPrepared);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return kPrepared;
  }();
  return path;
}

Target FaceTarget(const std::string& extra = "") {
  auto target = ParseTarget("mediapipe:cpu?task=face_detector" + extra);
  EXPECT_TRUE(target.ok()) << target.error();
  return target.value();
}

Tensor SeededImage(const TensorSpec& spec, uint32_t seed) {
  Tensor image{spec.name, DType::kUInt8, {}, {}};
  for (const Dim& d : spec.shape) image.shape.push_back(d.size);
  image.data.resize(static_cast<size_t>(image.element_count()));
  std::mt19937 random(seed);
  for (std::byte& b : image.data) b = static_cast<std::byte>(random() & 0xff);
  return image;
}

void ExpectConsistentDetections(const std::vector<Tensor>& outputs) {
  ASSERT_EQ(outputs.size(), 3u);
  EXPECT_EQ(outputs[0].name, "detection_boxes");
  EXPECT_EQ(outputs[1].name, "detection_scores");
  EXPECT_EQ(outputs[2].name, "detection_keypoints");
  ASSERT_EQ(outputs[0].shape.size(), 2u);
  const int64_t n = outputs[0].shape[0];
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{n, 4}));
  EXPECT_EQ(outputs[1].shape, (std::vector<int64_t>{n}));
  ASSERT_EQ(outputs[2].shape.size(), 3u);
  EXPECT_EQ(outputs[2].shape[0], n);
  EXPECT_EQ(outputs[2].shape[2], 2);
  if (n > 0) {
    EXPECT_EQ(outputs[2].shape[1], 6) << "BlazeFace has six keypoints";
  }
  for (const Tensor& t : outputs) {
    EXPECT_EQ(t.dtype, DType::kFloat32);
    EXPECT_EQ(static_cast<int64_t>(t.data.size()), t.element_count() * 4);
  }
  for (int64_t i = 1; i < n; ++i) {
    EXPECT_GE(reinterpret_cast<const float*>(outputs[1].data.data())[i - 1],
              reinterpret_cast<const float*>(outputs[1].data.data())[i]) << "scores sorted descending";
  }
}

TEST(MediaPipeMetadataScript, WritesAModelFaceDetectorAcceptsAndLeavesTheOriginal) {
  const std::string original = ReadBytes(kOriginal);
  ASSERT_FALSE(original.empty()) << kOriginal << " is missing: run scripts/fixtures";
  const std::string& prepared = PreparedModel();
  EXPECT_EQ(ReadBytes(kOriginal), original);
  const std::string again = testing::TempFilePath("mediapipe", "again.tflite");
  auto r = AddMetadata(prepared, again);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(ReadBytes(again), ReadBytes(prepared)) << "adding the metadata twice changes nothing";
  EXPECT_NE(ReadBytes(prepared).find("TFLITE_METADATA"), std::string::npos);

  auto session = MakeMediaPipeBackend()->Load(Artifact{prepared}, FaceTarget());
  ASSERT_TRUE(session.ok()) << session.error();
}

TEST(MediaPipeMetadataScript, RefusesToOverwriteItsInput) {
  auto r = AddMetadata(PreparedModel(), PreparedModel());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("never modified"), std::string::npos) << r.output;
}

TEST(MediaPipeBackend, SessionContractOnASeededRandomImage) {
  auto loaded = MakeMediaPipeBackend()->Load(Artifact{PreparedModel()}, FaceTarget());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  Session& session = *loaded.value();
  const Signature& signature = session.signature();
  ASSERT_EQ(signature.inputs.size(), 1u);
  EXPECT_EQ(signature.inputs[0].name, "image");
  EXPECT_EQ(signature.inputs[0].dtype, DType::kUInt8);
  EXPECT_EQ(ShapeToString(signature.inputs[0].shape), ShapeToString(std::vector<int64_t>{1, 128, 128, 3}));
  ASSERT_EQ(signature.outputs.size(), 3u);
  EXPECT_FALSE(signature.outputs[0].shape[0].fixed()) << "the detection count is free";
  ASSERT_TRUE(session.Prepare({{1, 128, 128, 3}}).ok());
  std::vector<Tensor> outputs;
  for (uint32_t seed = 0; seed < 3; ++seed) {
    Status s = session.Run({SeededImage(signature.inputs[0], seed)}, outputs);
    ASSERT_TRUE(s.ok()) << s.message();
    ExpectConsistentDetections(outputs);
  }
  EXPECT_EQ(session.effective_options().at("mode"), "image");
  bool latency_note = false;
  for (const std::string& note : session.notes()) {
    latency_note |= note.find("pre- and post-processing") != std::string::npos;
  }
  EXPECT_TRUE(latency_note);
}

TEST(MediaPipeBackend, ImageOptionSetsAnotherInputSize) {
  auto loaded = MakeMediaPipeBackend()->Load(Artifact{PreparedModel()}, FaceTarget("&image=320x240"));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  Session& session = *loaded.value();
  EXPECT_EQ(ShapeToString(session.signature().inputs[0].shape), ShapeToString(std::vector<int64_t>{1, 240, 320, 3}));
  EXPECT_FALSE(session.Prepare({{1, 128, 128, 3}}).ok());
  ASSERT_TRUE(session.Prepare({{1, 240, 320, 3}}).ok());
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session.Run({SeededImage(session.signature().inputs[0], 7)}, outputs).ok());
  ExpectConsistentDetections(outputs);
}

TEST(MediaPipeBackend, LiveStreamSessionServesFourThreads) {
  // A result may wait behind three others' on a busy or emulated machine (seen: past the
  // default 10 s under qemu-user): this test is about serving four threads, not about time.
  auto loaded = MakeMediaPipeBackend()->Load(Artifact{PreparedModel()}, FaceTarget("&mode=live_stream&timeout_ms=120000"));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  Session& session = *loaded.value();
  ASSERT_TRUE(session.Prepare({{1, 128, 128, 3}}).ok());
  std::vector<std::thread> streams;
  std::vector<std::string> errors(4);
  for (int stream = 0; stream < 4; ++stream) {
    streams.emplace_back([&, stream] {
      std::vector<Tensor> outputs;
      for (int run = 0; run < 25; ++run) {
        Status s = session.Run({SeededImage(session.signature().inputs[0], static_cast<uint32_t>(stream))}, outputs);
        if (!s.ok()) {
          errors[stream] = s.message();
          return;
        }
        ExpectConsistentDetections(outputs);
      }
    });
  }
  for (std::thread& t : streams) t.join();
  for (const std::string& error : errors) EXPECT_EQ(error, "");
}

TEST(MediaPipeBackend, ErrorsSayWhatToDo) {
  auto backend = MakeMediaPipeBackend();
  // Without task=, the model's outputs choose: BlazeFace's are the face detector's, and the
  // record says why; the selfie segmenter's per-pixel map is a segmenter's, not supported yet.
  auto no_task = backend->Load(Artifact{PreparedModel()}, ParseTarget("mediapipe:cpu").value());
  ASSERT_TRUE(no_task.ok()) << no_task.error();
  EXPECT_EQ(no_task.value()->effective_options().at("task"), "face_detector");
  const std::vector<std::string> notes = no_task.value()->notes();
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
    return note.find("task=face_detector (no task= given): its outputs [1x896x16], [1x896x1] are BlazeFace's") !=
           std::string::npos;
  })) << ::testing::PrintToString(notes);
  auto segmenter_model = backend->Load(
      Artifact{std::string(EDGEBENCH_FIXTURES_DIR) + "/mediapipe_selfie_segmentation_0.1.1675465747/selfie_segmentation.tflite"},
      ParseTarget("mediapipe:cpu").value());
  ASSERT_FALSE(segmenter_model.ok());
  EXPECT_NE(segmenter_model.error().find("task=image_segmenter is not supported yet"), std::string::npos)
      << segmenter_model.error();
  auto unknown = backend->Load(Artifact{PreparedModel()}, ParseTarget("mediapipe:cpu?task=pose").value());
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("unknown task 'pose'"), std::string::npos) << unknown.error();
  auto segmenter = backend->Load(Artifact{PreparedModel()}, ParseTarget("mediapipe:cpu?task=image_segmenter").value());
  ASSERT_FALSE(segmenter.ok());
  EXPECT_NE(segmenter.error().find("not supported yet"), std::string::npos) << segmenter.error();
  auto gpu = backend->Load(Artifact{PreparedModel()}, ParseTarget("mediapipe:gpu?task=face_detector").value());
  EXPECT_FALSE(gpu.ok());
  for (const DeviceInfo& device : backend->Info().devices) {
    if (device.name == "gpu") {
      EXPECT_FALSE(device.available);
    }
  }
}

TEST(MediaPipeCli, ModelWithoutMetadataFailsWithMediaPipesReasonAndTheFix) {
  auto r = RunCommand(Executable() + " run '" + kOriginal + "' -t 'mediapipe:cpu?task=face_detector'"
                      " --min-queries 5 --min-duration 0 --format jsonl 2>/dev/null");
  const json record = json::parse(r.output.substr(r.output.find('{')));
  EXPECT_EQ(record["status"], "failed");
  const std::string failure = record.dump();
  EXPECT_NE(failure.find("NormalizationOptions"), std::string::npos) << failure;
  EXPECT_NE(failure.find("scripts/models/add-mediapipe-metadata"), std::string::npos) << failure;
}

TEST(MediaPipeCli, RunPrintsARowForEachMode) {
  auto r = RunCommand(Executable() + " run '" + PreparedModel() + "' -t 'mediapipe:cpu?task=face_detector'"
                      " --warmup 2 --min-queries 10 --min-duration 0 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("mediapipe:cpu?task=face_detector  ok"), std::string::npos) << r.output;
  r = RunCommand(Executable() + " run '" + PreparedModel() + "' -t 'mediapipe:cpu?task=face_detector&mode=live_stream'"
                 " -s multi-stream:4 --sessions shared --warmup 2 --min-queries 20 --min-duration 0 --format jsonl --no-store 2>&1");
  const json record = json::parse(r.output.substr(r.output.find('{')));
  EXPECT_EQ(record["status"], "ok") << r.output;
  // What MediaPipe's flow limiter dropped is read after the run: every run was submitted at least
  // once, warmup included.
  bool counted = false;
  for (const json& note : record["notes"]) {
    const std::string text = note.get<std::string>();
    int64_t dropped = -1, submitted = -1;
    if (std::sscanf(text.c_str(), "mediapipe: live_stream: MediaPipe dropped %ld of the %ld frames", &dropped,
                    &submitted) == 2) {
      counted = true;
      EXPECT_GE(submitted, 22) << text;
      EXPECT_GE(dropped, 0) << text;
      EXPECT_LE(dropped, submitted) << text;
    }
  }
  EXPECT_TRUE(counted) << record["notes"].dump(2);
}

// The same weights through MediaPipe's FaceDetector Task and as a raw model decoded by edgebench
// (the manifest's ssd_detections postprocess) on a photograph with one face: scikit-image's
// astronaut from Debian's python3-skimage (the devroot has it). Both find the face, at the same
// place: MediaPipe reports whole pixels, so corners differ by up to a pixel.
TEST(MediaPipeCli, FaceDetectorAgreesWithTheDecodedRawModelOnAPhotograph) {
  const std::string image = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png";
  ASSERT_TRUE(std::filesystem::exists(image)) << image << " is missing: it comes with python3-skimage";
  const std::string dir = std::string(EDGEBENCH_TEST_MODELS) + "/mediapipe/agree";
  std::filesystem::create_directories(dir);
  const json manifest = {
      {"name", "blazeface_short_range"},
      {"artifacts", {{{"path", kOriginal}}, {{"path", PreparedModel()}, {"target", "mediapipe:cpu"}}}},
      {"postprocess", {{"kind", "ssd_detections"}, {"preset", "blazeface_short_range"}}}};
  std::ofstream(dir + "/blazeface.json") << manifest.dump(1);
  auto r = RunCommand(Executable() + " agree '" + dir + "/blazeface.json' --target "
                      "'litert:cpu,mediapipe:cpu?task=face_detector' --input " + image +
                      " --preprocess resize=128x128,mean=0.5,std=0.5 --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const json report = json::parse(r.output);
  const json* detections = nullptr;
  for (const json& o : report["targets"][1]["outputs"]) {
    if (o["name"] == "detections") detections = &o;
  }
  ASSERT_NE(detections, nullptr) << report.dump(2);
  EXPECT_EQ((*detections)["matched"], 1) << detections->dump(2);
  EXPECT_TRUE((*detections)["within_tolerance"].get<bool>()) << detections->dump(2);
  EXPECT_LE((*detections)["max_corner_error_px"].get<double>(), 1.5) << detections->dump(2);
  EXPECT_LT((*detections)["max_score_diff"].get<double>(), 0.01) << detections->dump(2);
}

// Several streams on one session, no mode= given: the session runs in live_stream (MediaPipe's
// mode for concurrent submissions) and says why; one stream stays in image mode.
TEST(MediaPipeCli, SharedStreamsChooseLiveStreamUnlessModeSaysOtherwise) {
  const std::string run = Executable() + " run '" + PreparedModel() + "' -t mediapipe:cpu --warmup 2 --min-queries 20"
                          " --min-duration 0 --format jsonl --no-store";
  auto shared = RunCommand(run + " -s multi-stream:3 --sessions shared 2>&1");
  const json record = json::parse(shared.output.substr(shared.output.find('{')));
  EXPECT_EQ(record["status"], "ok") << shared.output;
  EXPECT_NE(record["config"]["effective_target"].get<std::string>().find("mode=live_stream"), std::string::npos)
      << record["config"]["effective_target"];
  EXPECT_NE(record["notes"].dump().find("mode=live_stream (no mode= given): 3 streams share this session"),
            std::string::npos) << record["notes"].dump(2);
  auto single = RunCommand(run + " 2>&1");
  const json alone = json::parse(single.output.substr(single.output.find('{')));
  EXPECT_NE(alone["config"]["effective_target"].get<std::string>().find("mode=image"), std::string::npos)
      << alone["config"]["effective_target"];
}

}  // namespace
}  // namespace edgebench
