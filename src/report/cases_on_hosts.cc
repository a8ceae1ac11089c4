#include "report/cases_on_hosts.h"

#include <algorithm>

#include "report/shape_matrix.h"
#include "load/case_kind.h"

namespace edgebench {

std::string ScenarioText(const Record& r) {
  if (CaseKindOf(r.scenario) != CaseKind::kLanguageModel || !r.llm) return r.scenario;
  const LlmSettings& s = r.llm->settings;
  std::string text = "llm prompt " + std::to_string(s.prompt_tokens) + " gen " + std::to_string(s.gen_tokens);
  if (s.sequences > 1) text += " sequences " + std::to_string(s.sequences);
  if (s.concurrency > 1) text += " concurrency " + std::to_string(s.concurrency);
  return text;
}

const LatencySummary& MainLatencySummary(const Record& r) {
  if (r.summary.count == 0 && r.llm) return r.llm->summary.e2e;
  if (r.summary.count == 0 && r.accuracy) return r.accuracy->inference_summary;
  return r.summary;
}

std::string HostCaseLabel(const Record& r) {
  std::string label = r.model + (r.variant.empty() ? "" : "?" + r.variant) + " " + r.requested_target + " " +
                      ScenarioText(r);
  if (!r.dims.empty()) label += " " + ShapeLabel(r.dims, {});
  return label;
}

CasesOnHosts GroupCasesOnHosts(const std::vector<const Record*>& records, std::vector<std::string> hosts) {
  CasesOnHosts grouped;
  grouped.hosts = std::move(hosts);
  std::map<std::string, size_t> row_of;
  for (const Record* r : records) {
    const std::string& host = HostName(r->environment);
    if (std::find(grouped.hosts.begin(), grouped.hosts.end(), host) == grouped.hosts.end()) {
      grouped.hosts.push_back(host);
    }
    const std::string label = HostCaseLabel(*r);
    const auto [it, added] = row_of.emplace(label, grouped.rows.size());
    if (added) grouped.rows.push_back({label, r, {}});
    const Record*& cell = grouped.rows[it->second].by_host[host];
    if (!cell || r->status == CaseStatus::kOk || cell->status != CaseStatus::kOk) cell = r;
  }
  return grouped;
}

}  // namespace edgebench
