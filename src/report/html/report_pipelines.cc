#include "report/html/report_pipelines.h"

#include <filesystem>

#include "core/bounded_file.h"

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

// Whether `path` (resolved, links followed) lies inside `dir`.
bool Inside(const std::string& path, const std::string& dir) {
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::weakly_canonical(path, ec);
  if (ec) return false;
  const std::filesystem::path root = std::filesystem::weakly_canonical(dir, ec);
  if (ec || root.empty()) return false;
  const auto [end, _] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
  return end == root.end();
}

}  // namespace

InlinedImage InlineStorePng(const std::string& path, const std::string& store_dir) {
  if (path.empty()) return {nullptr, ""};
  // A record is untrusted input (stores are merged from fleets and shared): what it names is
  // read only inside its own store, only a regular file, bounded, and only a PNG.
  if (!Inside(path, store_dir)) {
    return {nullptr, "not shown: " + path + " is outside the store's directory " + store_dir +
                         " (save images inside it, e.g. --save-images " + store_dir + "/images)"};
  }
  auto read = ReadBoundedTextFile(path, kMaxInlinedImageBytes, "image");
  if (!read.ok()) return {nullptr, "not shown: " + read.error()};
  const std::string& text = read.value();
  static const char kPngMagic[] = {'\x89', 'P', 'N', 'G'};
  if (text.size() < 4 || !std::equal(kPngMagic, kPngMagic + 4, text.begin())) {
    return {nullptr, "not shown: " + path + " is not a PNG"};
  }
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return {"data:image/png;base64," + Base64Encode(bytes), ""};
}

namespace {

// A diffusion case's steps (per step index, first and later), outputs and image (`store_dir`:
// the directory of the store holding its record).
json DiffusionPart(const DiffusionRecord& d, const std::string& store_dir) {
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
  const InlinedImage image = InlineStorePng(d.image_file, store_dir);
  json part = {{"settings", d.settings}, {"steps", steps}, {"outputs", outputs}, {"image", image.data_uri}};
  if (!image.note.empty()) part["image_note"] = image.note;
  return part;
}

}  // namespace

json PipelinesSection(const std::vector<Record>& records, const std::vector<std::string>& store_dirs,
                      const CaseLabels& labels) {
  json cases = json::array();
  std::vector<std::string> names;
  for (size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
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
    json c = {{"label", labels(r)}, {"harness_share", r.pipeline->harness_share}, {"stages", stages}};
    if (r.pipeline->diffusion) {
      c["diffusion"] = DiffusionPart(*r.pipeline->diffusion, i < store_dirs.size() ? store_dirs[i] : std::string());
    }
    cases.push_back(std::move(c));
  }
  if (cases.empty()) return nullptr;
  return {{"stages", names}, {"cases", cases}};
}

}  // namespace edgebench
