#include "load/single_stream.h"

#include "core/clock.h"

namespace edgebench {

ScenarioResult RunSingleStream(SystemUnderTest& system, const std::vector<std::vector<Tensor>>& input_pool,
                               const EffectiveRunSettings& settings, RunObserver* observer,
                               const std::function<int64_t()>& clock) {
  const RunSettings& s = settings.values;
  const std::function<int64_t()> now = clock ? clock : std::function<int64_t()>(NowNs);
  ScenarioResult result;
  if (input_pool.empty()) {
    result.error = Status::Error("internal: no input samples");
    result.failed_stage = "inputs";
    result.stop_reason = "error";
    return result;
  }
  result.warmup.latency_ns.reserve(static_cast<size_t>(s.warmup_queries));
  result.warmup.issue_ns.reserve(static_cast<size_t>(s.warmup_queries));
  result.measured.latency_ns.reserve(static_cast<size_t>(s.min_queries));
  result.measured.issue_ns.reserve(static_cast<size_t>(s.min_queries));
  std::vector<Tensor> outputs;
  int64_t query = 0;
  const size_t pool_size = input_pool.size();

  auto issue = [&](QuerySeries& series, int64_t phase_start) {
    const std::vector<Tensor>& inputs = input_pool[static_cast<size_t>(query) % pool_size];
    const int64_t start = now();
    Status status = system.IssueQuery(0, inputs, outputs);
    const int64_t end = now();
    if (!status.ok()) {
      result.error = status;
      result.failed_stage = "run";
      result.failed_query = query;
      result.stop_reason = "error";
      return false;
    }
    series.latency_ns.push_back(end - start);
    series.issue_ns.push_back(start - phase_start);
    ++query;
    return true;
  };

  if (observer) observer->OnPhaseStart("warmup", 0);
  const int64_t warmup_start = now();
  for (int64_t i = 0; i < s.warmup_queries; ++i) {
    if (!issue(result.warmup, warmup_start)) return result;
  }
  if (observer) {
    observer->OnPhaseEnd("warmup");
    observer->OnPhaseStart("measure", s.max_duration_ms);
  }
  const int64_t min_ns = s.min_duration_ms * 1'000'000;
  const int64_t max_ns = s.max_duration_ms * 1'000'000;
  const int64_t phase_start = now();
  result.measured_start_ns = phase_start;
  for (;;) {
    if (!issue(result.measured, phase_start)) break;
    const int64_t elapsed = now() - phase_start;
    const auto count = static_cast<int64_t>(result.measured.latency_ns.size());
    if (count >= s.min_queries && elapsed >= min_ns) {
      result.stop_reason = "min_queries_and_duration";
      break;
    }
    if (elapsed >= max_ns) {
      result.stop_reason = "max_duration";
      break;
    }
    if (count >= s.max_queries) {
      result.stop_reason = "max_queries";
      break;
    }
  }
  result.measured_wall_ns = now() - phase_start;
  if (observer) observer->OnPhaseEnd("measure");
  return result;
}

}  // namespace edgebench
