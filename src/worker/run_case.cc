#include "worker/run_case.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "core/clock.h"
#include "core/page_cache.h"
#include "core/process_memory.h"
#include "core/log.h"
#include "load/batch_binding.h"
#include "inputs/input_source.h"
#include "load/scenario.h"
#include "monitor/device_sensors.h"
#include "worker/memory_mapper.h"
#include "worker/heap_tracking.h"
#include "monitor/sampler.h"
#include "record/record_monitor.h"
#include "worker/case_record.h"
#include "worker/pipeline_case.h"
#include "plan/resolve_target.h"
#include "core/strings.h"
#include "core/tensor_work.h"
#include "load/finish_record.h"

namespace edgebench {
namespace {

// --profile: tells every session when the measured phase starts, so that the warmup's runs stay
// out of their operator profiles.
class ProfileMarker : public RunObserver {
 public:
  ProfileMarker(RunObserver* inner, const std::vector<std::unique_ptr<Session>>& sessions)
      : inner_(inner), sessions_(sessions) {}
  void OnPhaseStart(const std::string& phase, int64_t expected_ms) override {
    if (phase == "measure") {
      for (const auto& s : sessions_) s->BeginOperatorProfile();
    }
    if (inner_) inner_->OnPhaseStart(phase, expected_ms);
  }
  void OnPhaseEnd(const std::string& phase) override {
    if (inner_) inner_->OnPhaseEnd(phase);
  }
  void OnProgress(int64_t done, int64_t total) override {
    if (inner_) inner_->OnProgress(done, total);
  }

 private:
  RunObserver* inner_;
  const std::vector<std::unique_ptr<Session>>& sessions_;
};

// The sessions' operator profiles, merged into the record; or the first session's reason.
void TakeOperatorProfiles(Record& r, const std::vector<std::unique_ptr<Session>>& sessions) {
  OperatorProfile merged;
  for (const auto& s : sessions) {
    auto profile = s->TakeOperatorProfile();
    if (!profile.ok()) {
      r.operator_profile_unavailable = profile.error();
      r.notes.push_back("--profile: " + profile.error());
      return;
    }
    MergeOperatorProfile(merged, profile.value());
  }
  r.operator_profile = std::move(merged);
  r.notes.push_back("--profile: the runtime's profiler ran during the measured queries, so their latencies and "
                    "memory include its cost; compare profiled cases with profiled cases");
}

Record RunLanguageModel(Record r, const CaseSpec& spec, Scenario& scenario, const ResolvedTarget& resolved,
                        const StageCallback& stage, RunObserver* observer) {
  r.llm = LlmRecord{};
  r.llm->settings = spec.llm;
  stage("load");
  LlmLoadHints hints;
  hints.tokens_per_sequence = static_cast<int32_t>(spec.llm.max_prompt_tokens() + spec.llm.max_gen_tokens());
  hints.sequences = static_cast<int32_t>(spec.llm.kv_sequences());
  if (spec.llm.vision()) {  // the backend adds the text's and the images' tokens
    hints.tokens_per_sequence = static_cast<int32_t>(spec.llm.max_gen_tokens());
    hints.mmproj = spec.llm.mmproj;
    hints.images = spec.llm.images;
    hints.images_per_request = static_cast<int32_t>(spec.llm.images_per_request);
    hints.text = spec.llm.prompt_text;
  }
  const int64_t load_start = NowNs();
  auto session = resolved.backend->LoadLlm(Artifact{spec.artifact}, resolved.target, hints);
  r.load_ns = NowNs() - load_start;
  if (!session.ok()) return FailedRecord(r, CaseStatus::kFailed, "load", session.error());
  LlmSessionInfo info = session.value()->Info();
  r.effective_target = EffectiveTarget(resolved.target, info.effective_options);
  for (const auto& [key, value] : info.environment) r.environment.runtimes["llamacpp." + key] = value;
  // Appended: the record's own notes (an emulated CPU's label) come first.
  r.notes.insert(r.notes.end(), info.notes.begin(), info.notes.end());
  r.llm->session = info;

  stage("run");
  ScenarioContext context;
  context.llm = session.value().get();
  context.observer = observer;
  context.now = NowNs;
  ScenarioResult result = scenario.Run(context);
  LlmSamples& samples = *result.llm;
  r.llm->prompt_source = samples.prompt_source;
  r.llm->prompt_tokens_run = samples.prompt_tokens;
  r.llm->warmup = std::move(samples.warmup);
  if (!samples.measured.empty()) {
    r.llm->measured_origin_ns = samples.measured.front().start_ns;
    for (const LlmRequestTiming& t : samples.measured) {
      r.llm->measured_origin_ns = std::min(r.llm->measured_origin_ns, t.start_ns);
    }
  }
  r.llm->measured = std::move(samples.measured);
  const ProcessMemory memory = ReadProcessMemory();
  r.llm->rss_bytes = memory.rss_bytes;
  r.llm->rss_peak_bytes = memory.peak_bytes;
  if (spec.profile) {
    r.operator_profile_unavailable =
        "llama.cpp's API gives no per-operator times: llama_perf_context reports prompt and generation totals "
        "only, and ggml's per-node evaluation callback would synchronize every node, timing something else";
    r.notes.push_back("--profile: " + r.operator_profile_unavailable);
  }
  if (!result.error.ok()) return FailedRecord(r, CaseStatus::kFailed, result.failed_stage, result.error.message());
  FinishRecord(r);
  return r;
}

// Sessions are asked for their notes again after the run: what a runtime says while running (a
// recompile at Prepare, frames MediaPipe dropped) belongs in the record too. Each note once.
void AddNotesFromTheRun(Record& r, const std::vector<std::unique_ptr<Session>>& sessions) {
  for (const auto& session : sessions) {
    for (std::string& note : session->notes()) {
      if (std::find(r.notes.begin(), r.notes.end(), note) == r.notes.end()) r.notes.push_back(std::move(note));
    }
  }
}

Record RunTensorModel(Record r, const CaseSpec& spec, Scenario& scenario, const ResolvedTarget& resolved,
                      const StageCallback& stage, RunObserver* observer) {
  if (scenario.needs_concurrent_runs() && !resolved.device.capabilities.thread_safe_run) {
    return FailedRecord(r, CaseStatus::kFailed, "settings",
                        "--sessions shared runs " + std::to_string(scenario.streams()) +
                            " streams on one session at once, which " + resolved.target.Canonical() +
                            " does not allow (its runtime does not support concurrent runs of one "
                            "session); use --sessions per-stream");
  }
  stage("load");
  std::vector<std::unique_ptr<Session>> sessions;
  Target target = resolved.target;
  target.profile_operators = spec.profile;
  if (scenario.needs_concurrent_runs()) target.concurrent_callers = scenario.streams();
  const int64_t load_start = NowNs();
  for (int i = 0; i < scenario.sessions_needed(); ++i) {
    auto session = resolved.backend->Load(Artifact{spec.artifact}, target);
    if (!session.ok()) {
      r.load_ns = NowNs() - load_start;
      return FailedRecord(r, CaseStatus::kFailed, "load", session.error());
    }
    sessions.push_back(session.take());
  }
  r.load_ns = NowNs() - load_start;
  Session& first = *sessions.front();
  // Appended: the record's own notes (an emulated CPU's label) come first.
  const std::vector<std::string> session_notes = first.notes();
  r.notes.insert(r.notes.end(), session_notes.begin(), session_notes.end());
  r.placement = first.GetPlacement();
  r.effective_target = EffectiveTarget(resolved.target, first.effective_options());

  stage("inputs");
  const int64_t inputs_start = NowNs();
  const Signature& signature = first.signature();
  const InputOptions input_options{spec.inputs, spec.input_pool, spec.settings.seed};
  // Files impose their shapes on their inputs' axes, over --dim.
  auto file_dims = ShapeBindingsFromInputs(signature, input_options);
  if (!file_dims.ok()) return FailedRecord(r, CaseStatus::kFailed, "inputs", file_dims.error());
  ShapeBindings bindings = OverrideShapeBindings(spec.dims, file_dims.value());
  if (scenario.batch() > 0) {
    auto batched = BindBatch(signature, scenario.batch(), bindings);
    if (!batched.ok()) return FailedRecord(r, CaseStatus::kFailed, "inputs", batched.error());
    bindings = batched.take();
  }
  auto shapes = ResolveInputShapes(signature, bindings, spec.strict_dims ? nullptr : &r.dims_defaulted);
  if (!shapes.ok()) return FailedRecord(r, CaseStatus::kFailed, "inputs", shapes.error());
  if (Status used = CheckBindingsUsed(signature, spec.dims); !used.ok()) {
    return FailedRecord(r, CaseStatus::kFailed, "inputs", used.message());
  }
  for (size_t i = 0; i < shapes.value().size(); ++i) {
    auto size = CheckedSize(shapes.value()[i], signature.inputs[i].dtype, resolved.device.capabilities.max_dim,
                            "input '" + signature.inputs[i].name + "'");
    if (!size.ok()) return FailedRecord(r, CaseStatus::kFailed, "inputs", size.error());
  }
  if (!r.dims_defaulted.empty()) {
    const std::string note = "free dimensions bound to 1 because no --dim named them (as onnxruntime_perf_test "
                             "does): " + Join(r.dims_defaulted, ", ") + "; bind them with --dim, or require it with --strict-dims";
    r.notes.push_back(note);
    Log(LogLevel::kWarning, spec.model + " on " + spec.TargetText() + ": " + note);
  }
  auto built = BuildInputPool(signature, shapes.value(), input_options);
  if (!built.ok()) return FailedRecord(r, CaseStatus::kFailed, "inputs", built.error());
  for (size_t i = 0; i < shapes.value().size(); ++i) {
    r.inputs.push_back({signature.inputs[i].name, DTypeName(signature.inputs[i].dtype), shapes.value()[i],
                        i < built.value().provenance.size() ? built.value().provenance[i] : ""});
  }
  if (built.value().samples.size() > 1) {
    r.notes.push_back("queries cycle through " + std::to_string(built.value().samples.size()) +
                      " input samples");
  }
  const std::vector<std::vector<Tensor>> pool = std::move(built.value().samples);
  r.inputs_ns = NowNs() - inputs_start;

  stage("prepare");
  const int64_t prepare_start = NowNs();
  for (auto& s : sessions) {
    if (Status prepared = s->Prepare(shapes.value()); !prepared.ok()) {
      r.prepare_ns = NowNs() - prepare_start;
      return FailedRecord(r, CaseStatus::kFailed, "prepare", prepared.message());
    }
  }
  r.prepare_ns = NowNs() - prepare_start;
  // The record states the shape that ran: read back from the runtime where it tells, and a
  // runtime that holds another shape than the one asked for is not measured under its name.
  const auto prepared = first.PreparedInputShapes();
  for (size_t i = 0; i < prepared.size() && i < r.inputs.size(); ++i) {
    if (prepared[i] != r.inputs[i].shape) {
      return FailedRecord(r, CaseStatus::kFailed, "prepare",
                          "the runtime prepared input '" + r.inputs[i].name + "' as " + ShapeToString(prepared[i]) +
                              ", not the " + ShapeToString(r.inputs[i].shape) + " asked for");
    }
  }

  // The work one query does at these shapes, for the roofline (docs/roofline.md): read from the
  // file, outside the measured phase.
  std::vector<BoundShape> bound;
  for (const InputDescription& input : r.inputs) bound.emplace_back(input.name, input.shape);
  r.work = CountTensorWork(r.artifact, bound);

  stage("run");
  ScenarioContext context;
  for (auto& s : sessions) context.sessions.push_back(s.get());
  context.input_pool = &pool;
  ProfileMarker marker(observer, sessions);
  context.observer = spec.profile ? &marker : observer;
  context.now = NowNs;
  ScenarioResult result = scenario.Run(context);
  AddNotesFromTheRun(r, sessions);
  if (spec.profile && result.error.ok()) TakeOperatorProfiles(r, sessions);
  if (std::optional<Record> failed = TakeScenarioResult(r, result)) return *failed;
  FinishRecord(r);
  return r;
}

// Forwards the scenario's phases to the stage announcer and marks them in the monitor's series
// (and, with --memory-map, maps the worker's memory at each).
class MonitoringObserver : public RunObserver {
 public:
  MonitoringObserver(RunObserver* inner, Sampler& sampler, MemoryMapper* mapper)
      : inner_(inner), sampler_(sampler), mapper_(mapper) {}
  void OnPhaseStart(const std::string& phase, int64_t expected_ms) override {
    if (mapper_) mapper_->Take(phase + " start");
    sampler_.Mark(phase, "start");
    if (phase == "measure") {
      OpenHeapTrackingWindow();
      if (mapper_) mapper_->StartCheckpoints();
    }
    if (inner_) inner_->OnPhaseStart(phase, expected_ms);
  }
  void OnPhaseEnd(const std::string& phase) override {
    if (phase == "measure") {
      CloseHeapTrackingWindow();
      if (mapper_) mapper_->StopCheckpoints();
    }
    sampler_.Mark(phase, "end");
    if (mapper_) mapper_->Take(phase + " end");
    if (inner_) inner_->OnPhaseEnd(phase);
  }
  void OnProgress(int64_t done, int64_t total) override {
    if (inner_) inner_->OnProgress(done, total);
  }

 private:
  RunObserver* inner_;
  Sampler& sampler_;
  MemoryMapper* mapper_;
};

// Runs `body` with the device monitor beside it when the case asks for one: the sampler runs
// from here to the end of the case, on its own thread (docs/monitoring.md), and marks the
// case's stages and the scenario's phases in its series.
template <typename Body>
Record RunMonitored(const CaseSpec& spec, Record r, const StageCallback& stage, RunObserver* observer, Body body) {
  if (!spec.monitor.enabled) {
    r.monitor = MonitorRecord{spec.monitor, "--no-monitor: no device state was sampled", {}, {}, std::nullopt};
    if (spec.monitor.memory_map) r.monitor->memory_map_reason = "--no-monitor: no memory map either";
  }
  std::unique_ptr<Sampler> sampler;
  if (spec.monitor.enabled) {
    SensorRoots roots;
    roots.root = spec.monitor.sysfs_root;
    sampler = std::make_unique<Sampler>(OpenDeviceSensors(roots), spec.monitor.sample_hz);
    sampler->Start();
    if (spec.monitor.idle_ms > 0) {
      // --idle: nothing runs but the sampler, before the model loads.
      if (stage) stage("idle");
      sampler->Mark("idle", "start");
      std::this_thread::sleep_for(std::chrono::milliseconds(spec.monitor.idle_ms));
      sampler->Mark("idle", "end");
    }
  }
  std::optional<MemoryMapper> mapper;
  if (sampler && spec.monitor.memory_map) mapper.emplace(spec.monitor, spec.artifact);
  std::optional<MonitoringObserver> monitoring;
  if (sampler) monitoring.emplace(observer, *sampler, mapper ? &*mapper : nullptr);
  RunObserver* watched = monitoring ? &*monitoring : observer;
  const StageCallback marked_stage = [&](const std::string& name) {
    if (mapper) mapper->Take(name + " start");
    if (sampler) sampler->Mark(name, "start");
    if (stage) stage(name);
  };
  Record result = body(std::move(r), marked_stage, watched);
  if (sampler) {
    if (mapper) mapper->Take("end");
    result.monitor = MonitorRecord{spec.monitor, "", sampler->Finish(result.measured_start_ns), {}, std::nullopt};
    if (mapper) mapper->Finish(*result.monitor, result.measured_start_ns);
    FinishMonitor(result);
  }
  return result;
}

}  // namespace

namespace {

// The files a case's load reads: the artifact (every file of a directory artifact), an OpenVINO
// IR's weights beside its .xml, an ONNX model's external data under the names exporters give it
// (MODEL.onnx.data, MODEL.onnx_data, MODEL.data), a vision model's projector.
std::vector<std::string> ArtifactFiles(const CaseSpec& spec) {
  std::vector<std::string> files;
  std::error_code ec;
  if (std::filesystem::is_directory(spec.artifact, ec)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(spec.artifact, ec)) {
      if (entry.is_regular_file(ec)) files.push_back(entry.path().string());
    }
  } else {
    files.push_back(spec.artifact);
    const std::filesystem::path path(spec.artifact);
    std::vector<std::filesystem::path> beside;
    if (path.extension() == ".xml") beside.push_back(std::filesystem::path(path).replace_extension(".bin"));
    if (path.extension() == ".onnx") {
      beside = {path.string() + ".data", path.string() + "_data", std::filesystem::path(path).replace_extension(".data")};
    }
    for (const auto& file : beside) {
      if (std::filesystem::is_regular_file(file, ec)) files.push_back(file.string());
    }
  }
  if (!spec.llm.mmproj.empty()) files.push_back(spec.llm.mmproj);
  return files;
}

}  // namespace

Record RunCase(const CaseSpec& spec, Registry& registry, const StageCallback& on_stage,
               RunObserver* observer) {
  Record r = MakeBaseRecord(spec, registry);
  auto scenario = MakeScenario(spec.scenario, r.effective_settings, spec.llm);
  if (!scenario.ok()) return FailedRecord(r, CaseStatus::kFailed, "settings", scenario.error());
  Scenario& run = *scenario.value();
  if (spec.pipeline) {
    return RunMonitored(spec, std::move(r), on_stage, observer,
                        [&](Record base, const StageCallback& stage, RunObserver* watched) {
                          return RunPipelineCase(std::move(base), spec, run, registry, stage, watched);
                        });
  }
  const TargetResolution resolution = ResolveTarget(spec.target, registry, run.session_kind());
  if (!resolution.resolved) return FailedRecord(r, resolution.status, "target", resolution.error);
  if (!spec.start.empty()) {
    r.start = StartRecord{spec.start, std::nullopt};
    // Just before the load: what the runtime then reads comes from the disk.
    if (spec.start == "cold") r.start->drop = DropFromPageCache(ArtifactFiles(spec));
  }
  return RunMonitored(spec, std::move(r), on_stage, observer,
                      [&](Record base, const StageCallback& stage, RunObserver* watched) {
                        return run.session_kind() == SessionKind::kLanguageModel
                                   ? RunLanguageModel(std::move(base), spec, run, *resolution.resolved, stage, watched)
                                   : RunTensorModel(std::move(base), spec, run, *resolution.resolved, stage, watched);
                      });
}

}  // namespace edgebench
