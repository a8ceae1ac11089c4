#include "plan/model_spec.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/strings.h"

namespace edgebench {
namespace {

Result<ArtifactSpec> ParseArtifact(const std::string& text) {
  ArtifactSpec artifact;
  const auto q = text.find('?');
  artifact.path = text.substr(0, q);
  if (artifact.path.empty()) return Status::Error("empty artifact path in '" + text + "'");
  size_t pos = q;
  while (pos != std::string::npos) {
    const size_t amp = text.find('&', pos + 1);
    const std::string option = text.substr(pos + 1, amp == std::string::npos ? std::string::npos : amp - pos - 1);
    pos = amp;
    if (option.rfind("layout=", 0) == 0) {
      auto layout = ParseLayout(option.substr(7), artifact.path);
      if (!layout.ok()) return layout.status();
      artifact.layout = layout.value();
    } else if (option.rfind("target=", 0) == 0 && option.find(':') != std::string::npos) {
      artifact.target = option.substr(7);
    } else if (option.rfind("variant=", 0) == 0 && option.size() > 8) {
      artifact.variant = option.substr(8);
    } else {
      return Status::Error("bad artifact option '" + option + "' in '" + text +
                           "': the options are layout=nchw|nhwc, target=BACKEND:DEVICE and variant=NAME");
    }
  }
  return artifact;
}

Result<std::vector<OutputMapping>> ParseOutputMapping(const nlohmann::json& json) {
  if (!json.is_object()) {
    return Status::Error("\"outputs\" must be an object: {\"NAME\": \"SOURCE\"} renames, "
                         "{\"NAME\": {\"concat\": [\"A\", \"B\"], \"axis\": 1}} concatenates");
  }
  std::vector<OutputMapping> mapping;
  for (const auto& [name, value] : json.items()) {
    OutputMapping m;
    m.name = name;
    if (value.is_string()) {
      m.sources = {value.get<std::string>()};
    } else if (value.is_object() && value.contains("concat") && value["concat"].is_array()) {
      for (const auto& key : value.items()) {
        if (key.key() != "concat" && key.key() != "axis") {
          return Status::Error("output '" + name + "': unknown key '" + key.key() + "' (the keys are concat and axis)");
        }
      }
      m.sources = value["concat"].get<std::vector<std::string>>();
      m.axis = value.value("axis", 0);
      if (m.sources.empty()) return Status::Error("output '" + name + "': \"concat\" lists no outputs");
    } else {
      return Status::Error("output '" + name + "' must be an output's name (a rename) or {\"concat\": [...], "
                           "\"axis\": N}; it is " + value.dump());
    }
    mapping.push_back(std::move(m));
  }
  return mapping;
}

std::string Extension(const std::string& path) {
  return ToLowerAscii(std::filesystem::path(path).extension().string());
}

}  // namespace

Result<ModelSpec> ParseModelArgument(const std::string& text) {
  const auto query = text.find('?');
  if (Extension(text.substr(0, query)) == ".json") {
    const std::string path = text.substr(0, query);
    std::string variant;
    if (query != std::string::npos) {
      const std::string option = text.substr(query + 1);
      if (option.rfind("variant=", 0) != 0 || option.size() == 8 || option.find('&') != std::string::npos) {
        return Status::Error("bad manifest option '" + option + "' in '" + text +
                             "': a manifest takes one option, variant=NAME");
      }
      variant = option.substr(8);
    }
    std::ifstream in(path);
    if (!in) return Status::Error("cannot read model manifest '" + path + "'");
    const auto json = nlohmann::json::parse(in, nullptr, false);
    if (json.is_discarded()) return Status::Error("model manifest '" + path + "' is not valid JSON");
    auto spec = ParseModelManifest(json, std::filesystem::path(path).parent_path().string());
    if (!spec.ok()) return Status::Error("model manifest '" + path + "': " + spec.error());
    if (variant.empty()) return spec;
    auto chosen = SelectVariant(spec.value(), variant);
    if (!chosen.ok()) return Status::Error("model manifest '" + path + "': " + chosen.error());
    return chosen;
  }
  ModelSpec spec;
  std::string list = text;
  const auto eq = text.find('=');
  const auto slash = text.find('/');
  if (eq != std::string::npos && (slash == std::string::npos || eq < slash) &&
      text.find('?') > eq) {
    spec.name = text.substr(0, eq);
    list = text.substr(eq + 1);
    if (spec.name.empty()) return Status::Error("empty model name in '" + text + "'");
  }
  size_t pos = 0;
  while (pos <= list.size()) {
    const auto comma = list.find(',', pos);
    auto artifact = ParseArtifact(list.substr(pos, comma == std::string::npos ? comma : comma - pos));
    if (!artifact.ok()) return artifact.status();
    spec.artifacts.push_back(artifact.take());
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  if (spec.name.empty()) spec.name = std::filesystem::path(spec.artifacts[0].path).stem().string();
  return spec;
}

Result<ModelSpec> ParseModelManifest(const nlohmann::json& json, const std::string& base_dir) {
  try {
    ModelSpec spec;
    spec.name = json.at("name").get<std::string>();
    for (const auto& a : json.at("artifacts")) {
      ArtifactSpec artifact;
      std::filesystem::path path = a.at("path").get<std::string>();
      if (path.is_relative() && !base_dir.empty()) path = std::filesystem::path(base_dir) / path;
      artifact.path = path.string();
      auto layout = ParseLayout(a.value("layout", "any"), artifact.path);
      if (!layout.ok()) return layout.status();
      artifact.layout = layout.value();
      artifact.target = a.value("target", "");
      artifact.variant = a.value("variant", "");
      if (a.contains("outputs")) {
        auto mapping = ParseOutputMapping(a["outputs"]);
        if (!mapping.ok()) return Status::Error("artifact '" + artifact.path + "': " + mapping.error());
        artifact.outputs = mapping.take();
      }
      if (a.contains("postprocess")) {
        auto postprocess = ParseSsdDetectionsOptions(a["postprocess"]);
        if (!postprocess.ok()) return Status::Error("artifact '" + artifact.path + "': " + postprocess.error());
        artifact.postprocess = postprocess.take();
      }
      spec.artifacts.push_back(artifact);
    }
    if (spec.artifacts.empty()) return Status::Error("no artifacts");
    if (json.contains("tolerances")) {
      const auto& t = json["tolerances"];
      if (t.contains("max_abs")) spec.tolerances.max_abs = t["max_abs"].get<double>();
      if (t.contains("min_cosine")) spec.tolerances.min_cosine = t["min_cosine"].get<double>();
      if (t.contains("min_sqnr_db")) spec.tolerances.min_sqnr_db = t["min_sqnr_db"].get<double>();
      if (t.contains("detections")) {
        const auto& d = t["detections"];
        DetectionTolerances& dt = spec.detection_tolerances;
        dt.min_iou = d.value("min_iou", dt.min_iou);
        dt.max_corner_error_px = d.value("max_corner_error_px", dt.max_corner_error_px);
        dt.max_score_diff = d.value("max_score_diff", dt.max_score_diff);
        dt.max_keypoint_error = d.value("max_keypoint_error", dt.max_keypoint_error);
        dt.max_unmatched = d.value("max_unmatched", dt.max_unmatched);
      }
    }
    if (json.contains("postprocess")) {
      auto postprocess = ParseSsdDetectionsOptions(json["postprocess"]);
      if (!postprocess.ok()) return postprocess.status();
      spec.postprocess = postprocess.take();
    }
    spec.preprocess = json.value("preprocess", "");
    spec.dataset = json.value("dataset", "");
    if (json.contains("labels")) spec.labels = json["labels"].get<std::vector<std::string>>();
    return spec;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(e.what());
  }
}

const std::optional<SsdDetectionsOptions>& ArtifactPostprocess(const ModelSpec& model, const ArtifactSpec& artifact) {
  return artifact.postprocess ? artifact.postprocess : model.postprocess;
}

std::vector<std::string> ModelVariants(const ModelSpec& model) {
  std::vector<std::string> variants;
  for (const ArtifactSpec& a : model.artifacts) {
    if (!a.variant.empty() && std::find(variants.begin(), variants.end(), a.variant) == variants.end()) {
      variants.push_back(a.variant);
    }
  }
  return variants;
}

Result<ModelSpec> SelectVariant(const ModelSpec& model, const std::string& variant) {
  ModelSpec chosen = model;
  chosen.variant = variant;
  chosen.artifacts.clear();
  for (const ArtifactSpec& a : model.artifacts) {
    if (a.variant == variant) chosen.artifacts.push_back(a);
  }
  if (chosen.artifacts.empty()) {
    const auto variants = ModelVariants(model);
    std::string list;
    for (const auto& v : variants) list += (list.empty() ? "" : ", ") + v;
    return Status::Error("model '" + model.name + "' has no variant '" + variant + "'; " +
                         (variants.empty() ? std::string("its artifacts name no variants")
                                           : "its variants are " + list));
  }
  return chosen;
}

Result<ArtifactSpec> SelectArtifact(const ModelSpec& model, const BackendInfo& backend,
                                    const std::string& device) {
  // Only one variant's artifacts: the chosen one's, else the default (the first artifact's).
  const std::string& variant = model.variant.empty() ? model.artifacts.front().variant : model.variant;
  if (backend.artifact_extensions.empty()) return model.artifacts.front();
  std::vector<const ArtifactSpec*> readable;
  std::vector<std::string> other_variants;
  for (const ArtifactSpec& a : model.artifacts) {
    const std::string ext = Extension(a.path);
    if (a.variant != variant) {
      for (const std::string& wanted : backend.artifact_extensions) {
        if (ext == wanted) other_variants.push_back(a.variant);
      }
      continue;
    }
    for (const std::string& wanted : backend.artifact_extensions) {
      if (ext == wanted) readable.push_back(&a);
    }
  }
  const std::string target = backend.name + ":" + device;
  for (const ArtifactSpec* a : readable) {
    if (!device.empty() && a->target == target) return *a;
  }
  std::string others;
  for (const ArtifactSpec* a : readable) {
    if (a->target.empty()) return *a;
    others += (others.empty() ? "" : ", ") + std::filesystem::path(a->path).filename().string() + " for " + a->target;
  }
  if (!readable.empty()) {
    return Status::Error("model '" + model.name + "' has no artifact for " + target + ": it has " + others);
  }
  if (!other_variants.empty()) {
    std::string list;
    for (const auto& v : other_variants) {
      if (list.find("'" + v + "'") == std::string::npos) list += (list.empty() ? "'" : ", '") + v + "'";
    }
    return Status::Error("model '" + model.name + "' has no " + (variant.empty() ? "unnamed" : "'" + variant + "'") +
                         " variant that backend '" + backend.name + "' reads; it has " + list +
                         " (choose one with ?variant=NAME on the model)");
  }
  std::string reads, has;
  for (const auto& e : backend.artifact_extensions) reads += (reads.empty() ? "" : " or ") + e;
  for (const auto& a : model.artifacts) has += (has.empty() ? "" : ", ") + std::filesystem::path(a.path).filename().string();
  // A GGUF is a language model: `run` measures tensor models, `llm` measures GGUFs.
  bool all_gguf = !model.artifacts.empty();
  for (const auto& a : model.artifacts) all_gguf = all_gguf && std::filesystem::path(a.path).extension() == ".gguf";
  return Status::Error("model '" + model.name + "' has no artifact that backend '" + backend.name +
                       "' reads (" + reads + "); it has: " + has +
                       (all_gguf ? " (a .gguf is a language model: `edgebench llm " + model.artifacts.front().path +
                                       "` measures it)"
                                 : ""));
}

}  // namespace edgebench
