// What a case tells the monitor's derivation about its measured phase: its length and windows,
// the work done against time, and a language model's prefill and decode spans, on the monitor
// series' time axis (record/monitor_derive.h, record/energy_phases.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace edgebench {

struct MonitorContext {
  int64_t measured_wall_ns = 0;  // the measured phase is [0, measured_wall_ns) on the series' axis
  // Windows of the measured phase ([start, end) ns); empty: windows of window_ns are cut here.
  std::vector<std::pair<int64_t, int64_t>> windows;
  int64_t window_ns = 5'000'000'000;
  // Work done against time: (ns after the phase start, queries completed by then), ascending.
  // Between points the count is interpolated linearly.
  std::vector<std::pair<int64_t, double>> progress;
  int64_t queries = 0;                // measured queries (requests, for language models)
  std::optional<int64_t> tokens;      // language models: tokens generated in the measured phase
  double max_growth_mb = 10;          // per 10,000 queries
  // The runtime's profiler that ran over the measured phase (--profile), empty when none did: it
  // keeps its events in memory, so growth on a profiled case cannot be told from a leak.
  std::string profiler;
  // Language models (record/energy_phases.h): each measured request's prefill [start, first
  // token] and decode [first token, last token] on the series' axis, with its prompt tokens and
  // the tokens decoded after the first. Empty for tensor models.
  struct LlmPhase {
    int64_t start_ns = 0, first_token_ns = 0, end_ns = 0;
    int64_t prompt_tokens = 0, decoded_tokens = 0;
  };
  std::vector<LlmPhase> llm_phases;
};

}  // namespace edgebench
