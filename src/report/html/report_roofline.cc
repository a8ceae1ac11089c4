#include "report/html/report_roofline.h"

#include <functional>
#include <iomanip>
#include <sstream>

#include "report/html/report_labels.h"

namespace edgebench {

using nlohmann::json;

namespace {

std::string RoofLabel(const Record& r, double gb_per_s, const std::string& source) {
  std::ostringstream label;
  label << "memory " << std::fixed << std::setprecision(1) << gb_per_s << " GB/s (" << source << ", "
        << HostName(r.environment) << ")";
  return label.str();
}

std::string TriadThreads(int threads) {
  return "triad, " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s");
}

// A tensor model's case: one point at its intensity, against its runtime's own peak.
void AddTensorPoint(const Record& r, const std::string& label, json& roofs, json& peaks, json& points, json& omitted,
                    const std::function<void(json&, const std::string&, const char*, double)>& add_unique) {
  const TensorRoofline& roofline = r.tensor_roofline;
  if (!roofline.computed()) {
    omitted.push_back({{"label", label}, {"reason", roofline.omitted}});
    return;
  }
  const std::string roof = RoofLabel(r, roofline.bandwidth_gb_per_s, TriadThreads(roofline.bandwidth_threads));
  add_unique(roofs, roof, "gb_per_s", roofline.bandwidth_gb_per_s);
  std::string peak;
  if (roofline.compute_peak_gflops > 0) {
    peak = r.backend + ":" + r.device + " " + roofline.precision + " peak";
    add_unique(peaks, peak, "gflops", roofline.compute_peak_gflops);
  }
  points.push_back({{"label", label},
                    {"phase", "query"},
                    {"intensity", roofline.intensity},
                    {"gflops", roofline.achieved_gflops},
                    {"gb_per_s", roofline.achieved_gb_per_s},
                    {"share", roofline.share},
                    {"above_roof", roofline.above_roof.empty() ? json(nullptr) : json(roofline.above_roof)},
                    {"roof", roofline.bound == "compute" ? json(peak) : json(roof)},
                    {"approximate", roofline.approximate}});
}

}  // namespace

json RooflineSection(const std::vector<Record>& records, const CaseLabels& labels) {
  json roofs = json::array(), peaks = json::array(), points = json::array(), omitted = json::array();
  auto add_unique = [](json& list, const std::string& label, const char* key, double value) {
    for (const json& item : list) {
      if (item["label"] == label) return;
    }
    list.push_back({{"label", label}, {key, value}});
  };
  for (const Record& r : records) {
    if (r.status == CaseStatus::kOk && !r.llm && r.work && r.summary.count > 0) {
      AddTensorPoint(r, labels(r), roofs, peaks, points, omitted, add_unique);
      continue;
    }
    if (r.status != CaseStatus::kOk || !r.llm || r.llm->summary.requests == 0) continue;
    const LlmRoofline& roofline = r.llm->roofline;
    // Each prompt length is a case of its own: the label says which.
    const std::string label = labels(r) + " prompt " + std::to_string(r.llm->prompt_tokens_run);
    if (!roofline.computed()) {
      omitted.push_back({{"label", label}, {"reason", roofline.omitted}});
      continue;
    }
    const std::string roof = RoofLabel(r, roofline.bandwidth_gb_per_s, TriadThreads(roofline.bandwidth_threads));
    add_unique(roofs, roof, "gb_per_s", roofline.bandwidth_gb_per_s);
    if (roofline.compute_peak_gflops > 0) {
      add_unique(peaks, "compute " + roofline.compute_peak_source, "gflops", roofline.compute_peak_gflops);
    }
    if (roofline.decode_omitted.empty()) {
      points.push_back({{"label", label},
                        {"phase", "decode"},
                        {"intensity", roofline.decode_intensity},
                        {"gflops", roofline.decode_intensity * roofline.decode_gb_per_s},
                        {"gb_per_s", roofline.decode_gb_per_s},
                        {"share", roofline.decode_share},
                        {"roof", roof},
                        {"approximate", roofline.approximate}});
    }
    if (roofline.prefill_gflops > 0) {
      points.push_back({{"label", label},
                        {"phase", "prefill"},
                        {"intensity", roofline.prefill_intensity},
                        {"gflops", roofline.prefill_gflops},
                        {"gb_per_s", roofline.prefill_gflops / roofline.prefill_intensity},
                        {"share", roofline.compute_peak_gflops > 0 ? json(roofline.prefill_share) : json(nullptr)},
                        {"roof", roofline.compute_peak_gflops > 0 ? json("compute " + roofline.compute_peak_source)
                                                                  : json(nullptr)},
                        {"approximate", roofline.approximate}});
    }
  }
  if (points.empty() && omitted.empty()) return nullptr;
  return {{"roofs", roofs}, {"peaks", peaks}, {"points", points}, {"omitted", omitted}};
}

}  // namespace edgebench
