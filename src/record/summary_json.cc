#include "record/summary_json.h"

namespace edgebench {

using nlohmann::json;

json SummaryToJson(const LatencySummary& s) {
  json percentiles = json::object();
  for (const auto& [p, value] : s.percentiles) {
    percentiles[PercentileName(p)] = value ? json(*value) : json(nullptr);
  }
  return {{"count", s.count}, {"min_ns", s.min_ns}, {"max_ns", s.max_ns},
          {"mean_ns", s.mean_ns}, {"stddev_ns", s.stddev_ns}, {"cv", s.cv},
          {"percentiles_ns", percentiles}, {"throughput_qps", s.throughput_qps},
          {"wall_ns", s.wall_ns}};
}

}  // namespace edgebench
