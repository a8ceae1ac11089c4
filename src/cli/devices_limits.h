// `edgebench devices --limits`: this machine's memory bandwidth and each runtime's
// matrix-product peak, measured, checked for other processes' work while they were measured,
// and cached for the roofline of every later run (docs/roofline.md).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "backends/registry.h"
#include "core/machine_limits.h"

namespace edgebench {

struct LimitsOptions {
  bool measure = false;
  double peak_gb_per_s = 0;
  double peak_gflops = 0;
  int passes = 10;
  int64_t array_mib = 0;  // 0: STREAM's rule
  int64_t compute_size = 1024;
  std::vector<std::string> compute_targets;  // empty: every available device
  bool no_compute = false;
  double max_busy_share = 0.25;  // the runs' --max-busy-share default
  bool allow_busy = false;
  std::string proc_root = "/";   // where proc/stat is read (devices' --sysfs-root)
};

// --limits and the options that go with it.
void AddLimitsOptions(CLI::App* cmd, LimitsOptions& o);
// Whether any option that goes with --limits was given without it.
bool AnyLimitsOptionGiven(const LimitsOptions& o);

void PrintLimits(const MachineLimits& limits, size_t width = 0);
// Measures, judges the machine, caches; the process's exit code.
int MeasureLimits(const LimitsOptions& o, Registry& registry);

}  // namespace edgebench
