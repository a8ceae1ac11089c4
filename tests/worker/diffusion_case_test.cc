// A diffusion pipeline (docs/diffusion.md) on the tiny preset kept in tests/models/diffusion:
// the file's rules, and one image through the tool matching the PyTorch run of the same
// pipeline (diffusers' DDIMScheduler) that the export script wrote beside the models.
#include "worker/diffusion_case.h"
#include "worker/pipeline_case.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "backends/registry.h"
#include "inputs/npy_file.h"
#include "plan/pipeline_file.h"
#include "../test_util.h"

namespace edgebench {
namespace {

std::string TinyDiffusion(const std::string& name) {
  return std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/diffusion/" + name;
}

std::vector<float> TensorFloats(const Tensor& t) { return std::vector<float>(t.as<float>(), t.as<float>() + t.element_count()); }

class DiffusionCaseTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterBuiltBackends(registry_, testing::BackendPluginDir()); }

  PipelinePlan CaseOn(const std::string& target, int steps = 0) {
    auto pipeline = ReadPipelineFile(TinyDiffusion("diffusion.yaml"));
    EXPECT_TRUE(pipeline.ok()) << pipeline.error();
    if (steps) pipeline.value().diffusion->steps = steps;
    EXPECT_TRUE(SetEveryStageTargets(pipeline.value(), {target}).ok());
    auto cases = PipelineTargetCombinations(pipeline.value(), registry_);
    EXPECT_TRUE(cases.ok()) << cases.error();
    EXPECT_EQ(cases.value().size(), 1u);
    EXPECT_EQ(cases.value().front().label, target);
    return cases.value().front();
  }

  Registry registry_;
};

TEST_F(DiffusionCaseTest, TheQuerysInputIsTheExportScriptsTokensAndLatents) {
  auto pipeline = ReadPipelineFile(TinyDiffusion("diffusion.yaml"));
  ASSERT_TRUE(pipeline.ok()) << pipeline.error();
  const std::vector<Tensor> input = DiffusionQueryInput(*pipeline.value().diffusion);
  ASSERT_EQ(input.size(), 2u);
  for (const auto& [tensor, file] : {std::pair{&input[0], "reference/tokens.npy"}, {&input[1], "reference/initial_latents.npy"}}) {
    auto kept = ReadNpyFile(TinyDiffusion(file));
    ASSERT_TRUE(kept.ok()) << kept.error();
    EXPECT_EQ(tensor->shape, kept.value().shape) << file;
    ASSERT_EQ(tensor->data.size(), kept.value().data.size()) << file;
    EXPECT_EQ(std::memcmp(tensor->data.data(), kept.value().data.data(), tensor->data.size()), 0) << file;
  }
}

// The stages, the loop and the scheduler against PyTorch's run: the same final latents up to
// the runtimes' float differences, and the image in [-1, 1] of the VAE's size.
TEST_F(DiffusionCaseTest, OneImageOnOrtIsPyTorchsWithDiffusersScheduler) {
  const PipelineOnce once = RunPipelineOnce(CaseOn("ort:cpu"), registry_);
  ASSERT_TRUE(once.error.empty()) << once.stage << ": " << once.error;
  ASSERT_EQ(once.outputs.size(), 2u);
  EXPECT_EQ(once.outputs[0].name, "image");
  EXPECT_EQ(once.outputs[0].shape, (std::vector<int64_t>{1, 3, 64, 64}));
  EXPECT_EQ(once.outputs[1].name, "final_latents");
  const std::vector<float> got = TensorFloats(once.outputs[1]);
  auto kept = ReadNpyFile(TinyDiffusion("reference/final_latents.npy"));
  ASSERT_TRUE(kept.ok()) << kept.error();
  const std::vector<float> want = TensorFloats(kept.value());
  ASSERT_EQ(got.size(), want.size());
  double worst = 0, scale = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_TRUE(std::isfinite(got[i])) << i;
    worst = std::max(worst, std::fabs(static_cast<double>(got[i]) - want[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(want[i])));
  }
  EXPECT_GT(scale, 0.1);             // the reference is not all zeros
  EXPECT_LT(worst, 1e-3 * scale);    // 4 steps of guidance 7.5 amplify float noise, not more
  auto image = ReadNpyFile(TinyDiffusion("reference/image.npy"));
  ASSERT_TRUE(image.ok());
  const std::vector<float> pixels = TensorFloats(once.outputs[0]), reference = TensorFloats(image.value());
  ASSERT_EQ(pixels.size(), reference.size());
  for (size_t i = 0; i < pixels.size(); ++i) ASSERT_NEAR(pixels[i], reference[i], 1e-3) << i;
}

TEST_F(DiffusionCaseTest, TheStepsSettingIsTheUNetsCallCount) {
  const PipelineOnce two = RunPipelineOnce(CaseOn("ort:cpu", 2), registry_);
  const PipelineOnce four = RunPipelineOnce(CaseOn("ort:cpu", 4), registry_);
  ASSERT_TRUE(two.error.empty() && four.error.empty()) << two.error << four.error;
  // Fewer steps, another image: the latents differ.
  EXPECT_NE(TensorFloats(two.outputs[1]), TensorFloats(four.outputs[1]));
}

std::string ParseError(const std::string& text) {
  auto parsed = ParsePipelineText(text, TinyDiffusion("bad.yaml"));
  return parsed.ok() ? std::string("(parsed)") : parsed.error();
}

TEST(DiffusionFile, MistakesAreNamedWithTheirLine) {
  const std::string stages =
      "stages:\n"
      "  - {name: text_encoder, kind: text_encoder, model: text_encoder.json, targets: [ort:cpu]}\n"
      "  - {name: unet, kind: unet, model: unet.json, targets: [ort:cpu]}\n"
      "  - {name: guidance, kind: guidance}\n"
      "  - {name: scheduler, kind: ddim}\n"
      "  - {name: vae_decoder, kind: vae_decoder, model: vae_decoder.json, targets: [ort:cpu]}\n";
  EXPECT_EQ(ParseError("name: ok\ndiffusion: {image: 64x64, steps: 4}\n" + stages), "(parsed)");
  EXPECT_NE(ParseError("diffusion: {image: 60x64}\n" + stages).find("multiples of the VAE's factor 8"), std::string::npos);
  EXPECT_NE(ParseError("diffusion: {steps: 0}\n" + stages).find("bad.yaml:1:"), std::string::npos);
  // Issue 50, class 6: 5000000000 steps were cut to 1000000 and the error named the cut value.
  EXPECT_NE(ParseError("diffusion: {steps: 5000000000}\n" + stages)
                .find("steps: expected an integer from 1 to 1000; got '5000000000'"),
            std::string::npos);
  EXPECT_NE(ParseError("diffusion: {scheduler: euler}\n" + stages).find("ddim"), std::string::npos);
  EXPECT_NE(ParseError("diffusion: {stepz: 4}\n" + stages).find("stepz"), std::string::npos);
  EXPECT_NE(ParseError("diffusion: {}\ninput: /etc/hostname\n" + stages).find("leave input: out"), std::string::npos);
  // Out of order, and a diffusion stage in a plain pipeline.
  const std::string reordered =
      "diffusion: {}\nstages:\n"
      "  - {name: unet, kind: unet, model: unet.json, targets: [ort:cpu]}\n"
      "  - {name: text_encoder, kind: text_encoder, model: text_encoder.json, targets: [ort:cpu]}\n";
  EXPECT_NE(ParseError(reordered).find("text_encoder, unet, guidance, ddim, vae_decoder, in this order"),
            std::string::npos)
      << ParseError(reordered);
  EXPECT_NE(ParseError("input: /usr/lib/python3/dist-packages/skimage/data/astronaut.png\nstages:\n"
                       "  - {name: decode, kind: decode_image}\n  - {name: g, kind: guidance}\n")
                .find("is for a diffusion pipeline"),
            std::string::npos);
}

// Issue 50: names cut at 200 characters sent four cases' images to one file; each case now has
// its own, however alike the readable part.
TEST(DiffusionImageName, TwoCasesNeverShareAFile) {
  const std::string long_target = "ort:cpu?" + std::string(300, 'x');
  const std::string a = DiffusionImageName("sd", long_target + "&threads=1", "single-stream", "key-a");
  const std::string b = DiffusionImageName("sd", long_target + "&threads=2", "single-stream", "key-b");
  EXPECT_NE(a, b);
  EXPECT_LE(a.size(), 150u + 1 + 12 + 4);
  EXPECT_NE(DiffusionImageName("sd", "ort:cpu?a=1", "x", "k1"), DiffusionImageName("sd", "ort:cpu?a_1", "x", "k2"));
  EXPECT_EQ(a.find('/'), std::string::npos);
  EXPECT_EQ(DiffusionImageName("sd", "t", "s", "k"), DiffusionImageName("sd", "t", "s", "k")) << "stable";
}

}  // namespace
}  // namespace edgebench
