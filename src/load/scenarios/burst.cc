#include "load/scenarios/burst.h"

#include <sys/prctl.h>

#include <algorithm>
#include <atomic>
#include <memory>

#include "core/clock.h"
#include "load/periodic_plan.h"
#include "load/phased_threads.h"
#include "load/scenarios/streamed.h"
#include "load/scheduled_wait.h"
#include "load/stream_merge.h"

namespace edgebench {
namespace {

constexpr int64_t kDefaultPeriodMs = 100;

Status ParseBurst(const std::string& parameter, bool has_parameter, ScenarioSpec& spec) {
  if (!has_parameter) return Status::Error("needs N, the queries of a burst, e.g. burst:4");
  const size_t slash = parameter.find('/');
  const std::string count = parameter.substr(0, slash);
  if (count.empty() || count.size() > 4 || count.find_first_not_of("0123456789") != std::string::npos ||
      std::stoll(count) < 1 || std::stoll(count) > kMaxStreams) {
    return Status::Error("N must be a whole number of queries from 1 to " + std::to_string(kMaxStreams));
  }
  spec.streams = std::stoll(count);
  spec.period_ms = kDefaultPeriodMs;
  if (slash != std::string::npos) {
    auto period = ParseDurationMs(parameter.substr(slash + 1));
    if (!period.ok()) return Status::Error("PERIOD: " + period.error());
    spec.period_ms = period.value();
  }
  return Status::Ok();
}

std::string CanonicalBurst(const ScenarioSpec& spec) {
  return "burst:" + std::to_string(spec.streams) + "/" + std::to_string(spec.period_ms) + "ms";
}

int BurstStreams(const ScenarioSpec& spec, const RunSettings&) { return static_cast<int>(spec.streams); }

class BurstScenario : public StreamedScenario {
 public:
  using StreamedScenario::StreamedScenario;
  ScenarioResult Run(ScenarioContext& context) override {
    return RunBursts(SystemOf(context), *context.input_pool, PlanBursts(streams(), spec().period_ms, settings()),
                     context.observer);
  }
};

struct alignas(64) BurstStream {
  QuerySeries warmup;
  QuerySeries measured;
  Status error;
  int64_t failed_query = -1;
  int64_t last_end_ns = 0;
};

}  // namespace

const ScenarioEntry kBurstScenario = {
    "burst", "burst:N[/PERIOD]",
    "N queries issued at once every PERIOD (default 100ms), one per stream; latency from the burst's start",
    SessionKind::kTensor, "sessions",
    {.judge_cv = true},
    ParseBurst, CanonicalBurst, BurstStreams, nullptr, MakeStreamed<BurstScenario>};

BurstPlan PlanBursts(int streams, int64_t period_ms, const RunSettings& s) {
  BurstPlan plan;
  plan.streams = std::max(streams, 1);
  plan.period_ns = std::max<int64_t>(period_ms, 1) * 1'000'000;
  plan.warmup_per_stream = WarmupPerStream(plan.streams, s);
  plan.max_duration_ns = s.max_duration_ms * 1'000'000;
  plan.bursts = PeriodsPerStream(plan.streams, plan.period_ns, s);
  return plan;
}

ScenarioResult RunBursts(SystemUnderTest& system, const std::vector<std::vector<Tensor>>& input_pool,
                         const BurstPlan& plan, RunObserver* observer) {
  ScenarioResult result;
  const int streams = plan.streams;
  if (input_pool.empty() || system.lanes() < 1 || (system.lanes() != 1 && system.lanes() != streams)) {
    result.error = Status::Error("internal: bursts need input samples and one session or one per stream");
    result.failed_stage = "inputs";
    result.stop_reason = "error";
    return result;
  }
  std::vector<std::unique_ptr<BurstStream>> states;
  for (int s = 0; s < streams; ++s) states.push_back(std::make_unique<BurstStream>());
  std::atomic<bool> stop{false};
  std::atomic<bool> hit_max_duration{false};
  const size_t pool_size = input_pool.size();

  auto stream_main = [&](int s, PhaseGate& gate) {
    ::prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    BurstStream& state = *states[static_cast<size_t>(s)];
    const int lane = system.lanes() == 1 ? 0 : s;
    std::vector<Tensor> outputs;
    int64_t query = 0;
    auto run = [&](int64_t& end) {
      const auto& inputs = input_pool[static_cast<size_t>(query * streams + s) % pool_size];
      Status status = system.IssueQuery(lane, inputs, outputs);
      end = NowNs();
      if (!status.ok()) {
        state.error = status;
        state.failed_query = query;
        stop = true;
        return false;
      }
      ++query;
      return true;
    };
    for (int64_t i = 0; i < plan.warmup_per_stream && !stop.load(std::memory_order_relaxed); ++i) {
      const int64_t start = NowNs();
      int64_t end = 0;
      if (!run(end)) break;
      state.warmup.latency_ns.push_back(end - start);
      state.warmup.issue_ns.push_back(start - gate.warmup_start());
    }
    const int64_t phase_start = gate.WaitForMeasuredPhase();
    for (int64_t k = 0; k < plan.bursts && !stop.load(std::memory_order_relaxed); ++k) {
      const int64_t scheduled = phase_start + k * plan.period_ns;
      WaitUntil(scheduled);  // sleep, then spin the last 200 us (as the server)
      if (NowNs() - phase_start >= plan.max_duration_ns) {
        hit_max_duration = true;
        break;
      }
      int64_t end = 0;
      if (!run(end)) break;
      state.measured.latency_ns.push_back(end - scheduled);
      state.measured.issue_ns.push_back(scheduled - phase_start);
      state.last_end_ns = end;
    }
  };

  const int64_t expected_ms = plan.bursts * plan.period_ns / 1'000'000;
  const int64_t phase_start = RunInPhases(streams, stream_main, observer, expected_ms, NowNs);
  result.measured_start_ns = phase_start;
  int64_t last_end = phase_start;
  std::vector<const QuerySeries*> measured;
  for (int s = 0; s < streams; ++s) {
    BurstStream& state = *states[static_cast<size_t>(s)];
    if (!state.error.ok() && result.error.ok()) {
      result.error = state.error;
      result.failed_stage = "run";
      result.failed_query = state.failed_query;
      result.failed_stream = s;
    }
    last_end = std::max(last_end, state.last_end_ns);
    for (size_t i = 0; i < state.warmup.latency_ns.size(); ++i) {
      result.warmup.latency_ns.push_back(state.warmup.latency_ns[i]);
      result.warmup.issue_ns.push_back(state.warmup.issue_ns[i]);
    }
    measured.push_back(&state.measured);
  }
  // Burst by burst (a burst's queries share its scheduled start), streams in order within one.
  result.measured = MergeStreamsByIssue(measured);
  result.measured_wall_ns = last_end - phase_start;
  result.stop_reason = !result.error.ok()   ? "error"
                       : hit_max_duration ? "max_duration"
                                          : "min_queries_and_duration";
  return result;
}

}  // namespace edgebench
