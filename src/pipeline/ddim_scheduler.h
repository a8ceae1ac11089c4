// The DDIM scheduler's arithmetic (Song et al., deterministic: eta 0) as Stable Diffusion 1.5
// configures it and diffusers' DDIMScheduler computes it: 1000 training steps, a "scaled
// linear" beta schedule from 0.00085 to 0.012, "leading" timestep spacing with an offset of 1,
// epsilon prediction, no clipping, and the last step's previous alpha the first training
// step's (set_alpha_to_one false). A diffusion pipeline's `ddim` host stage runs it per step.
//
// DdimStep does, per element, the float32 operations diffusers' step does, in the same order,
// so that from the same alphas it gives the same bits (tests/pipeline/ddim_scheduler_test.cc
// checks it against diffusers' output on fixed inputs). The alpha table is diffusers' to one
// unit in the last place: torch's float32 linspace rounds some of the betas' roots by its vector
// kernel, which depends on the CPU.
#pragma once

#include <cstddef>
#include <vector>

#include "core/status.h"

namespace edgebench {

inline constexpr int kDdimTrainSteps = 1000;

struct DdimSchedule {
  std::vector<float> alphas_cumprod;  // per training step
  float final_alpha_cumprod = 0;      // the alpha after the last inference step
  std::vector<int> timesteps;         // per inference step, descending
  int step_ratio = 0;                 // training steps per inference step
};

// The schedule for `steps` inference steps (1..1000); an error says why not.
Result<DdimSchedule> MakeDdimSchedule(int steps);

// SD 1.5's cumulative alphas: the betas' float32 linspace and squares, their product
// accumulated in double (as torch.cumprod does on the CPU) and rounded per step.
std::vector<float> ScaledLinearAlphasCumprod();

// One step from timestep `steps.timesteps[step]`: `sample` (x_t) and the guided noise prediction
// `model_output`, `count` floats each, give x_{t-1} in `prev` (may alias `sample`).
void DdimStep(const DdimSchedule& schedule, int step, const float* sample, const float* model_output, float* prev,
              size_t count);
// The same with the two alphas given: what the step computes from them.
void DdimStepWithAlphas(float alpha_prod_t, float alpha_prod_t_prev, const float* sample, const float* model_output,
                        float* prev, size_t count);

}  // namespace edgebench
