#include "runner/plan.h"

#include <filesystem>

namespace edgebench {

std::vector<PlannedTarget> PlanTargets(const ModelSpec& model, const std::vector<Target>& targets,
                                       const Registry& registry) {
  std::vector<PlannedTarget> plan;
  for (const Target& target : targets) {
    PlannedTarget planned{target, std::nullopt, ""};
    if (const Backend* backend = registry.Find(target.backend)) {
      auto artifact = SelectArtifact(model, backend->Info());
      if (artifact.ok()) {
        planned.artifact = artifact.take();
      } else {
        planned.skip_reason = artifact.error();
      }
    } else {
      planned.artifact = model.artifacts.front();
    }
    plan.push_back(planned);
  }
  return plan;
}

std::string MissingArtifacts(const std::vector<PlannedTarget>& plan) {
  std::string missing;
  for (const PlannedTarget& p : plan) {
    if (!p.artifact || p.target.backend == "null") continue;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(p.artifact->path, ec) &&
        missing.find("'" + p.artifact->path + "'") == std::string::npos) {
      missing += (missing.empty() ? "" : "; ") + std::string("model file '") + p.artifact->path +
                 "' does not exist";
    }
  }
  return missing;
}

}  // namespace edgebench
