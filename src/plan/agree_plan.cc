#include "plan/agree_plan.h"

#include <cmath>

#include "inputs/image_input.h"

namespace edgebench {

Result<AgreePlanRequest> PlanAgreeRequest(const AgreeOptions& o, const ModelSpec& model,
                                          const std::vector<Target>& targets, const PipelineSpec* pipeline,
                                          const ModePlanContext& context) {
  if (o.steps < 0 || o.steps > 1000) return Status::Error("--steps " + std::to_string(o.steps) + ": give 1 to 1000");
  if (o.timeout_ms < 1) return Status::Error("--timeout must be at least 1 ms");
  // A nan tolerance compares false with every error: the verdict would be decided by the
  // comparison's direction, not by the numbers.
  if (o.max_abs && !(*o.max_abs >= 0 && std::isfinite(*o.max_abs))) {
    return Status::Error("--max-abs must be a finite number of 0 or more");
  }
  if (o.min_cosine && !(*o.min_cosine >= -1 && *o.min_cosine <= 1)) {
    return Status::Error("--min-cosine must be from -1 to 1");
  }
  if (o.min_sqnr_db && !std::isfinite(*o.min_sqnr_db)) return Status::Error("--min-sqnr must be a finite number of dB");
  AgreePlanRequest request;
  if (pipeline) {
    if (!o.dims.empty() || !o.image.empty()) {
      return Status::Error("--dim and --input: a pipeline's models run at its own shapes on its own input");
    }
    if (o.steps != 0 && !pipeline->diffusion) return Status::Error("--steps is for diffusion pipelines");
    PipelineSpec each = *pipeline;
    if (o.steps != 0) each.diffusion->steps = o.steps;
    for (const Target& t : targets) {
      if (Status s = SetEveryStageTargets(each, {t.text}); !s.ok()) return s;
      auto cases = PipelineTargetCombinations(each, context.registry);
      if (!cases.ok()) return cases.status();
      request.pipelines[t.text] = cases.value().front();
    }
    request.pipeline_file = pipeline->path;
  } else if (o.steps != 0) {
    return Status::Error("--steps is for diffusion pipelines (docs/diffusion.md)");
  }
  for (const std::string& d : o.dims) {
    if (Status s = ParseDimBinding(d, request.dims); !s.ok()) return s;
  }
  if (targets.size() < 2) return Status::Error("give at least two targets to compare");
  // Tolerances: flags over the manifest over defaults.
  Tolerances tolerances = model.tolerances;
  if (!tolerances.min_cosine) tolerances.min_cosine = 0.999;
  if (!tolerances.min_sqnr_db) tolerances.min_sqnr_db = 30.0;
  if (o.max_abs) tolerances.max_abs = o.max_abs;
  if (o.min_cosine) tolerances.min_cosine = o.min_cosine;
  if (o.min_sqnr_db) tolerances.min_sqnr_db = o.min_sqnr_db;
  if (!o.image.empty()) {
    // Checked here from the header alone (a bad spec is exit 2); each worker decodes and resizes
    // the image itself, under its memory limit, so nothing image-sized is allocated here.
    auto pre = ParseImagePreprocess(o.preprocess);
    if (!pre.ok()) return pre.status();
    if (Status s = CheckImageInput(o.image, pre.value()); !s.ok()) return s;
  }
  request.model = model;
  request.targets = targets;
  request.reference = o.reference;
  request.seed = o.seed;
  request.image = o.image;
  request.preprocess = o.preprocess;
  request.tolerances = tolerances;
  request.timeout_ms = o.timeout_ms;
  request.monitor = context.monitor;
  request.executable = context.executable;
  request.worker_args = context.worker_args;
  return request;
}

}  // namespace edgebench
