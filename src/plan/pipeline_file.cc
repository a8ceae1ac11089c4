#include "plan/pipeline_file.h"

#include "core/bounded_file.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/cartesian.h"
#include "core/strings.h"
#include "inputs/image_input.h"
#include "pipeline/ddim_scheduler.h"
#include "pipeline/diffusion_inputs.h"
#include "postprocess/ssd_detections.h"
#include "plan/path_expansion.h"
#include "plan/suite_yaml.h"

namespace edgebench {
namespace {

// The most detections a crop stage takes, and the largest top_k: past it, refused (never cut).
constexpr int64_t kMaxStageCount = 1'000'000;

constexpr std::string_view kPipelineTopKeys[] = {"name", "input", "diffusion", "stages"};
constexpr const char* kPipelineStageKinds =
    "decode_image, preprocess, model, ssd_detections, crop, top_k; for a diffusion: text_encoder, unet, guidance, "
    "ddim, vae_decoder";
// A diffusion pipeline's stages, in this order (docs/diffusion.md).
constexpr const char* kDiffusionStageKinds[] = {"text_encoder", "unet", "guidance", "ddim", "vae_decoder"};

// A YAML scalar as JSON: an integer, a number, true/false, or text.
nlohmann::json ScalarJson(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  char* end = nullptr;
  const long long integer = std::strtoll(text.c_str(), &end, 10);
  if (!text.empty() && end && *end == '\0') return integer;
  const double number = std::strtod(text.c_str(), &end);
  if (!text.empty() && end && *end == '\0') return number;
  return text;
}

nlohmann::json YamlJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json object = nlohmann::json::object();
      for (const auto& item : node) object[item.first.Scalar()] = YamlJson(item.second);
      return object;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json list = nlohmann::json::array();
      for (const YAML::Node& item : node) list.push_back(YamlJson(item));
      return list;
    }
    case YAML::NodeType::Scalar:
      // A quoted scalar stays text.
      return node.Tag() == "!" ? nlohmann::json(node.Scalar()) : ScalarJson(node.Scalar());
    default:
      return nullptr;
  }
}

class PipelineParser : public SuiteYaml {
 public:
  PipelineParser(std::string path, std::string base_dir) : SuiteYaml(std::move(path)), base_dir_(std::move(base_dir)) {}

  Result<PipelineSpec> Parse(const std::string& text) {
    return ParseDocument<PipelineSpec>(text, [this](const YAML::Node& root) { return Root(root); });
  }

 private:
  std::string Where(const YAML::Node& node) const {
    return path_ + ":" + std::to_string(node.Mark().line + 1) + ":" + std::to_string(node.Mark().column + 1);
  }

  Result<std::string> Path(const YAML::Node& node, const std::string& what) const {
    auto raw = String(node, what);
    if (!raw.ok()) return raw.status();
    auto path = ExpandPath(raw.value(), ProcessEnvironment, base_dir_);
    if (!path.ok()) return At(node, path.error());
    return path;
  }

  Result<PipelineSpec> Root(const YAML::Node& root) const {
    if (root.IsNull()) return Status::Error(path_ + ": the pipeline file is empty; it needs input: and stages:");
    if (root.IsMap() && root["models"] && root["targets"] && !root["stages"]) {
      return Status::Error(path_ + ": this is a suite file (it has models: and targets:, no stages:): run it with "
                                   "`edgebench suite " + path_ + "`");
    }
    auto fields = Fields(root, "the pipeline", kPipelineTopKeys);
    if (!fields.ok()) return fields.status();
    auto& f = fields.value();
    PipelineSpec p;
    p.path = path_;
    p.name = std::filesystem::path(path_).stem().string();
    if (f.count("name")) {
      auto name = String(f["name"], "name");
      if (!name.ok()) return name.status();
      if (Status s = CheckName(name.value(), "pipeline name"); !s.ok()) return At(f["name"], s.message());
      p.name = name.value();
    }
    if (f.count("diffusion")) {
      if (f.count("input")) return At(f["input"], "a diffusion pipeline's input is its seeded prompt and latents: leave input: out");
      auto settings = Diffusion(f["diffusion"]);
      if (!settings.ok()) return settings.status();
      p.diffusion = settings.take();
    } else {
      if (!f.count("input")) return At(root, "the pipeline has no input: give the image file each query reads");
      auto input = Path(f["input"], "input");
      if (!input.ok()) return input.status();
      if (Status s = CheckImageInput(input.value(), ImagePreprocess{}); !s.ok()) return At(f["input"], s.message());
      p.input = input.value();
    }
    if (!f.count("stages")) return At(root, "the pipeline has no stages: list");
    const YAML::Node& stages = f["stages"];
    if (Status s = List(stages, "stages", "[{name: decode, kind: decode_image}, ...]"); !s.ok()) return s;
    std::map<std::string, std::string> seen;
    for (const YAML::Node& entry : stages) {
      auto stage = Stage(entry, p);
      if (!stage.ok()) return stage.status();
      if (seen.count(stage.value().name)) {
        return At(entry, "stage name '" + stage.value().name + "' is used twice (first at " + seen[stage.value().name] + ")");
      }
      seen[stage.value().name] = stage.value().where;
      p.stages.push_back(stage.take());
    }
    if (p.diffusion) {
      std::string kinds;
      for (const PipelineStageSpec& st : p.stages) kinds += (kinds.empty() ? "" : ", ") + st.kind;
      bool ordered = p.stages.size() == std::size(kDiffusionStageKinds);
      for (size_t i = 0; ordered && i < p.stages.size(); ++i) ordered = p.stages[i].kind == kDiffusionStageKinds[i];
      if (!ordered) {
        return At(stages, "a diffusion pipeline's stages are of the kinds text_encoder, unet, guidance, ddim, "
                          "vae_decoder, in this order; these are " + kinds);
      }
      return p;
    }
    if (p.stages.front().kind != "decode_image") {
      return At(stages[0], "the first stage must be a decode_image stage: the query's input is the image file's bytes");
    }
    return p;
  }

  // diffusion: {image: 512x512, steps: 20, guidance_scale: 7.5, scheduler: ddim, seed: 0,
  //             vae_scale_factor: 8, latent_channels: 4, prompt_tokens: 12}
  Result<DiffusionSettings> Diffusion(const YAML::Node& node) const {
    static constexpr std::string_view keys[] = {"image", "steps", "guidance_scale", "scheduler", "seed",
                                                "vae_scale_factor", "latent_channels", "prompt_tokens", "batch"};
    auto fields = Fields(node, "diffusion", keys);
    if (!fields.ok()) return fields.status();
    auto& f = fields.value();
    DiffusionSettings d;
    if (f.count("image")) {
      auto text = String(f["image"], "image");
      if (!text.ok()) return text.status();
      if (Status s = ParseImageSize(text.value(), d); !s.ok()) return At(f["image"], s.message());
    }
    const auto integer = [&](const char* key, int64_t min, int64_t& value) -> Status {
      if (!f.count(key)) return Status::Ok();
      const int64_t max = key == std::string_view("steps") ? kDdimTrainSteps : std::numeric_limits<int>::max();
      auto v = Integer(f[key], key, min, max);
      if (!v.ok()) return v.status();
      value = v.value();
      return Status::Ok();
    };
    int64_t steps = d.steps, prompt_tokens = kDiffusionPromptTokens;
    for (Status s : {integer("steps", 1, steps), integer("vae_scale_factor", 1, d.vae_scale_factor),
                     integer("latent_channels", 1, d.latent_channels), integer("batch", 1, d.batch),
                     integer("prompt_tokens", 1, prompt_tokens)}) {
      if (!s.ok()) return s;
    }
    if (prompt_tokens != kDiffusionPromptTokens) {
      return At(f["prompt_tokens"], "prompt_tokens: edgebench's seeded prompt has " +
                                        std::to_string(kDiffusionPromptTokens) + " tokens");
    }
    d.steps = static_cast<int>(steps);
    if (f.count("seed")) {
      auto seed = Unsigned(f["seed"], "seed");
      if (!seed.ok()) return seed.status();
      d.seed = seed.value();
    }
    if (f.count("guidance_scale")) {
      auto scale = PositiveNumber(f["guidance_scale"], "guidance_scale");
      if (!scale.ok()) return scale.status();
      d.guidance_scale = scale.value();
    }
    if (f.count("scheduler")) {
      auto scheduler = String(f["scheduler"], "scheduler");
      if (!scheduler.ok()) return scheduler.status();
      d.scheduler = scheduler.value();
    }
    if (Status s = CheckDiffusionSettings(d); !s.ok()) return At(node, "diffusion: " + s.message());
    return d;
  }

  static Status CheckName(const std::string& name, const std::string& what) {
    if (name.empty() || name.size() > 64 ||
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != std::string::npos) {
      return Status::Error("bad " + what + " '" + name + "': use 1 to 64 letters, digits, '_' and '-'");
    }
    return Status::Ok();
  }

  Result<PipelineStageSpec> Stage(const YAML::Node& entry, const PipelineSpec& p) const {
    if (!entry.IsMap()) return At(entry, "a stage: expected a mapping with name: and kind:; got " + TypeName(entry));
    PipelineStageSpec s;
    s.where = Where(entry);
    const YAML::Node name = entry["name"];
    if (!name) return At(entry, "a stage has no name:");
    auto text = String(name, "name");
    if (!text.ok()) return text.status();
    if (Status st = CheckName(text.value(), "stage name"); !st.ok()) return At(name, st.message());
    s.name = text.value();
    const YAML::Node kind = entry["kind"];
    if (kind) {
      auto k = String(kind, "kind");
      if (!k.ok()) return k.status();
      s.kind = k.value();
    } else if (entry["model"]) {
      s.kind = "model";
    } else {
      return At(entry, "stage '" + s.name + "' has no kind: (" + kPipelineStageKinds + ")");
    }
    const std::string what = "stage '" + s.name + "'";
    const auto after = [&](const std::string& kind_before) {
      for (const PipelineStageSpec& before : p.stages) {
        if (before.kind == kind_before) return true;
      }
      return false;
    };
    if (s.kind == "decode_image") {
      if (!p.stages.empty()) return At(entry, what + ": decode_image must be the first stage");
      static constexpr std::string_view keys[] = {"name", "kind"};
      if (auto f = Fields(entry, what, keys); !f.ok()) return f.status();
    } else if (s.kind == "preprocess" || s.kind == "crop") {
      static constexpr std::string_view preprocess_keys[] = {"name", "kind", "preprocess"};
      static constexpr std::string_view crop_keys[] = {"name", "kind", "preprocess", "max_detections"};
      auto f = s.kind == "crop" ? Fields(entry, what, crop_keys) : Fields(entry, what, preprocess_keys);
      if (!f.ok()) return f.status();
      if (!f.value().count("preprocess")) {
        return At(entry, what + " has no preprocess: (e.g. \"resize=224x224,scale=0.0039215686,layout=nchw\")");
      }
      auto text_value = String(f.value()["preprocess"], "preprocess");
      if (!text_value.ok()) return text_value.status();
      auto parsed = ParseImagePreprocess(text_value.value());
      if (!parsed.ok()) return At(f.value()["preprocess"], what + ": " + parsed.error());
      if (s.kind == "crop" && (!parsed.value().width || !parsed.value().height)) {
        return At(f.value()["preprocess"], what + ": a crop needs a resize=WxH: crops differ in size, a model's input does not");
      }
      s.preprocess = text_value.value();
      if (s.kind == "crop") {
        if (!after("ssd_detections")) return At(entry, what + ": a crop needs an ssd_detections stage before it");
        if (f.value().count("max_detections")) {
          auto max = Integer(f.value()["max_detections"], "max_detections", 1, kMaxStageCount);
          if (!max.ok()) return max.status();
          s.max_detections = static_cast<int>(max.value());
        }
      }
    } else if (IsModelStageKind(s.kind)) {
      if ((s.kind == "model") == p.diffusion.has_value()) {
        return At(entry, what + ": a " + s.kind + " stage is for " +
                             (p.diffusion ? "pipelines without a diffusion: block" : "a diffusion pipeline (diffusion:)"));
      }
      static constexpr std::string_view keys[] = {"name", "kind", "model", "targets"};
      auto f = Fields(entry, what, keys);
      if (!f.ok()) return f.status();
      if (!f.value().count("model")) return At(entry, what + " has no model: (a file, or a manifest mapping)");
      auto model = Model(f.value()["model"], what);
      if (!model.ok()) return model.status();
      s.model = model.take();
      if (!f.value().count("targets")) return At(entry, what + " has no targets: (e.g. [ort:cpu, litert:xnnpack])");
      const YAML::Node& targets = f.value()["targets"];
      std::vector<std::string> written;
      if (targets.IsScalar()) {
        written = SplitList(targets.Scalar());
      } else {
        if (Status st = List(targets, "targets", "[ort:cpu, litert:xnnpack]"); !st.ok()) return st;
        for (const YAML::Node& t : targets) {
          auto target = String(t, "a target");
          if (!target.ok()) return target.status();
          written.push_back(target.value());
        }
      }
      for (const std::string& t : written) {
        auto parsed = ParseTarget(t);
        if (!parsed.ok()) return At(targets, what + ": " + parsed.error());
      }
      if (written.empty()) return At(targets, what + ": give at least one target");
      s.targets = written;
    } else if (s.kind == "guidance" || s.kind == "ddim") {
      if (!p.diffusion) return At(entry, what + ": a " + s.kind + " stage is for a diffusion pipeline (diffusion:)");
      static constexpr std::string_view keys[] = {"name", "kind"};
      if (auto f = Fields(entry, what, keys); !f.ok()) return f.status();
    } else if (p.diffusion) {
      return At(entry, what + ": a diffusion pipeline's stages are text_encoder, unet, guidance, ddim, vae_decoder");
    } else if (s.kind == "ssd_detections") {
      // Any key but name and kind is an SSD option by its MediaPipe name (postprocess/ssd_detections.h).
      nlohmann::json options = {{"kind", "ssd_detections"}};
      for (const auto& item : entry) {
        const std::string key = item.first.Scalar();
        if (key == "name" || key == "kind") continue;
        options[key] = YamlJson(item.second);
      }
      if (!options.contains("preset")) return At(entry, what + " has no preset: (blazeface_short_range or blazeface_full_range)");
      auto parsed = ParseSsdDetectionsOptions(options);
      if (!parsed.ok()) return At(entry, what + ": " + parsed.error());
      s.postprocess = options;
    } else if (s.kind == "top_k") {
      static constexpr std::string_view keys[] = {"name", "kind", "k"};
      auto f = Fields(entry, what, keys);
      if (!f.ok()) return f.status();
      if (f.value().count("k")) {
        auto k = Integer(f.value()["k"], "k", 1, kMaxStageCount);
        if (!k.ok()) return k.status();
        s.k = static_cast<int>(k.value());
      }
    } else {
      return At(kind, "unknown stage kind '" + s.kind + "'; kinds: " + kPipelineStageKinds);
    }
    if ((s.kind == "preprocess" || s.kind == "ssd_detections") && p.stages.empty()) {
      return At(entry, what + ": the first stage must be decode_image");
    }
    return s;
  }

  Result<ModelSpec> Model(const YAML::Node& node, const std::string& what) const {
    if (node.IsScalar()) {
      auto path = Path(node, "model");
      if (!path.ok()) return path.status();
      std::error_code ec;
      // NAME=FILE1,FILE2 forms name several files: each is checked when its target reads it.
      if (path.value().find('=') == std::string::npos && !std::filesystem::is_regular_file(path.value(), ec)) {
        return At(node, what + ": model file '" + path.value() + "' " + NotAFileText(path.value()));
      }
      auto spec = ParseModelArgument(path.value());
      if (!spec.ok()) return At(node, what + ": " + spec.error());
      return spec;
    }
    if (!node.IsMap()) return At(node, what + ": model: expected a file or a manifest mapping; got " + TypeName(node));
    nlohmann::json manifest = YamlJson(node);
    if (!manifest.contains("artifacts") || !manifest["artifacts"].is_array()) {
      return At(node, what + ": a model manifest needs artifacts: [{path: FILE}, ...]");
    }
    size_t i = 0;
    for (nlohmann::json& artifact : manifest["artifacts"]) {
      const YAML::Node artifact_node = node["artifacts"][i++];
      if (!artifact.is_object() || !artifact.contains("path") || !artifact["path"].is_string()) {
        return At(artifact_node, what + ": an artifact needs path: FILE");
      }
      auto path = Path(artifact_node["path"], "path");
      if (!path.ok()) return path.status();
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path.value(), ec)) {
        return At(artifact_node["path"], what + ": model file '" + path.value() + "' " + NotAFileText(path.value()));
      }
      artifact["path"] = path.value();
    }
    auto spec = ParseModelManifest(manifest, base_dir_);
    if (!spec.ok()) return At(node, what + ": " + spec.error());
    return spec;
  }

  std::string base_dir_;
};

}  // namespace

bool IsPipelineFile(const std::string& path) {
  // No model format is YAML: a .yaml given as a model is a pipeline file, read (and refused,
  // with the line of its mistake) as one, whatever it holds; nothing is opened here.
  const std::string ext = std::filesystem::path(path).extension().string();
  return ext == ".yaml" || ext == ".yml";
}

Result<PipelineSpec> ParsePipelineText(const std::string& text, const std::string& path) {
  std::error_code ec;
  const std::string absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
  return PipelineParser(absolute, std::filesystem::path(absolute).parent_path().string()).Parse(text);
}

Result<PipelineSpec> ReadPipelineFile(const std::string& path) {
  auto text = ReadBoundedTextFile(path, kMaxPipelineFileBytes, "pipeline file");
  if (!text.ok()) return text.status();
  return ParsePipelineText(text.value(), path);
}

Status OverrideStageTargets(PipelineSpec& pipeline, const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    return Status::Error("--stage '" + text + "': expected NAME=TARGET[,TARGET...], e.g. detect=ort:xnnpack");
  }
  const std::string name = text.substr(0, eq);
  std::vector<std::string> models;
  for (PipelineStageSpec& stage : pipeline.stages) {
    if (!IsModelStageKind(stage.kind)) continue;
    models.push_back(stage.name);
    if (stage.name != name) continue;
    std::vector<std::string> targets = SplitList(text.substr(eq + 1));
    if (targets.empty()) return Status::Error("--stage " + name + "=: give at least one target");
    for (const std::string& t : targets) {
      if (auto parsed = ParseTarget(t); !parsed.ok()) return Status::Error("--stage " + name + ": " + parsed.error());
    }
    stage.targets = std::move(targets);
    return Status::Ok();
  }
  return Status::Error("--stage " + name + ": pipeline '" + pipeline.name + "' has no model stage '" + name +
                       "'; its model stages: " + JoinComma(models));
}

Status SetEveryStageTargets(PipelineSpec& pipeline, const std::vector<std::string>& targets) {
  if (targets.empty()) return Status::Error("--target: give at least one target");
  for (const std::string& t : targets) {
    if (auto parsed = ParseTarget(t); !parsed.ok()) return Status::Error("--target: " + parsed.error());
  }
  for (PipelineStageSpec& stage : pipeline.stages) {
    if (IsModelStageKind(stage.kind)) stage.targets = targets;
  }
  pipeline.same_target_every_stage = true;
  return Status::Ok();
}

Result<std::vector<PipelinePlan>> PipelineTargetCombinations(const PipelineSpec& pipeline, Registry& registry) {
  std::vector<const PipelineStageSpec*> models;
  std::vector<size_t> counts;
  for (const PipelineStageSpec& stage : pipeline.stages) {
    if (!IsModelStageKind(stage.kind)) continue;
    models.push_back(&stage);
    counts.push_back(stage.targets.size());
  }
  // The artifact each model stage's target reads, chosen once per stage and target.
  std::vector<std::vector<PipelinePlanStage>> chosen(models.size());
  for (size_t m = 0; m < models.size(); ++m) {
    const PipelineStageSpec& stage = *models[m];
    for (const std::string& text : stage.targets) {
      auto target = ParseTarget(text);
      if (!target.ok()) return Status::Error(stage.where + ": stage '" + stage.name + "': " + target.error());
      const Backend* backend = registry.Find(target.value().backend);
      if (!backend) {
        return Status::Error(stage.where + ": stage '" + stage.name + "': target " + text + ": " +
                             registry.WhyUnusable(target.value().backend));
      }
      auto artifact = SelectArtifact(stage.model, backend->Info(), target.value().device);
      if (!artifact.ok()) {
        return Status::Error(stage.where + ": stage '" + stage.name + "' on " + text + ": " + artifact.error());
      }
      PipelinePlanStage planned;
      planned.name = stage.name;
      planned.kind = stage.kind;
      planned.model = stage.model.name;
      planned.target = target.take();
      planned.artifact = artifact.value().path;
      planned.outputs = artifact.value().outputs;
      chosen[m].push_back(std::move(planned));
    }
  }
  std::vector<PipelinePlan> cases;
  const auto add_case = [&](const std::vector<size_t>& pick) {
    PipelinePlan plan;
    plan.name = pipeline.name;
    plan.file = pipeline.path;
    plan.input = pipeline.input;
    plan.diffusion = pipeline.diffusion;
    size_t m = 0;
    for (const PipelineStageSpec& stage : pipeline.stages) {
      if (IsModelStageKind(stage.kind)) {
        const PipelinePlanStage& picked = chosen[m][pick[m]];
        plan.label += (plan.label.empty() ? "" : ",") + stage.name + "=" + picked.target.text;
        plan.stages.push_back(picked);
        ++m;
        continue;
      }
      PipelinePlanStage s;
      s.name = stage.name;
      s.kind = stage.kind;
      if (stage.kind == "preprocess" || stage.kind == "crop") {
        s.preprocess = stage.preprocess;
        if (stage.kind == "crop") s.max_detections = stage.max_detections;
      } else if (stage.kind == "ssd_detections") {
        s.postprocess = stage.postprocess;
      } else if (stage.kind == "top_k") {
        s.k = stage.k;
      }
      plan.stages.push_back(std::move(s));
    }
    if (plan.label.empty()) plan.label = "host";
    // --target T: every model stage on T; the case is named by it.
    if (pipeline.same_target_every_stage && !models.empty()) plan.label = models.front()->targets[pick.front()];
    cases.push_back(std::move(plan));
  };
  if (pipeline.same_target_every_stage && !counts.empty()) {
    for (size_t t = 0; t < counts.front(); ++t) add_case(std::vector<size_t>(counts.size(), t));
  } else {
    ForEachCombination(counts, add_case);
  }
  return cases;
}

}  // namespace edgebench
