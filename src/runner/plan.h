// The plan of a run: for each target, the model artifact its backend reads, or why it is
// skipped. The orchestrator plans from backend infos only; it never loads a model.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backends/registry.h"
#include "runner/model_spec.h"

namespace edgebench {

struct PlannedTarget {
  Target target;
  std::optional<ArtifactSpec> artifact;  // unset: skipped
  std::string skip_reason;
};

// Unknown or unbuilt backends get the model's first artifact: running them yields an
// "unavailable" record that says why.
std::vector<PlannedTarget> PlanTargets(const ModelSpec& model, const std::vector<Target>& targets,
                                       const Registry& registry);

// Every planned artifact that is not a readable file, as one message; empty when all are.
std::string MissingArtifacts(const std::vector<PlannedTarget>& plan);

}  // namespace edgebench
