// What `edgebench agree` and a suite's `agree:` block run, planned from one typed options
// struct that both fill (plan/mode_fields.h): the targets, the reference, the input (seeded
// values or an image, checked here from its header alone) and the tolerances (flags over the
// manifest over defaults). runner/agree_mode.h turns the request into cases.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plan/mode_fields.h"
#include "plan/model_spec.h"
#include "plan/pipeline_file.h"
#include "plan/pipeline_plan.h"

namespace edgebench {

struct AgreeOptions {
  static constexpr const char* kMode = "agree";  // the command, and a suite's block

  std::string reference;  // a target text; empty: the first target
  int steps = 0;          // diffusion pipelines: 0 keeps the file's
  std::vector<std::string> dims;
  uint64_t seed = 0;
  std::string image;
  std::string preprocess;
  std::optional<double> max_abs, min_cosine, min_sqnr_db;
  int64_t timeout_ms = 300000;

  template <typename Visit>
  void Fields(Visit&& visit) {
    visit(ModeField{"reference", "the target others are compared with (default: the first)"}, reference);
    visit(ModeField{"steps", "diffusion pipelines: denoising steps, 1 to 1000 (default: the pipeline file's)"},
          steps);
    visit(ModeField{"dim", "bind a symbolic dimension: NAME=VALUE (repeatable)"}, dims);
    visit(ModeField{"seed", "seed of the generated inputs", kFieldShowDefault}, seed);
    visit(ModeField{"input", "an image file to use as the input instead of seeded data"}, image);
    visit(ModeField{"preprocess",
                    "for --input: resize=WxH,scale=S,mean=M[:M:M],std=S[:S:S],layout=nhwc|nchw "
                    "(value = (pixel*scale - mean)/std; default scale 1/255)"},
          preprocess);
    visit(ModeField{"max-abs", "tolerance: largest absolute error"}, max_abs);
    visit(ModeField{"min-cosine", "tolerance: smallest cosine similarity"}, min_cosine);
    visit(ModeField{"min-sqnr", "tolerance: smallest SQNR in dB"}, min_sqnr_db);
    visit(ModeField{"timeout", "kill a target's worker after this many ms", kFieldShowDefault}, timeout_ms);
  }
};

struct AgreePlanRequest {
  ModelSpec model;
  std::vector<Target> targets;
  std::string reference;  // the target text others are compared with; empty: the first
  ShapeBindings dims;
  uint64_t seed = 0;
  std::string image;       // an image file as the input, else seeded values
  std::string preprocess;  // its --preprocess
  Tolerances tolerances;   // complete: flags over the manifest over defaults
  int64_t timeout_ms = 300000;
  MonitorSettings monitor;
  std::string executable;
  std::vector<std::string> worker_args;
  // A pipeline file's cases by target text (every model stage on that target): each target's
  // worker runs one query through the pipeline and its outputs are compared. Empty: a model.
  std::map<std::string, PipelinePlan> pipelines;
  std::string pipeline_file;
};

// The request `options` give on `targets` (at least two); `pipeline`, when not null, is a
// pipeline file whose model stages run on each target in turn (`model` then carries only its
// name). An error is a bad argument, naming the flag.
Result<AgreePlanRequest> PlanAgreeRequest(const AgreeOptions& options, const ModelSpec& model,
                                          const std::vector<Target>& targets, const PipelineSpec* pipeline,
                                          const ModePlanContext& context);

}  // namespace edgebench
