#include "report/html/report_pipelines.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/tensor_json.h"
#include "report/html/report_labels.h"

namespace edgebench {
namespace {

using nlohmann::json;

json PipelineMs(const std::optional<int64_t>& ns) { return ns ? json(static_cast<double>(*ns) / 1e6) : json(nullptr); }

// A PNG the run wrote (--save-images), inline as a data URI so the page stays one file; none
// when it is gone, is not a PNG, or is over 4 MiB.
json InlinePng(const std::string& path) {
  if (path.empty()) return nullptr;
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  std::vector<char> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const char kPngMagic[] = {'\x89', 'P', 'N', 'G'};
  if (text.size() > (4u << 20) || text.size() < 4 || !std::equal(kPngMagic, kPngMagic + 4, text.begin())) return nullptr;
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return "data:image/png;base64," + Base64Encode(bytes);
}

// A diffusion case's steps (per step index, first and later), outputs and image.
json DiffusionPart(const DiffusionRecord& d) {
  json steps = json::array();
  for (const DiffusionStepRecord& s : d.steps) {
    json by_step = json::array();
    for (int64_t ns : s.by_step_p50_ns) by_step.push_back(static_cast<double>(ns) / 1e6);
    steps.push_back({{"stage", s.stage},
                     {"steps", s.steps},
                     {"p50_ms", PipelineMs(s.p50_ns)},
                     {"first_p50_ms", PipelineMs(s.first_p50_ns)},
                     {"later_p50_ms", PipelineMs(s.later_p50_ns)},
                     {"by_step_p50_ms", by_step}});
  }
  json outputs = json::array();
  for (const DiffusionOutputSummary& o : d.outputs) {
    outputs.push_back({{"name", o.name}, {"mean", o.mean}, {"stddev", o.stddev}, {"non_finite", o.non_finite}});
  }
  return {{"settings", d.settings}, {"steps", steps}, {"outputs", outputs}, {"image", InlinePng(d.image_file)}};
}

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
    json c = {{"label", ReportCaseLabel(r)}, {"harness_share", r.pipeline->harness_share}, {"stages", stages}};
    if (r.pipeline->diffusion) c["diffusion"] = DiffusionPart(*r.pipeline->diffusion);
    cases.push_back(std::move(c));
  }
  if (cases.empty()) return nullptr;
  return {{"stages", names}, {"cases", cases}};
}

}  // namespace edgebench
