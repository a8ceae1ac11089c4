// edgebench agree on real artifact pairs (fixtures), as a user runs it.
#include <gtest/gtest.h>

#include "../fixtures_util.h"
#include "../test_util.h"

namespace edgebench {
namespace {

using namespace edgebench::testing;

nlohmann::json Agree(const std::string& model, const std::string& targets, int* exit_code) {
  auto r = RunCommand(Executable() + " agree '" + model + "' --target '" + targets +
                      "' --dim '*=1' --format json");
  *exit_code = r.exit_code;
  return nlohmann::json::parse(r.output);
}

TEST(AgreeCli, OnnxAndTfliteTwinsAgree) {
  int code = -1;
  const std::string model = "oww=" + OwwDir() + "/embedding_model.onnx," + OwwDir() + "/embedding_model.tflite";
  auto report = Agree(model, "ort:cpu,litert:cpu,ort:xnnpack", &code);
  EXPECT_EQ(code, 0) << report.dump(2);
  ASSERT_EQ(report["targets"].size(), 3u);
  const auto& litert = report["targets"][1]["outputs"][0];
  EXPECT_GT(litert["cosine"].get<double>(), 0.9999);
  EXPECT_LT(litert["max_abs_error"].get<double>(), 1e-3);
  EXPECT_TRUE(litert["within_tolerance"].get<bool>());
}

TEST(AgreeCli, PerturbedArtifactFailsTheTolerance) {
  int code = -1;
  const std::string model = "oww=" + FixtureVariant("embedding_perturbed.onnx") + "," + OwwDir() +
                            "/embedding_model.tflite";
  auto report = Agree(model, "litert:cpu,ort:cpu", &code);
  EXPECT_EQ(code, 1) << report.dump(2);
  const auto& ort = report["targets"][1]["outputs"][0];
  EXPECT_FALSE(ort["within_tolerance"].get<bool>());
  EXPECT_FALSE(ort["violations"].empty());
  EXPECT_FALSE(report["within_tolerance"].get<bool>());
}

TEST(AgreeCli, BlazeFaceRunsOnBothRuntimes) {
  auto r = RunCommand(Executable() + " run blazeface=" + BlazeFaceShort() + "," + BlazeFaceOnnx() +
                      " --target litert:cpu,ort:cpu,llamacpp:cpu --min-queries 5 --warmup 1"
                      " --min-duration 0 --format jsonl");
  std::istringstream lines(r.output);
  std::vector<nlohmann::json> records;
  for (std::string line; std::getline(lines, line);) records.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(records.size(), 3u) << r.output;
  EXPECT_EQ(records[0]["status"], "ok");
  EXPECT_EQ(records[0]["config"]["artifact"], BlazeFaceShort());
  EXPECT_EQ(records[1]["status"], "ok");
  EXPECT_EQ(records[1]["config"]["artifact"], BlazeFaceOnnx());
  // No backend of that name reads either artifact: it is unavailable or skipped, never run.
  EXPECT_NE(records[2]["status"], "ok");
}

TEST(AgreeCli, NeedsTwoTargets) {
  auto r = RunCommand(Executable() + " agree " + BlazeFaceShort() + " --target litert:cpu 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("at least two targets"), std::string::npos);
}

}  // namespace
}  // namespace edgebench
