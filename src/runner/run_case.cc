#include "runner/run_case.h"

#include <filesystem>

#include "core/clock.h"
#include "load/input_generator.h"
#include "load/single_stream.h"

namespace edgebench {

Record MakeBaseRecord(const CaseSpec& spec, const Registry& registry) {
  Record r;
  r.id = NewRecordId();
  r.started_at = UtcNowIso8601();
  r.model = spec.model;
  r.artifact = spec.artifact;
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(spec.artifact, ec);
  r.artifact_bytes = ec ? 0 : static_cast<int64_t>(bytes);
  r.requested_target = spec.target;
  r.scenario = spec.scenario;
  r.requested_settings = spec.settings;
  auto effective = Validate(spec.settings);
  r.effective_settings = effective.ok() ? effective.value().values : spec.settings;
  r.environment = ReadEnvironment();
  const auto target = ParseTarget(spec.target);
  for (const BackendInfo& info : registry.List()) {
    if (!info.built) continue;
    r.environment.runtimes[info.name] = info.runtime + " " + info.version;
    // A device that runs on a runtime of its own (litert:xnnpack on LiteRT's library).
    for (const DeviceInfo& d : info.devices) {
      if (!d.runtime.empty() && target.ok() && target.value().backend == info.name &&
          target.value().device == d.name) {
        r.environment.runtimes[info.name + ":" + d.name] = d.runtime;
      }
    }
  }
  if (target.ok()) {
    r.backend = target.value().backend;
    r.device = target.value().device;
    r.effective_target = target.value().Canonical();
  }
  return r;
}

Record FailedRecord(Record r, CaseStatus status, const std::string& stage, const std::string& error) {
  r.status = status;
  r.failed_stage = stage;
  r.error = error;
  FinishRecord(r);
  return r;
}

Record RunCase(const CaseSpec& spec, Registry& registry, const StageCallback& on_stage) {
  if (spec.scenario == "llm") return RunLlmCase(spec, registry, on_stage);
  auto stage = [&](const std::string& name) {
    if (on_stage) on_stage(name);
  };
  Record r = MakeBaseRecord(spec, registry);
  auto settings = Validate(spec.settings);
  if (!settings.ok()) return FailedRecord(r, CaseStatus::kFailed, "settings", settings.error());
  auto target = ParseTarget(spec.target);
  if (!target.ok()) return FailedRecord(r, CaseStatus::kFailed, "target", target.error());

  Backend* backend = registry.Find(target.value().backend);
  if (!backend) {
    return FailedRecord(r, CaseStatus::kUnavailable, "target",
                registry.WhyUnusable(target.value().backend));
  }
  const BackendInfo info = backend->Info();
  const DeviceInfo* device = nullptr;
  for (const DeviceInfo& d : info.devices) {
    if (d.name == target.value().device) device = &d;
  }
  if (!device) {
    std::string known;
    for (const DeviceInfo& d : info.devices) known += (known.empty() ? "" : ", ") + info.name + ":" + d.name;
    return FailedRecord(r, CaseStatus::kFailed, "target",
                "backend '" + info.name + "' has no device '" + target.value().device +
                    "'; its devices: " + known);
  }
  if (!device->available) {
    return FailedRecord(r, CaseStatus::kUnavailable, "target",
                info.name + ":" + device->name + " is not available here: " + device->reason);
  }

  stage("load");
  const auto load_start = SteadyClock::now();
  auto session = backend->Load(Artifact{spec.artifact}, target.value());
  r.load_ns = ElapsedNs(load_start, SteadyClock::now());
  if (!session.ok()) return FailedRecord(r, CaseStatus::kFailed, "load", session.error());
  Session& s = *session.value();
  r.notes = s.notes();
  r.placement = s.GetPlacement();
  Target effective = target.value();
  for (const auto& [key, value] : s.effective_options()) effective.options[key] = value;
  r.effective_target = effective.Canonical();

  stage("inputs");
  auto shapes = ResolveInputShapes(s.signature(), spec.dims);
  if (!shapes.ok()) return FailedRecord(r, CaseStatus::kFailed, "inputs", shapes.error());
  for (size_t i = 0; i < shapes.value().size(); ++i) {
    r.inputs.push_back({s.signature().inputs[i].name, DTypeName(s.signature().inputs[i].dtype),
                        shapes.value()[i]});
  }
  stage("prepare");
  const auto prepare_start = SteadyClock::now();
  const Status prepared = s.Prepare(shapes.value());
  r.prepare_ns = ElapsedNs(prepare_start, SteadyClock::now());
  if (!prepared.ok()) return FailedRecord(r, CaseStatus::kFailed, "prepare", prepared.message());
  auto inputs = GenerateInputs(s.signature(), shapes.value(), spec.settings.seed);
  if (!inputs.ok()) return FailedRecord(r, CaseStatus::kFailed, "inputs", inputs.error());

  stage("run");
  SingleStreamSamples samples = RunSingleStream(s, inputs.value(), settings.value());
  r.warmup_ns = std::move(samples.warmup_ns);
  r.measured_ns = std::move(samples.measured_ns);
  r.measured_wall_ns = samples.measured_wall_ns;
  r.stop_reason = samples.stop_reason;
  if (!samples.error.ok()) {
    return FailedRecord(r, CaseStatus::kFailed, "run",
                "query " + std::to_string(samples.failed_query) + ": " + samples.error.message());
  }
  FinishRecord(r);
  return r;
}

}  // namespace edgebench
