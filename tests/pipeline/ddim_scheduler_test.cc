// The DDIM scheduler's arithmetic against diffusers' DDIMScheduler (0.42.1, Stable Diffusion
// 1.5's configuration) on fixed inputs: tests/models/diffusion/ddim_*.npy, written by
// `scripts/models/export-diffusion scheduler-reference` (tests/models/diffusion/README.md).
// The step must give diffusers' float32 bits exactly; the seeded inputs must be the ones the
// export script draws for its PyTorch reference.
#include "pipeline/ddim_scheduler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "inputs/npy_file.h"
#include "pipeline/diffusion_inputs.h"

namespace edgebench {
namespace {

std::string KeptDiffusionFile(const std::string& name) { return std::string(EDGEBENCH_SOURCE_DIR) + "/tests/models/diffusion/" + name; }

Tensor LoadDdimFixture(const std::string& name) {
  auto t = ReadNpyFile(KeptDiffusionFile(name));
  EXPECT_TRUE(t.ok()) << t.error();
  return t.ok() ? t.take() : Tensor{};
}

std::vector<float> DdimFloats(const Tensor& t) {
  std::vector<float> v(t.data.size() / sizeof(float));
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

uint32_t FloatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

TEST(DdimScheduler, TimestepsAreDiffusersLeadingSpacingWithTheOffset) {
  const Tensor expected = LoadDdimFixture("ddim_timesteps.npy");
  std::vector<int64_t> want(expected.data.size() / sizeof(int64_t));
  std::memcpy(want.data(), expected.data.data(), expected.data.size());
  auto schedule = MakeDdimSchedule(static_cast<int>(want.size()));
  ASSERT_TRUE(schedule.ok()) << schedule.error();
  ASSERT_EQ(schedule.value().timesteps.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(schedule.value().timesteps[i], want[i]) << i;
  auto twenty = MakeDdimSchedule(20);
  EXPECT_EQ(twenty.value().timesteps.front(), 951);
  EXPECT_EQ(twenty.value().timesteps.back(), 1);
}

// torch's float32 linspace (the betas' roots) rounds some entries differently from the plain
// formula, depending on its vector kernel (the CPU's width): the table is diffusers' to within
// one unit in the last place; the products accumulate in double as torch.cumprod's do.
TEST(DdimScheduler, TheAlphaTableIsDiffusersToOneUnitInTheLastPlace) {
  const std::vector<float> want = DdimFloats(LoadDdimFixture("ddim_alphas_cumprod.npy"));
  const std::vector<float> got = ScaledLinearAlphasCumprod();
  ASSERT_EQ(got.size(), want.size());
  int exact = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const int64_t ulps = std::llabs(static_cast<int64_t>(FloatBits(got[i])) - static_cast<int64_t>(FloatBits(want[i])));
    EXPECT_LE(ulps, 1) << "alphas_cumprod[" << i << "]: " << got[i] << " vs diffusers' " << want[i];
    exact += ulps == 0;
  }
  EXPECT_GT(exact, 850);  // most are the same bits (879 of 1000 here)
}

// Given diffusers' own alphas, the step's arithmetic is diffusers' to the bit.
TEST(DdimScheduler, EveryStepWithDiffusersAlphasGivesItsBitsExactly) {
  const std::vector<float> alphas = DdimFloats(LoadDdimFixture("ddim_alphas_cumprod.npy"));
  const std::vector<float> sample = DdimFloats(LoadDdimFixture("ddim_sample.npy"));
  const std::vector<float> noise = DdimFloats(LoadDdimFixture("ddim_model_output.npy"));
  const std::vector<float> steps = DdimFloats(LoadDdimFixture("ddim_steps.npy"));
  const size_t n = sample.size();
  const int count = static_cast<int>(steps.size() / n);
  auto schedule = MakeDdimSchedule(count);
  ASSERT_TRUE(schedule.ok());
  schedule.value().alphas_cumprod = alphas;
  schedule.value().final_alpha_cumprod = alphas.front();
  std::vector<float> x = sample;
  for (int k = 0; k < count; ++k) {
    DdimStep(schedule.value(), k, x.data(), noise.data(), x.data(), n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(FloatBits(x[i]), FloatBits(steps[static_cast<size_t>(k) * n + i])) << "step " << k << " element " << i;
    }
  }
}

TEST(DdimScheduler, EveryStepGivesDiffusersBitsExactly) {
  const std::vector<float> sample = DdimFloats(LoadDdimFixture("ddim_sample.npy"));
  const std::vector<float> noise = DdimFloats(LoadDdimFixture("ddim_model_output.npy"));
  const std::vector<float> steps = DdimFloats(LoadDdimFixture("ddim_steps.npy"));
  ASSERT_EQ(sample.size(), noise.size());
  const size_t n = sample.size();
  ASSERT_EQ(steps.size() % n, 0u);
  const int count = static_cast<int>(steps.size() / n);
  auto schedule = MakeDdimSchedule(count);
  ASSERT_TRUE(schedule.ok());
  std::vector<float> x = sample;
  for (int k = 0; k < count; ++k) {
    DdimStep(schedule.value(), k, x.data(), noise.data(), x.data(), n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(FloatBits(x[i]), FloatBits(steps[static_cast<size_t>(k) * n + i]))
          << "step " << k << " element " << i << ": " << x[i] << " vs diffusers' " << steps[static_cast<size_t>(k) * n + i];
    }
  }
}

TEST(DdimScheduler, StepsOutOfRangeAreRefused) {
  EXPECT_FALSE(MakeDdimSchedule(0).ok());
  EXPECT_FALSE(MakeDdimSchedule(1001).ok());
  EXPECT_TRUE(MakeDdimSchedule(1000).ok());
  EXPECT_EQ(MakeDdimSchedule(1000).value().timesteps.back(), 1);
}

TEST(DiffusionInputs, TheSeededLatentsAreTheExportScriptsBitForBit) {
  // ddim_sample.npy is seeded_latents(1, (1, 4, 4, 4)) in scripts/models/export_diffusion.py.
  const std::vector<float> want = DdimFloats(LoadDdimFixture("ddim_sample.npy"));
  const Tensor got = SeededLatents(1, {1, 4, 4, 4});
  ASSERT_EQ(got.data.size(), want.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(got.data.data(), want.data(), got.data.size()), 0);
}

TEST(DiffusionInputs, ThePromptIsTheEmptyOneAndASeededOnePaddedWithEos) {
  const Tensor tokens = SeededPromptTokens(0);
  ASSERT_EQ(tokens.shape, (std::vector<int64_t>{2, 77}));
  std::vector<int64_t> ids(154);
  std::memcpy(ids.data(), tokens.data.data(), tokens.data.size());
  EXPECT_EQ(ids[0], kClipBos);
  EXPECT_EQ(ids[1], kClipEos);
  EXPECT_EQ(ids[77], kClipBos);
  for (int i = 1; i <= kDiffusionPromptTokens; ++i) EXPECT_LT(ids[77 + i], kClipBos);
  EXPECT_EQ(ids[77 + kDiffusionPromptTokens + 1], kClipEos);
  EXPECT_EQ(ids[153], kClipEos);
  const Tensor other = SeededPromptTokens(1);
  EXPECT_NE(std::memcmp(tokens.data.data(), other.data.data(), tokens.data.size()), 0);
}

}  // namespace
}  // namespace edgebench
