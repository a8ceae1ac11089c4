#include "load/closed_loop.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <numeric>

#include "core/clock.h"
#include "load/phased_threads.h"
#include "load/stream_merge.h"
#include "stats/histogram_series.h"

namespace edgebench {
namespace {

constexpr int64_t kStopCheckIntervalNs = 1'000'000;

// Why the measured phase stopped; the first stream to decide sets it.
enum StopCode : int { kRunning = 0, kMinMet, kMaxDuration, kMaxQueries, kError };

const char* StopReason(int code) {
  switch (code) {
    case kMinMet: return "min_queries_and_duration";
    case kMaxDuration: return "max_duration";
    case kMaxQueries: return "max_queries";
    case kError: return "error";
    default: return "";
  }
}

// One stream's own buffers, on its own cache lines: streams never write each other's.
struct alignas(64) StreamState {
  QuerySeries warmup;
  QuerySeries measured;
  bool keep_raw = true;  // false once the raw samples reached the cap (histograms_beyond_cap)
  std::vector<LatencyHistogram> windows;  // by completion window, grown as windows pass
  LatencyMoments moments;
  alignas(64) std::atomic<int64_t> measured_count{0};  // read by the other streams' stop checks
  int64_t last_latency_ns = 0;
  int64_t last_end_ns = 0;
  Status error;
  int64_t failed_query = -1;  // over this stream's warmup + measured queries
};

}  // namespace

ScenarioResult RunClosedLoop(SystemUnderTest& system, const std::vector<std::vector<Tensor>>& input_pool, const ClosedLoopPlan& plan,
                             RunObserver* observer, const std::function<int64_t()>& clock) {
  const std::function<int64_t()> now = clock ? clock : std::function<int64_t()>(NowNs);
  ScenarioResult result;
  const int streams = plan.streams;
  if (input_pool.empty() || system.lanes() < 1 || streams < 1 ||
      (system.lanes() != 1 && system.lanes() != streams) ||
      (plan.histograms_beyond_cap && plan.window_ns <= 0)) {
    result.error = Status::Error(
        "internal: closed loop needs input samples, one session or one per stream, and a window for histograms");
    result.failed_stage = "inputs";
    result.stop_reason = "error";
    return result;
  }
  std::vector<std::unique_ptr<StreamState>> states;
  for (int s = 0; s < streams; ++s) {
    states.push_back(std::make_unique<StreamState>());
    states.back()->warmup.latency_ns.reserve(static_cast<size_t>(plan.warmup_queries));
    states.back()->warmup.issue_ns.reserve(static_cast<size_t>(plan.warmup_queries));
    const auto expected = static_cast<size_t>(plan.min_queries / streams + 1);
    states.back()->measured.latency_ns.reserve(expected);
    states.back()->measured.issue_ns.reserve(expected);
  }
  const bool histograms = plan.histograms_beyond_cap;
  // Set by the first stream to see the raw samples reach the cap; each stream then drops its own.
  std::atomic<bool> raw_dropped{false};
  auto drop_raw = [&raw_dropped](StreamState& state) {
    raw_dropped.store(true, std::memory_order_relaxed);
    state.keep_raw = false;
    state.measured = QuerySeries{};  // frees the memory, not only the size
  };
  std::atomic<int> stop{kRunning};
  auto request_stop = [&stop](int code) {
    int running = kRunning;
    stop.compare_exchange_strong(running, code, std::memory_order_relaxed);
  };
  const size_t pool_size = input_pool.size();

  auto stream_main = [&](int s, PhaseGate& gate) {
    StreamState& state = *states[static_cast<size_t>(s)];
    const int lane = system.lanes() == 1 ? 0 : s;
    std::vector<Tensor> outputs;
    int64_t query = 0;
    // Runs the next query; keeps its sample in `series` unless that is null.
    auto issue = [&](QuerySeries* series, int64_t start_of_phase) {
      const std::vector<Tensor>& inputs =
          input_pool[static_cast<size_t>(query * streams + s) % pool_size];
      const int64_t start = now();
      Status status = system.IssueQuery(lane, inputs, outputs);
      const int64_t end = now();
      if (!status.ok()) {
        state.error = status;
        state.failed_query = query;
        request_stop(kError);
        return false;
      }
      if (series) {
        series->latency_ns.push_back(end - start);
        series->issue_ns.push_back(start - start_of_phase);
      }
      state.last_latency_ns = end - start;
      state.last_end_ns = end;
      ++query;
      return true;
    };
    bool ok = true;
    for (int64_t i = 0; ok && i < plan.warmup_queries && stop.load(std::memory_order_relaxed) == kRunning; ++i) {
      ok = issue(&state.warmup, gate.warmup_start());
    }
    const int64_t phase_start = gate.WaitForMeasuredPhase();
    int64_t next_check_ns = 0;
    int64_t measured = 0;
    int64_t window_end_ns = 0;  // where the current window ends, ns after the phase start
    LatencyHistogram* window = nullptr;
    while (stop.load(std::memory_order_relaxed) == kRunning) {
      if (!issue(state.keep_raw ? &state.measured : nullptr, phase_start)) break;
      state.measured_count.store(++measured, std::memory_order_relaxed);
      const int64_t elapsed = state.last_end_ns - phase_start;
      if (histograms) {
        if (elapsed >= window_end_ns) {  // a new window: completions only move forward
          const int64_t index = std::max<int64_t>(elapsed, 0) / plan.window_ns;
          state.windows.resize(static_cast<size_t>(index + 1));
          window = &state.windows.back();
          window_end_ns = (index + 1) * plan.window_ns;
        }
        window->Add(state.last_latency_ns);
        state.moments.Add(state.last_latency_ns);
      }
      if (elapsed >= plan.max_duration_ns) {
        request_stop(kMaxDuration);
        break;
      }
      if (state.keep_raw && measured >= plan.max_queries) {  // this stream alone: a memory bound
        if (!histograms) {
          request_stop(kMaxQueries);
          break;
        }
        drop_raw(state);
      }
      if (elapsed < next_check_ns) continue;
      next_check_ns = elapsed + kStopCheckIntervalNs;
      int64_t total = 0;
      for (const auto& other : states) total += other->measured_count.load(std::memory_order_relaxed);
      if (histograms) {
        if (state.keep_raw && (total >= plan.max_queries || raw_dropped.load(std::memory_order_relaxed))) {
          drop_raw(state);
        }
        if (elapsed >= plan.min_duration_ns && total >= plan.min_queries) request_stop(kMinMet);
      } else if (total >= plan.max_queries) {
        request_stop(kMaxQueries);
      } else if (elapsed >= plan.min_duration_ns && total >= plan.min_queries) {
        request_stop(kMinMet);
      }
    }
  };

  const int64_t phase_start = RunInPhases(streams, stream_main, observer, plan.max_duration_ns / 1'000'000, now);

  result.measured_start_ns = phase_start;
  int64_t last_end = phase_start;
  for (int s = 0; s < streams; ++s) {
    StreamState& state = *states[static_cast<size_t>(s)];
    if (!state.error.ok() && result.error.ok()) {
      result.error = state.error;
      result.failed_stage = "run";
      result.failed_query = state.failed_query;
      result.failed_stream = s;
    }
    if (state.measured_count.load(std::memory_order_relaxed) > 0) last_end = std::max(last_end, state.last_end_ns);
    for (size_t i = 0; i < state.warmup.latency_ns.size(); ++i) {
      result.warmup.latency_ns.push_back(state.warmup.latency_ns[i]);
      result.warmup.issue_ns.push_back(state.warmup.issue_ns[i]);
    }
  }
  result.measured_wall_ns = last_end - phase_start;
  result.stop_reason = StopReason(stop.load());
  if (result.stop_reason.empty()) result.stop_reason = "error";

  if (histograms && raw_dropped.load()) {
    // Past the cap: the histograms, merged across streams per window, and no raw sample.
    HistogramSeries series;
    series.window_ns = plan.window_ns;
    size_t window_count = 0;
    for (const auto& state : states) window_count = std::max(window_count, state->windows.size());
    series.windows.resize(window_count);
    for (auto& state : states) {
      LatencyHistogram stream_total;
      for (size_t w = 0; w < state->windows.size(); ++w) {
        series.windows[w].Merge(state->windows[w]);
        stream_total.Merge(state->windows[w]);
      }
      series.streams.push_back(std::move(stream_total));
      series.stream_moments.push_back(state->moments);
      state->windows.clear();
      state->measured = QuerySeries{};
    }
    result.measured_histograms = std::move(series);
    return result;
  }

  // One measured series in issue order, each query with its stream.
  std::vector<const QuerySeries*> measured;
  for (const auto& state : states) measured.push_back(&state->measured);
  result.measured = MergeStreamsByIssue(measured);
  return result;
}

}  // namespace edgebench
