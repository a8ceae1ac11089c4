// edgebench agree on real artifact pairs (fixtures), as a user runs it.
#include <gtest/gtest.h>

#include <fstream>

#include "../fixtures_util.h"
#include "../test_util.h"
#include "report/store.h"

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

TEST(AgreeCli, EachTargetBecomesARecordBesideTheLatencyRecords) {
  const std::string dir = "/tmp/edgebench_agree_" + std::to_string(::getpid());
  const std::string model = "oww=" + FixtureVariant("embedding_perturbed.onnx") + "," + OwwDir() +
                            "/embedding_model.tflite";
  auto r = RunCommand(Executable() + " agree '" + model + "' --target litert:cpu,ort:cpu --dim '*=1' --out " +
                      dir + " 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("2 records appended"), std::string::npos) << r.output;
  auto records = ReadRecords(dir + "/results.jsonl");
  ASSERT_TRUE(records.ok()) << records.error();
  ASSERT_EQ(records.value().size(), 2u);
  const Record& reference = records.value()[0];
  const Record& perturbed = records.value()[1];
  EXPECT_EQ(reference.scenario, "agree");
  ASSERT_TRUE(reference.agreement.has_value());
  EXPECT_TRUE(reference.agreement->is_reference);
  EXPECT_TRUE(reference.valid);
  ASSERT_TRUE(perturbed.agreement.has_value());
  EXPECT_EQ(perturbed.agreement->reference_target, "litert:cpu");
  ASSERT_EQ(perturbed.agreement->outputs.size(), 1u);
  EXPECT_FALSE(perturbed.agreement->outputs[0].violations.empty());
  EXPECT_FALSE(perturbed.valid);  // outside tolerance: the verdict says so, with the reason
  EXPECT_NE(perturbed.invalid_reasons.at(0).find("outside tolerance"), std::string::npos);
  EXPECT_EQ(perturbed.artifact_sha256.size(), 64u);
  EXPECT_EQ(perturbed.case_key.size(), 16u);
  EXPECT_NE(perturbed.case_key, reference.case_key);
  RunCommand("rm -rf " + dir);
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

TEST(AgreeCli, NothingComparedIsAFailure) {
  // The model has no .tflite artifact, so litert:cpu is skipped and only the reference runs.
  const std::string model = OwwDir() + "/embedding_model.onnx";
  auto r = RunCommand(Executable() + " agree '" + model + "' --target ort:cpu,litert:cpu --dim '*=1' 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("nothing was compared"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(litert:cpu skipped: model 'embedding_model' has no artifact that backend 'litert' reads"),
            std::string::npos)
      << r.output;
  int code = -1;
  auto report = Agree(model, "ort:cpu,litert:cpu", &code);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(report["compared_targets"], 0) << report.dump(2);
  EXPECT_FALSE(report["within_tolerance"].get<bool>());
}

TEST(AgreeCli, ASkippedTargetBesideAComparisonIsShownButNotAFailure) {
  const std::string model = OwwDir() + "/embedding_model.onnx";
  int code = -1;
  auto report = Agree(model, "ort:cpu,litert:cpu,ort:xnnpack", &code);
  EXPECT_EQ(code, 0) << report.dump(2);
  EXPECT_EQ(report["compared_targets"], 1) << report.dump(2);
  EXPECT_EQ(report["skipped_targets"], nlohmann::json::array({"litert:cpu"})) << report.dump(2);
  auto r = RunCommand(Executable() + " agree '" + model +
                      "' --target ort:cpu,litert:cpu,ort:xnnpack --dim '*=1' 2>&1 >/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("1 target not compared (skipped): litert:cpu"), std::string::npos) << r.output;
}

TEST(AgreeCli, AnOversizedResizeIsRefusedBeforeAllocating) {
  // resize=20000x20000 once made a 4.8 GB float tensor in the orchestrator itself.
  const std::string image = "/tmp/edgebench_agree_image_" + std::to_string(::getpid()) + ".ppm";
  {
    std::ofstream out(image, std::ios::binary);
    out << "P6\n2 1\n255\n";
    const unsigned char pixels[] = {0, 100, 200, 200, 100, 0};
    out.write(reinterpret_cast<const char*>(pixels), sizeof pixels);
  }
  const std::string model = "oww=" + OwwDir() + "/embedding_model.onnx," + OwwDir() + "/embedding_model.tflite";
  auto r = RunCommand(Executable() + " agree '" + model + "' --target ort:cpu,litert:cpu --input " + image +
                      " --preprocess resize=20000x20000 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  // Refused as written, before any pixel is allocated (20000*20000*3*4 bytes would be 4.8 GB).
  EXPECT_NE(r.output.find("bad resize '20000x20000': a side is at most 16384 pixels"), std::string::npos) << r.output;
  auto fine = RunCommand(Executable() + " agree '" + model + "' --target ort:cpu,litert:cpu --input " + image +
                         " --preprocess resize=64x64 2>&1");
  EXPECT_EQ(fine.output.find("--preprocess resize"), std::string::npos) << fine.output;
  std::remove(image.c_str());
}

// The largest resident size (VmHWM, kB) /proc shows for `pid` while it runs, polled until it
// exits (reaped here); -1 if none was read.
int64_t PeakResidentKbWhileRunning(pid_t pid) {
  int64_t peak = -1;
  for (;;) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("VmHWM:", 0) == 0) peak = std::max<int64_t>(peak, std::stoll(line.substr(6)));
    }
    int wait_status = 0;
    if (::waitpid(pid, &wait_status, WNOHANG) == pid) return peak;
    ::usleep(10000);
  }
}

TEST(AgreeCli, AnImageIsDecodedInTheWorkersNotTheOrchestrator) {
  // resize=4000x4000 is a 192 MB float tensor: made in each worker, under its memory limit, and
  // never in edgebench's own process (which once held it, and a JSON copy, before any worker ran).
  const std::string image = WriteTempFile("agree_", "image.ppm", std::string("P6\n2 1\n255\n") +
                                                                     std::string("\x00\x64\xc8\xc8\x64\x00", 6));
  const std::string model = "oww=" + OwwDir() + "/embedding_model.onnx," + OwwDir() + "/embedding_model.tflite";
  // Against the same command with an 8x8 image: what edgebench itself needs (more under a
  // sanitizer, whose shadow memory and quarantine grow with the binary) is the baseline, and
  // holding the 192 MB tensor would put the big one 192 MB above it.
  auto peak_with = [&](const std::string& resize) {
    const pid_t pid = SpawnQuietly({"agree", model, "--target", "ort:cpu,litert:cpu", "--input", image,
                                    "--preprocess", "resize=" + resize});
    return pid > 0 ? PeakResidentKbWhileRunning(pid) : -1;
  };
  const int64_t baseline_kb = peak_with("8x8");
  const int64_t peak_kb = peak_with("4000x4000");
  ASSERT_GT(baseline_kb, 0);
  ASSERT_GT(peak_kb, 0);
  EXPECT_LT(peak_kb, baseline_kb + 64 * 1024)
      << "edgebench itself held " << peak_kb << " kB, against " << baseline_kb << " kB with an 8x8 image";
  // The workers got the image spec: each says its own tensor does not fit the model.
  auto r = RunCommand(Executable() + " agree '" + model + "' --target ort:cpu,litert:cpu --input " + image +
                      " --preprocess resize=64x64 --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto report = nlohmann::json::parse(r.output);
  const std::string why = report["targets"][0]["error"];
  EXPECT_NE(why.find("input 0 ('input_1') is float32 [unk__314x76x32x1] but the given tensor is float32 "
                     "[1x64x64x3]"),
            std::string::npos)
      << why;
  std::remove(image.c_str());
}

}  // namespace
}  // namespace edgebench
