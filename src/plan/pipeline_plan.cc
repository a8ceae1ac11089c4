#include "plan/pipeline_plan.h"

namespace edgebench {

bool IsModelStageKind(const std::string& kind) {
  return kind == "model" || kind == "text_encoder" || kind == "unet" || kind == "vae_decoder";
}

nlohmann::json PipelinePlanToJson(const PipelinePlan& plan) {
  nlohmann::json stages = nlohmann::json::array();
  for (const PipelinePlanStage& stage : plan.stages) {
    nlohmann::json s = {{"name", stage.name}, {"kind", stage.kind}};
    if (IsModelStageKind(stage.kind)) {
      nlohmann::json outputs = nlohmann::json::array();
      for (const OutputMapping& mapping : stage.outputs) {
        outputs.push_back({{"name", mapping.name}, {"sources", mapping.sources}, {"axis", mapping.axis}});
      }
      s["target"] = stage.target.text;
      s["artifact"] = stage.artifact;
      s["outputs"] = outputs;
      s["model"] = stage.model;
    } else if (stage.kind == "preprocess" || stage.kind == "crop") {
      s["preprocess"] = stage.preprocess;
      if (stage.kind == "crop") s["max_detections"] = stage.max_detections;
    } else if (stage.kind == "ssd_detections") {
      s["postprocess"] = stage.postprocess;
    } else if (stage.kind == "top_k") {
      s["k"] = stage.k;
    }
    stages.push_back(std::move(s));
  }
  nlohmann::json j = {{"name", plan.name}, {"file", plan.file}, {"input", plan.input}, {"stages", stages}};
  if (plan.diffusion) j["diffusion"] = DiffusionSettingsToJson(*plan.diffusion);
  if (!plan.save_images.empty()) j["save_images"] = plan.save_images;
  return j;
}

Result<PipelinePlan> PipelinePlanFromJson(const nlohmann::json& j, const std::string& label) {
  try {
    PipelinePlan plan;
    plan.name = j.at("name").get<std::string>();
    plan.file = j.value("file", "");
    plan.input = j.value("input", "");
    plan.label = label;
    plan.save_images = j.value("save_images", "");
    if (j.contains("diffusion")) {
      auto diffusion = DiffusionSettingsFromJson(j.at("diffusion"));
      if (!diffusion.ok()) return Status::Error("the pipeline's diffusion settings: " + diffusion.error());
      plan.diffusion = diffusion.take();
    }
    for (const nlohmann::json& s : j.at("stages")) {
      PipelinePlanStage stage;
      stage.name = s.at("name").get<std::string>();
      stage.kind = s.at("kind").get<std::string>();
      if (IsModelStageKind(stage.kind)) {
        auto target = ParseTarget(s.at("target").get<std::string>());
        if (!target.ok()) return Status::Error("stage '" + stage.name + "': " + target.error());
        stage.target = target.take();
        stage.artifact = s.at("artifact").get<std::string>();
        stage.model = s.value("model", "");
        for (const nlohmann::json& mapping : s.value("outputs", nlohmann::json::array())) {
          stage.outputs.push_back({mapping.at("name").get<std::string>(),
                                   mapping.at("sources").get<std::vector<std::string>>(), mapping.at("axis").get<int>()});
        }
      } else if (stage.kind == "preprocess" || stage.kind == "crop") {
        stage.preprocess = s.at("preprocess").get<std::string>();
        stage.max_detections = s.value("max_detections", -1);
      } else if (stage.kind == "ssd_detections") {
        stage.postprocess = s.at("postprocess");
      } else if (stage.kind == "top_k") {
        stage.k = s.value("k", 5);
      }
      plan.stages.push_back(std::move(stage));
    }
    return plan;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed pipeline plan: ") + e.what());
  }
}

}  // namespace edgebench
