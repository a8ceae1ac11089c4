#include "metrics/mix_interference.h"

#include "metrics/metrics.h"
#include "stats/significance.h"
#include "stats/summary.h"

#include <algorithm>
#include <map>

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

// The workload's records of a phase, one per round, by round.
std::vector<const Record*> RecordsOf(const std::vector<const Record*>& records, const std::string& workload,
                                     const std::string& phase) {
  std::vector<const Record*> found;
  for (const Record* r : records) {
    if (r->mix && r->mix->workload == workload && r->mix->phase == phase) found.push_back(r);
  }
  std::stable_sort(found.begin(), found.end(), [](const Record* a, const Record* b) { return a->mix->round < b->mix->round; });
  return found;
}

// Frames dropped / delivered over the records (camera scenarios); none for other scenarios.
std::optional<double> DroppedShare(const std::vector<const Record*>& records) {
  int64_t delivered = 0, dropped = 0;
  for (const Record* r : records) {
    for (int64_t n : r->frames_delivered) delivered += n;
    for (int64_t n : r->frames_dropped) dropped += n;
  }
  if (delivered <= 0) return std::nullopt;
  return static_cast<double>(dropped) / static_cast<double>(delivered);
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
  // Each round's overlap, from the mixed records of that round.
  std::map<int, std::vector<const Record*>> mixed_by_round;
  for (const Record* r : records) {
    if (r->mix && r->mix->phase == "mixed") mixed_by_round[r->mix->round].push_back(r);
  }
  std::map<int, std::optional<MixWindow>> overlaps;
  for (const auto& [round, mixed] : mixed_by_round) overlaps[round] = MixOverlap(mixed);
  std::vector<MixInterference> rows;
  for (const MixWorkloadObjectives& w : workloads) {
    MixInterference row;
    row.workload = w.name;
    const std::vector<const Record*> alone = RecordsOf(records, w.name, "alone");
    const std::vector<const Record*> mixed = RecordsOf(records, w.name, "mixed");
    row.rounds = static_cast<int>(mixed.size());
    const bool llm = std::any_of(alone.begin(), alone.end(), [](const Record* r) { return r->llm.has_value(); }) ||
                     std::any_of(mixed.begin(), mixed.end(), [](const Record* r) { return r->llm.has_value(); });
    // Alone: every measured query of every round; mixed: those that arrived in their round's
    // overlap (every one where the records keep no arrivals).
    std::vector<int64_t> alone_samples, mixed_samples;
    for (const Record* r : alone) {
      const auto samples = AllSamples(*r);
      alone_samples.insert(alone_samples.end(), samples.begin(), samples.end());
    }
    for (const Record* r : mixed) {
      const auto all = AllSamples(*r);
      row.mixed_samples_total += static_cast<int64_t>(all.size());
      const auto arrivals = MixArrivals(*r);
      const std::optional<MixWindow>& overlap = overlaps[r->mix->round];
      if (overlap && !arrivals.empty()) {
        for (const auto& [arrival, latency] : arrivals) {
          if (arrival >= overlap->start_ns && arrival < overlap->end_ns) mixed_samples.push_back(latency);
        }
      } else {
        mixed_samples.insert(mixed_samples.end(), all.begin(), all.end());
      }
    }
    row.mixed_samples = static_cast<int64_t>(mixed_samples.size());
    // The p99 where both phases have enough samples for one, else the median.
    const auto fewest = static_cast<int64_t>(std::min(alone_samples.size(), mixed_samples.size()));
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
    row.dropped_alone = DroppedShare(alone);
    row.dropped_mixed = DroppedShare(mixed);
    // The worst round's status: a workload that crashed in one round did not run beside the others.
    row.mixed_status = mixed.empty() ? "no record" : "ok";
    row.mixed_valid = !mixed.empty();
    for (const Record* r : mixed) {
      if (r->status != CaseStatus::kOk && row.mixed_status == "ok") row.mixed_status = CaseStatusName(r->status);
      row.mixed_valid = row.mixed_valid && r->valid;
    }
    if (row.alone && row.mixed && *row.alone > 0) {
      row.ratio = *row.mixed / *row.alone;
      const auto change = BootstrapRelativeChange(ToDoubles(alone_samples), ToDoubles(mixed_samples),
                                                  Statistic::Percentile(percentile));
      if (change && change->resamples > 0) {
        row.ratio_low = 1 + change->low;
        row.ratio_high = 1 + change->high;
      }
    }
    // Each objective on every round's mixed record: met when met in each; the figure shown is
    // the worst round's.
    for (const MixObjective& objective : w.objectives) {
      MixObjectiveResult result{objective, std::nullopt, !mixed.empty()};
      for (const Record* r : mixed) {
        const auto value = MetricValue(r, objective.metric);
        const bool met = value && (objective.at_most ? *value <= objective.bound : *value >= objective.bound);
        result.met = result.met && met;
        if (!value) continue;
        if (!result.value || (objective.at_most ? *value > *result.value : *value < *result.value)) result.value = value;
      }
      if (!result.value) result.met = false;
      row.objectives_met = row.objectives_met && result.met;
      row.objectives.push_back(result);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace edgebench
