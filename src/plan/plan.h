// The plan of a command or suite: models x targets x scenarios x parameter lists, expanded into
// cases (as llama-bench expands its lists into one cartesian plan). The orchestrator plans from
// backend infos and files only; it never loads a model.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/registry.h"
#include "plan/case_spec.h"
#include "record/monitor_record.h"
#include "record/round_tag.h"
#include "plan/model_spec.h"
#include "plan/pipeline_file.h"

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

// SHA-256 digests of artifact files for records and case keys, each file read once however many
// cases name it (a GGUF can be gigabytes).
class ArtifactDigests {
 public:
  // The error names the file that could not be read.
  Result<std::string> Of(const std::string& path);

 private:
  std::map<std::string, std::string> known_;
};

struct PlanModel {
  ModelSpec model;
  ShapeBindings dims;
  std::vector<std::string> inputs;  // --input NAME=SPEC
};

// What to expand. Scenario "llm" expands over prompt_lengths x gen_lengths (llm_base holds the
// rest of its settings); tensor scenarios use `settings`.
struct PlanRequest {
  std::vector<PlanModel> models;
  std::vector<Target> targets;
  // single-stream runs first for each target, so load scenarios can be compared with it.
  std::vector<std::string> scenarios = {"single-stream"};
  bool find_peak = false;  // server scenarios search their peak rate (RunPlan), from their QPS
  RunSettings settings;
  bool strict_dims = false;
  int64_t input_pool = 1;
  LlmSettings llm_base;
  std::vector<int64_t> prompt_lengths = {128};
  std::vector<int64_t> gen_lengths = {64};
  MonitorSettings monitor;  // every case's device monitor
  bool profile = false;     // --profile: every case's operator profile
};

class CaseMode;  // runner/case_mode.h

struct PlannedCase {
  CaseSpec spec;            // complete, with its case key
  std::string skip_reason;  // non-empty: the model has no artifact this target's backend reads
  bool find_peak = false;   // a server case that starts a peak search at its rate
  // How the case runs when it does not measure (runner/case_mode.h): an accuracy pass, outputs
  // for agreement. Null: measured by its scenario in `edgebench worker`.
  std::shared_ptr<CaseMode> mode;
  std::optional<RoundTag> round;  // --rounds: which round (plan/rounds.h)
};

// The most cases one plan may hold (a suite, a shape sweep, an `llm` list, a `run`): at a second
// a case, more than two hours and three quarters. A plan past it is refused, with the count,
// before anything is allocated for it; split it into several suites.
inline constexpr int64_t kMaxPlannedCases = 10'000;

// OK when `count` cases (a product that may be past int64: a double) fit kMaxPlannedCases;
// otherwise an error naming `what` ("the suite", "--dim batch x seq on 2 targets"), the count and
// the limit.
Status CheckCaseCount(double count, const std::string& what);

// Cases in order: model, target, scenario, then the scenario's parameter lists. An error says
// which model file does not exist or cannot be read, or that the plan is past kMaxPlannedCases.
// A pipeline's cases (plan/pipeline_file.h): each combination of its model stages' targets
// under each of the request's scenarios, with the request's settings, monitor and profile (its
// models, targets, dims and inputs do not apply). The artifact is the pipeline file. `shape`:
// what the cases record as their dims (a diffusion's shape sweep: batch, height, width).
Result<std::vector<PlannedCase>> PlanPipeline(const PipelineSpec& pipeline, const std::vector<PipelinePlan>& combinations,
                                              const PlanRequest& request, const ShapeBindings& shape = {});

Result<std::vector<PlannedCase>> PlanCases(const PlanRequest& request, const Registry& registry);

}  // namespace edgebench
