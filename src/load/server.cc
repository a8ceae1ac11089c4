#include "load/server.h"

#include <sys/prctl.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include "core/clock.h"
#include "load/arrivals.h"
#include "load/phased_threads.h"
#include "load/scheduled_wait.h"
#include "stats/server_histograms.h"

namespace edgebench {
namespace {

struct ServedQuery {
  int64_t index = 0;  // in the schedule
  int64_t latency_ns = 0;
  int64_t service_ns = 0;
};

struct alignas(64) WorkerState {
  QuerySeries warmup;
  std::vector<ServedQuery> served;
  Status error;
  int64_t failed_query = -1;
  int64_t last_end_ns = 0;
};

}  // namespace

std::vector<int64_t> ServerSchedule(const ServerPlan& plan) {
  std::vector<int64_t> arrivals;
  PoissonArrivals generator(plan.target_qps, plan.seed);
  arrivals.reserve(static_cast<size_t>(std::min<int64_t>(plan.max_queries, 1 << 20)));
  int64_t t = 0;
  while (static_cast<int64_t>(arrivals.size()) < plan.max_queries &&
         (static_cast<int64_t>(arrivals.size()) < plan.min_queries || t < plan.min_duration_ns)) {
    t = generator.Next();
    arrivals.push_back(t);
  }
  return arrivals;
}

ScenarioResult RunServer(SystemUnderTest& system, const std::vector<std::vector<Tensor>>& input_pool,
                         const ServerPlan& plan, RunObserver* observer) {
  ScenarioResult result;
  const int workers = plan.workers;
  if (input_pool.empty() || system.lanes() < 1 || workers < 1 || (system.lanes() != 1 && system.lanes() != workers) || !(plan.target_qps > 0) ||
      (plan.raw_sample_cap > 0 && plan.window_ns <= 0)) {
    result.error = Status::Error(
        "internal: server needs a rate, input samples, one session or one per worker, and a positive window");
    result.failed_stage = "inputs";
    result.stop_reason = "error";
    return result;
  }
  const std::vector<int64_t> schedule = ServerSchedule(plan);
  const auto scheduled = static_cast<int64_t>(schedule.size());
  std::vector<std::unique_ptr<WorkerState>> states;
  for (int w = 0; w < workers; ++w) {
    states.push_back(std::make_unique<WorkerState>());
    states.back()->served.reserve(static_cast<size_t>(scheduled / workers + 1));
  }
  std::atomic<int64_t> next{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> hit_max_duration{false};
  const size_t pool_size = input_pool.size();

  auto worker_main = [&](int w, PhaseGate& gate) {
    // Timer slack decides how late sleep_for may wake (50 us by default): as little as possible.
    ::prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    WorkerState& state = *states[static_cast<size_t>(w)];
    const int lane = system.lanes() == 1 ? 0 : w;
    std::vector<Tensor> outputs;
    for (int64_t i = 0; i < plan.warmup_queries && !stop.load(std::memory_order_relaxed); ++i) {
      const std::vector<Tensor>& inputs = input_pool[static_cast<size_t>(i * workers + w) % pool_size];
      const int64_t start = NowNs();
      Status status = system.IssueQuery(lane, inputs, outputs);
      const int64_t end = NowNs();
      if (!status.ok()) {
        state.error = status;
        state.failed_query = i;
        stop.store(true);
        break;
      }
      state.warmup.latency_ns.push_back(end - start);
      state.warmup.issue_ns.push_back(start - gate.warmup_start());
    }
    const int64_t phase_start = gate.WaitForMeasuredPhase();
    while (!stop.load(std::memory_order_relaxed)) {
      const int64_t index = next.fetch_add(1, std::memory_order_relaxed);
      if (index >= scheduled) break;
      const int64_t arrival = phase_start + schedule[static_cast<size_t>(index)];
      // An arrival past max_duration is never issued: stop now rather than sleep until it (at a
      // low rate, as peak search's halvings reach, that could be hours away).
      if (schedule[static_cast<size_t>(index)] > plan.max_duration_ns) {
        hit_max_duration.store(true);
        stop.store(true);
        break;
      }
      WaitUntil(arrival);
      const int64_t start = NowNs();
      if (start - phase_start > plan.max_duration_ns) {
        hit_max_duration.store(true);
        stop.store(true);
        break;
      }
      const std::vector<Tensor>& inputs = input_pool[static_cast<size_t>(index) % pool_size];
      Status status = system.IssueQuery(lane, inputs, outputs);
      const int64_t end = NowNs();
      if (!status.ok()) {
        state.error = status;
        state.failed_query = plan.warmup_queries + static_cast<int64_t>(state.served.size());
        stop.store(true);
        break;
      }
      state.served.push_back({index, end - arrival, end - start});
      state.last_end_ns = end;
    }
  };

  const int64_t phase_start =
      RunInPhases(workers, worker_main, observer, plan.max_duration_ns / 1'000'000, NowNs);

  result.measured_start_ns = phase_start;
  int64_t last_end = phase_start;
  std::vector<std::pair<ServedQuery, int32_t>> served;
  for (int w = 0; w < workers; ++w) {
    WorkerState& state = *states[static_cast<size_t>(w)];
    if (!state.error.ok() && result.error.ok()) {
      result.error = state.error;
      result.failed_stage = "run";
      result.failed_query = state.failed_query;
      result.failed_stream = w;
    }
    if (!state.served.empty()) last_end = std::max(last_end, state.last_end_ns);
    for (size_t i = 0; i < state.warmup.latency_ns.size(); ++i) {
      result.warmup.latency_ns.push_back(state.warmup.latency_ns[i]);
      result.warmup.issue_ns.push_back(state.warmup.issue_ns[i]);
    }
    for (const ServedQuery& q : state.served) served.emplace_back(q, w);
  }
  std::sort(served.begin(), served.end(), [](const auto& a, const auto& b) { return a.first.index < b.first.index; });
  for (const auto& [q, w] : served) {
    result.measured.latency_ns.push_back(q.latency_ns);
    result.measured.issue_ns.push_back(schedule[static_cast<size_t>(q.index)]);
    result.measured.service_ns.push_back(q.service_ns);
    result.measured.stream.push_back(w);
  }
  if (plan.raw_sample_cap > 0 && static_cast<int64_t>(served.size()) > plan.raw_sample_cap) {
    // Past the cap: the record keeps what the summary needs from every sample, not the samples.
    ServerHistograms reduced =
        ReduceServerSamples(result.measured.issue_ns, result.measured.latency_ns, result.measured.service_ns,
                            result.measured.stream, workers, plan.window_ns, plan.raw_sample_cap);
    result.measured = QuerySeries{};
    result.measured_histograms = std::move(reduced.latency);
    result.measured_server = std::move(reduced.server);
  }
  result.measured_wall_ns = last_end - phase_start;
  result.not_issued = scheduled - static_cast<int64_t>(served.size());
  result.stop_reason = !result.error.ok()       ? "error"
                       : hit_max_duration.load() ? "max_duration"
                       : scheduled >= plan.max_queries ? "max_queries"
                                                       : "min_queries_and_duration";
  return result;
}

}  // namespace edgebench
