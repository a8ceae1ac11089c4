// `edgebench run DIFFUSION.yaml` and `agree` on it, end to end on the tiny preset kept in
// tests/models/diffusion (docs/diffusion.md): every target a case with per-step rows, the step
// count and the stage structure in the record, the image written, a size the static export
// cannot take a failed cell beside the others, and the targets' final latents agreeing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "../test_util.h"

namespace edgebench {
namespace {

using testing::Executable;
using testing::RunCommand;

const std::string kTinyDiffusion = std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/diffusion/diffusion.yaml";
const std::string kDiffusionQuick = " --warmup 1 --min-queries 4 --min-duration 20";

TEST(DiffusionCli, EveryTargetIsACaseWithItsStepsAndImage) {
  const std::string images = testing::TempFilePath("diffusion_cli_", "images");
  std::filesystem::remove_all(images);
  auto r = RunCommand(Executable() + " run " + kTinyDiffusion + " --steps 3 --target ort:cpu,executorch:xnnpack" +
                      kDiffusionQuick + " --save-images " + images + " --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 2u);
  for (const auto& record : records) {
    const std::string target = record["config"]["requested_target"];
    const auto& p = record["pipeline"];
    std::vector<std::string> kinds;
    for (const auto& s : p["stages"]) kinds.push_back(s["kind"]);
    EXPECT_EQ(kinds, (std::vector<std::string>{"text_encoder", "unet", "guidance", "ddim", "vae_decoder"})) << target;
    EXPECT_EQ(p["stages"][0]["calls_per_query"]["max"], 1);
    EXPECT_EQ(p["stages"][1]["calls_per_query"]["min"], 3);  // one UNet call per step
    EXPECT_EQ(p["stages"][3]["calls_per_query"]["max"], 3);
    EXPECT_EQ(p["stages"][4]["calls_per_query"]["max"], 1);
    EXPECT_EQ(p["stages"][1]["target"].get<std::string>().rfind(target, 0), 0u) << p["stages"][1]["target"];
    EXPECT_TRUE(p["stages"][1].contains("load_rss_bytes"));
    const auto& d = p["diffusion"];
    EXPECT_EQ(d["settings"]["steps"], 3);
    EXPECT_EQ(d["settings"]["width"], 64);
    EXPECT_NE(d["prompt"].get<std::string>().find("no tokenizer"), std::string::npos);
    ASSERT_EQ(d["steps"].size(), 3u);  // unet, guidance, scheduler
    EXPECT_EQ(d["steps"][0]["stage"], "unet");
    for (const auto& s : d["steps"]) {
      EXPECT_EQ(s["steps"], 3);
      EXPECT_GE(s["images"].get<int>(), 4);
      EXPECT_EQ(s["by_step_p50_ns"].size(), 3u);
      ASSERT_FALSE(s["samples_ns"].empty());
      EXPECT_EQ(s["samples_ns"][0].size(), 3u);
      EXPECT_FALSE(s["first_step_ns"]["p50"].is_null());
      EXPECT_FALSE(s["later_steps_ns"]["p50"].is_null());
    }
    ASSERT_EQ(d["outputs"].size(), 2u);
    for (const auto& o : d["outputs"]) EXPECT_EQ(o["non_finite"], 0) << o["name"];
    const std::string image = d["image_file"];
    std::ifstream png(image, std::ios::binary);
    char magic[4] = {};
    png.read(magic, 4);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG") << image;
  }
  // The latency is per image: the stages of a query add up to it.
  for (const auto& record : records) {
    double shares = record["pipeline"]["harness_share"].get<double>();
    for (const auto& s : record["pipeline"]["stages"]) shares += s["share"].get<double>();
    EXPECT_NEAR(shares, 1.0, 1e-9);
  }
}

// The .pte files were exported at 64x64: ExecuTorch refuses 128x128 at prepare, in its own
// words, and ONNX Runtime (dynamic height and width) runs it: a failed cell, not the end.
TEST(DiffusionCli, ASizeTheStaticExportCannotTakeIsAFailedCaseBesideTheOthers) {
  auto r = RunCommand(Executable() + " run " + kTinyDiffusion +
                      " --steps 1 --image 128x128 --target executorch:xnnpack,ort:cpu" + kDiffusionQuick +
                      " --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["status"], "failed") << records[0].dump();
  EXPECT_EQ(records[0]["failure"]["stage"], "prepare");
  const std::string error = records[0]["failure"]["error"];
  EXPECT_NE(error.find("stage 'unet' at 128x128"), std::string::npos) << error;
  EXPECT_NE(error.find("ExecuTorch said"), std::string::npos) << error;  // the runtime's own words
  EXPECT_EQ(records[1]["status"], "ok");
  EXPECT_EQ(records[1]["pipeline"]["diffusion"]["outputs"][0]["shape"], (std::vector<int64_t>{1, 3, 128, 128}));
}

// The field report's failure: a runtime that refuses a dynamic batch, as one cell of the sweep.
TEST(DiffusionCli, TheShapeSweepMakesARefusedBatchACell) {
  auto r = RunCommand(Executable() + " shapes " + kTinyDiffusion +
                      " --target ort:cpu,executorch:xnnpack --dim batch=1,2" + kDiffusionQuick + " --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto records = testing::JsonRecords(r.output);
  ASSERT_EQ(records.size(), 4u);
  std::map<std::string, std::string> status;
  for (const auto& record : records) {
    const int64_t batch = record["config"]["dims"]["batch"];
    status[record["config"]["requested_target"].get<std::string>() + " " + std::to_string(batch)] = record["status"];
    if (record["status"] == "ok") {
      EXPECT_EQ(record["pipeline"]["diffusion"]["settings"]["batch"], batch);
    }
  }
  EXPECT_EQ(status["ort:cpu 1"], "ok");
  EXPECT_EQ(status["ort:cpu 2"], "ok");
  EXPECT_EQ(status["executorch:xnnpack 1"], "ok");
  EXPECT_EQ(status["executorch:xnnpack 2"], "failed");
  auto bad = RunCommand(Executable() + " shapes " + kTinyDiffusion + " --dim seq=1,2 2>&1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("sweeps batch (images per prompt), image"), std::string::npos) << bad.output;
}

TEST(DiffusionCli, TheTargetsFinalLatentsAgree) {
  auto r = RunCommand(Executable() + " agree " + kTinyDiffusion +
                      " --target ort:cpu,ort:xnnpack,executorch:xnnpack --format json 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto report = nlohmann::json::parse(r.output);
  EXPECT_EQ(report["within_tolerance"], true);
  EXPECT_EQ(report["compared_targets"], 2);
  EXPECT_NE(report["input"].get<std::string>().find("seeded prompt and latents"), std::string::npos);
}

TEST(DiffusionCli, DiffusionFlagsOnAnythingElseAreRefused) {
  auto r = RunCommand(Executable() + " run " + std::string(EDGEBENCH_SOURCE_DIR) +
                      "/tests/models/torch/mlp-test.onnx --steps 3 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("for diffusion pipelines"), std::string::npos) << r.output;
  r = RunCommand(Executable() + " run " + kTinyDiffusion + " --steps 0 2>&1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = RunCommand(Executable() + " run " + kTinyDiffusion + " --image 65x64 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("multiples of the VAE's factor"), std::string::npos) << r.output;
  r = RunCommand(Executable() + " run " + kTinyDiffusion + " --target ort:cpu --stage unet=ort:cpu 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("give one or the other"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace edgebench
