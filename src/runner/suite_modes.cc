#include "runner/suite_modes.h"

#include "runner/accuracy_mode.h"
#include "runner/agree_mode.h"
#include "runner/drift_mode.h"
#include "runner/token_drift_mode.h"

namespace edgebench {
namespace {

using Cases = Result<std::vector<PlannedCase>>;

Cases PlanMode(const AccuracyOptions& options, const ModelSpec& model, const std::vector<Target>& targets,
               const ModePlanContext& context) {
  auto request = PlanAccuracyRequest(options, model, targets, context);
  if (!request.ok()) return request.status();
  return PlanAccuracyCases(request.value(), context.registry);
}

Cases PlanMode(const AgreeOptions& options, const ModelSpec& model, const std::vector<Target>& targets,
               const ModePlanContext& context) {
  auto request = PlanAgreeRequest(options, model, targets, nullptr, context);
  if (!request.ok()) return request.status();
  auto plan = PlanAgreeCases(request.value(), context.registry);
  if (!plan.ok()) return plan.status();
  return std::move(plan.value().cases);
}

// Drift runs on one target: a plan per target, in the targets' order.
Cases PlanMode(const DriftOptions& options, const ModelSpec& model, const std::vector<Target>& targets,
               const ModePlanContext& context) {
  std::vector<PlannedCase> all;
  for (const Target& target : targets) {
    auto sides = ResolveDriftSides(options, model, target, context.registry);
    if (!sides.ok()) return sides.status();
    Cases cases = Status::Error("");
    if (DriftOnLanguageModels(options, model)) {
      // Per-token KL divergence of the variants' next-token distributions.
      auto request = TokenDriftRequestFrom(TokenDriftOptionsOf(options, sides.value(), target, context),
                                           context.executable);
      if (!request.ok()) return request.status();
      cases = PlanTokenDriftCases(request.value(), context.registry);
    } else {
      auto request = PlanTensorDriftRequest(options, model, target, sides.value(), context);
      if (!request.ok()) return request.status();
      cases = PlanDriftCases(request.value(), context.registry);
    }
    if (!cases.ok()) return cases.status();
    for (PlannedCase& c : cases.value()) all.push_back(std::move(c));
  }
  return all;
}

}  // namespace

Result<std::vector<PlannedCase>> PlanSuiteModeCases(const SuiteModeOptions& options, const ModelSpec& model,
                                                    const std::vector<Target>& targets,
                                                    const ModePlanContext& context) {
  return std::visit([&](const auto& o) { return PlanMode(o, model, targets, context); }, options);
}

}  // namespace edgebench
