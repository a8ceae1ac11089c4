#include "report/html/report_pipelines.h"

#include <algorithm>

#include "report/html/report_data.h"

namespace edgebench {
namespace {

using nlohmann::json;

json PipelineMs(const std::optional<int64_t>& ns) { return ns ? json(static_cast<double>(*ns) / 1e6) : json(nullptr); }

}  // namespace

json PipelinesSection(const std::vector<Record>& records) {
  json cases = json::array();
  std::vector<std::string> names;
  for (const Record& r : records) {
    if (r.status != CaseStatus::kOk || !r.pipeline) continue;
    json stages = json::array();
    for (const PipelineStageRecord& s : r.pipeline->stages) {
      if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
      stages.push_back({{"name", s.name},
                        {"kind", s.kind},
                        {"on", s.target.empty() ? "host" : s.target},
                        {"share", s.share},
                        {"p50_ms", PipelineMs(s.p50_ns)},
                        {"p90_ms", PipelineMs(s.p90_ns)},
                        {"p99_ms", PipelineMs(s.p99_ns)},
                        {"mean_ms", s.mean_ns / 1e6},
                        {"cpu_ms", s.cpu_mean_ns ? json(*s.cpu_mean_ns / 1e6) : json(nullptr)},
                        {"calls", s.queries ? static_cast<double>(s.calls) / static_cast<double>(s.queries) : 0.0}});
    }
    cases.push_back({{"label", ReportCaseLabel(r)}, {"harness_share", r.pipeline->harness_share}, {"stages", stages}});
  }
  if (cases.empty()) return nullptr;
  return {{"stages", names}, {"cases", cases}};
}

}  // namespace edgebench
