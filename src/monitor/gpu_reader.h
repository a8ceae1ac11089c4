// The GPUs and NPUs the kernel exposes, beside NVML's NVIDIA GPUs:
//   devfreq.NAME.freq   sys/class/devfreq/NAME/cur_freq (Hz, as kHz): an Arm SoC's GPU or NPU
//                       (Mali "fb000000.gpu", a Jetson's "17000000.ga10b", an RK3588's NPU);
//                       Channel::max_khz from max_freq, so a clock held below it shows throttling
//   cardN.freq          sys/class/drm/cardN/gt_cur_freq_mhz (Intel's i915), kHz; max from
//                       gt_max_freq_mhz
//   devfreq.NAME.busy   sys/class/devfreq/NAME/load ("23@300000000Hz": Rockchip's vendor kernels),
//                       else NAME/device/load (a Jetson's GPU, per mille), as percent busy
//   cardN.vram_used     sys/class/drm/cardN/device/mem_info_vram_used (amdgpu), bytes
//   cardN.busy          sys/class/drm/cardN/device/gpu_busy_percent (amdgpu), percent
// A GPU's power and temperature are hwmon's (amdgpu's power1_average, a board's rails).
#pragma once

#include <memory>

#include "monitor/sensor.h"

namespace edgebench {

std::unique_ptr<SensorReader> OpenGpuReader(const SensorRoots& roots);

}  // namespace edgebench
