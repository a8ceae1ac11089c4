#include "load/single_stream.h"

#include "core/clock.h"

namespace edgebench {

SingleStreamSamples RunSingleStream(Session& session, const std::vector<Tensor>& inputs,
                                    const EffectiveRunSettings& settings) {
  const RunSettings& s = settings.values;
  SingleStreamSamples result;
  result.warmup_ns.reserve(static_cast<size_t>(s.warmup_queries));
  result.measured_ns.reserve(static_cast<size_t>(s.min_queries));
  std::vector<Tensor> outputs;
  int64_t query = 0;

  auto issue = [&](std::vector<int64_t>& series) {
    const auto start = SteadyClock::now();
    Status status = session.Run(inputs, outputs);
    const auto end = SteadyClock::now();
    if (!status.ok()) {
      result.error = status;
      result.failed_query = query;
      result.stop_reason = "error";
      return false;
    }
    series.push_back(ElapsedNs(start, end));
    ++query;
    return true;
  };

  for (int64_t i = 0; i < s.warmup_queries; ++i) {
    if (!issue(result.warmup_ns)) return result;
  }
  const int64_t min_ns = s.min_duration_ms * 1'000'000;
  const int64_t max_ns = s.max_duration_ms * 1'000'000;
  const auto phase_start = SteadyClock::now();
  for (;;) {
    if (!issue(result.measured_ns)) break;
    const int64_t elapsed = ElapsedNs(phase_start, SteadyClock::now());
    const auto count = static_cast<int64_t>(result.measured_ns.size());
    if (count >= s.min_queries && elapsed >= min_ns) {
      result.stop_reason = "min_queries_and_duration";
      break;
    }
    if (elapsed >= max_ns) {
      result.stop_reason = "max_duration";
      break;
    }
  }
  result.measured_wall_ns = ElapsedNs(phase_start, SteadyClock::now());
  return result;
}

}  // namespace edgebench
