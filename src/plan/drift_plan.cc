#include "plan/drift_plan.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/strings.h"
#include "inputs/image_input.h"
#include "plan/plan.h"

namespace edgebench {
namespace {

Result<DriftSide> ResolveSide(const std::optional<ModelSpec>& model, const std::string& text, const Target& target,
                         const Registry& registry) {
  if (model) {
    const std::vector<std::string> variants = ModelVariants(*model);
    if (std::find(variants.begin(), variants.end(), text) != variants.end()) {
      auto selected = SelectVariant(*model, text);
      if (!selected.ok()) return selected.status();
      const PlannedTarget planned = PlanTargets(selected.value(), {target}, registry).front();
      if (!planned.artifact) {
        return Status::Error("variant '" + text + "' has no artifact for " + target.text + ": " + planned.skip_reason);
      }
      return DriftSide{text, planned.artifact->path, text, planned.artifact->layout};
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(text, ec)) {
      return Status::Error("'" + text + "' is neither a variant of " + model->name + " (" +
                           (variants.empty() ? std::string("it has none") : "variants: " + Join(variants, ", ")) +
                           ") nor an artifact file");
    }
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(text, ec)) {
    return Status::Error("'" + text + "' is not an artifact file (give MODEL to name variants)");
  }
  return DriftSide{text, text, "", Layout::kAny};
}

}  // namespace

bool DriftOnLanguageModels(const DriftOptions& o, const std::optional<ModelSpec>& model) {
  if (!model) return EndsWith(o.reference, ".gguf");
  return !model->artifacts.empty() && std::all_of(model->artifacts.begin(), model->artifacts.end(),
                                                  [](const ArtifactSpec& a) { return EndsWith(a.path, ".gguf"); });
}

Result<DriftSides> ResolveDriftSides(const DriftOptions& o, const std::optional<ModelSpec>& model,
                                     const Target& target, const Registry& registry) {
  DriftSides sides;
  auto reference = ResolveSide(model, o.reference, target, registry);
  if (!reference.ok()) return Status::Error("--reference: " + reference.error());
  sides.reference = reference.take();
  for (const std::string& text : SplitList(o.candidates)) {
    auto side = ResolveSide(model, text, target, registry);
    if (!side.ok()) return Status::Error("--candidate: " + side.error());
    sides.candidates.push_back(side.take());
  }
  if (sides.candidates.empty()) return Status::Error("--candidate: give at least one variant or artifact file");
  const bool gguf = DriftOnLanguageModels(o, model);
  std::vector<const DriftSide*> all = {&sides.reference};
  for (const DriftSide& side : sides.candidates) all.push_back(&side);
  for (const DriftSide* side : all) {
    if (EndsWith(side->artifact, ".gguf") != gguf) {
      return Status::Error("'" + side->artifact + "' " +
                           (gguf ? "is not a GGUF language model, " : "is a GGUF language model, ") + "and '" +
                           sides.reference.artifact + "' " + (gguf ? "is" : "is not") +
                           ": drift compares language models with language models and tensor models with "
                           "tensor models");
    }
  }
  return sides;
}

Result<DriftPlanRequest> PlanTensorDriftRequest(const DriftOptions& o, const std::optional<ModelSpec>& model,
                                                const Target& target, const DriftSides& sides,
                                                const ModePlanContext& context) {
  const DriftSide& reference = sides.reference;
  if (o.samples < 1) return Status::Error("--samples must be at least 1");
  if (!std::isfinite(o.min_sqnr_db)) return Status::Error("--min-sqnr must be a finite number of dB");
  ShapeBindings dims;
  for (const std::string& d : o.dims) {
    if (Status s = ParseDimBinding(d, dims); !s.ok()) return s;
  }
  if (!o.prompts_file.empty() || o.random_prompts != 0) {
    return Status::Error("--prompts and --random-prompts are for GGUF language models");
  }
  // The input source: seeded values or files (inputs/input_source.h), or a labelled data set, the
  // same for every side.
  InputOptions inputs{o.inputs, o.samples, o.seed};
  if (Status s = ValidateInputOptions(inputs); !s.ok()) return s;
  DataSetSpec data;
  std::string preprocess;
  std::vector<int32_t> labels;
  if (!o.data.empty()) {
    if (!o.inputs.empty()) return Status::Error("--data and --input are two input sources: give one");
    data = DataSetSpec{o.data, o.split, o.samples, o.offset};
    preprocess = !o.preprocess.empty() ? o.preprocess : model ? model->preprocess : "";
    if (preprocess.empty()) {
      return Status::Error("--data needs the images' preprocessing: the model's manifest declares none; give "
                           "--preprocess (e.g. scale=0.0039215686,mean=0.2860,std=0.3530,layout=nchw)");
    }
    if (auto parsed = ParseImagePreprocess(preprocess); !parsed.ok()) {
      return Status::Error("--preprocess: " + parsed.error());
    }
    auto images = LoadLabelledImages(data);
    if (!images.ok()) return Status::Error("--data: " + images.error());
    labels = images.value().labels;
  } else if (!o.preprocess.empty() || o.offset != 0) {
    return Status::Error("--preprocess and --offset are for --data");
  }
  DriftPlanRequest request;
  request.model = model ? model->name : std::filesystem::path(reference.artifact).stem().string();
  request.reference = reference;
  request.candidates = sides.candidates;
  request.target = target;
  request.dims = dims;
  request.inputs = inputs;
  request.data = data;
  request.preprocess = preprocess;
  request.labels = labels;
  request.min_sqnr_db = o.min_sqnr_db;
  request.timeout_ms = o.timeout_ms;
  request.monitor = context.monitor;
  request.executable = context.executable;
  request.worker_args = context.worker_args;
  return request;
}

TokenDriftOptions TokenDriftOptionsOf(const DriftOptions& o, const DriftSides& sides, const Target& target,
                                      const ModePlanContext& context) {
  TokenDriftOptions t;
  t.reference = sides.reference.artifact;
  for (const DriftSide& side : sides.candidates) t.candidates.push_back(side.artifact);
  t.target = target;
  t.prompts_file = o.prompts_file;
  t.random_prompts = o.random_prompts;
  t.max_tokens = o.max_tokens;
  t.seed = o.seed;
  t.timeout_ms = o.timeout_ms;
  t.monitor = context.monitor;
  t.worker_args = context.worker_args;
  return t;
}

}  // namespace edgebench
