#include "plan/mix_file.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "backends/target.h"
#include "core/bounded_file.h"
#include "load/scenario_registry.h"
#include "load/scenario_spec.h"
#include "metrics/metrics.h"
#include "plan/path_expansion.h"
#include "plan/suite_yaml.h"

namespace edgebench {
namespace {

constexpr size_t kMaxMixFileBytes = 1 << 20;
constexpr int kMaxWorkloads = 16;
constexpr std::string_view kTopKeys[] = {"name", "duration", "alone", "rounds", "isolation", "workloads"};
constexpr std::string_view kWorkloadKeys[] = {"name",     "model",    "pipeline", "llm",    "target",
                                              "stages",   "scenario", "every",    "arrivals", "prompt",
                                              "gen",      "mmproj",   "images",   "prompt_text", "objectives"};
// The keys only a language model's workload takes.
constexpr const char* kLlmOnlyKeys[] = {"every", "arrivals", "prompt", "gen", "mmproj", "images", "prompt_text"};

// Short names for the metrics objectives name most.
std::string MetricOfShortName(const std::string& name) {
  if (name == "p50") return "p50_ms";
  if (name == "p90") return "p90_ms";
  if (name == "p99") return "p99_ms";
  if (name == "dropped") return "dropped_frames";
  if (name == "late") return "late_frames";
  if (name == "fps") return "slowest_stream_fps";
  if (name == "ttft") return "ttft_p99_ms";
  if (name == "tpot") return "tpot_p99_ms";
  return name;
}

class MixParser : public SuiteYaml {
 public:
  MixParser(std::string path, std::string base_dir) : SuiteYaml(std::move(path)), base_dir_(std::move(base_dir)) {}

  Result<MixSpec> Parse(const std::string& text) {
    return ParseDocument<MixSpec>(text, [this](const YAML::Node& root) { return Root(root); });
  }

 private:
  Result<MixSpec> Root(const YAML::Node& root) {
    auto fields = Fields(root, "a mix file", kTopKeys);
    if (!fields.ok()) return fields.status();
    auto& f = fields.value();
    MixSpec mix;
    mix.path = path_;
    if (!f.count("name")) return At(root, "a mix file needs name: (what the records call it)");
    auto name = String(f["name"], "name");
    if (!name.ok()) return name.status();
    mix.name = name.value();
    if (!f.count("duration")) return At(root, "a mix file needs duration: (each phase's length, e.g. 2m)");
    auto duration_text = String(f["duration"], "duration");
    if (!duration_text.ok()) return duration_text.status();
    auto duration = ParseDurationMs(duration_text.value());
    if (!duration.ok()) return At(f["duration"], "duration: " + duration.error());
    if (duration.value() < 100) return At(f["duration"], "duration: at least 100ms");
    mix.duration_ms = duration.value();
    if (f.count("alone")) {
      auto alone = String(f["alone"], "alone");
      if (!alone.ok()) return alone.status();
      if (alone.value() != "before" && alone.value() != "after" && alone.value() != "none") {
        return At(f["alone"], "alone: before, after or none (when each workload runs alone); got '" + alone.value() + "'");
      }
      mix.alone = alone.value();
    }
    if (f.count("rounds")) {
      auto rounds = Integer(f["rounds"], "rounds", 1, kMaxMixRounds);
      if (!rounds.ok()) return rounds.status();
      mix.rounds = static_cast<int>(rounds.value());
      if (mix.rounds > 1 && mix.alone == "none") {
        return At(f["rounds"], "rounds: interleave the alone and mixed phases; with alone: none there is nothing to "
                               "interleave (use before or after)");
      }
    }
    if (f.count("isolation")) {
      auto isolation = String(f["isolation"], "isolation");
      if (!isolation.ok()) return isolation.status();
      if (isolation.value() != "processes" && isolation.value() != "together") {
        return At(f["isolation"], "isolation: processes (each workload its own process, the default) or together "
                                  "(all in one process); got '" + isolation.value() + "'");
      }
      mix.isolation = isolation.value();
    }
    if (!f.count("workloads")) return At(root, "a mix file needs workloads: (a list)");
    const YAML::Node& list = f["workloads"];
    if (Status s = List(list, "workloads", "workloads: [{name: faces, model: m.onnx, scenario: camera:4@10fps}]"); !s.ok()) {
      return s;
    }
    if (list.size() > static_cast<size_t>(kMaxWorkloads)) {
      return At(list, "workloads: at most " + std::to_string(kMaxWorkloads) + " at once");
    }
    std::set<std::string> names;
    for (const YAML::Node& entry : list) {
      auto workload = Workload(entry);
      if (!workload.ok()) return workload.status();
      if (!names.insert(workload.value().name).second) {
        return At(entry, "workload '" + workload.value().name + "' is named twice");
      }
      mix.workloads.push_back(std::move(workload.value()));
    }
    return mix;
  }

  Result<MixWorkload> Workload(const YAML::Node& entry) const {
    auto fields = Fields(entry, "a workload", kWorkloadKeys);
    if (!fields.ok()) return fields.status();
    auto& f = fields.value();
    MixWorkload w;
    if (!f.count("name")) return At(entry, "a workload needs name:");
    auto name = String(f["name"], "name");
    if (!name.ok()) return name.status();
    w.name = name.value();
    if (w.name.empty() || w.name.size() > 64 || w.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                                        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
                                                    std::string::npos) {
      return At(f["name"], "name: letters, digits, '-' and '_', at most 64 (it names a folder)");
    }
    const std::string what = "workload '" + w.name + "'";
    int kinds = 0;
    for (const char* kind : {"model", "pipeline", "llm"}) {
      if (!f.count(kind)) continue;
      ++kinds;
      w.kind = kind;
      auto path = Path(f[kind], kind);
      if (!path.ok()) return path.status();
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path.value(), ec)) {
        return At(f[kind], what + ": " + kind + " '" + path.value() + "' is not a file");
      }
      w.path = path.value();
    }
    if (kinds != 1) return At(entry, what + ": needs exactly one of model:, pipeline: or llm:");
    if (f.count("target")) {
      auto target = String(f["target"], "target");
      if (!target.ok()) return target.status();
      if (auto parsed = ParseTarget(target.value()); !parsed.ok()) return At(f["target"], what + ": " + parsed.error());
      w.target = target.value();
    }
    if (f.count("stages")) {
      if (w.kind != "pipeline") return At(f["stages"], what + ": stages: is for a pipeline's model stages");
      if (Status s = List(f["stages"], "stages", "stages: [detect=litert:xnnpack]"); !s.ok()) return s;
      for (const YAML::Node& stage : f["stages"]) {
        auto text = String(stage, "stage");
        if (!text.ok()) return text.status();
        const size_t eq = text.value().find('=');
        if (eq == std::string::npos || eq == 0 || !ParseTarget(text.value().substr(eq + 1)).ok()) {
          return At(stage, what + ": a stage is NAME=TARGET, e.g. detect=litert:xnnpack; got '" + text.value() + "'");
        }
        w.stages.push_back(text.value());
      }
    }
    if (w.kind == "model" && w.target.empty()) return At(entry, what + ": a model needs target:");
    if (w.kind == "pipeline" && !w.target.empty()) {
      return At(f["target"], what + ": a pipeline's targets are its stages: [NAME=TARGET, ...]");
    }
    if (w.kind == "llm") {
      if (w.target.empty()) w.target = "llamacpp:cpu";
      if (f.count("scenario")) return At(f["scenario"], what + ": a language model's load is every: (seconds between requests)");
      if (!f.count("every")) return At(entry, what + ": a language model needs every: (e.g. 5s, a request every 5 s)");
      auto every_text = String(f["every"], "every");
      if (!every_text.ok()) return every_text.status();
      auto every = ParseDurationMs(every_text.value());
      if (!every.ok() || every.value() < 1) return At(f["every"], what + ": every: a duration such as 5s or 500ms");
      w.every_s = static_cast<double>(every.value()) / 1000.0;
      for (const char* key : {"prompt", "gen"}) {
        if (!f.count(key)) continue;
        auto tokens = Integer(f[key], key, 1, 32768);
        if (!tokens.ok()) return tokens.status();
        (std::string(key) == "prompt" ? w.prompt : w.gen) = static_cast<int>(tokens.value());
      }
      if (f.count("arrivals")) {
        auto arrivals = String(f["arrivals"], "arrivals");
        if (!arrivals.ok()) return arrivals.status();
        if (arrivals.value() != "poisson" && arrivals.value() != "uniform") {
          return At(f["arrivals"], what + ": arrivals: poisson (seeded, every: on average) or uniform (exactly every:)");
        }
        w.arrivals = arrivals.value();
      }
      if (Status s = VisionRequests(f, what, w); !s.ok()) return s;
    } else {
      for (const char* key : kLlmOnlyKeys) {
        if (f.count(key)) return At(f[key], what + ": " + key + ": is for a language model (llm:)");
      }
      if (!f.count("scenario")) return At(entry, what + ": needs scenario: (e.g. camera:4@10fps)");
      auto scenario = String(f["scenario"], "scenario");
      if (!scenario.ok()) return scenario.status();
      auto parsed = ParseScenario(scenario.value());
      if (!parsed.ok()) return At(f["scenario"], what + ": " + parsed.error());
      if (parsed.value().family() == "llm" || parsed.value().family() == "soak") {
        return At(f["scenario"], what + ": the mix's duration sets how long it runs; use a load scenario other than " +
                                     parsed.value().family());
      }
      w.scenario = parsed.value().Canonical();
    }
    if (f.count("objectives")) {
      if (Status s = List(f["objectives"], "objectives", "objectives: [p99<=66ms, dropped<=1%]"); !s.ok()) return s;
      for (const YAML::Node& node : f["objectives"]) {
        auto text = String(node, "objective");
        if (!text.ok()) return text.status();
        auto objective = ParseMixObjective(text.value());
        if (!objective.ok()) return At(node, what + ": " + objective.error());
        w.objectives.push_back(objective.value());
      }
    }
    return w;
  }

  // A vision-language model's requests (docs/vlm.md): its projector, the images taken in turn,
  // and the text beside them; all three or none.
  Status VisionRequests(std::map<std::string, YAML::Node>& f, const std::string& what, MixWorkload& w) const {
    const int given = static_cast<int>(f.count("mmproj") + f.count("images"));
    if (given == 0) {
      if (f.count("prompt_text")) return At(f["prompt_text"], what + ": prompt_text: is for images (with mmproj:)");
      return Status::Ok();
    }
    if (given != 2) {
      return At(f.count("mmproj") ? f["mmproj"] : f["images"], what + ": a vision-language model needs both mmproj: and images:");
    }
    auto file = [&](const YAML::Node& node, const std::string& key) -> Result<std::string> {
      auto path = Path(node, key);
      if (!path.ok()) return path.status();
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path.value(), ec)) {
        return At(node, what + ": " + key + " '" + path.value() + "' is not a file");
      }
      return path;
    };
    if (f.count("prompt")) {
      return At(f["prompt"], what + ": prompt: sets a text prompt's length; a vision-language request is its images and "
                                    "prompt_text:");
    }
    auto mmproj = file(f["mmproj"], "mmproj");
    if (!mmproj.ok()) return mmproj.status();
    w.mmproj = mmproj.value();
    if (Status s = List(f["images"], "images", "images: [photo.png]"); !s.ok()) return s;
    for (const YAML::Node& node : f["images"]) {
      auto image = file(node, "image");
      if (!image.ok()) return image.status();
      w.images.push_back(image.value());
    }
    if (w.images.empty()) return At(f["images"], what + ": images: at least one");
    w.prompt_text = "Describe the image.";
    if (f.count("prompt_text")) {
      auto text = String(f["prompt_text"], "prompt_text");
      if (!text.ok()) return text.status();
      w.prompt_text = text.value();
    }
    return Status::Ok();
  }

  Result<std::string> Path(const YAML::Node& node, const std::string& what) const {
    auto raw = String(node, what);
    if (!raw.ok()) return raw.status();
    auto path = ExpandPath(raw.value(), ProcessEnvironment, base_dir_);
    if (!path.ok()) return At(node, path.error());
    return path;
  }

  std::string base_dir_;
};

}  // namespace

bool IsMixFile(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext != ".yaml" && ext != ".yml") return false;
  std::ifstream in(path);
  std::string line;
  for (int i = 0; i < 10000 && std::getline(in, line); ++i) {
    if (line.rfind("workloads:", 0) == 0) return true;
  }
  return false;
}

Result<MixSpec> ParseMixText(const std::string& text, const std::string& path) {
  std::error_code ec;
  const std::string absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
  return MixParser(absolute, std::filesystem::path(absolute).parent_path().string()).Parse(text);
}

Result<MixSpec> ReadMixFile(const std::string& path) {
  auto text = ReadBoundedTextFile(path, kMaxMixFileBytes, "mix file");
  if (!text.ok()) return text.status();
  return ParseMixText(text.value(), path);
}

Result<MixObjective> ParseMixObjective(const std::string& text) {
  const char* usage = "an objective is METRIC<=BOUND or METRIC>=BOUND, e.g. p99<=66ms, dropped<=1%, ttft<=2s, fps>=9.5";
  MixObjective o;
  o.text = text;
  size_t op = text.find("<=");
  if (op == std::string::npos) {
    op = text.find(">=");
    o.at_most = false;
  }
  if (op == std::string::npos || op == 0) return Status::Error("'" + text + "': " + usage);
  o.metric = MetricOfShortName(text.substr(0, op));
  const Metric* metric = FindMetric(o.metric);
  if (!metric) return Status::Error("'" + text + "': no metric '" + text.substr(0, op) + "'; " + usage);
  std::string bound = text.substr(op + 2);
  double scale = 1;
  auto strip = [&](const std::string& suffix, double factor) {
    if (bound.size() > suffix.size() && bound.compare(bound.size() - suffix.size(), suffix.size(), suffix) == 0) {
      bound.resize(bound.size() - suffix.size());
      scale = factor;
      return true;
    }
    return false;
  };
  const bool milliseconds = metric->unit == FlatUnit::kMilliseconds;
  const bool fraction = metric->unit == FlatUnit::kFraction;
  if (milliseconds) {
    if (!strip("ms", 1) && !strip("us", 1e-3) && !strip("s", 1e3)) {
      return Status::Error("'" + text + "': give the bound's unit (ms, us or s)");
    }
  } else if (fraction) {
    if (!strip("%", 0.01)) return Status::Error("'" + text + "': give the bound in percent, e.g. 1%");
  }
  double value = 0;
  if (!ParseDecimal(bound, value)) return Status::Error("'" + text + "': the bound '" + bound + "' is not a number");
  o.bound = value * scale;
  return o;
}

}  // namespace edgebench
