#include "report/html/report_memory_map.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace edgebench {
namespace {

using nlohmann::json;

const std::vector<std::string>& Groups() {
  static const std::vector<std::string> groups = {"model files", "other files", "heap and anonymous", "stacks",
                                                  "shared", "devices", "kernel"};
  return groups;
}

size_t GroupOf(const MemoryClassUse& c, const std::set<std::string>& model_files) {
  if (c.kind == "file") return model_files.count(c.name) ? 0 : 1;
  if (c.kind == "heap" || c.kind == "anon" || c.kind.rfind("anon:", 0) == 0) return 2;
  if (c.kind == "stack") return 3;
  if (c.kind == "shm") return 4;
  if (c.kind == "device") return 5;
  return 6;
}

double Mb(int64_t kb) { return std::round(static_cast<double>(kb) / 1024.0 * 100.0) / 100.0; }

constexpr size_t kMaxMaps = 12;
constexpr size_t kSitesPerCase = 5;

}  // namespace

json MemoryMapSection(const std::vector<Record>& records, const CaseLabels& labels) {
  json maps = json::array(), sites = json::array(), reasons = json::array();
  for (const Record& r : records) {
    if (!r.monitor) continue;
    const MonitorRecord& m = *r.monitor;
    if (!m.memory_map.empty() && maps.size() < kMaxMaps) {
      std::set<std::string> model_files;
      for (const MonitorRecord::ModelFile& f : m.model_files) model_files.insert(f.path);
      json moments = json::array(), mb = json::array(), weights = json::array();
      for (const MemorySnapshot& s : m.memory_map) {
        std::vector<int64_t> kb(Groups().size(), 0);
        for (const MemoryClassUse& c : s.classes) kb[GroupOf(c, model_files)] += c.rss_kb;
        json row = json::array();
        for (int64_t v : kb) row.push_back(Mb(v));
        moments.push_back(s.moment);
        mb.push_back(row);
      }
      for (const WeightsResidency& w : m.derived.weights) weights.push_back(w.explanation);
      maps.push_back({{"label", labels(r)}, {"moments", moments}, {"mb", mb}, {"weights", weights}});
    }
    if (m.leak_sites) {
      const LeakSites& l = *m.leak_sites;
      if (!l.reason.empty()) reasons.push_back({{"label", labels(r)}, {"reason", l.reason}});
      for (size_t i = 0; i < l.sites.size() && i < kSitesPerCase; ++i) {
        const LeakSite& s = l.sites[i];
        sites.push_back({{"label", labels(r)}, {"function", s.function}, {"library", s.library},
                         {"per_1k", std::round(s.bytes_per_1k_queries)}, {"low_per_1k", std::round(s.low_per_1k_queries)},
                         {"high_per_1k", std::round(s.high_per_1k_queries)}, {"grown_bytes", s.grown_bytes},
                         {"leak", s.leak}});
      }
    }
  }
  if (maps.empty() && sites.empty() && reasons.empty()) return nullptr;
  return {{"groups", Groups()}, {"maps", maps}, {"leak_sites", sites}, {"leak_reasons", reasons}};
}

}  // namespace edgebench
