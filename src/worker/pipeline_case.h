// A pipeline's case (plan/pipeline_file.h plans them): the stages built from the case's
// pipeline plan (plan/pipeline_plan.h), a lane of them per stream (each model stage with its own session per lane,
// loaded on its own target and prepared at its model's shapes), the query's input the image
// file's bytes, the scenario driven on the pipeline as on one model, and the record's
// `pipeline` section (record/pipeline_record.h) from what each lane timed.
//
// A worker opens the plugin of every target its pipeline names, each in its own symbol
// namespace (docs/backends.md), so runtimes that clash when linked together (ExecuTorch's and
// ONNX Runtime's XNNPACK) still run as stages of one pipeline; a sanitizer build, which opens
// plugins without RTLD_DEEPBIND, cannot hold two clashing runtimes.
#pragma once

#include "backends/registry.h"
#include "load/observer.h"
#include "load/scenario.h"
#include "pipeline/pipeline_system.h"
#include "record/record.h"
#include "worker/built_pipeline.h"
#include "worker/case_record.h"
#include "plan/case_spec.h"
#include "plan/pipeline_plan.h"

namespace edgebench {

// Loads each model stage's sessions, `lanes` of them, on its target (the case's plan). An
// error names the stage; `built.failure` says whether the target is unavailable here.
Status LoadPipelineModels(const PipelinePlan& pipeline, Registry& registry, int lanes, BuiltPipeline& built);
// Prepares every session at its model's input shapes (free dimensions bound to 1, said in
// `notes`) and builds each lane's stages, a model stage checking what it is given.
Status PreparePipeline(const PipelinePlan& pipeline, BuiltPipeline& built, std::vector<std::string>& notes);
// The input file's bytes as one uint8 tensor: a query's input.
// An encoded image is at most this large (a 16384x16384 PNG of noise is ~800 MB raw, far less
// encoded); a larger file, or one that is not a regular file, is refused before it is read.
inline constexpr uint64_t kMaxPipelineInputBytes = 512u << 20;
Result<Tensor> ReadPipelineInput(const std::string& path);

// One query through a pipeline case on lane 0, for `agree`: its last stage's outputs (a
// diffusion's image and final latents), or where it failed and why.
struct PipelineOnce {
  std::vector<Tensor> outputs;
  std::string effective_target;
  CaseStatus status = CaseStatus::kOk;
  std::string stage, error;  // empty error: it ran
};
PipelineOnce RunPipelineOnce(const PipelinePlan& pipeline, Registry& registry);

Record RunPipelineCase(Record r, const CaseSpec& spec, Scenario& scenario, Registry& registry,
                       const StageCallback& stage, RunObserver* observer);

// The section from what the lanes timed: the queries that started in [measured_start_ns,
// measured_end_ns) count; `end_to_end_mean_ns` is the mean latency the shares are of.
// `kinds`, `first_run`: per stage. Exposed for tests.
PipelineRecord SummarizePipelineStages(const PipelineSystem& system, int64_t measured_start_ns, int64_t measured_end_ns,
                                       double end_to_end_mean_ns);

}  // namespace edgebench
