#include "stats/tensor_roofline.h"

#include <algorithm>
#include <utility>
#include <vector>
#include <charconv>

#include "core/strings.h"

namespace edgebench {

using json = nlohmann::json;

int TargetThreads(const std::string& canonical_target) {
  const size_t query = canonical_target.find('?');
  if (query == std::string::npos) return 0;
  size_t pos = query + 1;
  while (pos < canonical_target.size()) {
    const size_t end = std::min(canonical_target.find('&', pos), canonical_target.size());
    const std::string pair = canonical_target.substr(pos, end - pos);
    if (pair.rfind("threads=", 0) == 0) {
      int threads = 0;
      const char* end = pair.data() + pair.size();
      const auto [ptr, ec] = std::from_chars(pair.data() + 8, end, threads);
      return ec == std::errc() && ptr == end && threads > 0 ? threads : 0;
    }
    pos = end + 1;
  }
  return 0;
}

TensorRoofline ComputeTensorRoofline(const TensorWork& work, const LatencySummary& summary, const std::string& target,
                                     int threads, const Placement* placement, const MachineLimits* limits,
                                     const std::string& limits_missing) {
  TensorRoofline r;
  if (!work.counted()) {
    r.omitted = "the model's work was not counted: " + work.omitted;
    return r;
  }
  if (work.flops() <= 0 || work.bytes() <= 0) {
    r.omitted = "the model's work counts to no operations or no bytes";
    return r;
  }
  if (summary.count == 0) {
    r.omitted = "no query was measured";
    return r;
  }
  const BandwidthMeasurement* bandwidth = limits ? limits->BandwidthFor(threads > 0 ? threads : 1 << 20) : nullptr;
  if (!bandwidth) {
    r.omitted = limits ? "the machine's memory bandwidth was not measured; run `edgebench devices --limits`"
                       : "no machine limits: " + limits_missing;
    return r;
  }
  r.approximate = work.approximate();
  r.precision = work.precision;
  r.flops = work.flops();
  r.bytes = work.bytes();
  r.intensity = r.flops / r.bytes;
  const auto median = summary.Percentile(50);
  r.queries_per_s = summary.throughput_qps > 0 ? summary.throughput_qps
                                               : (median && *median > 0 ? 1e9 / static_cast<double>(*median) : 0);
  r.achieved_gflops = r.flops * r.queries_per_s / 1e9;
  r.achieved_gb_per_s = r.bytes * r.queries_per_s / 1e9;
  r.bandwidth_gb_per_s = bandwidth->gb_per_s;
  r.bandwidth_threads = bandwidth->threads;
  r.bandwidth_source = "triad on " + std::to_string(bandwidth->threads) + " thread" +
                       (bandwidth->threads == 1 ? "" : "s") + " (" + bandwidth->method + ")";
  const double memory_roof = r.intensity * r.bandwidth_gb_per_s;
  // The devices that ran the model's nodes, as backend:device targets: the named one alone unless
  // the runtime said it left nodes elsewhere.
  const std::string backend = target.substr(0, target.find(':'));
  std::vector<std::pair<std::string, int>> ran_on;
  if (placement && placement->known) {
    for (const auto& [device, nodes] : placement->nodes_by_device) {
      const std::string lower = ToLowerAscii(device);
      // The model's own nodes where the runtime tells them (a fused node counts those it absorbed).
      const auto original = placement->original_nodes_by_device.find(device);
      if (nodes > 0) {
        ran_on.emplace_back(backend + ":" + lower,
                            original != placement->original_nodes_by_device.end() ? original->second : nodes);
      }
    }
  }
  const bool split = ran_on.size() > 1 || (ran_on.size() == 1 && ran_on[0].first != target);
  if (!split) ran_on = {{target, 0}};
  std::string split_text;
  for (const auto& [name, nodes] : ran_on) {
    split_text += (split_text.empty() ? "" : ", ") + name + " " + std::to_string(nodes);
  }
  const ComputePeak* peak = nullptr;
  std::string unmeasured;
  for (const auto& [name, nodes] : ran_on) {
    const ComputePeak* p = limits->PeakFor(name, work.precision);
    if (!p) {
      unmeasured += (unmeasured.empty() ? "" : ", ") + name;
    } else if (!peak || p->gflops > peak->gflops) {
      peak = p;
    }
  }
  if (peak && unmeasured.empty()) {
    r.compute_peak_gflops = peak->gflops;
    r.compute_peak_target = peak->target;
    r.compute_peak_source = ComputePeakSource(*peak, threads);
    if (split) {
      r.compute_peak_source += "; the nodes ran on " + split_text + ": the highest of their peaks, " + peak->target + "'s";
    }
  } else if (limits->published_peak_gflops > 0) {
    r.compute_peak_gflops = limits->published_peak_gflops;
    r.compute_peak_source = "the published peak given to `devices --limits --peak-gflops`";
  } else {
    r.compute_peak_missing = "no " + work.precision + " peak measured through " + unmeasured +
                             (split ? " (the nodes ran on " + split_text + ")" : "") +
                             "; `edgebench devices --limits` measures each runtime's";
  }
  if (r.compute_peak_gflops > 0 && r.compute_peak_gflops < memory_roof) {
    r.attainable_gflops = r.compute_peak_gflops;
    r.bound = "compute";
  } else {
    r.attainable_gflops = memory_roof;
    r.bound = "memory";
  }
  r.share = r.achieved_gflops / r.attainable_gflops;
  r.compute_share = r.compute_peak_gflops > 0 ? r.achieved_gflops / r.compute_peak_gflops : 0;
  r.bandwidth_share = r.achieved_gb_per_s / r.bandwidth_gb_per_s;
  if (r.compute_share > 1) {
    r.above_roof = "above 100% of the compute peak measured through " +
                   (r.compute_peak_target.empty() ? std::string("the published figure") : r.compute_peak_target) +
                   ": the run beat the peak as measured, so the peak was measured low (a busy machine?); run "
                   "`edgebench devices --limits` again on an idle machine";
  } else if (r.share > 1 || r.bandwidth_share > 1) {
    r.above_roof = "above 100% of the memory roof: the model's data stayed in the caches (the bytes per query are a "
                   "floor as if read from memory once), or the bandwidth was measured on a busy machine; run "
                   "`edgebench devices --limits` again on an idle machine to tell which";
  }
  return r;
}

json TensorRooflineToJson(const TensorRoofline& r) {
  if (!r.computed()) return {{"omitted", r.omitted}};
  json j = {{"approximate", r.approximate},
            {"precision", r.precision},
            {"flops_per_query", r.flops},
            {"bytes_per_query", r.bytes},
            {"intensity", r.intensity},
            {"queries_per_s", r.queries_per_s},
            {"achieved_gflops", r.achieved_gflops},
            {"achieved_gb_per_s", r.achieved_gb_per_s},
            {"bandwidth_gb_per_s", r.bandwidth_gb_per_s},
            {"bandwidth_threads", r.bandwidth_threads},
            {"bandwidth_source", r.bandwidth_source},
            {"attainable_gflops", r.attainable_gflops},
            {"bound", r.bound},
            {"share", r.share},
            {"bandwidth_share", r.bandwidth_share}};
  if (!r.above_roof.empty()) j["above_roof"] = r.above_roof;
  if (r.compute_peak_gflops > 0) {
    j["compute_peak_gflops"] = r.compute_peak_gflops;
    if (!r.compute_peak_target.empty()) j["compute_peak_target"] = r.compute_peak_target;
    j["compute_peak_source"] = r.compute_peak_source;
    j["compute_share"] = r.compute_share;
  } else {
    j["compute_peak_missing"] = r.compute_peak_missing;
  }
  return j;
}

}  // namespace edgebench
