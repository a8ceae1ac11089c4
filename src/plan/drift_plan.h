// What `edgebench drift` and a suite's `drift:` block run, planned from one typed options struct
// that both fill (plan/mode_fields.h): the reference and candidates resolved on the model and
// target, then either tensor drift (the inputs, seeded, from files or a labelled data set) or,
// for GGUF language models, per-token drift (plan/token_drift_plan.h). runner/drift_mode.h and
// runner/token_drift_mode.h turn the requests into cases.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/layout.h"
#include "inputs/input_source.h"
#include "inputs/labelled_images.h"
#include "plan/mode_fields.h"
#include "plan/model_spec.h"
#include "plan/token_drift_plan.h"

namespace edgebench {

// 30 dB: the noise is a thousandth of the signal's power (cosine about 0.9995). A healthy int8
// tensor is at 35-45 dB (8 bits give at most ~48 dB, less for tensors with outliers), and the
// error a well-quantized network accumulates keeps its tensors above 30 dB; under 20 dB a layer
// is visibly wrong. It is also `agree`'s default for outputs, so one number means one thing.
inline constexpr double kDefaultDriftMinSqnrDb = 30.0;

struct DriftOptions {
  static constexpr const char* kMode = "drift";  // the command, and a suite's block

  std::string reference;   // a variant of the model, or an artifact file
  std::string candidates;  // comma-separated
  int64_t samples = 16;
  uint64_t seed = 0;
  std::vector<std::string> inputs;
  std::vector<std::string> dims;
  double min_sqnr_db = kDefaultDriftMinSqnrDb;
  int64_t timeout_ms = 600000;
  // A labelled data set instead of seeded inputs (inputs/labelled_images.h); `samples` images.
  std::string data;
  std::string split = "test";
  int64_t offset = 0;
  std::string preprocess;  // default: the manifest's
  // GGUF language models only (plan/token_drift_plan.h).
  std::string prompts_file;
  int64_t random_prompts = 0;
  int64_t max_tokens = 128;

  template <typename Visit>
  void Fields(Visit&& visit) {
    visit(ModeField{"reference", "a variant of MODEL, or an artifact file", kFieldRequired}, reference);
    visit(ModeField{"candidate", "variants or artifact files, comma-separated", kFieldRequired}, candidates);
    visit(ModeField{"samples", "inputs to run (seeded: seed, seed+1, ...)", kFieldShowDefault}, samples);
    visit(ModeField{"seed", "seed of the generated inputs", kFieldShowDefault}, seed);
    visit(ModeField{"input", "NAME=SPEC: an input's source, as `run --input` (e.g. x=a.npy)"}, inputs);
    visit(ModeField{"dim", "bind a symbolic dimension: NAME=VALUE (repeatable)"}, dims);
    visit(ModeField{"min-sqnr", "a tensor below this SQNR (dB) has drifted", kFieldShowDefault}, min_sqnr_db);
    visit(ModeField{"timeout", "kill a side's worker after this many ms", kFieldShowDefault}, timeout_ms);
    visit(ModeField{"data",
                    "a labelled data set instead of seeded inputs: fashion-mnist, DIR or IMAGES,LABELS "
                    "(--samples images; adds top-1 accuracy)"},
          data);
    visit(ModeField{"split", "--data: test or train", kFieldShowDefault}, split);
    visit(ModeField{"offset", "--data: the first image's index", kFieldShowDefault}, offset);
    visit(ModeField{"preprocess", "--data: the images' preprocessing (default: the manifest's)"}, preprocess);
    visit(ModeField{"prompts", "GGUF: a text file of prompts, one per line (default: built-in sentences)"},
          prompts_file);
    visit(ModeField{"random-prompts", "GGUF: this many seeded random token sequences instead"}, random_prompts);
    visit(ModeField{"max-tokens", "GGUF: tokens per prompt (longer ones are cut)", kFieldShowDefault}, max_tokens);
  }
};

// One side: a variant of the model, else an artifact file.
struct DriftSide {
  std::string label;  // as written
  std::string artifact;
  std::string variant;  // empty for a plain file
  Layout layout = Layout::kAny;  // the artifact's declared layout
};

struct DriftSides {
  DriftSide reference;
  std::vector<DriftSide> candidates;
};

struct DriftPlanRequest {
  std::string model;  // the name records carry
  DriftSide reference;
  std::vector<DriftSide> candidates;
  Target target;
  ShapeBindings dims;
  InputOptions inputs;  // seeded values or files, the same for every side
  // A labelled data set instead (data.source non-empty), with its preprocessing and labels.
  DataSetSpec data;
  std::string preprocess;
  std::vector<int32_t> labels;
  double min_sqnr_db = 30;
  int64_t timeout_ms = 600000;
  MonitorSettings monitor;
  std::string executable;
  std::vector<std::string> worker_args;
};

// Whether drift compares GGUF language models (every artifact of `model`, else the reference
// file, is a .gguf): by next-token distributions, not tensors by name.
bool DriftOnLanguageModels(const DriftOptions& options, const std::optional<ModelSpec>& model);

// The reference and candidates the options name, resolved on the model (its variants) and the
// target; all of one kind (language models or tensor models). An error names the flag.
Result<DriftSides> ResolveDriftSides(const DriftOptions& options, const std::optional<ModelSpec>& model,
                                     const Target& target, const Registry& registry);

// Tensor drift of the sides on `target`. An error is a bad argument, naming the flag.
Result<DriftPlanRequest> PlanTensorDriftRequest(const DriftOptions& options, const std::optional<ModelSpec>& model,
                                                const Target& target, const DriftSides& sides,
                                                const ModePlanContext& context);

// What per-token drift of GGUF sides runs with: the sides, the target, the prompts, the seed
// and the workers' limits (the command adds its output and resume flags).
TokenDriftOptions TokenDriftOptionsOf(const DriftOptions& options, const DriftSides& sides, const Target& target,
                                      const ModePlanContext& context);

}  // namespace edgebench
