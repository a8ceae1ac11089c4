#include "metrics/mix_interference.h"

#include "metrics/metrics.h"
#include "stats/significance.h"
#include "stats/summary.h"

#include <algorithm>

namespace edgebench {
namespace {

std::vector<double> ToDoubles(const std::vector<int64_t>& ns) { return {ns.begin(), ns.end()}; }

// All the record's measured latencies (times to first token), for records without arrivals.
std::vector<int64_t> AllSamples(const Record& r) {
  std::vector<int64_t> samples;
  if (r.llm) {
    for (const LlmRequestTiming& t : r.llm->measured) samples.push_back(t.ttft_ns());
  } else {
    samples = r.measured_ns;
  }
  return samples;
}

const Record* RecordOf(const std::vector<const Record*>& records, const std::string& workload,
                       const std::string& phase) {
  for (const Record* r : records) {
    if (r->mix && r->mix->workload == workload && r->mix->phase == phase) return r;
  }
  return nullptr;
}

std::optional<double> MetricValue(const Record* r, const std::string& name) {
  const Metric* metric = FindMetric(name);
  if (!r || !metric) return std::nullopt;
  return metric->value(*r);
}

}  // namespace

std::vector<std::pair<int64_t, int64_t>> MixArrivals(const Record& r) {
  std::vector<std::pair<int64_t, int64_t>> out;
  if (r.llm) {
    if (r.llm->measured_origin_ns == 0) return out;
    for (const LlmRequestTiming& t : r.llm->measured) out.emplace_back(r.llm->measured_origin_ns + t.start_ns, t.ttft_ns());
  } else if (r.measured_start_ns != 0 && r.measured_issue_ns.size() == r.measured_ns.size()) {
    for (size_t i = 0; i < r.measured_ns.size(); ++i) out.emplace_back(r.measured_start_ns + r.measured_issue_ns[i], r.measured_ns[i]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<MixWindow> MeasuredWindow(const Record& r) {
  if (r.llm) {
    if (r.llm->measured_origin_ns == 0 || r.llm->measured.empty()) return std::nullopt;
    int64_t end = 0;
    for (const LlmRequestTiming& t : r.llm->measured) end = std::max(end, t.end_ns());
    return MixWindow{r.llm->measured_origin_ns, r.llm->measured_origin_ns + end};
  }
  if (r.measured_start_ns == 0 || r.measured_wall_ns <= 0) return std::nullopt;
  return MixWindow{r.measured_start_ns, r.measured_start_ns + r.measured_wall_ns};
}

std::optional<MixWindow> MixOverlap(const std::vector<const Record*>& mixed) {
  std::optional<MixWindow> overlap;
  int windows = 0;
  for (const Record* r : mixed) {
    if (r->status != CaseStatus::kOk) continue;
    const auto window = MeasuredWindow(*r);
    if (!window) continue;
    ++windows;
    if (!overlap) {
      overlap = window;
    } else {
      overlap->start_ns = std::max(overlap->start_ns, window->start_ns);
      overlap->end_ns = std::min(overlap->end_ns, window->end_ns);
    }
  }
  if (windows < 2) return std::nullopt;
  return overlap;
}

std::vector<MixInterference> JudgeMixRecords(const std::vector<MixWorkloadObjectives>& workloads,
                                             const std::vector<const Record*>& records) {
  std::vector<MixInterference> rows;
  std::vector<const Record*> mixed_records;
  for (const MixWorkloadObjectives& w : workloads) {
    if (const Record* r = RecordOf(records, w.name, "mixed")) mixed_records.push_back(r);
  }
  const std::optional<MixWindow> overlap = MixOverlap(mixed_records);
  for (const MixWorkloadObjectives& w : workloads) {
    MixInterference row;
    row.workload = w.name;
    const Record* alone = RecordOf(records, w.name, "alone");
    const Record* mixed = RecordOf(records, w.name, "mixed");
    const bool llm = (alone && alone->llm) || (mixed && mixed->llm);
    // Alone: every measured query; mixed: those that arrived in the overlap (every one where the
    // records keep no arrivals).
    std::vector<int64_t> alone_samples = alone ? AllSamples(*alone) : std::vector<int64_t>{};
    std::vector<int64_t> mixed_samples;
    if (mixed) {
      const auto arrivals = MixArrivals(*mixed);
      row.mixed_samples_total = static_cast<int64_t>(AllSamples(*mixed).size());
      if (overlap && !arrivals.empty()) {
        for (const auto& [arrival, latency] : arrivals) {
          if (arrival >= overlap->start_ns && arrival < overlap->end_ns) mixed_samples.push_back(latency);
        }
      } else {
        mixed_samples = AllSamples(*mixed);
      }
      row.mixed_samples = static_cast<int64_t>(mixed_samples.size());
    }
    std::sort(alone_samples.begin(), alone_samples.end());
    // The p99 where both phases have enough samples for one, else the median.
    const int64_t fewest = std::min(alone_samples.size(), mixed_samples.size());
    const double percentile = fewest >= SamplesNeededFor(0.99) ? 0.99 : 0.50;
    row.metric = std::string(llm ? "ttft_" : "") + (percentile == 0.99 ? "p99_ms" : "p50_ms");
    auto milliseconds = [&](std::vector<int64_t> samples) -> std::optional<double> {
      std::sort(samples.begin(), samples.end());
      const auto ns = NearestRankPercentile(samples, percentile);
      if (!ns) return std::nullopt;
      return static_cast<double>(*ns) / 1e6;
    };
    row.alone = milliseconds(alone_samples);
    row.mixed = milliseconds(mixed_samples);
    row.dropped_alone = MetricValue(alone, "dropped_frames");
    row.dropped_mixed = MetricValue(mixed, "dropped_frames");
    row.mixed_status = mixed ? CaseStatusName(mixed->status) : "no record";
    row.mixed_valid = mixed && mixed->valid;
    if (row.alone && row.mixed && *row.alone > 0) {
      row.ratio = *row.mixed / *row.alone;
      const auto change = BootstrapRelativeChange(ToDoubles(alone_samples), ToDoubles(mixed_samples),
                                                  Statistic::Percentile(percentile));
      if (change && change->resamples > 0) {
        row.ratio_low = 1 + change->low;
        row.ratio_high = 1 + change->high;
      }
    }
    for (const MixObjective& objective : w.objectives) {
      MixObjectiveResult result{objective, MetricValue(mixed, objective.metric), false};
      result.met = result.value && (objective.at_most ? *result.value <= objective.bound : *result.value >= objective.bound);
      row.objectives_met = row.objectives_met && result.met;
      row.objectives.push_back(result);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace edgebench
