// A case as the orchestrator hands it to a worker: model x target x scenario and settings.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "backends/target.h"
#include "core/llm_types.h"
#include "core/tensor.h"
#include "load/settings.h"
#include "record/monitor_record.h"
#include "record/tune_tag.h"
#include "plan/pipeline_plan.h"

namespace edgebench {

struct CaseSpec {
  std::string model;     // name shown in results
  std::string artifact;  // file path
  std::string artifact_sha256;  // of the artifact's bytes; empty when it could not be read
  // The model variant the artifact is of (plan/model_spec.h); empty: none named. Not part of
  // the case key: the artifact's bytes already are.
  std::string variant;
  // What runs a one-model case, parsed once by its planner (target.text: as the user wrote it).
  // A pipeline's case names a target per model stage in `pipeline`; its `target` is the one
  // target of --target when every stage runs on it, else unset (empty backend).
  Target target;
  ShapeBindings dims;
  // Free dimensions no --dim binds: bound to 1 (onnxruntime_perf_test's default), or an error
  // when strict.
  bool strict_dims = false;
  // --input NAME=SPEC and --input-pool (inputs/input_source.h); its seed is settings.seed.
  std::vector<std::string> inputs;
  int64_t input_pool = 1;
  RunSettings settings;  // as requested
  // What the case runs with: `settings` checked and completed for its scenario (a soak's
  // durations; the worker's timeout from the scenario's real length; the memory limit). Decided
  // once, by SettleCase, when the case is planned; the worker's timeout, the scenario and the
  // record read it from here. Unset only in a case that was never settled.
  std::optional<RunSettings> effective;
  std::string scenario = "single-stream";  // or "llm"
  LlmSettings llm;       // for scenario "llm"
  std::string case_key;  // CaseKey() of the above; set by the planner
  // The device monitor beside the case; not part of the case key (it observes, it does not
  // decide what is measured).
  MonitorSettings monitor;
  // --profile: per-operator times from the runtime's profiler over the measured runs. Part of
  // the case key: the profiler's own cost is in the latencies.
  bool profile = false;
  // --start: "cold" drops the model's files from the page cache before the load (core/page_cache.h),
  // "warm" does not; empty: not asked (warm, no start section in the record). Cold is part of
  // the case key.
  std::string start;
  // `edgebench tune`: which race, configuration and round this case measures (tune/race_records.h);
  // unset outside a race. Part of the case key: each round of a race is a case of its own.
  std::optional<TuneTag> tune;
  // A pipeline's case (plan/pipeline_file.h PipelineTargetCombinations): its stages, each model
  // stage's target and artifact, and the input file; unset for one model. Part of the case key.
  std::optional<PipelinePlan> pipeline;

  // The target as shown and recorded as requested: its text, or a pipeline's label.
  const std::string& TargetText() const { return pipeline ? pipeline->label : target.text; }
};

// The case as the worker receives it, and back: the only place a case becomes text and text a
// case (a target parsed, a tune tag and a pipeline plan read). An error says what is malformed.
nlohmann::json CaseSpecToJson(const CaseSpec& spec);
Result<CaseSpec> CaseSpecFromJson(const nlohmann::json& json);
// The parsed `target` field of a worker's request (agree's outputs, drift's intermediates,
// accuracy's pass, token drift's logits): the readers of every request go through it.
Result<Target> ReadCaseTarget(const nlohmann::json& request);

// Decides what a complete case runs with: its effective settings (ValidateForScenario) and its
// case key. Whoever changes a planned case (a peak search's step, a tune round) settles it again.
// An error names the bad setting.
Status SettleCase(CaseSpec& spec);

// The effective settings of a settled case; an unsettled one's are derived as SettleCase would.
Result<RunSettings> EffectiveSettingsOf(const CaseSpec& spec);

// The identity of a case: a hash of everything that decides what it measures (model name and
// artifact bytes, target, scenario and its settings, dims), not of when or where it ran. A
// suite resumed skips the cases whose key the store already holds. 16 hex digits.
std::string CaseKey(const CaseSpec& spec);

}  // namespace edgebench
