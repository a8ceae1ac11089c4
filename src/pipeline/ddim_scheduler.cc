#include "pipeline/ddim_scheduler.h"

#include <cmath>
#include <string>

namespace edgebench {

std::vector<float> ScaledLinearAlphasCumprod() {
  // torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, 1000, dtype=float32) ** 2: the ends rounded to
  // float, the step in float, the first half counted from the start, the second from the end.
  const float start = static_cast<float>(std::sqrt(0.00085));
  const float end = static_cast<float>(std::sqrt(0.012));
  const float step = (end - start) / static_cast<float>(kDdimTrainSteps - 1);
  const int halfway = kDdimTrainSteps / 2;
  std::vector<float> cumprod(kDdimTrainSteps);
  double product = 1.0;
  for (int i = 0; i < kDdimTrainSteps; ++i) {
    const float root = i < halfway ? start + step * static_cast<float>(i)
                                   : end - step * static_cast<float>(kDdimTrainSteps - i - 1);
    const float beta = root * root;
    const float alpha = 1.0f - beta;
    product *= static_cast<double>(alpha);
    cumprod[static_cast<size_t>(i)] = static_cast<float>(product);
  }
  return cumprod;
}

Result<DdimSchedule> MakeDdimSchedule(int steps) {
  if (steps < 1 || steps > kDdimTrainSteps) {
    return Status::Error("--steps " + std::to_string(steps) + ": DDIM takes 1 to " + std::to_string(kDdimTrainSteps) +
                         " steps (its training steps)");
  }
  DdimSchedule s;
  s.alphas_cumprod = ScaledLinearAlphasCumprod();
  s.final_alpha_cumprod = s.alphas_cumprod.front();
  s.step_ratio = kDdimTrainSteps / steps;
  // "leading" spacing: 0, ratio, 2 ratio, ... reversed, plus the offset of 1.
  for (int i = steps - 1; i >= 0; --i) s.timesteps.push_back(i * s.step_ratio + 1);
  return s;
}

void DdimStepWithAlphas(float alpha_prod_t, float alpha_prod_t_prev, const float* sample, const float* model_output,
                        float* prev, size_t count) {
  // diffusers: beta_prod_t = 1 - alpha_prod_t
  //   pred_original = (sample - beta_prod_t ** 0.5 * model_output) / alpha_prod_t ** 0.5
  //   direction = (1 - alpha_prod_t_prev - std_dev_t ** 2) ** 0.5 * model_output   (std_dev_t 0)
  //   prev = alpha_prod_t_prev ** 0.5 * pred_original + direction
  // Each operation rounds to float, as torch's element-wise kernels do one after another.
  const float beta_prod_t = 1.0f - alpha_prod_t;
  const float sqrt_beta = std::sqrt(beta_prod_t);
  const float sqrt_alpha = std::sqrt(alpha_prod_t);
  const float direction_scale = std::sqrt((1.0f - alpha_prod_t_prev) - 0.0f);
  const float sqrt_alpha_prev = std::sqrt(alpha_prod_t_prev);
  for (size_t i = 0; i < count; ++i) {
    const float eps = model_output[i];
    const volatile float scaled_eps = sqrt_beta * eps;  // volatile: no fused multiply-add
    const float original = (sample[i] - scaled_eps) / sqrt_alpha;
    const volatile float direction = direction_scale * eps;
    const volatile float kept = sqrt_alpha_prev * original;
    prev[i] = kept + direction;
  }
}

void DdimStep(const DdimSchedule& schedule, int step, const float* sample, const float* model_output, float* prev,
              size_t count) {
  const int t = schedule.timesteps[static_cast<size_t>(step)];
  const int previous = t - schedule.step_ratio;
  const float alpha = schedule.alphas_cumprod[static_cast<size_t>(t)];
  const float alpha_prev = previous >= 0 ? schedule.alphas_cumprod[static_cast<size_t>(previous)]
                                         : schedule.final_alpha_cumprod;
  DdimStepWithAlphas(alpha, alpha_prev, sample, model_output, prev, count);
}

}  // namespace edgebench
