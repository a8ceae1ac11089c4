#include "plan/accuracy_plan.h"

#include <algorithm>

#include "core/strings.h"
#include "inputs/image_input.h"
#include "plan/plan.h"
#include "plan/resolve_target.h"

namespace edgebench {
namespace {

// The variants to run: --variant's list, every variant for "all", else the chosen or default
// one. "" stands for a model without variants.
Result<std::vector<std::string>> ChooseVariants(const ModelSpec& model, const std::string& flag) {
  const std::vector<std::string> known = ModelVariants(model);
  if (flag.empty()) {
    if (!model.variant.empty()) return std::vector<std::string>{model.variant};
    return std::vector<std::string>{known.empty() ? std::string() : known.front()};
  }
  if (flag == "all") {
    if (known.empty()) return std::vector<std::string>{""};
    return known;
  }
  std::vector<std::string> chosen = SplitList(flag);
  for (const std::string& v : chosen) {
    if (std::find(known.begin(), known.end(), v) == known.end()) {
      return Status::Error("--variant '" + v + "': model '" + model.name + "' has " +
                           (known.empty() ? std::string("no variants") : "variants " + Join(known, ", ")));
    }
  }
  return chosen;
}

}  // namespace

Result<AccuracyPlanRequest> PlanAccuracyRequest(const AccuracyOptions& o, const ModelSpec& model,
                                                const std::vector<Target>& targets, const ModePlanContext& context) {
  if (o.limit < 0 || o.offset < 0) return Status::Error("--limit and --offset must not be negative");
  if (o.timeout_ms < 0) return Status::Error("--timeout must be 0 (automatic) or more milliseconds");
  if (o.case_memory_mb < 0) return Status::Error("--case-memory must be 0 (automatic) or more MiB");
  if (o.split != "test" && o.split != "train") return Status::Error("--split '" + o.split + "': use test or train");
  const std::string preprocess = o.preprocess.empty() ? model.preprocess : o.preprocess;
  if (preprocess.empty()) {
    return Status::Error("model '" + model.name + "' declares no preprocessing: give --preprocess "
                         "scale=S,mean=M,std=S,layout=nchw|nhwc (what the model was trained on), or add "
                         "\"preprocess\" to its manifest");
  }
  if (auto parsed = ParseImagePreprocess(preprocess); !parsed.ok()) {
    return Status::Error("--preprocess: " + parsed.error());
  }
  const std::string data_source = o.data.empty() ? model.dataset : o.data;
  if (data_source.empty()) {
    return Status::Error("model '" + model.name + "' declares no data set: give --data fashion-mnist, a directory "
                         "of IDX files or IMAGES_FILE,LABELS_FILE");
  }
  auto variants = ChooseVariants(model, o.variants);
  if (!variants.ok()) return variants.status();
  for (const Target& t : targets) {
    if (Status known = CheckTargetKnown(t, context.registry); !known.ok()) return known;
  }
  AccuracyPlanRequest request;
  request.data = DataSetSpec{data_source, o.split, o.limit, o.offset};
  // The data set is read here once, header and range, so a wrong path or a corrupt file is a
  // bad argument (exit 2) rather than the same failure in every worker.
  {
    auto checked = LoadLabelledImages(request.data);  // freed here: the workers read their own copy
    if (!checked.ok()) return checked.status();
    request.images = checked.value().count;
  }
  for (const std::string& variant : variants.value()) {
    ModelSpec variant_model = model;
    if (!variant.empty()) {
      auto selected = SelectVariant(model, variant);
      if (!selected.ok()) return selected.status();
      variant_model = selected.take();
    }
    if (const std::string missing = MissingArtifacts(PlanTargets(variant_model, targets, context.registry));
        !missing.empty()) {
      return Status::Error(missing);
    }
    request.variants.emplace_back(variant, std::move(variant_model));
  }
  request.targets = targets;
  request.preprocess = preprocess;
  request.warmup = o.warmup;
  request.timeout_ms = o.timeout_ms;
  request.case_memory_mb = o.case_memory_mb;
  request.monitor = context.monitor;
  request.executable = context.executable;
  request.worker_args = context.worker_args;
  return request;
}

}  // namespace edgebench
